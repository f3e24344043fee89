/* worker.c - one job clone's thread: its I/O buffers, block-size and offset
 * generators, thread settings (job_env.c), engine setup and teardown, and
 * worker_main, which runs the submit/reap loop (loop.c) once every clone is
 * ready. */
#include "run/worker.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/checks_run.h"
#include "run/jobctl.h"
#include "run/zbd_run.h"
#include "run/files.h"
#include "run/job_env.h"
#include "run/loop.h"
#include "run/pagecache.h"
#include "run/shape.h"
#include "util/error.h"
#include "job/options.h"

#define BUFFER_ALIGN 4096

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

uint64_t worker_buffer_bytes(const struct job_spec *spec)
{
	uint64_t per_io = job_spec_max_bs(spec);

	if (per_io > spec->chunk_size)
		per_io = spec->chunk_size;
	if (spec->verify != VERIFY_NONE) {
		/* the verify pass reads in slot-sized pieces: about 4 MiB in
		 * flight, 1 MiB a read at most; slots hold whole units, so
		 * chunks of a large request start on a unit */
		uint64_t unit = verify_unit(spec), step, want;

		want = VERIFY_READ_BYTES * 4ull / spec->iodepth;
		if (want > VERIFY_READ_BYTES)
			want = VERIFY_READ_BYTES;
		if (per_io < want)
			per_io = want;
		if (unit) {
			step = unit / gcd64(unit, BUFFER_ALIGN) * BUFFER_ALIGN;
			return (per_io + step - 1) / step * step * spec->iodepth;
		}
	}
	per_io = (per_io + BUFFER_ALIGN - 1) & ~(uint64_t)(BUFFER_ALIGN - 1);
	return per_io * spec->iodepth;
}

uint64_t worker_series_points(const struct job_spec *spec)
{
	uint64_t interval = spec->series_interval_ns ? spec->series_interval_ns : 1000000000ull;
	uint64_t points = SERIES_POINTS_UNTIMED;

	/* the measured time in whole intervals, a partial last one, and one
	 * to spare; a job that runs on (verify after the writes) coarsens */
	if (spec->runtime_ns)
		points = spec->runtime_ns / interval + 2;
	if (points > SERIES_POINTS_MAX)
		points = SERIES_POINTS_MAX;
	return (points + 1) & ~1ull;   /* even: coarsening halves it */
}

uint64_t worker_result_bytes(const struct job_spec *spec)
{
	return sizeof(struct worker) + worker_series_points(spec) * sizeof(struct series_point);
}

static int fail(struct worker *w)
{
	w->setup_failed = true;
	w->setup_refused = err_refused();   /* an engine's gate said no: exit 3 */
	snprintf(w->error_text, sizeof(w->error_text), "%s", err_msg());
	return -1;
}

/* What the slots hold before the job (buffers.h): random data, unless
 * the buffer options say otherwise. */
static void fill_buffers(struct worker *w)
{
	uint64_t key = w->dedupe_keys ? w->dedupe_keys->keys[w->dedupe_index] :
		job_seed(w->spec, w->clone, RNG_STREAM_DATA);

	buffers_setup(&w->bufs, w->spec, key, w->range_len, w->dedupe_keys, w->dedupe_index);
	/* slot by slot, so that a stop during a fill of gigabytes is seen
	 * (the loop then issues nothing, so a part-filled pool is never used) */
	for (unsigned i = 0; i < w->depth && !(w->stop && *w->stop); i++)
		buffers_fill_slots(&w->bufs, (char *)w->buffers + (size_t)i * w->buf_size, 1,
				   w->buf_size);
}

static int setup_buffers(struct worker *w)
{
	const struct job_spec *s = w->spec;
	uint64_t total = worker_buffer_bytes(s);

	w->depth = s->iodepth;
	w->buf_size = (uint32_t)(total / s->iodepth);
	if (posix_memalign(&w->buffers, BUFFER_ALIGN, total))
		return err_set("job '%s': cannot allocate %llu bytes of I/O buffers",
			       s->name, (unsigned long long)total);
	fill_buffers(w);
	w->ios = calloc(w->depth, sizeof(*w->ios));
	w->requests = calloc(w->depth, sizeof(*w->requests));
	w->free_ios = calloc(w->depth, sizeof(*w->free_ios));
	if (!w->ios || !w->requests || !w->free_ios)
		return err_set("job '%s': out of memory", s->name);
	for (unsigned i = 0; i < w->depth; i++) {
		w->ios[i].buf = (char *)w->buffers + (size_t)i * w->buf_size;
		w->ios[i].buf_index = (uint16_t)i;
		w->ios[i].owner = &w->requests[i];
		w->free_ios[i] = &w->ios[i];
	}
	w->nr_free = w->depth;
	w->result.max_buffer_bytes = total;
	return 0;
}

