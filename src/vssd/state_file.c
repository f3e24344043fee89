/* state_file.c - a modelled drive's FTL state in a file (state_file.h). */
#include "vssd/state_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"
#include "vssd/ftl.h"
#include "vssd/model.h"

#define STATE_MAGIC "drivebench vssd state 1\n"
#define STATE_LINES 5        /* the magic, model=, scale=, capacity=, the geometry */
#define STATE_SCALE_LINE 2
#define STATE_PATH_MAX 4096

/* The header names the drive: a file of another model or scale (or a
 * geometry changed since) is refused. */
static void state_header(const struct vssd_model *m, const char *scale, char *buf, size_t len)
{
	const struct ftl_geometry *g = &m->geometry;

	snprintf(buf, len, "%smodel=%s\nscale=%s\ncapacity=%llu\niu=%u blocks=%u pages=%u dies=%u\n",
		 STATE_MAGIC, m->name, scale, (unsigned long long)m->capacity, g->iu_bytes,
		 g->blocks, g->pages_per_block, g->channels * g->dies_per_channel);
}

int vdrive_state_file_check(const char *path, const char *suffix)
{
	char name[STATE_PATH_MAX + 8];
	struct stat sb;
	int fd;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	if (stat(name, &sb) != 0 && errno == ENOENT)
		return 0;
	if ((fd = text_open_input(name, "vssd_state file")) < 0)
		return -1;
	close(fd);
	return 0;
}

int vdrive_state_file_kind(const char *path)
{
	char line[sizeof(STATE_MAGIC)];
	struct stat sb;
	FILE *f;
	bool ours;

	if (lstat(path, &sb) != 0 && errno == ENOENT)
		return 0;
	if (!(f = text_open_input_stream(path, "vssd_state file")))
		return -1;
	ours = fgets(line, sizeof(line), f) && !strcmp(line, STATE_MAGIC);
	fclose(f);
	return ours ? 1 : err_set("'%s' is not a drivebench vssd state file", path);
}

/* A save killed between its write and its rename leaves tmp behind: it
 * is removed when it is one of ours (a regular file with one link and the
 * state magic). Anything else at that name is refused, never truncated:
 * a hard link there would have cut the file it shares (a disk image). */
static int remove_leftover_tmp(const char *tmp, const char *label)
{
	char line[sizeof(STATE_MAGIC)];
	struct stat sb;
	bool ours = false;
	int fd;

	if (lstat(tmp, &sb) != 0)
		return errno == ENOENT ? 0 :
			err_set("%s: not saved: %s: %s", label, tmp, strerror(errno));
	if (S_ISREG(sb.st_mode) && sb.st_nlink == 1 &&
	    (fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) >= 0) {
		ssize_t n = read(fd, line, sizeof(line) - 1);
		struct stat now;

		ours = n == (ssize_t)sizeof(line) - 1 && !memcmp(line, STATE_MAGIC, (size_t)n) &&
		       fstat(fd, &now) == 0 && now.st_dev == sb.st_dev && now.st_ino == sb.st_ino;
		close(fd);
	}
	if (!ours)
		return err_set("%s: not saved: '%s' is in the way, %s, not a state file an "
			       "earlier save left: remove it", label, tmp,
			       S_ISLNK(sb.st_mode) ? "a symbolic link" :
			       !S_ISREG(sb.st_mode) ? text_file_kind(sb.st_mode, "not a plain file") :
			       sb.st_nlink > 1 ? "a file with other links" :
			       "a file without the state header");
	if (unlink(tmp) != 0 && errno != ENOENT)
		return err_set("%s: not saved: cannot remove '%s': %s", label, tmp, strerror(errno));
	return 0;
}

