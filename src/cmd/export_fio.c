/* export_fio.c - `export --format fio --dir DIR`: one fio JSON document per
 * measured point, as `run` wrote it (the store keeps each result's fio
 * JSON, schema v12), in the layout fio-plot reads:
 * DIR/<drive>/<test>/<rw>-iodepth-<QD>-numjobs-<JOBS>.json. */
#include "cmd/export_fio.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/output_gate.h"
#include "report/analysis/select.h"
#include "util/error.h"

/* A name part of a path: letters, digits and ".+-_" kept, anything else
 * (a '/' included) becomes '_'; never "", "." or "..". */
static void path_part(const char *text, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = text; *p && n + 1 < len; p++) {
		char c = *p;
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' ||
			    c == '_';

		out[n++] = keep ? c : '_';
	}
	out[n] = '\0';
	if (!strcmp(out, "") || !strcmp(out, ".") || !strcmp(out, ".."))
		snprintf(out, len, "unnamed");
}

/* Results i and k are one point: the same step, point and pass (a `run`
 * group, a suite point, an imported file). */
static bool same_point(const struct result_record *a, const struct result_record *b)
{
	return a->step_id == b->step_id && a->has_point == b->has_point &&
	       (!a->has_point || a->point == b->point) && a->has_pass == b->has_pass &&
	       (!a->has_pass || (a->pass == b->pass && a->pass_index == b->pass_index));
}

static int make_dir(const char *path)
{
	struct stat st;

	if (output_gate_check("--dir", path, OUTPUT_DIRECTORY))
		return -1;
	if (mkdir(path, 0777) == 0 || (errno == EEXIST && stat(path, &st) == 0 &&
				       S_ISDIR(st.st_mode)))
		return 0;
	return err_set("--dir: %s: %s", path, errno == EEXIST ? "not a directory" :
		       strerror(errno));
}

/* The point's document: the first result's top level, "jobs" holding each
 * result's job object as stored (raw text: 64-bit values stay exact),
 * client_stats (an MPI run's) and disk_util after it as fio orders them.
 * Caller frees. */
static char *point_document(const struct stored_fio_json *docs, unsigned first,
			    unsigned end)
{
	cJSON *root = cJSON_Parse(docs[first].head), *jobs, *after[2];
	static const char *const after_jobs[2] = { "client_stats", "disk_util" };
	char *text = NULL;
	bool ok;

	if (!root)
		return NULL;
	for (int k = 0; k < 2; k++)
		after[k] = cJSON_DetachItemFromObjectCaseSensitive(root, after_jobs[k]);
	jobs = cJSON_AddArrayToObject(root, "jobs");
	ok = jobs != NULL;
	for (unsigned i = first; ok && i < end; i++) {
		cJSON *job = cJSON_CreateRaw(docs[i].job);

		ok = job && cJSON_AddItemToArray(jobs, job);
		if (!ok)
			cJSON_Delete(job);
	}
	for (int k = 0; k < 2; k++)   /* as run orders them: MPI's clients, disks */
		if (after[k] && !(ok && cJSON_AddItemToObject(root, after_jobs[k], after[k]))) {
			cJSON_Delete(after[k]);
			ok = false;
		}
	if (ok)
		text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

/* text to path through the gate, atomically: a temporary name beside it,
 * renamed over it once whole. */
static int write_atomic(const char *path, const char *text)
{
	char tmp[4200];
	const char *slash = strrchr(path, '/');
	int len = slash ? (int)(slash - path) : 0;
	FILE *f;
	int rc;

	snprintf(tmp, sizeof(tmp), "%.*s%s.%s.%ld.tmp", len, path, slash ? "/" : "",
		 slash ? slash + 1 : path, (long)getpid());
	if (output_gate_check("--dir", path, OUTPUT_FILE) ||
	    output_gate_check("--dir", tmp, OUTPUT_FILE))
		return -1;
	f = fopen(tmp, "wx");
	if (!f)
		return err_set("--dir: %s: %s", tmp, strerror(errno));
	rc = fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) == EOF ||
	     fsync(fileno(f)) != 0;
	rc = fclose(f) != 0 || rc;
	if (rc || rename(tmp, path)) {
		rc = errno;
		unlink(tmp);
		return err_set("--dir: %s: %s", path, strerror(rc ? rc : EIO));
	}
	return 0;
}

/* DIR/<drive>/<test>/<rw>-iodepth-<QD>-numjobs-<JOBS>.json, with -2, -3 ...
 * before ".json" when the name is taken (a repeated point). */
