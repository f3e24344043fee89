/* gds.c - the gdsio-style sweep: parsing its lists, sizing each thread's
 * region, building the one job a point runs (ioengine=cufile, through the
 * ordinary runner) and gdsio's output line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "util/error.h"
#include "util/units.h"
#include "workload/gds.h"
#include "job/options.h"

static const uint64_t review_bs[] = { 16 << 10, 128 << 10, 1 << 20 };
static const unsigned review_threads[] = { 1, 4, 8, 16, 32, 64, 128 };

void gds_sweep_defaults(struct gds_sweep *s)
{
	memset(s, 0, sizeof(*s));
	s->rw[0] = RW_READ;
	s->rw[1] = RW_WRITE;
	s->nr_rw = 2;
	for (unsigned i = 0; i < 3; i++)
		s->bs[i] = review_bs[i];
	s->nr_bs = 3;
	for (unsigned i = 0; i < 7; i++)
		s->threads[i] = review_threads[i];
	s->nr_threads = 7;
	s->xfer = 1;   /* GDS_XFER_CPUONLY */
	s->runtime_ns = GDS_DEFAULT_RUNTIME_NS;
}

/* Calls item() for each comma-separated element of text (at most max). */
static int for_each_item(const char *what, const char *text, unsigned max,
			 int (*item)(const char *elem, unsigned idx, void *arg), void *arg,
			 unsigned *count)
{
	char elem[64];
	const char *p = text;
	unsigned n = 0;

	if (!text[0])
		return err_set("%s: empty list", what);
	while (p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == 0 || len >= sizeof(elem))
			return err_set("%s: bad list '%s'", what, text);
		if (n == max)
			return err_set("%s: more than %u values in '%s'", what, max, text);
		memcpy(elem, p, len);
		elem[len] = '\0';
		if (item(elem, n, arg))
			return err_prefix("%s", what);
		n++;
		p = comma ? comma + 1 : NULL;
	}
	*count = n;
	return 0;
}

static int rw_item(const char *elem, unsigned idx, void *arg)
{
	struct gds_sweep *s = arg;
	static const struct { const char *name; enum rw_mode rw; } names[] = {
		{ "read", RW_READ }, { "write", RW_WRITE },
		{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
	};

	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(elem, names[i].name)) {
			for (unsigned k = 0; k < idx; k++)
				if (s->rw[k] == names[i].rw)
					return err_set("'%s' given twice", elem);
			s->rw[idx] = names[i].rw;
			return 0;
		}
	return err_set("unknown direction '%s' (read, write, randread, randwrite)", elem);
}

static int bs_item(const char *elem, unsigned idx, void *arg)
{
	struct gds_sweep *s = arg;
	uint64_t bs;

	if (parse_size(elem, 1024, &bs) || bs == 0 || bs % 4096 || bs > (1ull << 30))
		return err_set("bad I/O size '%s' (a multiple of 4K up to 1G)", elem);
	s->bs[idx] = bs;
	return 0;
}

static int threads_item(const char *elem, unsigned idx, void *arg)
{
	struct gds_sweep *s = arg;
	uint64_t n;

	if (units_parse_count(elem, 1, 4096, &n))
		return err_set("bad thread count '%s' (1-4096)", elem);
	s->threads[idx] = (unsigned)n;
	return 0;
}

/* Parses into a copy, so a bad list leaves the sweep as it was. */
static int parse_list(const char *what, const char *text, unsigned max,
		      int (*item)(const char *, unsigned, void *), struct gds_sweep *s)
{
	struct gds_sweep *copy = malloc(sizeof(*copy));
	unsigned n = 0;
	int rc;

	if (!copy)
		return err_set("out of memory");
	*copy = *s;
	rc = for_each_item(what, text, max, item, copy, &n);
	if (rc == 0) {
		if (item == rw_item)
			copy->nr_rw = n;
		else if (item == bs_item)
			copy->nr_bs = n;
		else
			copy->nr_threads = n;
		*s = *copy;
	}
	free(copy);
	return rc;
}

int gds_parse_rw_list(const char *text, struct gds_sweep *s)
{
	return parse_list("--rw", text, GDS_MAX_RW, rw_item, s);
}

int gds_parse_bs_list(const char *text, struct gds_sweep *s)
{
	return parse_list("--bs", text, GDS_MAX_BS, bs_item, s);
}

int gds_parse_threads_list(const char *text, struct gds_sweep *s)
{
	return parse_list("--threads", text, GDS_MAX_THREADS, threads_item, s);
}

int gds_parse_io_type(const char *text, struct gds_sweep *s)
{
	static const enum rw_mode types[] = { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE };

	if (strlen(text) != 1 || text[0] < '0' || text[0] > '3')
		return err_set("-I: io type '%s' not supported (0 read, 1 write, 2 randread, 3 randwrite)",
			       text);
	s->rw[0] = types[text[0] - '0'];
	s->nr_rw = 1;
	return 0;
}

int gds_thread_region(const struct gds_sweep *s, uint64_t bs, unsigned threads,
		      uint64_t *region)
{
	uint64_t r;

	if (!s->file_size)
		return err_set("the file size is unknown (give -s SIZE)");
	r = s->directory[0] ? s->file_size : s->file_size / threads;
	r = r / bs * bs;
	if (r == 0)
		return err_set("%llu bytes%s leave no %llu-byte block per thread for %u threads",
			       (unsigned long long)s->file_size,
			       s->directory[0] ? " per file" : "",
			       (unsigned long long)bs, threads);
	*region = r;
	return 0;
}

