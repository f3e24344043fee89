/* result_pack.c - job_result to bytes and back (see the header). */
#include "measure/result_pack.h"

#include <stdlib.h>
#include <string.h>

#include "measure/check_results.h"
#include "measure/verify_failures.h"
#include "util/error.h"

static void pack_lat(struct pack *p, const struct lat_stat *s)
{
	uint64_t used = 0;

	pack_u64(p, s->n);
	pack_u64(p, s->min);
	pack_u64(p, s->max);
	pack_u64(p, s->sum);
	pack_bytes(p, &s->sumsq, sizeof(s->sumsq));
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		used += s->hist.bucket[i] != 0;
	pack_u64(p, used);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (s->hist.bucket[i]) {
			pack_u64(p, i);
			pack_u64(p, s->hist.bucket[i]);
		}
}

static void unpack_lat(struct unpack *u, struct lat_stat *s)
{
	uint64_t used;

	s->n = unpack_u64(u);
	s->min = unpack_u64(u);
	s->max = unpack_u64(u);
	s->sum = unpack_u64(u);
	unpack_bytes(u, &s->sumsq, sizeof(s->sumsq));
	used = unpack_u64(u);
	if (used > HIST_BUCKETS)
		u->failed = true;
	memset(&s->hist, 0, sizeof(s->hist));
	for (uint64_t k = 0; k < used && !u->failed; k++) {
		uint64_t idx = unpack_u64(u), count = unpack_u64(u);

		if (idx >= HIST_BUCKETS)
			u->failed = true;
		else
			s->hist.bucket[idx] = count;
	}
}

/* The fixed-size fields, in one order for both directions. */
#define SCALARS(X) \
	X(groupid) X(clone) X(nr_merged) X(error) X(partial) X(runtime_ns) \
	X(total_run_ns) X(ramp_ns) X(start_unix_ms) X(sync_ios) X(bw_stat) \
	X(iops_stat) X(usr_cpu_s) X(sys_cpu_s) X(ctx_switches) X(major_faults) \
	X(minor_faults) X(max_buffer_bytes) \
	X(verify_units) X(verify_checked) X(verify_failed) X(verify_stopped) \
	X(verify_seed) X(faults_injected) X(depths) X(engine_calls) X(latency_depth) \
	X(measure_start_ns) X(phase_start_ns) X(phase_start_wall_ns) X(nr_ranks) \
	X(first_done_ns) X(first_done_ios) X(first_done_bytes)

void result_pack(struct pack *p, const struct job_result *r)
{
#define PUT(f) pack_bytes(p, &r->f, sizeof(r->f));
	pack_bytes(p, r->name, sizeof(r->name));
	SCALARS(PUT)
#undef PUT
	for (int d = 0; d < DIR_ALL; d++) {
		const struct dir_stats *ds = &r->dir[d];

		pack_u64(p, ds->ios);
		pack_u64(p, ds->bytes);
		pack_u64(p, ds->errors);
		pack_bytes(p, &ds->first_error, sizeof(ds->first_error));
		pack_u64(p, ds->first_error_offset);
		pack_lat(p, &ds->slat);
		pack_lat(p, &ds->clat);
		pack_lat(p, &ds->lat);
	}
	pack_lat(p, &r->sync_lat);
	pack_u64(p, r->series.interval_ns);
	pack_u64(p, r->series.nr);
	pack_bytes(p, r->series.points, r->series.nr * sizeof(*r->series.points));
	pack_str(p, r->drive_before);
	pack_str(p, r->drive_after);
	pack_str(p, r->drive_delta);
	pack_u64(p, r->nr_verify_failures);
	pack_bytes(p, r->verify_failures, r->nr_verify_failures * sizeof(*r->verify_failures));
	for (int d = 0; d < DIR_COUNT; d++) {
		pack_u64(p, r->nr_prio_clat[d]);
		for (unsigned i = 0; i < r->nr_prio_clat[d]; i++) {
			pack_u64(p, r->prio_clat[d][i].ioprio);
			pack_lat(p, &r->prio_clat[d][i].clat);
		}
	}
}

/* n elements of size each, bounded by what is left to read. */
static void *unpack_array(struct unpack *u, uint64_t n, size_t size)
{
	void *a;

	if (u->failed || n == 0)
		return NULL;
	if (n > (u->len - u->at) / size) {
		u->failed = true;
		return NULL;
	}
	if (!(a = malloc(n * size))) {
		u->failed = true;
		return NULL;
	}
	unpack_bytes(u, a, n * size);
	return a;
}

int result_unpack(struct unpack *u, const struct job_spec *spec, struct job_result *r)
{
	uint64_t n;

	job_result_init(r, spec);
#define GET(f) unpack_bytes(u, &r->f, sizeof(r->f));
	unpack_bytes(u, r->name, sizeof(r->name));
	r->name[sizeof(r->name) - 1] = '\0';
	SCALARS(GET)
#undef GET
	for (int d = 0; d < DIR_ALL; d++) {
		struct dir_stats *ds = &r->dir[d];

		ds->ios = unpack_u64(u);
		ds->bytes = unpack_u64(u);
		ds->errors = unpack_u64(u);
		unpack_bytes(u, &ds->first_error, sizeof(ds->first_error));
		ds->first_error_offset = unpack_u64(u);
		unpack_lat(u, &ds->slat);
		unpack_lat(u, &ds->clat);
		unpack_lat(u, &ds->lat);
	}
	unpack_lat(u, &r->sync_lat);
	r->series.interval_ns = unpack_u64(u);
	n = unpack_u64(u);
	r->series.points = unpack_array(u, n, sizeof(*r->series.points));
	r->series.nr = r->series.cap = r->series.points ? (unsigned)n : 0;
	r->drive_before = unpack_str(u);
	r->drive_after = unpack_str(u);
	r->drive_delta = unpack_str(u);
	n = unpack_u64(u);
	r->verify_failures = unpack_array(u, n, sizeof(*r->verify_failures));
	r->nr_verify_failures = r->verify_failures ? (unsigned)n : 0;
	for (int d = 0; d < DIR_COUNT && !u->failed; d++) {
		n = unpack_u64(u);
		if (n > 4096) {
			u->failed = true;
			break;
		}
		if (n && !(r->prio_clat[d] = calloc(n, sizeof(*r->prio_clat[d])))) {
			u->failed = true;
			break;
		}
		r->nr_prio_clat[d] = (unsigned)n;
		for (unsigned i = 0; i < n; i++) {
			r->prio_clat[d][i].ioprio = (unsigned)unpack_u64(u);
			unpack_lat(u, &r->prio_clat[d][i].clat);
		}
	}
	r->checks = NULL;
	if (unpack_done(u, "a rank's result")) {
		job_result_free(r);
		return -1;
	}
	return 0;
}
