/* file_options.c - the options of a job's file set (fio's nrfiles,
 * filesize, file_service_type, fallocate, ...), their defaults and
 * cross-checks, and how fio names each file of a clone: the filename=
 * list split at ':' ("\:" keeps a colon), or filename_format in the
 * clone's directory of directory=A:B. */
#include "job/file_options.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ranks/ranks.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "job/file_option_table.h"
#include "job/options.h"
#include "job/values.h"

#define FIO_DEF_ZIPF 1.1
#define FIO_DEF_PARETO 0.2

void job_files_defaults(struct job_files *f)
{
	memset(f, 0, sizeof(*f));
	f->nrfiles = 1;
	f->service = FSERVICE_ROUNDROBIN;
	f->service_nr = 1;
	f->service_center = -1;
	f->fallocate = FALLOCATE_NATIVE;   /* fio's default on Linux */
	f->allow_create = true;
}

/* ---- lists: fio's get_next_str ---------------------------------------- */

/* Copies entry `index` of a ':'-separated list into out: a "\:" is a
 * colon of the name, and empty entries are skipped, as fio's get_next_str
 * does. An entry that starts with "vssd:" is a modelled drive's name and
 * takes the rest of the list (drivebench's own: fio has no such target). Returns the number of entries when index is past them (so
 * index = ~0u counts them). */
static unsigned list_entry(const char *list, unsigned index, char *out, size_t len,
			   int *too_long)
{
	unsigned n = 0;
	const char *p = list;

	*too_long = 0;
	for (;;) {
		size_t used = 0;

		while (*p == ':')
			p++;
		if (!*p)
			return n;
		/* a modelled drive's name runs to the end, colons and all */
		bool model = !strncmp(p, JOB_MODEL_TARGET_PREFIX, strlen(JOB_MODEL_TARGET_PREFIX));
		for (; *p && (model || *p != ':'); p++) {
			char c = *p;

			if (c == '\\' && p[1] == ':')
				c = *++p;
			if (n != index || !out)
				continue;
			if (used + 1 >= len)
				*too_long = 1;
			else
				out[used++] = c;
		}
		if (n == index && out) {
			out[used] = '\0';
			return n;
		}
		n++;
	}
}

static unsigned list_count(const char *list)
{
	int too_long;

	return list_entry(list, ~0u, NULL, 0, &too_long);
}

unsigned job_file_count(const struct job_spec *spec)
{
	unsigned names = list_count(spec->filename);

	return names ? names : spec->files.nrfiles;
}

bool job_files_many(const struct job_spec *spec)
{
	return job_file_count(spec) > 1;
}

int job_spec_set_path(char *field, size_t size, const char *path)
{
	size_t used = 0;

	for (const char *p = path; *p; p++) {
		if (*p == ':' && used + 1 < size)
			field[used++] = '\\';
		if (used + 1 >= size) {
			field[0] = '\0';
			return err_set("path '%.64s...' longer than %zu characters", path, size - 1);
		}
		field[used++] = *p;
	}
	field[used] = '\0';
	return 0;
}

/* fio's make_filename: the keywords replaced, case-insensitive. */
static int format_name(const struct job_spec *spec, unsigned clone, unsigned index,
		       char *out, size_t len)
{
	const char *f = spec->files.filename_format[0] ? spec->files.filename_format :
		"$jobname.$jobnum.$filenum";
	size_t used = 0;

	while (*f) {
		char piece[JOB_NAME_MAX + 16];
		size_t n;

		if (!strncasecmp(f, "$jobname", 8)) {
			n = (size_t)snprintf(piece, sizeof(piece), "%s", spec->name);
			f += 8;
		} else if (!strncasecmp(f, "$jobnum", 7)) {
			n = (size_t)snprintf(piece, sizeof(piece), "%u", clone);
			f += 7;
		} else if (!strncasecmp(f, "$filenum", 8)) {
			n = (size_t)snprintf(piece, sizeof(piece), "%u", index);
			f += 8;
		} else if (!strncasecmp(f, "$clientuid", 10)) {
			n = 0;          /* no client/server mode: fio's is "" too */
			f += 10;
		} else {
			piece[0] = *f++;
			n = 1;
		}
		if (used + n >= len)
			return -1;
		memcpy(out + used, piece, n);
		used += n;
	}
	out[used] = '\0';
	return 0;
}