uint64_t gds_dataset_bytes(const struct gds_sweep *s, unsigned threads)
{
	return s->directory[0] ? s->file_size * threads : s->file_size;
}

const char *gds_io_type(enum rw_mode rw)
{
	switch (rw) {
	case RW_READ:
		return "READ";
	case RW_WRITE:
		return "WRITE";
	case RW_RANDREAD:
		return "RANDREAD";
	case RW_RANDWRITE:
		return "RANDWRITE";
	default:
		return "MIXED";
	}
}

/* The XferType label for the store; matches gds_xfer_label() (io/cufile.c)
 * without linking the engine into the sweep logic. */
static const char *xfer_name(int x)
{
	switch (x) {
	case 0:
		return "GPUD";
	case 1:
		return "CPUONLY";
	case 2:
		return "CPU_GPU";
	case 5:
		return "GPUD_ASYNC";
	default:
		return "?";
	}
}

/* Option values land in JSON strings; keep them on one line. */
static void one_line(const char *in, char *out, size_t len)
{
	size_t i = 0;

	for (; in && in[i] && i + 1 < len; i++)
		out[i] = (in[i] == '\n' || in[i] == '\r') ? ' ' : in[i];
	out[i] = '\0';
}

int gds_point_job(const struct gds_sweep *s, enum rw_mode rw, uint64_t bs,
		  unsigned threads, const struct gds_path *path, struct job_spec *out)
{
	struct job_spec j;
	uint64_t region;
	char model[128], why[256];
	int n;

	if (gds_thread_region(s, bs, threads, &region))
		return -1;
	job_spec_defaults(&j);
	/* one name for every point: with -D the threads' files are
	 * DIR/gdsio.N.0, the same files for every point */
	snprintf(j.name, sizeof(j.name), "gdsio");
	snprintf(j.source, sizeof(j.source), "gds");
	if (s->directory[0])
		job_spec_set_path(j.directory, sizeof(j.directory), s->directory);
	else
		job_spec_set_path(j.filename, sizeof(j.filename), s->filename);
	snprintf(j.ioengine, sizeof(j.ioengine), "cufile");
	j.rw = rw;
	j.bs[DIR_READ] = j.bs[DIR_WRITE] = bs;
	j.numjobs = threads;
	j.iodepth = 1;
	j.direct = true;
	j.time_based = true;
	j.runtime_ns = s->runtime_ns;
	j.size = region;
	j.offset_increment = s->directory[0] ? 0 : region;
	j.group_reporting = true;
	j.gds_transfer = s->xfer;
	j.gpu_device = s->gpu;
	one_line(path->gpu_model, model, sizeof(model));
	one_line(path->no_gpu, why, sizeof(why));
	n = snprintf(j.options_text, sizeof(j.options_text),
		     "ioengine=cufile\nrw=%s\nbs=%llu\nnumjobs=%u\niodepth=1\ndirect=1\n"
		     "time_based=1\nruntime=%llums\nsize=%llu\noffset_increment=%llu\n"
		     "gds_transfer=%d\ngpu_dev_id=%u\ngroup_reporting=1\n"
		     "gds_xfer=%s\ngds_mode=%s\ngds_gpu=%s\ngds_no_gpu=%s\n",
		     job_spec_rw_name(rw), (unsigned long long)bs, threads,
		     (unsigned long long)(s->runtime_ns / 1000000),
		     (unsigned long long)region, (unsigned long long)j.offset_increment,
		     s->xfer, s->gpu, xfer_name(s->xfer), path->mode, model, why);
	if (n < 0 || (size_t)n >= sizeof(j.options_text))
		return err_set("gds: options too long");
	if (job_spec_validate(&j))
		return -1;
	*out = j;
	return 0;
}

void gds_line_from_result(const struct job_result *r, enum rw_mode rw, const char *xfer,
			  unsigned threads, uint64_t dataset_bytes, struct gds_line *line)
{
	enum io_dir d = (rw == RW_WRITE || rw == RW_RANDWRITE) ? DIR_WRITE : DIR_READ;
	const struct dir_stats *ds = &r->dir[d];
	double seconds = (double)r->runtime_ns / 1e9;

	memset(line, 0, sizeof(*line));
	line->io_type = gds_io_type(rw);
	line->xfer = xfer;
	line->threads = threads;
	line->transferred_kib = ds->bytes / 1024;
	line->dataset_kib = dataset_bytes / 1024;
	line->io_kib = r->spec ? r->spec->bs[d] / 1024 : 0;
	line->gib_per_s = seconds > 0 ? (double)ds->bytes / (double)(1ull << 30) / seconds : 0;
	line->avg_latency_us = lat_mean(&ds->lat) / 1000.0;
	line->ops = ds->ios;
	line->total_time_s = seconds;
}

int gds_format_line(const struct gds_line *l, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 "IoType: %s XferType: %s Threads: %u DataSetSize: %llu/%llu(KiB) "
			 "IOSize: %llu(KiB) Throughput: %.6f GiB/sec, Avg_Latency: %.6f usecs "
			 "ops: %llu total_time %.6f secs",
			 l->io_type, l->xfer, l->threads,
			 (unsigned long long)l->transferred_kib, (unsigned long long)l->dataset_kib,
			 (unsigned long long)l->io_kib, l->gib_per_s, l->avg_latency_us,
			 (unsigned long long)l->ops, l->total_time_s);

	if (n < 0 || (size_t)n >= len)
		return err_set("gds: output line does not fit in %zu bytes", len);
	return 0;
}
