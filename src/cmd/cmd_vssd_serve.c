/* cmd_vssd_serve.c - `drivebench vssd-serve` (issue 29.8, docs/vssd.md):
 * the modelled drive as a file the kernel can put a loop device on. A
 * FUSE filesystem (libfuse3) at MOUNTPOINT holds one file, `drive`, of the
 * model's scaled capacity; every read and write goes to a sparse backing
 * file (so data is kept: filesystems, verify=) and to the model, and its
 * reply is sent when the model's clock says the command completes. fsync
 * reaches the model as a flush (the reply waits for every command booked
 * before it), fallocate(PUNCH_HOLE) as a trim. A multi-threaded loop keeps
 * several requests outstanding. SIGTERM/SIGINT unmount. */
#define FUSE_USE_VERSION 312
#include <fuse.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "device/output_gate.h"
#include "device/write_consent.h"
#include "io/vssd.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/text.h"
#include "vssd/drive.h"
#include "vssd/ftl.h"
#include "vssd/model.h"
#include "vssd/state_file.h"

#define SERVE_FILE "drive"
#define SERVE_MAX_THREADS 64
#define SERVE_MAX_WRITE (1u << 20)   /* asked of the kernel; it may give less */
#define SIDECAR_SUFFIX ".vssd-backing"
#define SIDECAR_MAGIC "drivebench vssd backing 1\n"
#define STATE_SUFFIX ".vssd-state"
#define REBUILD_CHUNK (1u << 20)

struct serve {
	char model_path[PATH_MAX], scale[64], backing[PATH_MAX], stats_path[PATH_MAX];
	struct vssd_model model;
	struct vdrive *drive;
	pthread_mutex_t lock;            /* the drive and the counters */
	int fd;                          /* the backing file */
	bool reused;                     /* ... is this drive's, from an earlier server */
	char state_path[PATH_MAX + sizeof(STATE_SUFFIX)];   /* the FTL beside it */
	uint64_t reads, writes, trims, flushes, bytes_read, bytes_written, bytes_trimmed;
	unsigned max_write;              /* what the kernel granted */
};

static struct serve *srv(void)
{
	return fuse_get_context()->private_data;
}

/* Books one command on the model now; *done when it completes. */
static int book(struct serve *s, enum vdrive_dir dir, uint64_t off, uint64_t len, uint64_t *done)
{
	int rc = 0;

	pthread_mutex_lock(&s->lock);
	uint64_t now = clock_now_ns();   /* read under the lock: booked in order */
	*done = now;
	while (len && !rc) {   /* a trim may be longer than one command */
		uint32_t n = len > (1u << 30) ? (1u << 30) : (uint32_t)len;
		uint64_t d;

		/* one submission queue: the kernel's loop device is one host path */
		rc = vdrive_io(s->drive, 0, dir, off, n, now, &d);
		if (!rc && d > *done)
			*done = d;
		off += n;
		len -= n;
	}
	if (dir == VDRIVE_READ) {
		s->reads++;
	} else if (dir == VDRIVE_WRITE) {
		s->writes++;
	} else {
		s->trims++;
	}
	pthread_mutex_unlock(&s->lock);
	if (rc) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		err_clear();
	}
	return rc;
}

static int is_drive(const char *path)
{
	return !strcmp(path, "/" SERVE_FILE);
}

static int op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (!is_drive(path))
		return -ENOENT;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (off_t)srv()->model.capacity;
	st->st_blksize = (blksize_t)srv()->model.geometry.iu_bytes;
	st->st_blocks = st->st_size / 512;
	return 0;
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, SERVE_FILE, NULL, 0, 0);
	return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi)
{
	if (!is_drive(path))
		return -ENOENT;
	if (fi->flags & O_TRUNC)
		return -EPERM;   /* the drive's size is the model's */
	fi->direct_io = 1;   /* no page cache: every I/O reaches the model */
	return 0;
}

static int op_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)fi;
	if (!is_drive(path))
		return -ENOENT;
	return (uint64_t)size == srv()->model.capacity ? 0 : -EPERM;
}