int vdrive_state_save(struct vdrive *d, const char *scale, const char *path, const char *label)
{
	struct ftl_segment seg[FTL_STATE_SEGMENTS];
	char header[2048], tmp[STATE_PATH_MAX + 8];
	unsigned n = vdrive_state_segments(d, seg, FTL_STATE_SEGMENTS);
	struct stat sb;
	FILE *f;
	bool ok;
	int fd;

	/* the rename replaces the file: never a device, FIFO or directory put
	 * there since it was checked (a link is replaced, not followed) */
	if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode))
		return err_set("%s: not saved: it is %s, not a regular file", label,
			       text_file_kind(sb.st_mode, "not a plain file"));
	state_header(vdrive_model(d), scale, header, sizeof(header));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (remove_leftover_tmp(tmp, label))
		return -1;
	/* a new file, never one put there since (O_EXCL: nor a link) */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "wb"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return err_set("%s: cannot write %s: %s", label, tmp, strerror(e));
	}
	ok = fputs(header, f) >= 0;
	for (unsigned i = 0; ok && i < n; i++)
		ok = fwrite(seg[i].ptr, 1, seg[i].len, f) == seg[i].len;
	if (fclose(f) || !ok || rename(tmp, path)) {
		int e = errno;

		remove(tmp);
		return err_set("%s: cannot save the drive: %s", label, strerror(e));
	}
	return 0;
}

/* Reads the header of the state file f (its magic, then the lines of
 * state_header) and checks that it names drive m at scale: the same
 * model, capacity and geometry, and the same scale by value (a file saved
 * at @512m is the drive of @512M). Read line by line: the scale's
 * spelling sets the header's length. 0, or -1 with err_msg naming the
 * file (and both drives). */
static int check_header(const struct vssd_model *m, const char *scale, const char *model_path,
			FILE *f, const char *label)
{
	char want[2048], got[STATE_LINES][512], want_key[64], got_key[64];
	char *w = want, *next;
	bool same = true;

	state_header(m, scale, want, sizeof(want));
	for (unsigned i = 0; i < STATE_LINES; i++) {
		size_t len;

		if (!fgets(got[i], sizeof(got[i]), f) || !(len = strlen(got[i])) ||
		    got[i][len - 1] != '\n' || (i == 0 && strcmp(got[0], STATE_MAGIC)))
			return err_set("%s: not a drivebench vssd state file", label);
		got[i][len - 1] = 0;
		next = strchr(w, '\n');
		*next = 0;
		if (i == STATE_SCALE_LINE) {   /* "scale=S": S by value */
			vssd_scale_key(w + 6, want_key, sizeof(want_key));
			vssd_scale_key(strncmp(got[i], "scale=", 6) ? got[i] : got[i] + 6, got_key,
				       sizeof(got_key));
			same = same && !strcmp(want_key, got_key);
		} else if (i > 0) {
			same = same && !strcmp(w, got[i]);
		}
		w = next + 1;
	}
	if (!same)
		return err_set("%s: the file is of another drive (%s, %s), not of %s at scale %s",
			       label, got[1], got[2], m->name[0] ? m->name : model_path, scale);
	return 0;
}

int vdrive_state_load(struct vdrive *d, const char *scale, const char *model_path,
		      const char *path, const char *label)
{
	struct ftl_segment seg[FTL_STATE_SEGMENTS];
	unsigned n;
	struct stat sb;
	int fd;
	FILE *f;

	if (stat(path, &sb) != 0 && errno == ENOENT)
		return 0;
	/* a regular file only, opened without waiting */
	if ((fd = text_open_input(path, "vssd_state file")) < 0)
		return -1;
	if (!(f = fdopen(fd, "rb"))) {
		close(fd);
		return err_set("%s: cannot read it: %s", label, strerror(errno));
	}
	if (check_header(vdrive_model(d), scale, model_path, f, label)) {
		fclose(f);
		return -1;
	}
	n = vdrive_state_segments(d, seg, FTL_STATE_SEGMENTS);
	for (unsigned i = 0; i < n; i++)
		if (fread(seg[i].ptr, 1, seg[i].len, f) != seg[i].len) {
			fclose(f);
			vdrive_format(d);   /* half loaded: start from an empty drive */
			return err_set("%s: the file is truncated", label);
		}
	if (fgetc(f) != EOF) {
		fclose(f);
		vdrive_format(d);
		return err_set("%s: the file is longer than the drive's state", label);
	}
	fclose(f);
	return 1;
}
