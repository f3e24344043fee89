/* bssplit.c - the weighted block sizes of a job: bssplit=4k/10:64k/90
 * (one split for both directions, or R,W), entries that share what the
 * others leave, and bssplit_file=PATH, a data file of SIZE/PERCENT lines
 * found next to the job file or in the shipped workloads/. */
#include "job/bssplit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"
#include "job/options.h"
#include "job/values.h"

/* A block size of a split: 1 byte .. 4 GiB, like bs. */
static int parse_block_size(const struct job_spec *spec, const char *text, uint64_t *bs)
{
	if (parse_size(text, spec->kb_base, bs))
		return -1;
	if (units_check_range(*bs, 1, BS_LIMIT, UNITS_BYTES, text))
		return err_prefix("block size");
	return 0;
}

/* One direction of bssplit: "4k/10:64k/50:32k/" ... Entries without a
 * percentage share what the others leave, equally. */
static int parse_bssplit_list(const struct job_spec *spec, const char *text,
			      struct bssplit_entry *entries, unsigned *nr)
{
	const char *start = text;
	unsigned count = 0, missing = 0;
	double sum = 0;

	for (;;) {
		const char *end = strchr(start, ':');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char entry[256], *slash;
		struct bssplit_entry *e;

		if (len == 0)
			return err_set("empty entry in '%s'", text);
		if (len >= sizeof(entry))
			return err_set("entry too long in '%s'", text);
		if (count == BSSPLIT_MAX)
			return err_set("more than %d entries", BSSPLIT_MAX);
		memcpy(entry, start, len);
		entry[len] = '\0';
		e = &entries[count++];
		slash = strchr(entry, '/');
		if (slash)
			*slash = '\0';
		if (parse_block_size(spec, entry, &e->bs))
			return -1;
		if (slash && slash[1]) {
			if (units_parse_double(slash + 1, &e->pct) ||
			    !(e->pct >= 0 && e->pct <= 100))
				return err_set("bad percentage '%s'", slash + 1);
			sum += e->pct;
		} else {
			e->pct = -1;   /* filled in below */
			missing++;
		}
		if (!end)
			break;
		start = end + 1;
	}
	if (missing) {
		double share = (100 - sum) / missing;

		if (share < -PCT_TOLERANCE / missing)
			return err_set("percentages add up to %g, over 100", sum);
		if (share < 0)
			share = 0;
		for (unsigned i = 0; i < count; i++)
			if (entries[i].pct < 0)
				entries[i].pct = share;
		sum += share * missing;
	}
	if (fabs(sum - 100) > PCT_TOLERANCE)
		return err_set("percentages add up to %g, not 100", sum);
	*nr = count;
	return 0;
}

int bssplit_option_set(struct job_spec *spec, const char *value)
{
	struct bssplit_entry split[DIR_COUNT][BSSPLIT_MAX];
	unsigned nr[DIR_COUNT] = { spec->bssplit_nr[DIR_READ], spec->bssplit_nr[DIR_WRITE] };
	const char *comma = strchr(value, ',');
	char *copy;
	int rc = 0;

	if (comma && strchr(comma + 1, ','))
		return err_set("trim split is not supported");
	memcpy(split, spec->bssplit, sizeof(split));
	copy = strdup(value);
	if (!copy)
		return err_set("out of memory");
	if (!comma) {
		/* one split for both directions, as in fio */
		rc = parse_bssplit_list(spec, copy, split[DIR_READ], &nr[DIR_READ]);
		if (!rc) {
			memcpy(split[DIR_WRITE], split[DIR_READ], sizeof(split[DIR_READ]));
			nr[DIR_WRITE] = nr[DIR_READ];
		}
	} else {
		char *parts[DIR_COUNT] = { copy, copy + (comma - value) + 1 };

		copy[comma - value] = '\0';
		for (int dir = 0; dir < DIR_COUNT && !rc; dir++)
			if (parts[dir][0])   /* empty: that direction keeps its split */
				rc = parse_bssplit_list(spec, parts[dir], split[dir], &nr[dir]);
	}
	free(copy);
	if (rc)
		return -1;
	memcpy(spec->bssplit, split, sizeof(split));
	memcpy(spec->bssplit_nr, nr, sizeof(nr));
	return 0;
}

