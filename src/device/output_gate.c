/* output_gate.c - decides whether an output path (results, report, the
 * database and its SQLite siblings, a checkpoint directory) may be written:
 * never a block device, a kernel setting (procfs, sysfs), a loop device's
 * backing file or a filesystem image; a results database is opened, never
 * replaced. Opens output files so that the object checked is the one
 * written. */
#include "device/output_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/loop_backing.h"
#include "device/pseudo_fs.h"
#include "device/signatures.h"
#include "util/error.h"
#include "util/text.h"

#define SQLITE_HEADER "SQLite format 3"   /* and a NUL: the first 16 bytes */

static const char *const sqlite_siblings[] = { "-wal", "-shm", "-journal" };

/* /dev/null and terminals: the character devices an output may be. */
static bool harmless_char_device(dev_t rdev)
{
	unsigned maj = major(rdev), min = minor(rdev);

	if (maj == 1 && min == 3)          /* /dev/null */
		return true;
	if (maj == 4 || (maj >= 136 && maj <= 143))   /* ttys, ptys */
		return true;
	return maj == 5 && min <= 1;       /* /dev/tty, /dev/console */
}

/* First bytes of a regular file (fewer when it is shorter). */
static size_t file_head(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t got;

	if (fd < 0)
		return 0;
	got = pread(fd, buf, len, 0);
	close(fd);
	return got > 0 ? (size_t)got : 0;
}

static bool is_sqlite_file(const char *path)
{
	char head[16];

	return file_head(path, head, sizeof(head)) == sizeof(head) &&
	       memcmp(head, SQLITE_HEADER, sizeof(head)) == 0;
}

/* A regular file that holds data an output must not destroy: a kernel
 * setting, a loop device's backing file, a filesystem image. */
static int check_regular(const char *what, const char *path, const struct stat *st)
{
	const char *pseudo = pseudo_fs_of(path, -1);
	struct signature_findings found;
	char loop[NAME_MAX + 1];
	int fd, n = 0;

	if (pseudo)
		return err_refuse("%s: refusing to write '%s': it is on %s, a kernel "
				  "setting, not a file", what, path, pseudo);
	if (loop_device_backed_by(st, loop, sizeof(loop)))
		return err_refuse("%s: refusing to write '%s': it is the backing file "
				  "of /dev/%s", what, path, loop);
	fd = st->st_size > 0 ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (fd >= 0) {
		n = signatures_probe(fd, 0, 0, path, &found);
		close(fd);
		err_clear();
	}
	if (n > 0 && strstr(found.sentence[0], "could not be probed") == NULL)
		return err_refuse("%s: refusing to write '%s': %s", what, path,
				  found.sentence[0]);
	return 0;
}

/* A path that does not exist yet: its directory must, and a new name must
 * not land in a pseudo filesystem or directly in /dev. */
