/* fs_setup.c - mkfs, a private mount and their undoing for a filesystem
 * drivebench makes on a block device for one step (fs_setup.h). */
#include "device/fs_setup.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device/safety.h"
#include "util/error.h"

extern char **environ;

#define DEFAULT_PATH "/usr/sbin:/sbin:/usr/bin:/bin"
#define UMOUNT_TRIES 50              /* x 100 ms: a busy mount gets 5 s */

struct fs_type {
	const char *name, *program, *package;
	const char *args[6];         /* between the program and the device */
};

/* ext4 initialises its inode tables and journal at mkfs, not lazily in
 * the background after the mount, where it would write during the step */
static const struct fs_type types[] = {
	{ "xfs", "mkfs.xfs", "xfsprogs", { "-f", "-q" } },
	{ "ext4", "mkfs.ext4", "e2fsprogs",
	  { "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0" } },
};

static const struct fs_type *find_type(const char *name)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (name && !strcmp(name, types[i].name))
			return &types[i];
	return NULL;
}

bool fs_setup_known(const char *type)
{
	return find_type(type) != NULL;
}

int fs_setup_tool(const char *type, char *out, size_t len)
{
	const struct fs_type *t = find_type(type);
	const char *path = getenv("PATH");
	char *copy, *save = NULL;

	if (!t)
		return err_set("unknown filesystem '%s' (%s)", type ? type : "", FS_SETUP_TYPES);
	copy = strdup(path && path[0] ? path : DEFAULT_PATH);
	if (!copy)
		return err_set("out of memory");
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		int n = snprintf(out, len, "%s/%s", dir, t->program);

		if (n > 0 && (size_t)n < len && access(out, X_OK) == 0) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	return err_set("%s is not installed (install the package %s)", t->program, t->package);
}

/* The gate every write to the device passes, with any of the ids. */
static int gate(const char *device, const char *type, const char *const *ids, unsigned nr)
{
	struct safety_verdict v;
	unsigned i = 0;

	do {
		if (safety_check(device, i < nr ? ids[i] : NULL, &v))
			return -1;
		if (v.allowed)
			return 0;
	} while (++i < nr);
	return err_refuse("refusing to make %s on '%s': %s%s%s", type, device,
			  v.nr_reasons ? v.reasons[0] : "it may hold data",
			  safety_consent_hint(&v)[0] ? "; " : "", safety_consent_hint(&v));
}

/* Runs argv, its output collected: the first line of it (where mkfs says
 * what is wrong, before its usage text) goes into the error. */
static int run_tool(char *const argv[], const char *command)
{
	posix_spawn_file_actions_t fa;
	char out[512];
	size_t used = 0;
	int pipefd[2], status, rc;
	pid_t pid;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC))
		return err_set("%s: %s", command, strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc) {
		close(pipefd[0]);
		return err_set("%s: cannot run it: %s", command, strerror(rc));
	}
	for (;;) {
		char chunk[512];

		n = read(pipefd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;   /* a stop signal: mkfs is let finish */
		if (n <= 0)
			break;
		if ((size_t)n > sizeof(out) - 1 - used)
			n = (ssize_t)(sizeof(out) - 1 - used);
		memcpy(out + used, chunk, (size_t)n);
		used += (size_t)n;
	}
	close(pipefd[0]);
	out[used] = '\0';
	out[strcspn(out, "\n")] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return err_set("%s: %s", command, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		return err_set("%s: killed by signal %d", command, WTERMSIG(status));
	return err_set("%s: exit %d%s%s", command, WEXITSTATUS(status), out[0] ? ": " : "", out);
}

static int make_fs(struct fs_setup *fs, const struct fs_type *t)
{
	char program[JOB_PATH_MAX];
	char *argv[10];
	size_t used;
	int n = 0;

	if (fs_setup_tool(t->name, program, sizeof(program)))
		return -1;
	argv[n++] = program;
	for (size_t i = 0; i < sizeof(t->args) / sizeof(t->args[0]) && t->args[i]; i++)
		argv[n++] = (char *)t->args[i];
	argv[n++] = fs->device;
	argv[n] = NULL;
	used = (size_t)snprintf(fs->mkfs, sizeof(fs->mkfs), "%s", t->program);
	for (int i = 1; i < n && used < sizeof(fs->mkfs); i++)
		used += (size_t)snprintf(fs->mkfs + used, sizeof(fs->mkfs) - used, " %s", argv[i]);
	fs->made = true;   /* from here the device may hold part of a signature */
	return run_tool(argv, fs->mkfs);
}

/* Once per process: a mount namespace of its own that still sees the
 * system's mounts (a slave of them) but shows its own to no one, and takes
 * them along when the process ends, killed or not. */
static int private_namespace(void)
{
	static bool done;

	if (done)
		return 0;
	if (unshare(CLONE_NEWNS))
		return err_set("cannot make a private mount namespace: %s%s", strerror(errno),
			       errno == EPERM ? " (mounting needs root)" : "");
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL))
		return err_set("cannot make the mounts private: %s", strerror(errno));
	done = true;
	return 0;
}