/* The part of [off, off + size) inside the drive. */
static size_t clamp(const struct serve *s, off_t off, size_t size)
{
	if (off < 0 || (uint64_t)off >= s->model.capacity)
		return 0;
	return (uint64_t)off + size > s->model.capacity ? (size_t)(s->model.capacity - (uint64_t)off)
							 : size;
}

static int op_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct serve *s = srv();
	uint64_t done;
	ssize_t n;

	(void)path;
	(void)fi;
	if (!(size = clamp(s, off, size)))
		return 0;
	if (book(s, VDRIVE_READ, (uint64_t)off, size, &done))
		return -EIO;
	if ((n = pread(s->fd, buf, size, off)) < 0)
		return -errno;
	memset(buf + n, 0, size - (size_t)n);   /* past the backing's end: zeros */
	__atomic_add_fetch(&s->bytes_read, size, __ATOMIC_RELAXED);
	clock_sleep_until_ns(done);
	return (int)size;
}

static int op_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct serve *s = srv();
	uint64_t done;
	size_t put = 0;

	(void)path;
	(void)fi;
	if (clamp(s, off, size) != size)
		return -ENOSPC;
	if (book(s, VDRIVE_WRITE, (uint64_t)off, size, &done))
		return -EIO;
	while (put < size) {
		ssize_t n = pwrite(s->fd, buf + put, size - put, off + (off_t)put);

		if (n < 0)
			return -errno;
		put += (size_t)n;
	}
	__atomic_add_fetch(&s->bytes_written, size, __ATOMIC_RELAXED);
	clock_sleep_until_ns(done);
	return (int)size;
}

/* A flush: done when every command booked before it is (the model keeps
 * no volatile cache of its own beyond what the clock books). */
static int op_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct serve *s = srv();
	uint64_t done;

	(void)path;
	(void)datasync;
	(void)fi;
	pthread_mutex_lock(&s->lock);
	done = vdrive_last_done(s->drive);
	s->flushes++;
	pthread_mutex_unlock(&s->lock);
	clock_sleep_until_ns(done);
	return 0;
}

static int op_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return 0;   /* a close: no command (fsync is the flush) */
}

/* PUNCH_HOLE (a discard) and ZERO_RANGE (write zeroes): the backing's
 * range is punched and the model trims it; mode 0 within the drive is
 * nothing to do (the file is the drive's size). */
static int op_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	struct serve *s = srv();
	uint64_t done;

	(void)path;
	(void)fi;
	if (off < 0 || len <= 0 || clamp(s, off, (size_t)len) != (size_t)len)
		return -EINVAL;
	if (mode == 0)
		return 0;
	if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) ||
	    (mode & ~(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE)))
		return -EOPNOTSUPP;
	if (book(s, VDRIVE_TRIM, (uint64_t)off, (uint64_t)len, &done))
		return -EIO;
	if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len))
		return -errno;
	__atomic_add_fetch(&s->bytes_trimmed, (uint64_t)len, __ATOMIC_RELAXED);
	clock_sleep_until_ns(done);
	return 0;
}

static int op_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	memset(st, 0, sizeof(*st));
	st->f_bsize = st->f_frsize = 4096;
	st->f_blocks = srv()->model.capacity / 4096;
	st->f_files = 1;
	st->f_namemax = 255;
	return 0;
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	struct serve *s = fuse_get_context()->private_data;

	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = cfg->entry_timeout = 3600;   /* the size never changes */
	conn->max_write = SERVE_MAX_WRITE;
	conn->max_readahead = 0;
	s->max_write = conn->max_write;
	return s;
}

static const struct fuse_operations serve_ops = {
	.init = op_init,
	.getattr = op_getattr,
	.readdir = op_readdir,
	.open = op_open,
	.truncate = op_truncate,
	.read = op_read,
	.write = op_write,
	.flush = op_flush,
	.fsync = op_fsync,
	.fallocate = op_fallocate,
	.statfs = op_statfs,
};

/* ---- the backing file and its sidecar --------------------------------------- */

static void sidecar_text(const struct serve *s, char *buf, size_t len)
{
	char key[64];

	vssd_scale_key(s->scale, key, sizeof(key));
	snprintf(buf, len, "%smodel=%s\nscale=%s\ncapacity=%llu\n", SIDECAR_MAGIC,
		 s->model.name[0] ? s->model.name : s->model_path, key,
		 (unsigned long long)s->model.capacity);
}