static int check_missing(const char *what, const char *path)
{
	const char *pseudo = pseudo_fs_of(path, -1);
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (pseudo)
		return err_refuse("%s: refusing to create '%s' on %s: a kernel setting, "
				  "not a file", what, path, pseudo);
	if (path_in_dev(path))
		return err_refuse("%s: refusing to create '%s': a missing name in /dev "
				  "is a mistyped device, never a file to create", what, path);
	snprintf(dir, sizeof(dir), "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path),
		 !slash ? "." : path);
	if (stat(dir, &st) != 0)
		return err_set("%s: cannot create '%s': %s", what, path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set("%s: cannot create '%s': %s is not a directory", what, path, dir);
	return 0;
}

static int check_file_output(const char *what, const char *path, const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return err_refuse("%s: refusing to write '%s': it is a block device; an "
				  "output is a regular file, a pipe, a terminal or /dev/null",
				  what, path);
	if (S_ISCHR(st->st_mode)) {
		if (harmless_char_device(st->st_rdev))
			return 0;
		return err_refuse("%s: refusing to write '%s': it is a character device "
				  "other than /dev/null or a terminal", what, path);
	}
	if (S_ISFIFO(st->st_mode))
		return 0;
	if (S_ISDIR(st->st_mode))
		return err_set("%s: '%s' is a directory, not a file", what, path);
	if (!S_ISREG(st->st_mode))
		return err_set("%s: '%s' is not a regular file, a pipe or a terminal", what, path);
	if (check_regular(what, path, st))
		return -1;
	if (is_sqlite_file(path))
		return err_refuse("%s: refusing to replace '%s': it is a results database "
				  "(SQLite), which an output never overwrites", what, path);
	return 0;
}

/* Whether a non-empty sibling starts as SQLite writes it: a WAL header
 * (magic 0x377f0682 or 0x377f0683, big-endian), a WAL index (version
 * 3007000 in native order), a rollback journal's magic; a journal or index
 * SQLite zeroed (first 28 bytes zero) counts as its own. */
static bool is_sqlite_sibling(const char *path, size_t kind)
{
	static const unsigned char journal_magic[8] = {
		0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };
	unsigned char head[28], zero[28] = { 0 };
	uint32_t version;

	if (file_head(path, (char *)head, sizeof(head)) < sizeof(head))
		return false;
	switch (kind) {
	case 0:   /* -wal */
		return head[0] == 0x37 && head[1] == 0x7f && head[2] == 0x06 &&
		       (head[3] == 0x82 || head[3] == 0x83);
	case 1:   /* -shm */
		memcpy(&version, head, sizeof(version));
		return version == 3007000 || !memcmp(head, zero, sizeof(head));
	default:  /* -journal */
		return !memcmp(head, journal_magic, sizeof(journal_magic)) ||
		       !memcmp(head, zero, sizeof(head));
	}
}

/* Whether a sibling that does not look like SQLite's is another process's
 * SQLite at work: a rollback journal being written (creating a database
 * and turning it to WAL) has no magic, or a short header, for a few
 * milliseconds; it then becomes SQLite's, empty, or is gone. A file that
 * is not SQLite's stays so: looked at again for up to a second. */
static bool sibling_settles(const char *path, size_t kind)
{
	for (int i = 0; i < 50; i++) {
		struct stat st;

		usleep(20000);
		if (lstat(path, &st) != 0)
			return errno == ENOENT;
		if (!S_ISREG(st.st_mode) || st.st_nlink > 1)
			return false;
		if (st.st_size == 0 || is_sqlite_sibling(path, kind))
			return true;
	}
	return false;
}

/* SQLite writes PATH-wal, PATH-shm and PATH-journal beside the database:
 * each must be absent or a plain regular file, never a link to elsewhere,
 * never a name of a file with other names (a hard link: its data would be
 * overwritten under every name), and when not empty, SQLite's own. */
static int check_siblings(const char *what, const char *path)
{
	for (size_t i = 0; i < sizeof(sqlite_siblings) / sizeof(sqlite_siblings[0]); i++) {
		char sibling[PATH_MAX + 16];
		struct stat st;

		snprintf(sibling, sizeof(sibling), "%s%s", path, sqlite_siblings[i]);
		if (lstat(sibling, &st) != 0) {
			if (errno == ENOENT)
				continue;
			return err_set("%s: cannot examine '%s': %s", what, sibling, strerror(errno));
		}
		if (S_ISLNK(st.st_mode))
			return err_refuse("%s: refusing to open '%s': SQLite would write "
					  "through '%s', a symbolic link", what, path, sibling);
		if (!S_ISREG(st.st_mode))
			return err_refuse("%s: refusing to open '%s': SQLite would write "
					  "'%s', which is not a regular file", what, path, sibling);
		if (check_regular(what, sibling, &st))
			return -1;
		if (st.st_nlink > 1)
			return err_refuse("%s: refusing to open '%s': SQLite would write "
					  "'%s', which has %ju links (a hard link to "
					  "another file)", what, path, sibling,
					  (uintmax_t)st.st_nlink);
		if (st.st_size > 0 && !is_sqlite_sibling(sibling, i) && !sibling_settles(sibling, i))
			return err_refuse("%s: refusing to open '%s': SQLite would "
					  "overwrite '%s', which is not SQLite's", what,
					  path, sibling);
	}
	return 0;
}

static int check_database(const char *what, const char *path, const struct stat *st)
{
	char resolved[PATH_MAX];

	if (S_ISBLK(st->st_mode))
		return err_refuse("%s: refusing to open '%s' as the results database: it "
				  "is a block device", what, path);
	if (!S_ISREG(st->st_mode))
		return err_set("%s: '%s' is %s, not a regular file (for no database, use "
			       "--no-db where the command has it)", what, path,
			       text_file_kind(st->st_mode, "not a plain file"));
	if (check_regular(what, path, st))
		return -1;
	if (st->st_size > 0 && !is_sqlite_file(path))
		return err_set("%s: '%s' is not a results database (not SQLite); "
			       "drivebench opens a database, never replaces a file", what, path);
	if (check_siblings(what, path))
		return -1;
	/* SQLite follows a link to the database and keeps its journal there */
	if (realpath(path, resolved) && strcmp(resolved, path) != 0)
		return check_siblings(what, resolved);
	return 0;
}

static int check_directory(const char *what, const char *path, const struct stat *st)
{
	const char *pseudo = pseudo_fs_of(path, -1);

	if (S_ISBLK(st->st_mode))
		return err_set("%s: '%s' is a block device, not a directory", what, path);
	if (!S_ISDIR(st->st_mode))
		return err_set("%s: '%s' is not a directory", what, path);
	if (pseudo)
		return err_refuse("%s: refusing to write in '%s': it is on %s, a kernel "
				  "setting, not storage", what, path, pseudo);
	if (path_in_dev(path))
		return err_refuse("%s: refusing to write in '%s': a directory of device "
				  "nodes", what, path);
	return 0;
}

int output_gate_check(const char *what, const char *path, enum output_use use)
{
	struct stat st;

	if (!path || !path[0])
		return err_set("%s: empty path", what);
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return err_set("%s: cannot examine '%s': %s", what, path, strerror(errno));
		if (check_missing(what, path))
			return -1;
		return use == OUTPUT_DATABASE ? check_siblings(what, path) : 0;
	}
	switch (use) {
	case OUTPUT_FILE:
		return check_file_output(what, path, &st);
	case OUTPUT_DATABASE:
		return check_database(what, path, &st);
	case OUTPUT_DIRECTORY:
		return check_directory(what, path, &st);
	}
	return err_set("%s: unknown output use", what);
}

