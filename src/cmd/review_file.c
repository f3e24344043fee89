/* review_file.c - the review page of a run written to a path as a new
 * file renamed over it (see the header). */
#include "cmd/review_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/review_page.h"
#include "device/output_gate.h"
#include "util/error.h"

/* FILE's temporary name in its own folder: ".NAME.PID.tmp". */
static void temp_name(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(tmp, len, "%.*s/.%s.%ld.tmp", (int)(slash - path), path, slash + 1,
			 (long)getpid());
	else
		snprintf(tmp, len, ".%s.%ld.tmp", path, (long)getpid());
}

/* Whether the file starts (after a byte-order mark and blanks) as an HTML
 * page does: "<!DOCTYPE html" or "<html". */
static bool looks_like_html(const char *path)
{
	char head[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t got;
	size_t i = 0;

	if (fd < 0)
		return false;
	got = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (got <= 0)
		return false;
	head[got] = '\0';
	if (!strncmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (head[i] && isspace((unsigned char)head[i]))
		i++;
	return !strncasecmp(head + i, "<!doctype html", 14) || !strncasecmp(head + i, "<html", 5);
}

/* What is at path may be replaced by the page (checked again before each
 * rename: the path is the user's between steps). */
static int check_target(const char *what, const char *path)
{
	struct stat st;

	if (output_gate_check(what, path, OUTPUT_FILE))
		return -1;
	if (stat(path, &st) != 0)
		return 0;   /* a new name; the gate checked its folder */
	if (!S_ISREG(st.st_mode))
		return err_set("%s: '%s' is not a regular file: the page is replaced by "
			       "renaming a new one over it", what, path);
	if (st.st_size > 0 && !looks_like_html(path))
		return err_set("%s: '%s' exists and is not an HTML page: the report "
			       "would replace it (remove it or name another file)", what, path);
	return 0;
}

int review_file_check(const char *what, const char *path)
{
	char tmp[PATH_MAX + 64];
	FILE *f;

	if (!path[0] || path[strlen(path) - 1] == '/')
		return err_set("%s '%s': not a file name", what, path);
	if (check_target(what, path))
		return -1;
	temp_name(path, tmp, sizeof(tmp));
	if (!(f = output_gate_open(what, tmp)))
		return err_prefix("%s %s: cannot write beside it", what, path);
	output_gate_close(f, what, tmp);
	unlink(tmp);
	return 0;
}

int review_file_write(const char *what, const char *path, const char *db_path,
		      const int64_t *run_ids, unsigned nr_runs, const char *in_progress,
		      unsigned refresh_s)
{
	char ids[REVIEW_FILE_MAX_RUNS][24], tmp[PATH_MAX + 64];
	struct selector sel[REVIEW_FILE_MAX_RUNS] = { 0 };
	struct report_options opt = {
		.in_progress = in_progress,
		.refresh_s = in_progress ? refresh_s : 0,
	};
	struct review_input in = { 0 };
	struct store *db = NULL;
	int rc = -1, written, closed;
	FILE *out;

	if (!nr_runs || nr_runs > REVIEW_FILE_MAX_RUNS)
		return err_set("%s: %u runs for one page (1 to %u)", what, nr_runs,
			       REVIEW_FILE_MAX_RUNS);
	for (unsigned i = 0; i < nr_runs; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%lld", (long long)run_ids[i]);
		sel[i].text = ids[i];
	}
	if (store_open_read(db_path, "report", &db) < 0 ||
	    review_select(db, sel, nr_runs, &in) ||
	    review_fill(&in, NULL) || check_target(what, path))
		goto out;
	temp_name(path, tmp, sizeof(tmp));
	if (!(out = output_gate_open(what, tmp)))
		goto out;
	written = review_write(out, &in, db_path, &opt);
	closed = output_gate_close(out, what, tmp);
	if (written < 0 || closed) {
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		err_set("%s %s: cannot rename %s over it: %s", what, path, tmp, strerror(e));
		goto out;
	}
	rc = 0;
out:
	review_free(&in);
	if (db)
		store_close(db);
	return rc;
}