static int setup_generators(struct worker *w)
{
	const struct job_spec *s = w->spec;
	uint64_t blocks;

	rng_seed(&w->rng_mix, job_seed(s, w->clone, RNG_STREAM_RWMIX));
	rng_seed(&w->rng_bs, job_seed(s, w->clone, RNG_STREAM_BS));
	for (int d = 0; d < DIR_ALL; d++)
		if (bs_picker_init(&w->bs[d], d < DIR_COUNT ? s->bssplit[d] : NULL,
				   d < DIR_COUNT ? s->bssplit_nr[d] : 0, s->bs[d]))
			return err_prefix("job '%s'", s->name);
	w->align = job_spec_min_bs(s);
	for (int d = 0; d < DIR_ALL; d++)
		if (s->blockalign[d] && s->blockalign[d] < w->align &&
		    (d < DIR_COUNT || job_spec_uses_dir(s, d)))
			w->align = s->blockalign[d];
	blocks = w->range_len / w->align;
	if (blocks == 0)
		return err_set("job '%s': range of %llu bytes holds no block of %llu",
			       s->name, (unsigned long long)w->range_len,
			       (unsigned long long)w->align);
	w->random_offsets = job_spec_random(s);
	if (w->random_offsets &&
	    offset_gen_init_unit(&w->offsets, s, blocks, w->align,
				 job_seed(s, w->clone, RNG_STREAM_OFFSETS)))
		return err_prefix("job '%s'", s->name);
	/* a random job whose sizes vary keeps fio's map of done blocks (the
	 * shaped and several-file paths draw their own offsets) */
	if (w->random_offsets && w->offsets.kind == OFFSET_PERMUTATION && !w->files &&
	    !shape_needed(s) && job_spec_max_bs(s) != job_spec_min_bs(s) &&
	    block_map_init(&w->map, blocks) < 0)
		return err_prefix("job '%s'", s->name);
	return 0;
}

int worker_setup(struct worker *w)
{
	const struct job_spec *s = w->spec;

	w->fd = -1;
	/* the runner's clones start with no deadline (and exitall may have
	 * ended one already); a clone set up on its own gets none either */
	if (!w->ctl)
		w->deadline_ns = UINT64_MAX;
	/* CPUs, memory policy, priorities first: the buffers follow them */
	if (job_env_apply(w))
		return fail(w);
	w->ops = job_engine(s);
	if (!w->ops)
		return fail(w);
	if (w->files) {
		/* the guard range spans every file's range (files_pick keeps
		 * each I/O in its own file's) */
		const struct job_file *f0 = &w->files->file[0];

		w->range_start = w->files->nr == 1 ? f0->start : 0;
		w->range_len = w->files->nr == 1 ? f0->len : 0;
		for (unsigned k = 0; w->files->nr > 1 && k < w->files->nr; k++)
			if (w->files->file[k].start + w->files->file[k].len > w->range_len)
				w->range_len = w->files->file[k].start + w->files->file[k].len;
		w->special_prep = true;
	} else if (target_job_range(w->target, s, w->clone, &w->range_start, &w->range_len)) {
		return fail(w);
	}
	if (!w->files && engine_needs_fd(w->ops)) {
		w->fd = target_open(w->target, s);
		if (w->fd < 0)
			return fail(w);
	}
	if (setup_buffers(w) ||
	    (!(w->files && w->files->file_ops) && setup_generators(w)) ||
	    (w->files && files_open(w)) || checks_worker_setup(w) ||
	    zbd_run_check(w) || shape_init(w))
		return fail(w);
	worker_cache_open(w);
	/* the series' whole room now: the loop never allocates (loop.c) */
	if (series_reserve(&w->result.series, (unsigned)worker_series_points(s))) {
		err_prefix("job '%s'", s->name);
		return fail(w);
	}
	if (s->verify != VERIFY_NONE) {
		if (verify_ctx_init(&w->verify, s, w->verify_seed, w->range_start,
				    w->range_len))
			return fail(w);
		if (s->verify_only && !w->target->is_block)
			verify_ctx_set_data_end(&w->verify, w->target->size);
		w->verifying = true;
		w->special_prep = true;
	}
	w->engine.ops = w->ops;
	if (!w->files)
		w->engine.fd = w->fd;
	w->engine.depth = w->depth;
	w->engine.ios = w->ios;
	w->engine.nr_ios = w->depth;
	w->engine.buf_size = w->buf_size;
	w->engine.is_block = w->target->is_block;
	w->engine.nvme_nsid = w->target->is_nvme_char ? w->target->nvme_nsid : 0;
	w->engine.lba_size = w->target->is_nvme_char ? w->target->logical_block : 0;
	w->engine.max_segments = w->target->is_nvme_char ? w->target->max_segments : 0;
	w->engine.range_start = w->range_start;
	w->engine.range_len = w->range_len;
	w->engine.path = w->target->path;
	w->engine.stop = w->stop;
	if (w->ops->init(&w->engine, s))
		return fail(w);
	return 0;
}

void worker_teardown(struct worker *w)
{
	if (w->engine.priv && w->ops && w->ops->cleanup)
		w->ops->cleanup(&w->engine);
	w->engine.priv = NULL;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->files)
		files_close(w);
	else
		files_unlink_single(w);
	free(w->buffers);
	free(w->ios);
	free(w->requests);
	free(w->free_ios);
	verify_ctx_free(&w->verify);
	checks_worker_teardown(w);
	w->verifying = false;
	shape_free(w);
	block_map_free(&w->map);
	w->special_prep = false;
	w->buffers = w->ios = NULL;
	w->requests = NULL;
	w->free_ios = NULL;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	bool counted = !w->setup_failed;

	if (counted)
		engine_results_start(w);   /* before any clone may look */
	pthread_barrier_wait(w->start_barrier);
	if (w->go_barrier)
		pthread_barrier_wait(w->go_barrier);
	if (w->setup_failed || *w->abort_start) {
		if (counted)
			engine_results_finish(w);
		return NULL;
	}
	/* startdelay, wait_for (run/jobctl.c): the clone's clock starts after */
	if (w->ctl)
		jobctl_start(w);
	loop_run(w);
	__atomic_store_n(&w->live_done, true, __ATOMIC_RELEASE);
	if (w->ctl)
		jobctl_finish(w);
	engine_results_finish(w);
	return NULL;
}