int job_file_path(const struct job_spec *spec, unsigned clone, unsigned index,
		  char *out, size_t len)
{
	char name[JOB_PATH_MAX], dir[JOB_PATH_MAX];
	unsigned names = list_count(spec->filename), dirs = list_count(spec->directory);
	int too_long = 0;
	int n;

	dir[0] = '\0';
	if (names) {
		list_entry(spec->filename, index % names, name, sizeof(name), &too_long);
		if (dirs)   /* fio adds filename= files with job number 0 */
			list_entry(spec->directory, 0, dir, sizeof(dir), &too_long);
	} else {
		if (format_name(spec, clone, index, name, sizeof(name)))
			too_long = 1;
		if (dirs)
			list_entry(spec->directory, clone % dirs, dir, sizeof(dir), &too_long);
	}
	if (too_long)
		return err_set("path too long: directory '%.64s', filename '%.64s'",
			       spec->directory, spec->filename);
	n = dir[0] ? snprintf(out, len, "%s/%s", dir, name) : snprintf(out, len, "%s", name);
	if (n < 0 || (size_t)n >= len)
		return err_set("path too long: directory '%.64s', filename '%.64s'",
			       spec->directory, spec->filename);
	/* an MPI rank's own target: %r, %h, %l, %t (dist/dist.h) */
	if (ranks_names_rank(out)) {
		char joined[JOB_PATH_MAX * 2 + 2];

		snprintf(joined, sizeof(joined), "%s", out);
		return ranks_expand(joined, out, len);
	}
	return 0;
}

/* ---- the options ------------------------------------------------------ */

/* filename=a:b adds a and b to the job's files; a later filename= adds
 * more (fio), --set filename= starts over (file_options_override). */
static int set_filename(struct job_spec *spec, const char *value)
{
	size_t have = strlen(spec->filename), add = strlen(value);

	if (!add)
		return 0;
	if (have + (have ? 1 : 0) + add >= sizeof(spec->filename))
		return err_set("value longer than %zu characters", sizeof(spec->filename) - 1);
	if (have)
		spec->filename[have++] = ':';
	memcpy(spec->filename + have, value, add + 1);
	return 0;
}

void file_options_override(struct job_spec *spec, const char *key)
{
	if (!strcmp(key, "filename"))
		spec->filename[0] = '\0';
}

/* filesize=SIZE or LOW-HIGH / LOW:HIGH (fio's irange; swapped when
 * LOW > HIGH, as fio does). */
static int set_filesize(struct job_spec *spec, const char *value)
{
	char low[64], high[64];
	const char *sep = strpbrk(value, "-:");
	uint64_t lo, hi;

	if (!sep) {
		snprintf(low, sizeof(low), "%s", value);
		snprintf(high, sizeof(high), "%s", value);
	} else {
		if ((size_t)(sep - value) >= sizeof(low) || strlen(sep + 1) >= sizeof(high))
			return err_set("bad size range '%s'", value);
		snprintf(low, sizeof(low), "%.*s", (int)(sep - value), value);
		snprintf(high, sizeof(high), "%s", sep + 1);
	}
	if (parse_size(low, spec->kb_base, &lo) ||
	    units_check_range(lo, 1, SIZE_LIMIT, UNITS_BYTES, low) ||
	    parse_size(high, spec->kb_base, &hi) ||
	    units_check_range(hi, 1, SIZE_LIMIT, UNITS_BYTES, high))
		return -1;
	spec->files.filesize_low = lo < hi ? lo : hi;
	spec->files.filesize_high = lo < hi ? hi : lo;
	return 0;
}

/* "theta[:center]" of zipf, pareto and normal */
static int set_service_param(struct job_files *f, const char *text, const char *value)
{
	char param[64];
	const char *colon = strchr(text, ':');
	double v, center = -1;

	if (strlen(text) >= sizeof(param))
		return err_set("bad file_service_type '%s'", value);
	snprintf(param, sizeof(param), "%.*s", colon ? (int)(colon - text) : (int)strlen(text),
		 text);
	if (units_parse_double(param, &v) ||
	    (colon && (units_parse_double(colon + 1, &center) || center < 0 || center > 1)))
		return err_set("bad file_service_type '%s' (want %s:PARAM[:CENTER], "
			       "0 <= CENTER <= 1)", value, f->service == FSERVICE_ZIPF ? "zipf" :
			       f->service == FSERVICE_PARETO ? "pareto" : "normal");
	if (f->service == FSERVICE_ZIPF && !(v > 0 && v != 1 && v <= ZIPF_THETA_LIMIT))
		return err_set("zipf theta %g is out of range: 0 < theta <= 1000, not 1", v);
	if (f->service == FSERVICE_PARETO && !(v > 0 && v < 1))
		return err_set("pareto h %g is out of range: 0 < h < 1", v);
	if (f->service == FSERVICE_NORMAL && !(v >= 0 && v < 100))
		return err_set("normal deviation %g is out of range: 0 <= dev < 100", v);
	f->service_param = v;
	f->service_center = center;
	return 0;
}

