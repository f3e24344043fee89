/* fuzz_common.h - what the fuzz harnesses share: a private scratch
 * directory for inputs that the parsers read from files, and the rule that
 * keeps a fuzzed input from naming files outside it. Header-only so each
 * harness stays one .c file for libFuzzer and for the gcc-built replay. */
#ifndef DRIVEBENCH_FUZZ_COMMON_H
#define DRIVEBENCH_FUZZ_COMMON_H

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/job_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch directory, made once per process and removed at exit (a
 * crash leaves it behind: it holds the input that crashed). */
static char fuzz_dir[64];

static inline void fuzz_remove_scratch_dir(void)
{
	DIR *dir = opendir(fuzz_dir);
	struct dirent *entry;

	if (!dir)
		return;
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			unlinkat(dirfd(dir), entry->d_name, 0);
	closedir(dir);
	rmdir(fuzz_dir);
}

static inline const char *fuzz_scratch_dir(void)
{
	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/drivebench-fuzz.XXXXXX");
		if (!mkdtemp(fuzz_dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fuzz_remove_scratch_dir);
	}
	return fuzz_dir;
}

/* Writes len bytes to DIR/name (created or truncated); aborts on failure,
 * which is the harness's fault, not the parser's. */
static inline void fuzz_write_file(const char *name, const void *data, size_t len)
{
	char path[128];
	const char *at = data;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fuzz_scratch_dir(), name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror("fuzz: open");
		abort();
	}
	while (len) {
		ssize_t n = write(fd, at, len);

		if (n <= 0) {
			perror("fuzz: write");
			abort();
		}
		at += n;
		len -= (size_t)n;
	}
	close(fd);
}

static inline bool line_has(const char *line, size_t len, const char *word)
{
	size_t word_len = strlen(word);

	for (size_t i = 0; i + word_len <= len; i++)
		if (!memcmp(line + i, word, word_len))
			return true;
	return false;
}

/* True when some line both names a file (include, bssplit_file) and could
 * leave the scratch directory: an absolute or ../ path, or a ${VAR} whose
 * value the harness does not control. Such inputs are skipped: the fuzzer
 * must not open /dev/zero, a FIFO or the user's files. A name without '/'
 * resolves inside the scratch directory (or the repository's workloads/,
 * read-only). */
static inline bool fuzz_names_outside_file(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t start = 0;

	while (start < size) {
		const char *nl = memchr(text + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - text) : size;
		const char *line = text + start;
		size_t len = end - start;

		if ((line_has(line, len, "include") || line_has(line, len, "bssplit_file")) &&
		    (memchr(line, '/', len) || memchr(line, '$', len)))
			return true;
		start = end + 1;
	}
	return false;
}

/* An unkept promise of a parser: abort, which libFuzzer reports as a crash. */
static inline void must_hold(bool condition, const char *what, const char *input)
{
	if (!condition) {
		fprintf(stderr, "fuzz: broken promise: %s (input '%s')\n", what, input);
		abort();
	}
}

/* What job_spec_validate's success promises the runner. */
static inline void check_valid_job(const struct job_spec *spec, const char *input)
{
	must_hold(spec->iodepth >= 1 && spec->numjobs >= 1, "iodepth/numjobs below 1", input);
	must_hold(spec->rwmixread <= 100, "rwmixread above 100", input);
	must_hold(spec->nr_percentiles <= PERCENTILE_MAX, "too many percentiles", input);
	for (unsigned i = 0; i < spec->nr_percentiles; i++)
		must_hold(spec->percentiles[i] > 0 && spec->percentiles[i] <= 100 &&
			  (i == 0 || spec->percentiles[i - 1] < spec->percentiles[i]),
			  "percentiles not ascending in (0, 100]", input);
	must_hold(spec->distribution.nr_zones <= ZONES_MAX, "too many zones", input);
	for (int dir = 0; dir < DIR_COUNT; dir++) {
		must_hold(spec->bssplit_nr[dir] <= BSSPLIT_MAX, "too many bssplit entries", input);
		if (spec->bssplit_nr[dir] == 0)
			must_hold(spec->bs[dir] >= 1, "block size 0", input);
		for (unsigned i = 0; i < spec->bssplit_nr[dir]; i++)
			must_hold(spec->bssplit[dir][i].bs >= 1, "bssplit block size 0", input);
	}
	must_hold(spec->kb_base == 1000 || spec->kb_base == 1024, "kb_base", input);
	must_hold(memchr(spec->name, '\0', sizeof(spec->name)) &&
		  memchr(spec->filename, '\0', sizeof(spec->filename)) &&
		  memchr(spec->ioengine, '\0', sizeof(spec->ioengine)) &&
		  memchr(spec->cpus_allowed, '\0', sizeof(spec->cpus_allowed)) &&
		  memchr(spec->options_text, '\0', sizeof(spec->options_text)),
		  "a string field is not terminated", input);
	must_hold(job_spec_rw_name(spec->rw) != NULL, "rw has no name", input);
}

#endif
