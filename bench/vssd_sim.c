/* vssd_sim.c - runs closed-loop jobs on a modelled drive in virtual time
 * (src/vssd/sim.h) and prints, per job, the modelled figures and what the
 * model cost: modelled I/Os per CPU-second. Used by bench/vssd-rate.sh
 * and for fitting (docs/vssd-fit.md).
 * Usage: vssd_sim MODEL.ini SCALE JOB...
 * JOB = rw:bs:depth[/jobs]:amount[:idle_ms|:untimed], amount = Nx (capacities),
 * Ns (model seconds) or N (I/Os); untimed: writes through the FTL off the
 * clock (a fast warm-up); e.g. write:128k:16:1x randwrite:16k:256:2x */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "util/units.h"
#include "vssd/drive.h"
#include "vssd/model.h"
#include "vssd/sim.h"

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int parse_job(const char *text, uint64_t capacity, struct sim_job *j)
{
	char buf[128], *f[5] = { 0 }, *save = NULL;
	int n = 0;
	uint64_t v;

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *t = strtok_r(buf, ":", &save); t && n < 5; t = strtok_r(NULL, ":", &save))
		f[n++] = t;
	memset(j, 0, sizeof(*j));
	if (n < 4 || sim_rw_parse(f[0], &j->rw) || units_parse_size(f[1], 1024, &v))
		return err_set("bad job '%s' (rw:bs:depth:amount[:idle_ms|:untimed])", text);
	j->bs = (uint32_t)v;
	j->depth = (uint32_t)atoi(f[2]);
	if (strchr(f[2], '/'))   /* depth/jobs, as the reviews write it */
		j->jobs = (uint32_t)atoi(strchr(f[2], '/') + 1);
	size_t len = strlen(f[3]);
	if (len && f[3][len - 1] == 'x')
		j->bytes = (uint64_t)(atof(f[3]) * (double)capacity);
	else if (len && f[3][len - 1] == 's')
		j->seconds = atof(f[3]);
	else
		j->ios = strtoull(f[3], NULL, 10);
	if (f[4] && !strcmp(f[4], "untimed"))
		j->untimed = true;
	else if (f[4])
		j->idle_ns = (uint64_t)(atof(f[4]) * 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	struct vssd_model m;
	struct vdrive *d;

	if (argc < 4) {
		fprintf(stderr, "usage: %s MODEL.ini SCALE rw:bs:depth:amount[:idle_ms|:untimed]...\n", argv[0]);
		return 2;
	}
	if (vssd_model_load(argv[1], argv[2], &m) || !(d = vdrive_create(&m))) {
		fprintf(stderr, "vssd_sim: %s\n", err_msg());
		return 1;
	}
	printf("# %s at %s: %llu bytes, %u dies, %u blocks, OP %.4f\n", m.name, argv[2],
	       (unsigned long long)m.capacity, m.geometry.channels * m.geometry.dies_per_channel,
	       m.geometry.blocks, ftl_geometry_op(&m.geometry));
	printf("%-24s %12s %10s %10s %7s %10s %10s %10s %10s %10s\n", "job", "IOPS", "MB/s",
	       "lat_us", "WAF", "cpu_s", "IOs/cpu_s", "p99_us", "p99.9_us", "p99.99_us");
	for (int i = 3; i < argc; i++) {
		struct sim_job j;
		struct sim_result r;
		double t0, t;

		if (parse_job(argv[i], m.capacity, &j)) {
			fprintf(stderr, "vssd_sim: %s\n", err_msg());
			return 1;
		}
		t0 = cpu_seconds();
		if (sim_run(d, &j, &r)) {
			fprintf(stderr, "vssd_sim: %s\n", err_msg());
			return 1;
		}
		t = cpu_seconds() - t0;
		printf("%-24s %12.0f %10.1f %10.1f %7.3f %10.3f %10.0f %10.1f %10.1f %10.1f\n",
		       argv[i], r.iops, r.mbs, r.mean_lat_us, r.waf, t,
		       t > 0 ? (double)r.ios / t : 0, r.p99_us, r.p999_us, r.p9999_us);
		fflush(stdout);
	}
	vdrive_destroy(d);
	return 0;
}
