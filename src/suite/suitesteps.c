/* suitesteps.c - the suite's step kinds, each through the one runner:
 * purge (BLKDISCARD or a punched hole, behind the safety gate), the
 * preconditions (sequential, random, sprandom), steady state (SNIA PTS
 * rounds), measure and sweep points, DLIO checkpoint passes and idle;
 * each skips the points a resume kept. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "suite/sprandom.h"
#include "suite/steady.h"
#include "suite/suitectx.h"
#include "device/model_target.h"
#include "device/purge.h"
#include "device/safety.h"
#include "ranks/ranks.h"
#include "util/clock.h"
#include "device/output_gate.h"
#include "util/error.h"
#include "verify/verify.h"
#include "record/rank_run.h"
#include "record/record_run.h"
#include "workload/checkpoint.h"
#include "workload/checkpoint_fs.h"
#include "workload/checkpoint_regions.h"

#define IDLE_SLICE_NS 100000000ull   /* idle checks the stop flag this often */

/* The step's workload aimed at the target, named after the step. */
void suite_step_spec(const struct suite_ctx *c, const struct suite_step *st,
		     const char *suffix, struct job_spec *spec)
{
	*spec = st->spec;
	/* one file, whatever colons its path holds (a by-path name); a
	 * modelled drive through its engine, whatever engine the step names */
	if (c->target.is_model)
		(void)model_target_aim(spec, c->o->target);   /* probed: it parses */
	else
		job_spec_set_path(spec->filename, sizeof(spec->filename), c->o->target);
	spec->directory[0] = '\0';
	snprintf(spec->name, sizeof(spec->name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
	suite_name_logs(spec, &st->spec);
}

/* The target made as if new (target/purge.h), on every rank of an MPI run
 * (each its own target), behind the safety gate. */
static int do_purge(struct suite_ctx *c, int64_t step_id)
{
	struct purge_result done;
	char detail[128];

	enum purge_method m = c->step->purge;

	/* under ranks "strongest" is every rank's discard (suite_check_purges
	 * refused the other methods before the run) */
	if (m != PURGE_DISCARD && !(m == PURGE_STRONGEST && ranks_active())) {
		if (target_purge_method(c->o->target, m, c->o->destroy_ids,
					c->o->nr_destroy_ids, &done, &c->exit_code))
			return -1;
	} else if (rank_purge(c->o->target, c->o->destroy_ids, c->o->nr_destroy_ids, &done, &c->exit_code))
		return -1;
	if (m != PURGE_DISCARD)   /* which method "strongest" or "sanitize" became */
		suite_log(c, "purge = %s: %s", purge_method_name(m), done.method);
	snprintf(detail, sizeof(detail), "{\"method\":\"%s\",\"bytes\":%llu}", done.method,
		 (unsigned long long)done.bytes);
	return store_step_detail_set(c->db, step_id, detail);
}

/* A job's byte range on the target, for fills sized in capacities. */
int suite_spec_range(struct suite_ctx *c, const struct job_spec *spec,
		     uint64_t *start, uint64_t *len)
{
	struct target t = c->target;

	if (!t.exists && !t.is_block && spec->size)
		t.size = spec->offset + spec->size;   /* the runner lays it out */
	if (target_job_range(&t, spec, 0, start, len)) {
		c->exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	return 0;
}

/* A precondition is one point: kept when a resume found it stored whole,
 * else written again from its start (a cut fill is not a fill). */
static int do_fill(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	double capacities = st->capacities > 0 ? st->capacities : 1;
	struct job_spec spec;
	uint64_t start, len, bs;

	if (suite_point_kept(c, step_id, 0))
		return 0;
	suite_step_spec(c, st, "", &spec);
	spec.rw = st->precondition == PRECOND_RANDOM ? RW_RANDWRITE : RW_WRITE;
	spec.time_based = false;
	spec.runtime_ns = 0;
	spec.ramp_ns = 0;
	spec.numjobs = 1;
	if (suite_spec_range(c, &spec, &start, &len))
		return -1;
	bs = job_spec_max_bs(&spec);
	spec.io_size = (uint64_t)(capacities * (double)len) / bs * bs;
	if (!spec.io_size)
		spec.io_size = bs;
	c->step_planned_bytes = spec.io_size;
	return suite_run_one(c, &spec, step_id, 0, NULL);
}

/* sprandom: one sequential write of each region, then random overwrites
 * inside it with the IU as block size, as the plan says. */
static int do_sprandom(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct sprandom_plan plan;
	struct job_list jobs = { 0 };
	struct job_spec base, spec;
	uint64_t start, len;
	char suffix[48];
	int rc = 0;

	if (suite_point_kept(c, step_id, 0))   /* one point, as a fill */
		return 0;
	suite_step_spec(c, st, "", &base);
	base.time_based = false;
	base.runtime_ns = 0;
	base.ramp_ns = 0;
	base.numjobs = 1;
	if (suite_spec_range(c, &base, &start, &len))
		return -1;
	/* the plan tiles whole IUs: a tail smaller than one IU is left out */
	if (st->iu)
		len = len / st->iu * st->iu;
	if (sprandom_plan(len, st->op, st->regions, st->iu, &plan)) {
		c->exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	base.size_pct = base.offset_pct = 0;
	base.offset_increment = 0;
	base.offset_increment_pct = 0;
	base.io_size = 0;
	base.stonewall = true;
	for (unsigned r = 0; r < plan.nr && rc == 0; r++) {
		const struct sprandom_region *region = &plan.regions[r];

		spec = base;
		spec.rw = RW_WRITE;
		spec.offset = start + region->offset;
		spec.size = region->length;
		snprintf(suffix, sizeof(suffix), "-r%u-fill", r);
		snprintf(spec.name, sizeof(spec.name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
		suite_name_logs(&spec, &st->spec);
		rc = job_list_append(&jobs, &spec);
		if (rc || region->overwrite_bytes < plan.iu)
			continue;
		spec.rw = RW_RANDWRITE;
		spec.bs[DIR_READ] = spec.bs[DIR_WRITE] = plan.iu;
		spec.bssplit_nr[DIR_READ] = spec.bssplit_nr[DIR_WRITE] = 0;
		spec.blockalign[DIR_READ] = spec.blockalign[DIR_WRITE] = 0;
		/* the planned invalid share needs distinct blocks: the random
		 * map (a permutation) never repeats a block within a pass */
		spec.norandommap = false;
		spec.random_generator = RANDGEN_TAUSWORTHE;
		spec.distribution.kind = DIST_RANDOM;
		spec.io_size = region->overwrite_bytes / plan.iu * plan.iu;
		snprintf(suffix, sizeof(suffix), "-r%u-overwrite", r);
		snprintf(spec.name, sizeof(spec.name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
		suite_name_logs(&spec, &st->spec);
		rc = job_list_append(&jobs, &spec);
	}
	c->step_planned_bytes = plan.total_bytes;
	sprandom_plan_free(&plan);
	if (rc) {
		c->exit_code = EXIT_RUN_FAILED;
		rc = err_set("out of memory");
	} else {
		rc = suite_run_and_store(c, &jobs, step_id, 0, NULL);
	}
	job_list_free(&jobs);
	return rc;
}

/* checkpoint_fs: the filesystem made on the whole device and mounted for
 * the step (target/fs_setup.h), under the suite's --destroy-data consent;
 * the checkpoints are files in it (available: its free space). */
static int checkpoint_make_fs(struct suite_ctx *c, struct checkpoint_write *w,
			      uint64_t *available, struct fs_setup *fs)
{
	const struct suite_step *st = c->step;
	struct job_spec spec;
	uint64_t base, len;

	if (checkpoint_fs_check("checkpoint_fs", st->checkpoint_fs, c->o->target))
		return -1;
	suite_step_spec(c, st, "", &spec);
	if (suite_spec_range(c, &spec, &base, &len))
		return -1;
	if (base || len != c->target.size)
		return err_set("checkpoint_fs = %s is made on the whole device: drop the step's "
			       "offset and size (its range is %llu bytes from %llu of %llu)",
			       st->checkpoint_fs, (unsigned long long)len,
			       (unsigned long long)base, (unsigned long long)c->target.size);
	if (fs_setup_make(fs, c->o->target, st->checkpoint_fs, c->o->destroy_ids,
			  c->o->nr_destroy_ids, c->o->stop)) {
		c->exit_code = err_refused() ? EXIT_UNSAFE : EXIT_RUN_FAILED;
		c->interrupted = *c->o->stop != 0;
		return -1;
	}
	w->fs = fs;
	w->dir = fs->dir;
	return checkpoint_free_bytes(fs->dir, available);
}

/* Where the checkpoints go: for a file target, files in the directory
 * next to it, TARGET.checkpoints (available: its free space, for a fill
 * at most the target's range); for a block
 * device, regions of the target's range from its start or the step's
 * offset (available: the range's length; workload/checkpoint_regions.h),
 * or with checkpoint_fs files on a filesystem made for them. */
static int checkpoint_place(struct suite_ctx *c, char *dir, size_t len,
			    struct checkpoint_write *w, uint64_t *available,
			    bool *by_target, struct fs_setup *fs)
{
	int n;

	if (c->step->checkpoint_fs[0])
		return checkpoint_make_fs(c, w, available, fs);
	if (c->target.is_block || c->target.is_model) {
		struct job_spec spec;

		suite_step_spec(c, c->step, "", &spec);
		if (suite_spec_range(c, &spec, &w->base, available))
			return -1;
		w->device = c->o->target;
		return 0;
	}
	w->dir = dir;
	n = snprintf(dir, len, "%s.checkpoints", c->o->target);
	if (n < 0 || (size_t)n >= len)
		return err_set("path too long: '%s.checkpoints'", c->o->target);
	if (output_gate_check("checkpoint directory", dir, OUTPUT_DIRECTORY))
		return -1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set("cannot create '%s': %s", dir, strerror(errno));
	if (checkpoint_free_bytes(dir, available))
		return -1;
	/* a file target stands for a drive of its size: a fill writes as
	 * many checkpoints as fit that (as `plan` counts them), never the
	 * whole filesystem beside it (an 8 MB scratch file filled 21 GB) */
	if (!c->step->checkpoint_count) {
		struct job_spec spec;
		uint64_t start, range;

		suite_step_spec(c, c->step, "", &spec);
		if (suite_spec_range(c, &spec, &start, &range))
			return -1;
		if (range < *available) {
			*available = range;
			*by_target = true;
		}
	}
	return 0;
}

/* A resume makes a new filesystem: the checkpoints an earlier pass 1
 * wrote are laid out on it again, unmeasured, so that the passes after
 * write over files as they would have. */
static int checkpoint_restore_kept(struct suite_ctx *c, int64_t step_id,
				   const struct dlio_plan *plan,
				   const struct checkpoint_write *w, unsigned count)
{
	unsigned restored = 0;

	for (unsigned i = 1; w->fs && i <= count; i++) {
		if (!suite_point_kept(c, step_id, i - 1))
			continue;
		if (checkpoint_restore(plan, w->dir, i, c->o->stop)) {
			c->exit_code = EXIT_RUN_FAILED;
			c->interrupted = *c->o->stop != 0;
			return -1;
		}
		restored++;
	}
	if (restored)
		suite_log(c, "the %u checkpoint%s pass 1 kept from before the resume laid out "
			  "again on the new %s (unmeasured)", restored, restored == 1 ? "" : "s",
			  w->fs->type);
	return 0;
}

/* The filesystem made for the step is undone however the step ended
 * (also interrupted): unmounted, its directory removed, its signature
 * wiped. Failing that fails the step; the step's own error comes first. */
static int checkpoint_release(struct suite_ctx *c, struct fs_setup *fs, int rc)
{
	char message[1024], failure[1024];

	if (!fs->mounted && !fs->made && !fs->dir[0])
		return rc;
	snprintf(message, sizeof(message), "%s", err_msg());
	if (fs_setup_release(fs) == 0) {
		suite_log(c, "%s on %s unmounted, its signature wiped", fs->type, fs->device);
		if (rc)
			err_set("%s", message);
		return rc;
	}
	snprintf(failure, sizeof(failure), "%s", err_msg());
	c->exit_code = EXIT_RUN_FAILED;
	return rc ? err_set("%s; and %s", message, failure) : err_set("%s", failure);
}

/* How many checkpoints a pass writes: the step's count, else as many as
 * fit the space available. Recorded in the step's detail with the mode
 * (and a device's regions) when first computed, so a resume (which finds
 * pass 1's files taking space) writes as many. Regions that do not fit
 * the device are refused before any write. */
static int checkpoint_count(struct suite_ctx *c, int64_t step_id, const struct dlio_plan *plan,
			    const struct checkpoint_write *w, uint64_t available,
			    bool by_target, unsigned *count)
{
	const struct suite_step *st = c->step;
	uint64_t span = w->device ? checkpoint_span(plan) : plan->total_bytes;
	char *stored = NULL, *text, mode[512];
	const cJSON *item;
	cJSON *j;
	int rc;

	if (store_step_detail_get(c->db, step_id, &stored))
		return -1;
	j = stored ? cJSON_Parse(stored) : NULL;
	free(stored);
	item = cJSON_GetObjectItemCaseSensitive(j, "checkpoints");
	*count = cJSON_IsNumber(item) && item->valuedouble >= 1 &&
		 item->valuedouble <= UINT32_MAX ? (unsigned)item->valuedouble : 0;
	cJSON_Delete(j);
	if (*count) {
		checkpoint_mode_text(plan, w, *count, available, mode, sizeof(mode));
		suite_log(c, "%s (kept from before the resume)", mode);
		return w->device ? checkpoint_regions_fit(plan, *count, available, w->device) : 0;
	}
	*count = st->checkpoint_count ? st->checkpoint_count :
		checkpoint_count_for_space(available, st->checkpoint_fill, span);
	if (!*count)
		return w->device ?
			err_set("not one checkpoint of %.2f GB fits in the %.2f GB of the "
				"target's range in '%s'", (double)span / 1e9,
				(double)available / 1e9, w->device) :
			by_target ?
			err_set("not one checkpoint of %.2f GB fits in the %.2f GB of the "
				"file target (its size bounds a fill): give the step a count, "
				"or a larger target", (double)span / 1e9, (double)available / 1e9) :
			err_set("not one checkpoint of %.2f GB fits in the %.2f GB free in '%s'",
				(double)span / 1e9, (double)available / 1e9, w->dir);
	if (w->device && checkpoint_regions_fit(plan, *count, available, w->device))
		return -1;
	j = checkpoint_detail_json(plan, w, *count);
	text = j ? cJSON_PrintUnformatted(j) : NULL;
	cJSON_Delete(j);
	rc = text ? store_step_detail_set(c->db, step_id, text) : err_set("out of memory");
	free(text);
	checkpoint_mode_text(plan, w, *count, available, mode, sizeof(mode));
	if (rc == 0)
		suite_log(c, "%s", mode);
	return rc;
}

/* One checkpoint of one pass, stored as point (pass - 1) x count + i - 1. */
static int checkpoint_point(struct suite_ctx *c, const struct dlio_plan *plan,
			    const struct checkpoint_write *w, unsigned pass, unsigned i,
			    unsigned count, int64_t step_id, struct checkpoint_consent *consent)
{
	struct run_options opt = suite_run_options(c);
	struct checkpoint_one one;
	struct record_place place = {
		.db = c->db, .run_id = &c->run_id, .step_id = step_id,
		.has_point = true, .point = (pass - 1) * count + i - 1,
		.has_pass = true, .pass = pass, .pass_index = i,
		.merged_name = one.name,
	};
	struct recorded rec = { 0 };
	enum run_failure why;
	uint64_t bytes;
	int rc;

	c->phase_bytes = c->sample_bytes = 0;
	c->sample_ns = clock_now_ns();
	if (checkpoint_one_prepare(plan, w, pass, i, &opt, consent, &one, &why)) {
		c->exit_code = run_failure_exit_code(why);
		rc = -1;
	} else if (record_run(&one.jobs, &one.opt, &place, &rec)) {
		c->exit_code = rec.ran ? EXIT_RUN_FAILED : run_failure_exit_code(rec.why);
		rc = -1;
	} else if (rec.interrupted) {
		c->interrupted = true;
		c->exit_code = EXIT_RUN_FAILED;
		rc = err_set("interrupted");
	} else {
		const struct job_result *merged = &rec.entries[0];

		bytes = merged->dir[DIR_WRITE].bytes;
		c->step_bytes += bytes;
		suite_log(c, "pass %u checkpoint %u/%u: %.3f GB in %.3f s", pass, i, count,
			 (double)bytes / 1e9, (double)merged->runtime_ns / 1e9);
		rc = verify_result_failure(merged) ? -1 : 0;
		if (rc)
			c->exit_code = EXIT_RUN_FAILED;
	}
	c->phase_bytes = 0;
	recorded_free(&rec);
	checkpoint_one_free(&one);
	return rc;
}

/* DLIO-style checkpoint passes (workload/checkpoint.h): pass 1 writes the
 * checkpoints (files, or on a block device regions of it or files on the
 * filesystem checkpoint_fs made for the step), later passes write the
 * same files again, each truncated first as torch.save does (regions are
 * overwritten in place); one result per checkpoint, named
 * "passP-ckptNNN", under this step. A resume continues at the first
 * checkpoint not stored (a checkpoint cut short has its partly written
 * files truncated and written again, as any later pass's). */
static int do_checkpoint(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	char dir[JOB_PATH_MAX];
	struct checkpoint_write w = { .fsync = true };
	struct fs_setup fs = { 0 };
	/* files the step created but could not mark: its consent, every pass */
	struct checkpoint_consent consent = { 0 };
	struct dlio_plan plan;
	uint64_t available;
	bool by_target = false;   /* available is the file target's size */
	unsigned count;
	int rc = -1;

	c->exit_code = EXIT_BAD_INPUT;
	if (checkpoint_plan_for(st->checkpoint_model, st->checkpoint_size,
				st->checkpoint_ranks, &plan))
		return -1;
	if (checkpoint_place(c, dir, sizeof(dir), &w, &available, &by_target, &fs) ||
	    checkpoint_count(c, step_id, &plan, &w, available, by_target, &count) ||
	    checkpoint_restore_kept(c, step_id, &plan, &w, count))
		goto out;
	c->exit_code = EXIT_OK;
	rc = 0;
	for (unsigned p = 1; p <= st->checkpoint_passes && rc == 0; p++)
		for (unsigned i = 1; i <= count && rc == 0; i++)
			if (!suite_point_kept(c, step_id, (p - 1) * count + i - 1))
				rc = checkpoint_point(c, &plan, &w, p, i, count, step_id,
						      &consent);
out:
	rc = checkpoint_release(c, &fs, rc);
	checkpoint_consent_free(&consent);
	dlio_plan_free(&plan);
	return rc;
}

static int do_idle(struct suite_ctx *c)
{
	return suite_idle_for(c, c->step->idle_ns);
}

/* Sleeps ns in slices, checking the stop flag between them. */
int suite_idle_for(struct suite_ctx *c, uint64_t ns)
{
	uint64_t end = clock_now_ns() + ns;
	uint64_t now;

	c->rate_bps = 0;
	while ((now = clock_now_ns()) < end) {
		uint64_t left = end - now;
		struct timespec slice;

		if (*c->o->stop) {
			c->interrupted = true;
			c->exit_code = EXIT_RUN_FAILED;
			return err_set("interrupted");
		}
		if (left > IDLE_SLICE_NS)
			left = IDLE_SLICE_NS;
		slice.tv_sec = (time_t)(left / 1000000000ull);
		slice.tv_nsec = (long)(left % 1000000000ull);
		nanosleep(&slice, NULL);
		if (now - c->last_draw_ns >= 1000000000ull)
			suite_draw_status(c, now);
	}
	return 0;
}

static int run_kind(struct suite_ctx *c, int64_t step_id)
{
	switch (c->step->kind) {
	case STEP_PURGE:
		return do_purge(c, step_id);
	case STEP_PRECONDITION:
		return c->step->precondition == PRECOND_SPRANDOM ?
			do_sprandom(c, step_id) : do_fill(c, step_id);
	case STEP_STEADY:
		return suite_do_steady(c, step_id);
	case STEP_MEASURE:
	case STEP_SWEEP:
		return suite_do_sweep(c, step_id);
	case STEP_IDLE:
		return do_idle(c);
	case STEP_CHECKPOINT:
		return do_checkpoint(c, step_id);
	}
	c->exit_code = EXIT_BAD_INPUT;
	return err_set("unknown step kind %d", (int)c->step->kind);
}

/* The step's test (test = NAME) in its detail, beside what the step kind
 * put there: the report finds a test's steps by it. */
static int tag_test(struct suite_ctx *c, int64_t step_id)
{
	char *stored = NULL, *text;
	cJSON *j;
	int rc;

	if (!c->step->test[0])
		return 0;
	if (store_step_detail_get(c->db, step_id, &stored))
		return -1;
	j = stored ? cJSON_Parse(stored) : cJSON_CreateObject();
	free(stored);
	if (j && !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		j = cJSON_CreateObject();
	}
	cJSON_DeleteItemFromObjectCaseSensitive(j, "test");
	if (!j || !cJSON_AddStringToObject(j, "test", c->step->test)) {
		cJSON_Delete(j);
		return err_set("out of memory");
	}
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	rc = text ? store_step_detail_set(c->db, step_id, text) : err_set("out of memory");
	free(text);
	return rc;
}

int suite_run_step(struct suite_ctx *c, int64_t step_id)
{
	if (run_kind(c, step_id))
		return -1;
	if (tag_test(c, step_id)) {
		c->exit_code = EXIT_RUN_FAILED;
		return -1;
	}
	return 0;
}