static int mount_fs(struct fs_setup *fs)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	if (private_namespace())
		return -1;
	n = snprintf(fs->dir, sizeof(fs->dir), "%s/drivebench-%s.XXXXXX",
		     tmp && tmp[0] == '/' ? tmp : "/tmp", fs->type);
	if (n < 0 || (size_t)n >= sizeof(fs->dir)) {
		fs->dir[0] = '\0';
		return err_set("TMPDIR is too long for a mount point");
	}
	if (!mkdtemp(fs->dir)) {
		int e = errno;

		fs->dir[0] = '\0';
		return err_set("cannot create a mount point in %s: %s",
			       tmp && tmp[0] == '/' ? tmp : "/tmp", strerror(e));
	}
	if (mount(fs->device, fs->dir, fs->type, MS_NOSUID | MS_NODEV, NULL))
		return err_set("cannot mount the new %s of '%s' on %s: %s", fs->type,
			       fs->device, fs->dir, strerror(errno));
	fs->mounted = true;
	return 0;
}

int fs_setup_make(struct fs_setup *fs, const char *device, const char *type,
		  const char *const *destroy_ids, unsigned nr_destroy_ids,
		  const volatile sig_atomic_t *stop)
{
	const struct fs_type *t = find_type(type);

	memset(fs, 0, sizeof(*fs));
	if (!t)
		return err_set("unknown filesystem '%s' (%s)", type ? type : "", FS_SETUP_TYPES);
	if (snprintf(fs->device, sizeof(fs->device), "%s", device) >= (int)sizeof(fs->device))
		return err_set("device path too long: '%s'", device);
	snprintf(fs->type, sizeof(fs->type), "%s", t->name);
	if (gate(device, t->name, destroy_ids, nr_destroy_ids))
		return -1;
	if (make_fs(fs, t))
		goto undo;
	if (stop && *stop) {
		err_set("interrupted");
		goto undo;
	}
	if (mount_fs(fs))
		goto undo;
	return 0;
undo:
	{
		char message[1024];

		snprintf(message, sizeof(message), "%s", err_msg());
		fs_setup_release(fs);
		return err_set("%s", message);
	}
}

/* Unmounts fs->dir; a mount busy for a moment (a flush) is tried again. */
static int unmount(struct fs_setup *fs)
{
	struct timespec pause = { 0, 100000000 };

	for (int i = 0; i < UMOUNT_TRIES; i++) {
		if (umount2(fs->dir, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL) {
			fs->mounted = false;
			return 0;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	return err_set("cannot unmount %s (the %s made on '%s'): %s", fs->dir, fs->type,
		       fs->device, strerror(errno));
}

/* Erases the magic of every filesystem signature on the device, as
 * `wipefs -a` would; an exclusive open proves nothing has it mounted. */
static int wipe(struct fs_setup *fs)
{
	int fd = open(fs->device, O_RDWR | O_EXCL | O_CLOEXEC);
	blkid_probe probe;
	int rc = 0;

	if (fd < 0)
		return err_set("cannot wipe the %s signature of '%s': %s", fs->type, fs->device,
			       strerror(errno));
	ioctl(fd, BLKFLSBUF, 0);   /* probe what is on the device, not a cached copy */
	probe = blkid_new_probe();
	if (!probe || blkid_probe_set_device(probe, fd, 0, 0)) {
		if (probe)
			blkid_free_probe(probe);
		close(fd);
		return err_set("cannot probe '%s' to wipe its %s signature", fs->device, fs->type);
	}
	blkid_probe_enable_superblocks(probe, 1);
	blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(probe, 1);
	blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC);
	while (rc == 0 && blkid_do_probe(probe) == 0)
		if (blkid_do_wipe(probe, 0))
			rc = err_set("cannot wipe the %s signature of '%s': %s", fs->type,
				     fs->device, strerror(errno));
	blkid_free_probe(probe);
	if (fsync(fd) && rc == 0)
		rc = err_set("cannot wipe the %s signature of '%s': %s", fs->type, fs->device,
			     strerror(errno));
	ioctl(fd, BLKFLSBUF, 0);
	close(fd);
	if (rc == 0)
		fs->made = false;
	return rc;
}

int fs_setup_release(struct fs_setup *fs)
{
	char first[1024] = "";

	if (fs->mounted && unmount(fs))
		snprintf(first, sizeof(first), "%s", err_msg());
	if (!fs->mounted && fs->dir[0]) {
		if (rmdir(fs->dir) && errno != ENOENT && !first[0])
			snprintf(first, sizeof(first), "cannot remove the mount point %s: %s",
				 fs->dir, strerror(errno));
		else
			fs->dir[0] = '\0';
	}
	if (!fs->mounted && fs->made && wipe(fs) && !first[0])
		snprintf(first, sizeof(first), "%s", err_msg());
	return first[0] ? err_set("%s", first) : 0;
}
