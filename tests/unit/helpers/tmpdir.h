/* tmpdir.h - test helper: scratch directories for the unit tests, and
 * paths in them. A test program either keeps a struct tmpdir of its own
 * (in a fixture, made in a setup function and removed in the teardown) or
 * uses the one directory of the program through tmp_setup/tmp_teardown,
 * given to cmocka as group (or per-test) setup and teardown, so that the
 * directory goes away also when a test fails. Removal is recursive and
 * does not follow symbolic links. */
#ifndef DRIVEBENCH_TEST_TMPDIR_H
#define DRIVEBENCH_TEST_TMPDIR_H

#include <stddef.h>

#define TMPDIR_PATH_MAX 128

struct tmpdir {
	char path[TMPDIR_PATH_MAX];   /* "" when not made (or removed) */
};

/* Makes a new directory BASE/NAME.XXXXXX (base NULL: /tmp; a disk
 * filesystem such as /var/tmp where a test needs user xattrs). Returns 0,
 * or -1 with nothing made (d->path is then ""). For setup functions: it
 * does not assert. */
int tmpdir_make(struct tmpdir *d, const char *base, const char *name);

/* Removes d's directory and everything under it; 0 when it is gone (also
 * when it was never made or is already removed), -1 otherwise. */
int tmpdir_remove(struct tmpdir *d);

/* DIR/NAME into out (size bytes; asserts that it fits). Returns out. */
char *tmpdir_join(const struct tmpdir *d, const char *name, char *out, size_t size);

/* --- the program's directory, for cmocka setup and teardown --------------- */

/* Makes /tmp/drivebench-PROGRAM.XXXXXX (PROGRAM: the test binary's name);
 * 0 or -1. *state is left as it is. One directory at a time. */
int tmp_setup(void **state);
/* The same in /var/tmp: a disk filesystem (user xattrs, O_DIRECT), where
 * /tmp may be tmpfs. */
int tmp_setup_disk(void **state);
/* Removes it and everything in it; 0 or -1. */
int tmp_teardown(void **state);
/* Its path (asserts that tmp_setup made it). */
const char *tmp_dir(void);
/* DIR/NAME, in a static buffer: one of 8 that are used in turn, so a few
 * paths can be held at once. Asserts that it fits. */
const char *tmp_path(const char *name);
/* A new empty file DIR/NAME.XXXXXX (mkstemp), open read-write: returns
 * its descriptor, its path in path (size bytes). Asserts. */
int tmp_file(const char *name, char *path, size_t size);

/* An open, empty file with no name: made in /tmp and unlinked at once, so
 * nothing is left behind whatever happens to the test. Asserts. */
int tmp_unlinked_fd(void);

#endif
