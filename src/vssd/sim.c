/* sim.c - the closed-loop simulator (see the header). The outstanding
 * I/Os sit in a min-heap by completion time; popping the earliest gives
 * the next submission time, so submissions reach the drive in time order
 * as the engine's do. */
#include "vssd/sim.h"

#include <stdlib.h>
#include <string.h>

#include "measure/hist.h"
#include "util/error.h"

struct inflight {
	uint64_t done_ns, submit_ns;
	uint32_t job;              /* whose: its completion submits the job's next */
};

struct heap {
	struct inflight *v;
	uint32_t n;
};

static void heap_push(struct heap *h, struct inflight x)
{
	uint32_t i = h->n++;

	while (i > 0 && h->v[(i - 1) / 2].done_ns > x.done_ns) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static struct inflight heap_pop(struct heap *h)
{
	struct inflight top = h->v[0], last = h->v[--h->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1].done_ns < h->v[c].done_ns)
			c++;
		if (h->v[c].done_ns >= last.done_ns)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int sim_rw_parse(const char *text, enum sim_rw *rw)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(text, names[i])) {
			*rw = (enum sim_rw)i;
			return 0;
		}
	return err_set("sim: '%s' is not read, write, randread or randwrite", text);
}

#define SIM_OUTSTANDING_MAX (1u << 20)

struct cursor {
	const struct sim_job *job;
	uint64_t size, blocks, next, seed, submitted, bytes, start_ns, end_ns;
};

/* Whether the job stops submitting at now. */
static int done_submitting(const struct cursor *c, uint64_t now)
{
	const struct sim_job *j = c->job;

	return (j->ios && c->submitted >= j->ios) || (j->bytes && c->bytes >= j->bytes) ||
	       (c->end_ns && now >= c->end_ns);
}

static uint64_t next_offset(struct cursor *c)
{
	const struct sim_job *j = c->job;
	uint64_t b;

	if (j->rw == SIM_RANDREAD || j->rw == SIM_RANDWRITE) {
		b = splitmix64(&c->seed) % c->blocks;
	} else {
		b = c->next;
		c->next = (c->next + 1) % c->blocks;
	}
	return j->offset + b * j->bs;
}

static int check_job(const struct vdrive *d, const struct sim_job *j, uint64_t *size)
{
	uint64_t cap = vdrive_model(d)->capacity;

	if (!j->bs || !j->depth || j->rw > SIM_RANDWRITE)
		return err_set("sim: a job needs bs, depth and rw");
	if ((uint64_t)j->depth * (j->jobs ? j->jobs : 1) > SIM_OUTSTANDING_MAX)
		return err_set("sim: %u jobs x depth %u is more than %u outstanding", j->jobs,
			       j->depth, SIM_OUTSTANDING_MAX);
	if (!j->ios && !j->bytes && !(j->seconds > 0))
		return err_set("sim: a job needs ios, bytes or seconds to stop");
	*size = j->size ? j->size : (j->offset < cap ? cap - j->offset : 0);
	if (j->offset > cap || *size > cap - j->offset || *size < j->bs)
		return err_set("sim: the range %llu+%llu does not fit the drive's %llu bytes "
			       "with one %u-byte I/O", (unsigned long long)j->offset,
			       (unsigned long long)*size, (unsigned long long)cap, j->bs);
	return 0;
}

static void set_waf(const struct ftl_stats *before, struct sim_result *r)
{
	if (r->ftl.host_ius_written > before->host_ius_written &&
	    r->ftl.nand_ius_programmed >= before->nand_ius_programmed)
		r->waf = (double)(r->ftl.nand_ius_programmed - before->nand_ius_programmed) /
			 (double)(r->ftl.host_ius_written - before->host_ius_written);
}

/* The untimed job: its writes one after another, off the clock. */
static int run_untimed(struct vdrive *d, struct cursor *c, struct sim_result *r)
{
	const struct sim_job *j = c->job;

	if (j->rw != SIM_WRITE && j->rw != SIM_RANDWRITE)
		return err_set("sim: an untimed job writes (write or randwrite)");
	if (!j->ios && !j->bytes)
		return err_set("sim: an untimed job stops after ios or bytes, not seconds");
	while (!done_submitting(c, 0)) {
		if (vdrive_write_untimed(d, next_offset(c), j->bs))
			return -1;
		c->submitted++;
		c->bytes += j->bs;
		r->ios++;
		r->bytes += j->bs;
	}
	return 0;
}