static FILE *standard_stream(const char *path)
{
	if (!strcmp(path, "/dev/stdout") || !strcmp(path, "-"))
		return stdout;
	if (!strcmp(path, "/dev/stderr"))
		return stderr;
	return NULL;
}

/* The object opened is the one checked: the same inode when it existed,
 * a new regular file when it did not, and allowed either way. */
static int recheck_opened(const char *what, const char *path, int fd, bool existed,
			  const struct stat *before, struct stat *now)
{
	const char *pseudo = pseudo_fs_of(NULL, fd);

	if (fstat(fd, now) != 0)
		return err_set("%s: cannot examine '%s': %s", what, path, strerror(errno));
	if (existed && (now->st_dev != before->st_dev || now->st_ino != before->st_ino))
		return err_refuse("%s: refusing to write '%s': it changed while it was "
				  "being checked", what, path);
	if (!existed && !S_ISREG(now->st_mode))
		return err_refuse("%s: refusing to write '%s': it appeared as something "
				  "other than a new file", what, path);
	if (pseudo)
		return err_refuse("%s: refusing to write '%s': it is on %s", what, path, pseudo);
	return 0;
}

FILE *output_gate_open(const char *what, const char *path)
{
	FILE *std = path ? standard_stream(path) : NULL;
	struct stat before, now;
	bool existed;
	FILE *f;
	int fd;

	if (std)
		return std;
	if (output_gate_check(what, path, OUTPUT_FILE))
		return NULL;
	existed = stat(path, &before) == 0;
	/* no O_TRUNC: nothing is cut before the opened file is checked again */
	fd = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EINTR) {
		/* a FIFO with no reader: a stop signal ends the wait */
		err_fail(EXIT_RUN_FAILED, "%s: interrupted while waiting to open '%s' "
			 "for writing (a FIFO waits for a reader)", what, path);
		return NULL;
	}
	if (fd < 0) {
		err_set("%s: cannot write '%s': %s", what, path, strerror(errno));
		return NULL;
	}
	if (recheck_opened(what, path, fd, existed, &before, &now)) {
		close(fd);
		return NULL;
	}
	if (S_ISREG(now.st_mode) && ftruncate(fd, 0) != 0) {
		err_set("%s: cannot truncate '%s': %s", what, path, strerror(errno));
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err_set("%s: cannot write '%s': %s", what, path, strerror(errno));
		close(fd);
	}
	return f;
}

int output_gate_close(FILE *f, const char *what, const char *path)
{
	if (f == stdout || f == stderr)
		return fflush(f) == 0 ? 0 : err_set("%s: error writing '%s': %s", what, path,
						    strerror(errno));
	if (fclose(f) != 0)
		return err_set("%s: error writing '%s': %s", what, path, strerror(errno));
	return 0;
}