/* Where bssplit_file=PATH lives: as given when absolute; else next to the
 * job or suite file (spec->source) or in the working directory for the
 * command line; else in the shipped workloads/ ($DRIVEBENCH_WORKLOADS,
 * ./workloads, the executable's ../workloads). */
static int find_bssplit_file(const struct job_spec *spec, const char *name,
			     char *path, size_t size)
{
	char exe[JOB_PATH_MAX];
	const char *env = getenv("DRIVEBENCH_WORKLOADS");
	const char *slash = strrchr(spec->source, '/');
	ssize_t len;

	if (!*name)
		return err_set("empty path");
	if (name[0] == '/' || (!slash && access(name, R_OK) == 0)) {
		if ((size_t)snprintf(path, size, "%s", name) >= size)
			return err_set("path too long");
		return 0;
	}
	if (slash && (size_t)snprintf(path, size, "%.*s/%s", (int)(slash - spec->source),
				       spec->source, name) < size && access(path, R_OK) == 0)
		return 0;
	if (env && *env && (size_t)snprintf(path, size, "%s/%s", env, name) < size &&
	    access(path, R_OK) == 0)
		return 0;
	if ((size_t)snprintf(path, size, "workloads/%s", name) < size && access(path, R_OK) == 0)
		return 0;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		char *exe_slash;

		exe[len] = '\0';
		exe_slash = strrchr(exe, '/');
		if (exe_slash) {
			*exe_slash = '\0';
			if ((size_t)snprintf(path, size, "%s/../workloads/%s", exe, name) < size &&
			    access(path, R_OK) == 0)
				return 0;
		}
	}
	return err_set("no file '%s' (looked next to %s, in $DRIVEBENCH_WORKLOADS, "
		       "./workloads and the executable's ../workloads)", name,
		       slash ? spec->source : "the working directory");
}

/* One "SIZE/PCT" line of a bssplit file (comments stripped already). */
static int parse_bssplit_line(const struct job_spec *spec, char *line,
			      struct bssplit_entry *e)
{
	char *slash = strchr(line, '/');

	if (!slash)
		return err_set("'%s': want SIZE/PERCENT, e.g. 128k/83.21", line);
	*slash = '\0';
	if (parse_block_size(spec, text_trim(line), &e->bs))
		return -1;
	if (units_parse_double(text_trim(slash + 1), &e->pct) || !(e->pct >= 0 && e->pct <= 100))
		return err_set("bad percentage '%s'", text_trim(slash + 1));
	return 0;
}

/* bssplit_file=PATH: the split of both directions from a data file with
 * one SIZE/PERCENT per line and ';' or '#' comments (workloads/NAME.bssplit).
 * Errors name "file:line". */
int bssplit_file_option_set(struct job_spec *spec, const char *value)
{
	struct bssplit_entry split[BSSPLIT_MAX];
	char path[JOB_PATH_MAX];
	struct text_reader r;
	char *line;
	unsigned nr = 0;
	double sum = 0;
	int got;

	if (find_bssplit_file(spec, value, path, sizeof(path)) ||
	    text_reader_open(&r, path, "bssplit file"))
		return -1;
	while ((got = text_reader_next(&r, &line)) > 0) {
		text_strip_comment(line);
		if (!*text_trim(line))
			continue;
		if (nr == BSSPLIT_MAX) {
			got = err_set("%s:%u: more than %d entries", path, r.line, BSSPLIT_MAX);
			break;
		}
		if (parse_bssplit_line(spec, text_trim(line), &split[nr])) {
			got = err_prefix("%s:%u", path, r.line);
			break;
		}
		sum += split[nr++].pct;
	}
	text_reader_close(&r);
	if (got < 0)
		return -1;
	if (nr == 0)
		return err_set("%s: no SIZE/PERCENT entries", path);
	if (fabs(sum - 100) > PCT_TOLERANCE)
		return err_set("%s: percentages add up to %g, not 100", path, sum);
	for (int dir = 0; dir < DIR_COUNT; dir++) {
		memcpy(spec->bssplit[dir], split, nr * sizeof(split[0]));
		spec->bssplit_nr[dir] = nr;
	}
	return 0;
}
