/* fio_log.c - fio's log file formats (fio 3.33's flush_samples and
 * flush_hist_samples: "time, value, direction, block size[, offset],
 * priority" and "time, direction, block size, bins...") written from each
 * clone's bounded buffer into files opened once per run through the output
 * write gate. Clones that share a file (per_job_logs=0) write whole
 * buffers of whole lines under the file's lock. */
#include "run/fio_log.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device/output_gate.h"
#include "util/error.h"

struct fio_log_file {
	FILE *f;
	char *path, *what;
	dev_t dev;
	ino_t ino;
	pthread_mutex_t lock;
	int error;             /* errno of the first failed write, 0 = none */
};

/* The longest entry line ("T, V, D, BS, OFFSET, 0x0000\n") and hist line. */
#define ENTRY_LINE_MAX 128u
#define HIST_LINE_MAX (64u + FIO_LOG_HIST_BINS * 22u)

static struct fio_log_file *find_file(const struct fio_log_files *set, const char *path)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;

	for (unsigned i = 0; i < set->nr; i++) {
		struct fio_log_file *f = set->files[i];

		if (!strcmp(f->path, path) ||
		    (exists && f->dev == st.st_dev && f->ino == st.st_ino))
			return f;
	}
	return NULL;
}

static void free_file(struct fio_log_file *f)
{
	if (!f)
		return;
	pthread_mutex_destroy(&f->lock);
	free(f->path);
	free(f->what);
	free(f);
}

int fio_log_files_get(struct fio_log_files *set, const char *what, const char *path,
		      struct fio_log_file **out)
{
	struct fio_log_file *f = find_file(set, path);
	struct stat st;

	if (f) {
		*out = f;
		return 0;
	}
	if (set->nr == set->cap) {
		unsigned cap = set->cap ? set->cap * 2 : 8;
		struct fio_log_file **grown = realloc(set->files, cap * sizeof(*grown));

		if (!grown)
			return err_set("out of memory");
		set->files = grown;
		set->cap = cap;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path)) || !(f->what = strdup(what))) {
		free_file(f);
		return err_set("out of memory");
	}
	pthread_mutex_init(&f->lock, NULL);
	f->f = output_gate_open(what, path);
	if (!f->f) {
		free_file(f);
		return -1;
	}
	if (fstat(fileno(f->f), &st) == 0) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	}
	set->files[set->nr++] = f;
	*out = f;
	return 0;
}

int fio_log_files_close(struct fio_log_files *set)
{
	int rc = 0;

	for (unsigned i = 0; i < set->nr; i++) {
		struct fio_log_file *f = set->files[i];

		if (f->error && rc == 0)
			rc = err_set("%s: writing '%s': %s", f->what, f->path, strerror(f->error));
		if (output_gate_close(f->f, f->what, f->path) && rc == 0)
			rc = -1;
		free_file(f);
	}
	free(set->files);
	memset(set, 0, sizeof(*set));
	return rc;
}

int fio_log_buf_init(struct fio_log_buf *b, struct fio_log_file *file,
		     struct fio_log_cols cols)
{
	memset(b, 0, sizeof(*b));
	b->text = malloc(FIO_LOG_BUF_BYTES);
	if (!b->text)
		return err_set("out of memory for a log buffer");
	b->file = file;
	b->cols = cols;
	return 0;
}

void fio_log_buf_flush(struct fio_log_buf *b)
{
	struct fio_log_file *f = b->file;

	if (!b->used || !f)
		return;
	pthread_mutex_lock(&f->lock);
	errno = 0;
	if (!f->error && fwrite(b->text, 1, b->used, f->f) != b->used)
		f->error = errno ? errno : EIO;
	pthread_mutex_unlock(&f->lock);
	b->used = 0;
}

void fio_log_buf_free(struct fio_log_buf *b)
{
	fio_log_buf_flush(b);
	free(b->text);
	b->text = NULL;
}

char *fio_log_u64(char *p, uint64_t v)
{
	char digits[20];
	unsigned n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = digits[--n];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

/* Room for a line of at most need bytes. */
static char *room(struct fio_log_buf *b, size_t need)
{
	if (FIO_LOG_BUF_BYTES - b->used < need)
		fio_log_buf_flush(b);
	return b->text + b->used;
}

void fio_log_entry(struct fio_log_buf *b, uint64_t t_ms, int64_t value, unsigned dir,
		   uint64_t bs, uint64_t offset, unsigned prio)
{
	static const char hex[] = "0123456789abcdef";
	char *start = room(b, ENTRY_LINE_MAX), *p = start;

	p = fio_log_u64(p, t_ms);
	p = put_sep(p);
	if (value < 0) {
		*p++ = '-';
		p = fio_log_u64(p, (uint64_t)0 - (uint64_t)value);
	} else {
		p = fio_log_u64(p, (uint64_t)value);
	}
	p = put_sep(p);
	p = fio_log_u64(p, dir);
	p = put_sep(p);
	p = fio_log_u64(p, bs);
	if (b->cols.offset) {
		p = put_sep(p);
		p = fio_log_u64(p, offset);
	}
	p = put_sep(p);
	if (b->cols.prio_hex) {
		*p++ = '0';
		*p++ = 'x';
		for (int shift = 12; shift >= 0; shift -= 4)
			*p++ = hex[(prio >> shift) & 0xf];
	} else {
		p = fio_log_u64(p, prio);
	}
	*p++ = '\n';
	b->used += (size_t)(p - start);
}

void fio_log_hist_entry(struct fio_log_buf *b, uint64_t t_ms, unsigned dir, uint64_t bs,
			const uint64_t bins[FIO_LOG_HIST_BINS], unsigned coarseness)
{
	unsigned stride = 1u << coarseness;
	char *start = room(b, HIST_LINE_MAX), *p = start;

	p = fio_log_u64(p, t_ms);
	p = put_sep(p);
	p = fio_log_u64(p, dir);
	p = put_sep(p);
	p = fio_log_u64(p, bs);
	for (unsigned i = 0; i < FIO_LOG_HIST_BINS; i += stride) {
		uint64_t sum = 0;

		for (unsigned j = 0; j < stride; j++)
			sum += bins[i + j];
		p = put_sep(p);
		p = fio_log_u64(p, sum);
	}
	*p++ = '\n';
	b->used += (size_t)(p - start);
}
