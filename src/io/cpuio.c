/* cpuio.c - fio's cpuio engine: moves no data, burns cpuload percent of a
 * CPU. Each "I/O" is one burn, a spin of cpuchunks us (cpumode=noop) or
 * four sorts of 256K integers (qsort, its time then being the chunk),
 * followed by an idle think of chunk x (100 - load) / load, which fio
 * spends outside the I/O's latency: reap sleeps it in slices (so a stop
 * is seen), then stamps the I/O at the start and end of its burn. With
 * exit_on_io_done the job ends once the phase's I/O jobs have. */
#include "io/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/sync_queue.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/option_table.h"

#define THINK_SLICE_NS 50000000ull
#define QSORT_INTS (256u << 10)
#define CHUNK_MAX_US 1000000u      /* one burn: at most a second */

struct cpuio_state {
	struct sync_queue q;     /* first: the shared ops find it */
	struct cpuio_opts o;
	uint64_t think_until;    /* the next burn starts then */
	int32_t *data;           /* qsort mode */
};

static int32_t cpuio_mark(struct engine *e, struct io *io)
{
	(void)e;
	return (int32_t)io->len;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

/* fio's stress: sort, reverse, by bytes, reverse again. */
static void burn_qsort(int32_t *data)
{
	qsort(data, QSORT_INTS, sizeof(*data), cmp_up);
	qsort(data, QSORT_INTS, sizeof(*data), cmp_down);
	qsort(data, QSORT_INTS * sizeof(*data), 1, cmp_byte);
	qsort(data, QSORT_INTS, sizeof(*data), cmp_down);
}

/* One burn from now; returns when it ended. */
static uint64_t burn(struct cpuio_state *st, uint64_t start)
{
	uint64_t end = start + (uint64_t)st->o.chunk_us * 1000, now;

	if (st->o.mode == CPUIO_QSORT) {
		burn_qsort(st->data);
		return clock_now_ns();
	}
	do
		now = clock_now_ns();
	while (now < end);
	return now;
}

static int cpuio_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct cpuio_state *st = e->priv;
	struct io *io = sync_queue_peek(&st->q);
	uint64_t now, end;

	if (!io || !max || !min)
		return 0;
	if (st->o.exit_on_io_done && engine_io_jobs_running() == 0) {
		e->ended = true;
		io->result = -ECANCELED;
		sync_queue_pop(&st->q);
		out[0] = io;
		return 1;
	}
	now = clock_now_ns();
	if (now < st->think_until) {
		uint64_t left = st->think_until - now;

		sleep_ns(left < THINK_SLICE_NS ? left : THINK_SLICE_NS);
		if (left > THINK_SLICE_NS)
			return 0;
		now = clock_now_ns();
	}
	io->start_ns = io->issue_ns = now;
	end = burn(st, now);
	io->complete_ns = end;
	st->think_until = end + (end - now) * (100 - st->o.load) / st->o.load;
	sync_queue_pop(&st->q);
	out[0] = io;
	return 1;
}

static void cpuio_cleanup(struct engine *e)
{
	struct cpuio_state *st = e->priv;

	if (st)
		free(st->data);
	sync_queue_destroy(e);
}

static int cpuio_init(struct engine *e, const struct job_spec *spec)
{
	struct cpuio_state *st;
	uint32_t w = 521288629u, z = 362436069u;   /* fio's multiply-with-carry */

	if (spec->eng.cpuio.load == 0)
		return err_set("cpuio: needs cpuload=");
	st = sync_queue_create(e, sizeof(*st), "cpuio", cpuio_mark);
	if (!st)
		return -1;
	st->o = spec->eng.cpuio;
	if (st->o.mode != CPUIO_QSORT)
		return 0;
	st->data = malloc(QSORT_INTS * sizeof(*st->data));
	if (!st->data) {
		sync_queue_destroy(e);
		return err_set("cpuio: out of memory");
	}
	for (unsigned i = 0; i < QSORT_INTS; i++) {
		z = 36969 * (z & 65535) + (z >> 16);
		w = 18000 * (w & 65535) + (w >> 16);
		st->data[i] = (int32_t)((z << 16) + w);
	}
	return 0;
}

static int set_cpumode(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "noop"))
		spec->eng.cpuio.mode = CPUIO_NOOP;
	else if (!strcmp(value, "qsort"))
		spec->eng.cpuio.mode = CPUIO_QSORT;
	else
		return err_set("unknown mode '%s' (noop or qsort)", value);
	return 0;
}

#define CFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

static const struct option_def cpuio_options[] = {
	{ "cpuload", NULL, OPT_UINT, CFIELD(eng.cpuio.load), 1, 100 },
	{ "cpuchunks", NULL, OPT_UINT, CFIELD(eng.cpuio.chunk_us), 1, CHUNK_MAX_US },
	FUNC("cpumode", NULL, set_cpumode),
	{ "exit_on_io_done", NULL, OPT_BOOL, CFIELD(eng.cpuio.exit_on_io_done), 0, 0, 0,
	  NULL, true },
	{ NULL },
};

static int cpuio_check(const struct job_spec *spec)
{
	if (spec->eng.cpuio.load == 0)
		return err_set("ioengine=cpuio needs cpuload= (the percentage of a CPU "
			       "to use, 1..100)");
	return 0;
}

const struct engine_ops engine_cpuio = {
	.name = "cpuio",
	.flags = ENGINE_SYNC | ENGINE_NO_FD | ENGINE_NO_IO,
	.options = cpuio_options,
	.check = cpuio_check,
	.init = cpuio_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = cpuio_reap,
	.cancel = sync_queue_cancel,
	.cleanup = cpuio_cleanup,
};