static int point_path(const char *dir, const struct stored_run *run,
		      const struct result_record *rec, char *path, size_t len)
{
	char drive[128], test[160], rw[40];
	const char *test_name = strcmp(rec->step_kind, "jobs") && rec->step_name[0] ?
				rec->step_name : rec->job_name;
	struct stat st;
	int n;

	path_part(run->label[0] ? run->label : "unlabeled", drive, sizeof(drive));
	path_part(test_name, test, sizeof(test));
	path_part(rec->rw[0] ? rec->rw : "unknown", rw, sizeof(rw));
	n = snprintf(path, len, "%s/%s", dir, drive);
	if (n < 0 || (size_t)n >= len || make_dir(path))
		return n < 0 || (size_t)n >= len ? err_set("--dir: %s: path too long", dir) : -1;
	n = snprintf(path, len, "%s/%s/%s", dir, drive, test);
	if (n < 0 || (size_t)n >= len || make_dir(path))
		return n < 0 || (size_t)n >= len ? err_set("--dir: %s: path too long", dir) : -1;
	for (unsigned k = 1;; k++) {
		char suffix[16] = "";

		if (k > 1)
			snprintf(suffix, sizeof(suffix), "-%u", k);
		n = snprintf(path, len, "%s/%s/%s/%s-iodepth-%u-numjobs-%u%s.json", dir, drive,
			     test, rw, rec->iodepth, rec->numjobs, suffix);
		if (n < 0 || (size_t)n >= len)
			return err_set("--dir: %s: path too long", dir);
		if (lstat(path, &st) != 0)
			return 0;
	}
}

static int export_run(struct store *s, const char *dir, const struct stored_run *run,
		      const struct export_steps *steps, unsigned *written)
{
	struct result_record *recs = NULL;
	struct stored_fio_json *docs = NULL;
	unsigned nr = 0, nr_docs = 0, missing = 0;
	int rc = 0;

	if (store_results_load(s, run->id, &recs, &nr) ||
	    store_fio_json_load(s, run->id, &docs, &nr_docs)) {
		rc = -1;
		goto out;
	}
	if (nr_docs != nr) {
		rc = err_set("run %lld changed while it was read", (long long)run->id);
		goto out;
	}
	for (unsigned i = 0, end; i < nr; i = end) {
		char path[4096], *text;

		for (end = i + 1; end < nr && same_point(&recs[i], &recs[end]); end++)
			;
		bool whole = true;

		if (!export_step_kept(steps, &recs[i]))
			continue;   /* a point is in one step */
		for (unsigned k = i; k < end; k++)
			whole = whole && docs[k].head && docs[k].job;
		if (!whole) {
			missing++;
			continue;
		}
		if (point_path(dir, run, &recs[i], path, sizeof(path))) {
			rc = -1;
			break;
		}
		text = point_document(docs, i, end);
		if (!text) {
			rc = err_set("run %lld: the stored fio JSON of '%s' does not parse",
				     (long long)run->id, recs[i].job_name);
			break;
		}
		rc = write_atomic(path, text);
		free(text);
		if (rc)
			break;
		(*written)++;
	}
	if (rc == 0 && missing)
		fprintf(stderr, "drivebench export: warning: run %lld: %u point%s stored "
			"without fio JSON (before schema v12) left out\n",
			(long long)run->id, missing, missing == 1 ? "" : "s");
out:
	store_results_free(recs, nr);
	store_fio_json_free(docs, nr_docs);
	return rc;
}

/* DIR may be new (its parent must exist) or an empty directory. */
static int check_dir(const char *dir)
{
	struct stat st;
	bool empty = true;

	if (output_gate_check("--dir", dir, OUTPUT_DIRECTORY))
		return -1;
	if (lstat(dir, &st) != 0)
		return errno == ENOENT ? 0 : err_set("--dir: %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set("--dir: %s exists and is not a directory", dir);
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return err_set("--dir: %s: %s", dir, strerror(errno));
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty ? 0 : err_set("--dir: %s exists and is not empty (export writes "
				   "a new folder)", dir);
}

int export_fio(struct store *s, const char *dir, const struct stored_run *runs,
	       unsigned nr_runs, const struct export_steps *steps)
{
	unsigned written = 0, stored = 0;

	for (unsigned i = 0; i < nr_runs; i++)
		stored += runs[i].nr_results;
	if (stored == 0) {
		err_set("no stored results to export (%u run%s selected)", nr_runs,
			nr_runs == 1 ? "" : "s");
		return EXIT_BAD_INPUT;
	}
	if (check_dir(dir) || make_dir(dir))
		return err_exit_code(EXIT_BAD_INPUT);
	for (unsigned i = 0; i < nr_runs; i++) {
		char warning[1024];

		if (report_run_warning(&runs[i], warning, sizeof(warning)))
			fprintf(stderr, "drivebench export: warning: %s\n", warning);
		if (export_run(s, dir, &runs[i], steps, &written))
			return err_exit_code(EXIT_RUN_FAILED);
	}
	if (written == 0) {
		err_set("no stored point has fio JSON (stored before schema v12)");
		return EXIT_BAD_INPUT;
	}
	fprintf(stderr, "drivebench export: %u fio JSON file%s written in %s\n", written,
		written == 1 ? "" : "s", dir);
	return EXIT_OK;
}
