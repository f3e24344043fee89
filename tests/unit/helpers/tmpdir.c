/* tmpdir.c - test helper: scratch directories (see tmpdir.h). */
#include "tmpdir.h"

#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

int tmpdir_make(struct tmpdir *d, const char *base, const char *name)
{
	int n = snprintf(d->path, sizeof(d->path), "%s/%s.XXXXXX", base ? base : "/tmp", name);

	if (n < 0 || (size_t)n >= sizeof(d->path) || !mkdtemp(d->path)) {
		d->path[0] = '\0';
		return -1;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
	return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

int tmpdir_remove(struct tmpdir *d)
{
	int rc;

	if (!d->path[0])
		return 0;
	/* depth first, not following links, staying on the one filesystem */
	rc = nftw(d->path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	if (rc != 0 && errno == ENOENT)
		rc = 0;
	if (rc == 0)
		d->path[0] = '\0';
	return rc == 0 ? 0 : -1;
}

char *tmpdir_join(const struct tmpdir *d, const char *name, char *out, size_t size)
{
	int n = snprintf(out, size, "%s/%s", d->path, name);

	assert_true(d->path[0] != '\0');
	assert_true(n > 0 && (size_t)n < size);
	return out;
}

/* --- the program's directory ------------------------------------------------ */

static struct tmpdir program_dir;

static int program_dir_make(const char *base)
{
	char name[128];

	snprintf(name, sizeof(name), "drivebench-%s", program_invocation_short_name);
	return tmpdir_make(&program_dir, base, name);
}

int tmp_setup(void **state)
{
	(void)state;
	return program_dir_make(NULL);
}

int tmp_setup_disk(void **state)
{
	(void)state;
	return program_dir_make("/var/tmp");
}

int tmp_teardown(void **state)
{
	(void)state;
	return tmpdir_remove(&program_dir);
}

const char *tmp_dir(void)
{
	assert_true(program_dir.path[0] != '\0');
	return program_dir.path;
}

const char *tmp_path(const char *name)
{
	static char paths[8][TMPDIR_PATH_MAX + 256];
	static unsigned next;
	char *out = paths[next++ % 8];

	return tmpdir_join(&program_dir, name, out, sizeof(paths[0]));
}

int tmp_file(const char *name, char *path, size_t size)
{
	char template[TMPDIR_PATH_MAX + 128];
	int fd, n;

	n = snprintf(template, sizeof(template), "%s.XXXXXX", name);
	assert_true(n > 0 && (size_t)n < sizeof(template));
	tmpdir_join(&program_dir, template, path, size);
	fd = mkstemp(path);
	if (fd < 0)
		fail_msg("mkstemp %s: %s", path, strerror(errno));
	return fd;
}

int tmp_unlinked_fd(void)
{
	char path[] = "/tmp/drivebench-unit-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		fail_msg("mkstemp %s: %s", path, strerror(errno));
	assert_int_equal(unlink(path), 0);
	return fd;
}