/* Submits job q's next I/O at now. */
static int submit(struct vdrive *d, struct cursor *c, enum vdrive_dir dir, uint32_t q,
		  uint64_t now, struct heap *h)
{
	struct inflight x = { .submit_ns = now, .done_ns = now, .job = q };

	if (vdrive_io(d, q, dir, next_offset(c), c->job->bs, now, &x.done_ns))
		return -1;
	c->submitted++;
	c->bytes += c->job->bs;
	heap_push(h, x);
	return 0;
}

int sim_run(struct vdrive *d, const struct sim_job *j, struct sim_result *r)
{
	enum vdrive_dir dir = j->rw == SIM_READ || j->rw == SIM_RANDREAD ? VDRIVE_READ : VDRIVE_WRITE;
	struct cursor c = { .job = j };
	struct ftl_stats before;
	struct heap h = { 0 };
	struct hist *lat = NULL;
	double lat_sum = 0;
	uint32_t jobs;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (check_job(d, j, &c.size))
		return -1;
	c.blocks = c.size / j->bs;
	if (j->untimed) {
		/* the clock does not move: the FTL's count tells runs apart */
		vdrive_stats(d, &before);
		c.seed = j->seed ? j->seed : 0x5eed ^ vdrive_last_done(d) ^ before.host_ius_written;
		rc = run_untimed(d, &c, r);
		vdrive_stats(d, &r->ftl);
		set_waf(&before, r);
		return rc;
	}
	jobs = j->jobs ? j->jobs : 1;
	if (!(h.v = calloc((size_t)j->depth * jobs, sizeof(*h.v))) ||
	    !(lat = calloc(1, sizeof(*lat)))) {
		free(h.v);
		return err_set("sim: out of memory");
	}
	/* a run that names no seed continues from where the drive's clock
	 * is, so runs in a row do not repeat one sequence of offsets */
	c.seed = j->seed ? j->seed : 0x5eed ^ vdrive_last_done(d);
	c.start_ns = vdrive_last_done(d) + j->idle_ns;
	c.end_ns = j->seconds > 0 ? c.start_ns + (uint64_t)(j->seconds * 1e9) : 0;
	vdrive_stats(d, &before);
	r->start_ns = r->end_ns = c.start_ns;
	/* each job's first depth I/Os at the start, on its own queue, then
	 * each completion submits its job's next */
	for (uint32_t k = 0; k < j->depth; k++)
		for (uint32_t q = 0; q < jobs && !done_submitting(&c, c.start_ns); q++)
			if ((rc = submit(d, &c, dir, q, c.start_ns, &h)))
				goto out;
	while (h.n) {
		struct inflight x = heap_pop(&h);

		r->ios++;
		r->bytes += j->bs;
		lat_sum += (double)(x.done_ns - x.submit_ns);
		hist_add(lat, x.done_ns - x.submit_ns);
		if (x.done_ns > r->end_ns)
			r->end_ns = x.done_ns;
		if (!done_submitting(&c, x.done_ns) &&
		    (rc = submit(d, &c, dir, x.job, x.done_ns, &h)))
			goto out;
	}
	vdrive_stats(d, &r->ftl);
	if (r->end_ns > r->start_ns) {
		double s = (double)(r->end_ns - r->start_ns) / 1e9;

		r->iops = (double)r->ios / s;
		r->mbs = (double)r->bytes / s / 1e6;
	}
	r->mean_lat_us = r->ios ? lat_sum / (double)r->ios / 1e3 : 0;
	{
		static const double pcts[] = { 99, 99.9, 99.99 };
		uint64_t ns[3];

		hist_percentiles(lat, pcts, 3, ns);
		r->p99_us = (double)ns[0] / 1e3;
		r->p999_us = (double)ns[1] / 1e3;
		r->p9999_us = (double)ns[2] / 1e3;
	}
	set_waf(&before, r);
out:
	free(lat);
	free(h.v);
	return rc;
}