/* 1 when the sidecar names this model and scale, 0 when there is none,
 * -1 (err_msg, refused) when it names another drive. */
static int sidecar_matches(const struct serve *s, const char *side)
{
	char want[PATH_MAX + 256], got[PATH_MAX + 256];
	FILE *f = fopen(side, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = 0;
	sidecar_text(s, want, sizeof(want));
	if (!strcmp(got, want))
		return 1;
	return err_refuse("--backing %s: its sidecar %s names another drive (%s), not %s "
			  "at scale %s; give --destroy-data %s to reuse it", s->backing, side,
			  strncmp(got, SIDECAR_MAGIC, strlen(SIDECAR_MAGIC)) ? "not a sidecar" :
			  got + strlen(SIDECAR_MAGIC), s->model.name, s->scale, s->backing);
}

/* Opens the sidecar for writing, before the backing file is touched. It
 * is drivebench's own file: absent, or a regular file with one link that
 * holds a sidecar (of this drive or, under the backing's --destroy-data,
 * another). Anything else at its name (a link, a device, a user's file, a
 * hard link to an image) is refused untouched: it is opened without
 * following a link, and cut only by sidecar_write. Returns the fd or -1. */
static int sidecar_open(const struct serve *s, const char *side)
{
	char head[sizeof(SIDECAR_MAGIC) - 1];
	const char *why = NULL;
	struct stat st;
	int fd = open(side, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		      0644);

	if (fd < 0)
		return errno == ELOOP ?
			err_refuse("--backing %s: refusing to write its sidecar %s: it is a "
				   "symbolic link", s->backing, side) :
			err_set("--backing %s: cannot write %s: %s", s->backing, side,
				strerror(errno));
	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = text_file_kind(st.st_mode, "not a plain file");
	else if (st.st_nlink > 1)
		why = "a file with other links";
	else if (st.st_size > 0 && (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
				    memcmp(head, SIDECAR_MAGIC, sizeof(head))))
		why = "a file that is not a sidecar";
	if (why) {
		close(fd);
		return err_refuse("--backing %s: refusing to write its sidecar %s: it is %s",
				  s->backing, side, why);
	}
	return fd;
}

/* Writes this drive's sidecar through fd (from sidecar_open) and closes it. */
static int sidecar_write(const struct serve *s, const char *side, int fd)
{
	char text[PATH_MAX + 256];
	size_t len;

	sidecar_text(s, text, sizeof(text));
	len = strlen(text);
	if (ftruncate(fd, 0) != 0 || pwrite(fd, text, len, 0) != (ssize_t)len) {
		int e = errno;

		close(fd);
		return err_set("--backing %s: cannot write %s: %s", s->backing, side, strerror(e));
	}
	return close(fd) == 0 ? 0 :
		err_set("--backing %s: cannot write %s: %s", s->backing, side, strerror(errno));
}

/* The write gate for the backing file: an existing non-empty file is
 * reused only as this model's and scale's backing file (its sidecar says
 * so) or with --destroy-data naming it; anything else new passes the
 * output gate. Opens it (s->fd) at the drive's size and writes the sidecar. */
static int backing_open(struct serve *s, const char *consent_id)
{
	bool consent = consent_id != NULL;
	char side[PATH_MAX + sizeof(SIDECAR_SUFFIX)];
	struct stat st;
	int ours = 0, side_fd;

	snprintf(side, sizeof(side), "%s%s", s->backing, SIDECAR_SUFFIX);
	if (stat(s->backing, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		ours = consent ? 1 : sidecar_matches(s, side);
		if (ours < 0)
			return -1;
		if (!ours)
			return err_refuse("--backing %s: refusing to use it: it is a non-empty file "
					  "that is not a backing file of %s at scale %s (no %s); give "
					  "--destroy-data %s to overwrite it", s->backing,
					  s->model.name, s->scale, side, s->backing);
		s->reused = !consent;
	}
	if (!ours && output_gate_check("--backing", s->backing, OUTPUT_FILE))
		return -1;
	/* consent is judged as a job's: it names the file, and never lifts a
	 * mounted or busy loop device the file backs (it was grown under one) */
	if (consent && target_path_consent(NULL, s->backing, &consent_id, 1))
		return -1;
	if ((side_fd = sidecar_open(s, side)) < 0)
		return -1;
	if ((s->fd = open(s->backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0) {
		err_set("--backing %s: %s", s->backing, strerror(errno));
		goto fail;
	}
	/* one server a backing file: a second would write the same data and
	 * take the first one's FTL state from under it */
	if (flock(s->fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			err_refuse("--backing %s: another vssd-serve is serving it", s->backing);
		else
			err_set("--backing %s: cannot lock it: %s", s->backing, strerror(errno));
		goto fail;
	}
	if (ftruncate(s->fd, (off_t)s->model.capacity)) {
		err_set("--backing %s: cannot size it to %llu bytes: %s", s->backing,
			(unsigned long long)s->model.capacity, strerror(errno));
		goto fail;
	}
	return sidecar_write(s, side, side_fd);
fail:
	close(side_fd);
	return -1;
}

/* ---- the FTL beside the backing file ------------------------------------------ */

/* "--backing B: its FTL state B.vssd-state", as messages name the file. */
static const char *state_label(const struct serve *s, char *buf, size_t len)
{
	snprintf(buf, len, "--backing %s: its FTL state %s", s->backing, s->state_path);
	return buf;
}

/* A reused backing file without a saved FTL (a server killed, or a file
 * from before the state was kept): its FTL is rebuilt from the data, each
 * range the backing file holds written once, in LBA order, off the clock
 * (an approximation: the order and the overwrites that placed it are
 * gone). Returns the bytes written, or -1. */
static int64_t rebuild_from_data(struct serve *s)
{
	uint64_t iu = s->model.geometry.iu_bytes, cap = s->model.capacity, total = 0;
	off_t pos = 0;

	while ((uint64_t)pos < cap) {
		off_t data = lseek(s->fd, pos, SEEK_DATA), hole;

		if (data < 0)
			break;   /* ENXIO: no data past pos */
		hole = lseek(s->fd, data, SEEK_HOLE);
		/* whole IUs, within the drive */
		uint64_t from = (uint64_t)data / iu * iu;
		uint64_t to = hole < 0 ? cap : ((uint64_t)hole + iu - 1) / iu * iu;

		if (to > cap)
			to = cap;
		for (uint64_t off = from; off < to; off += REBUILD_CHUNK) {
			uint64_t len = to - off < REBUILD_CHUNK ? to - off : REBUILD_CHUNK;

			if (vdrive_write_untimed(s->drive, off, (uint32_t)len))
				return -1;
			total += len;
		}
		pos = (off_t)to;
	}
	return (int64_t)total;
}

/* The FTL lives beside the backing file (BACKING.vssd-state): saved when
 * the server stops, loaded when the backing file is reused and removed
 * once loaded, so a server killed leaves none and the next one rebuilds
 * the FTL from the data rather than load one older than it. A new backing
 * file (or --destroy-data) starts a fresh drive: a state file left beside
 * it is removed, anything else there is refused. */
static int drive_state_open(struct serve *s)
{
	char label[2 * PATH_MAX + 64];
	int64_t rebuilt;
	int r;

	state_label(s, label, sizeof(label));
	if (!s->reused) {
		if ((r = vdrive_state_file_kind(s->state_path)) < 0)
			return err_refuse("%s: refusing to replace it: %s", label, err_msg());
		if (r && unlink(s->state_path))
			return err_set("%s: cannot remove it: %s", label, strerror(errno));
		return 0;
	}
	if ((r = vdrive_state_load(s->drive, s->scale, s->model_path, s->state_path, label)) < 0)
		return -1;
	if (r) {
		if (unlink(s->state_path))
			return err_set("%s: cannot remove it once loaded: %s", label, strerror(errno));
		fprintf(stderr, "drivebench vssd-serve: the drive's FTL is the one saved in %s\n",
			s->state_path);
		return 0;
	}
	if ((rebuilt = rebuild_from_data(s)) < 0)
		return -1;
	fprintf(stderr, "drivebench vssd-serve: no FTL saved beside %s (a server that did not "
		"stop cleanly): the FTL is rebuilt from its data, %llu bytes written once in "
		"LBA order\n", s->backing, (unsigned long long)rebuilt);
	return 0;
}

static int drive_state_save(struct serve *s)
{
	char label[2 * PATH_MAX + 64];

	return vdrive_state_save(s->drive, s->scale, s->state_path,
				 state_label(s, label, sizeof(label)));
}

/* ---- the command ------------------------------------------------------------ */

static void write_stats(const struct serve *s, FILE *f)
{
	struct ftl_stats st;
	uint64_t iu = s->model.geometry.iu_bytes;

	vdrive_stats(s->drive, &st);
	fprintf(f, "reads=%llu writes=%llu trims=%llu flushes=%llu bytes_read=%llu "
		"bytes_written=%llu bytes_trimmed=%llu host_written=%llu nand_written=%llu "
		"waf=%.3f erases=%llu max_write=%u\n",
		(unsigned long long)s->reads, (unsigned long long)s->writes,
		(unsigned long long)s->trims, (unsigned long long)s->flushes,
		(unsigned long long)s->bytes_read, (unsigned long long)s->bytes_written,
		(unsigned long long)s->bytes_trimmed,
		(unsigned long long)(st.host_ius_written * iu),
		(unsigned long long)(st.nand_ius_programmed * iu),
		st.host_ius_written ? (double)st.nand_ius_programmed / (double)st.host_ius_written : 0.0,
		(unsigned long long)st.erases, s->max_write);
}

static int usage(void)
{
	fprintf(stderr, "usage: drivebench vssd-serve --model FILE [--scale S] --backing FILE "
		"[--destroy-data FILE] [--stats FILE] MOUNTPOINT\n");
	return EXIT_BAD_INPUT;
}

static int opt_value(int argc, char **argv, int *i, const char *name, char *out, size_t len)
{
	if (strcmp(argv[*i], name))
		return 0;
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		err_set("%s needs a value", name);
		return -1;
	}
	if (strlen(argv[++*i]) >= len) {
		err_set("%s: too long", name);
		return -1;
	}
	snprintf(out, len, "%s", argv[*i]);
	return 1;
}

int cmd_vssd_serve(int argc, char **argv)
{
	static struct serve s;
	char destroy[PATH_MAX] = "", mountpoint[PATH_MAX] = "";
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *cfg;
	struct fuse *fuse;
	struct stat st;
	bool consent = false;
	int rc = EXIT_RUN_FAILED;

	memset(&s, 0, sizeof(s));
	s.fd = -1;
	for (int i = 1; i < argc; i++) {
		int r = 0;

		if ((r = opt_value(argc, argv, &i, "--model", s.model_path, sizeof(s.model_path))) ||
		    (r = opt_value(argc, argv, &i, "--scale", s.scale, sizeof(s.scale))) ||
		    (r = opt_value(argc, argv, &i, "--backing", s.backing, sizeof(s.backing))) ||
		    (r = opt_value(argc, argv, &i, "--stats", s.stats_path, sizeof(s.stats_path))) ||
		    (r = opt_value(argc, argv, &i, "--destroy-data", destroy, sizeof(destroy)))) {
			if (r < 0) {
				fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
				return usage();
			}
		} else if (argv[i][0] == '-' || mountpoint[0]) {
			fprintf(stderr, "drivebench vssd-serve: unknown argument '%s'\n", argv[i]);
			return usage();
		} else {
			snprintf(mountpoint, sizeof(mountpoint), "%s", argv[i]);
		}
	}
	if (!s.model_path[0] || !s.backing[0] || !mountpoint[0]) {
		fprintf(stderr, "drivebench vssd-serve: --model, --backing and MOUNTPOINT are needed\n");
		return usage();
	}
	if (!s.scale[0])
		snprintf(s.scale, sizeof(s.scale), "%s", VSSD_DEFAULT_SCALE);
	if (stat(mountpoint, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "drivebench vssd-serve: mountpoint '%s': %s\n", mountpoint,
			stat(mountpoint, &st) ? strerror(errno) : "not a directory");
		return EXIT_BAD_INPUT;
	}
	if (vssd_model_load(s.model_path, s.scale, &s.model)) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		return EXIT_BAD_INPUT;
	}
	if (destroy[0]) {
		char *a = realpath(destroy, NULL), *b = realpath(s.backing, NULL);

		consent = a && b && !strcmp(a, b);
		free(a);
		free(b);
		if (!consent) {
			fprintf(stderr, "drivebench vssd-serve: --destroy-data %s does not name the "
				"backing file %s\n", destroy, s.backing);
			return EXIT_BAD_INPUT;
		}
	}
	if (s.stats_path[0] && output_gate_check("--stats", s.stats_path, OUTPUT_FILE)) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		rc = err_refused() ? EXIT_UNSAFE : EXIT_BAD_INPUT;
		goto out;
	}
	if (backing_open(&s, consent ? destroy : NULL)) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		rc = err_refused() ? EXIT_UNSAFE : EXIT_BAD_INPUT;
		goto out;
	}
	if (!(s.drive = vdrive_create(&s.model))) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		goto out;
	}
	snprintf(s.state_path, sizeof(s.state_path), "%s%s", s.backing, STATE_SUFFIX);
	if (drive_state_open(&s)) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		rc = err_refused() ? EXIT_UNSAFE : EXIT_BAD_INPUT;
		vdrive_destroy(s.drive);
		s.drive = NULL;   /* nothing to save: the file is as it was */
		goto out;
	}
	pthread_mutex_init(&s.lock, NULL);
	if (fuse_opt_add_arg(&args, "drivebench") ||
	    !(fuse = fuse_new(&args, &serve_ops, sizeof(serve_ops), &s))) {
		fprintf(stderr, "drivebench vssd-serve: cannot start FUSE\n");
		goto out;
	}
	if (fuse_mount(fuse, mountpoint)) {
		fprintf(stderr, "drivebench vssd-serve: cannot mount FUSE at '%s' (is /dev/fuse "
			"there and fuse3 installed?)\n", mountpoint);
		fuse_destroy(fuse);
		goto out;
	}
	/* libfuse leaves an ignored signal ignored, and a shell starts a
	 * background command with SIGINT ignored: both must stop the server */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (fuse_set_signal_handlers(fuse_get_session(fuse))) {
		fuse_unmount(fuse);
		fuse_destroy(fuse);
		goto out;
	}
	fprintf(stderr, "drivebench vssd-serve: %s at scale %s (%llu bytes) at %s/%s, backing %s\n",
		s.model.name[0] ? s.model.name : s.model_path, s.scale,
		(unsigned long long)s.model.capacity, mountpoint, SERVE_FILE, s.backing);
	cfg = fuse_loop_cfg_create();
	fuse_loop_cfg_set_max_threads(cfg, SERVE_MAX_THREADS);
	fuse_loop_cfg_set_idle_threads(cfg, SERVE_MAX_THREADS);
	rc = fuse_loop_mt(fuse, cfg) < 0 ? EXIT_RUN_FAILED : EXIT_OK;
	fuse_loop_cfg_destroy(cfg);
	fuse_remove_signal_handlers(fuse_get_session(fuse));
	fuse_unmount(fuse);
	fuse_destroy(fuse);
	fprintf(stderr, "drivebench vssd-serve: unmounted; ");
	write_stats(&s, stderr);
	if (s.stats_path[0]) {
		FILE *f = output_gate_open("--stats", s.stats_path);

		if (f) {
			write_stats(&s, f);
			output_gate_close(f, "--stats", s.stats_path);
		}
		if (!f) {
			fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
			rc = EXIT_RUN_FAILED;
		}
	}
out:
	fuse_opt_free_args(&args);
	/* the FTL is saved however the server ends, once it has one */
	if (s.drive && drive_state_save(&s)) {
		fprintf(stderr, "drivebench vssd-serve: %s\n", err_msg());
		rc = EXIT_RUN_FAILED;
	}
	if (s.fd >= 0)
		close(s.fd);
	vdrive_destroy(s.drive);
	return rc;
}