static int set_file_service_type(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum file_service kind; } kinds[] = {
		{ "roundrobin", FSERVICE_ROUNDROBIN }, { "sequential", FSERVICE_SEQUENTIAL },
		{ "random", FSERVICE_RANDOM }, { "zipf", FSERVICE_ZIPF },
		{ "pareto", FSERVICE_PARETO }, { "normal", FSERVICE_NORMAL },
		{ "gauss", FSERVICE_NORMAL },
	};
	struct job_files f = spec->files;
	const char *colon = strchr(value, ':');
	size_t name_len = colon ? (size_t)(colon - value) : strlen(value);
	size_t i;
	uint64_t nr;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == name_len && !strncmp(value, kinds[i].name, name_len))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]))
		return err_set("unknown file_service_type '%s' (random, roundrobin, "
			       "sequential, zipf, pareto, normal, gauss)", value);
	f.service = kinds[i].kind;
	f.service_nr = 1;
	f.service_center = -1;
	f.service_param = f.service == FSERVICE_ZIPF ? FIO_DEF_ZIPF :
		f.service == FSERVICE_PARETO ? FIO_DEF_PARETO : 0;
	if (colon && f.service <= FSERVICE_RANDOM) {
		if (parse_u64_plain(colon + 1, &nr) ||
		    units_check_range(nr, 1, UINT32_MAX, UNITS_COUNT, colon + 1))
			return err_prefix("file_service_type '%s': I/Os per file", value);
		f.service_nr = (unsigned)nr;
	} else if (colon && set_service_param(&f, colon + 1, value)) {
		return -1;
	}
	spec->files = f;
	return 0;
}

static int set_fallocate(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum fallocate_mode mode; } modes[] = {
		{ "none", FALLOCATE_NONE }, { "native", FALLOCATE_NATIVE },
		{ "posix", FALLOCATE_POSIX }, { "keep", FALLOCATE_KEEP },
		{ "truncate", FALLOCATE_TRUNCATE },
		{ "0", FALLOCATE_NONE }, { "1", FALLOCATE_POSIX },  /* fio's old names */
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(value, modes[i].name)) {
			spec->files.fallocate = modes[i].mode;
			return 0;
		}
	return err_set("unknown fallocate mode '%s' (none, native, posix, keep, "
		       "truncate, 0, 1)", value);
}

#define FILES_BOOL(n, f) BOOL(n, files.f)

static int set_stat_type(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "stat"))
		spec->files.stat_type = FILEOP_STAT_STAT;
	else if (!strcmp(value, "lstat"))
		spec->files.stat_type = FILEOP_STAT_LSTAT;
	else if (!strcmp(value, "statx"))
		spec->files.stat_type = FILEOP_STAT_STATX;
	else
		return err_set("unknown stat_type '%s' (stat, lstat, statx)", value);
	return 0;
}

const struct option_def file_options[] = {
	FUNC("filename", NULL, set_filename),
	UINT("nrfiles", "nr_files", files.nrfiles, 1, NRFILES_LIMIT),
	UINT("openfiles", "open_files", files.openfiles, 0, NRFILES_LIMIT),
	FUNC("filesize", NULL, set_filesize),
	FUNC("file_service_type", NULL, set_file_service_type),
	FILES_BOOL("create_on_open", create_on_open),
	FILES_BOOL("allow_file_create", allow_create),
	FILES_BOOL("unlink", unlink),
	FILES_BOOL("unlink_each_loop", unlink_each_loop),
	FUNC("fallocate", NULL, set_fallocate),
	{ "filename_format", NULL, OPT_STRING, FIELD(files.filename_format), 0, 0, 0, NULL, false },
	FUNC("stat_type", NULL, set_stat_type),   /* filestat's and dirstat's */
};

/* ---- cross-checks ----------------------------------------------------- */

int job_files_check(const struct job_spec *spec)
{
	const struct job_files *f = &spec->files;
	char path[JOB_PATH_MAX];
	unsigned count = job_file_count(spec);

	if (f->nrfiles < 1)
		return err_set("option 'nrfiles': must be at least 1");
	if (f->filesize_low > f->filesize_high)
		return err_set("option 'filesize': low end above the high end");
	if (count > NRFILES_LIMIT)
		return err_set("option 'filename': %u files, more than %u", count, NRFILES_LIMIT);
	/* filestat's and dirstat's own option: with another engine fio does
	 * not know it */
	if (f->stat_type && strcmp(spec->ioengine, "filestat") &&
	    strcmp(spec->ioengine, "dirstat"))
		return err_set("option 'stat_type': only for ioengine=filestat or dirstat, "
			       "not %s", spec->ioengine);
	if (count > 1 && spec->verify != VERIFY_NONE)
		return err_set("option 'verify': a job with %u files is not supported "
			       "(verify checks one file per job)", count);
	/* every name must fit, for every clone's directory */
	for (unsigned c = 0; c < spec->numjobs && c < 64; c++)
		if (job_file_path(spec, c, count - 1, path, sizeof(path)))
			return -1;
	return 0;
}
