/* fault.c - the fault-injection engine (ioengine=fault:<engine>). It owns
 * an inner engine on the same fd, I/O pool and buffers, forwards every
 * call to it, and injects the faults of spec->fault: EIO and dropped
 * writes never reach the inner engine, short transfers and read bit flips
 * are applied on completion, write bit flips before the I/O goes out, and
 * delays hold a completion back in reap. Every injected fault is counted. */
#include "io/fault.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/error.h"
#include "job/random.h"

#define DEFAULT_DELAY_NS 10000000ull   /* fault_delay's default, 10 ms */
#define SHORT_UNIT 512u                /* short transfers are multiples */
#define FLIP_SKIP 64u                  /* keep a verify header readable */
/* While a delayed completion waits and the inner engine still has I/O in
 * flight, reap sleeps in slices this long so those completions are not
 * held back much longer than they really took. */
#define WAIT_SLICE_NS 50000ull
/* The longest one reap waits for a held completion before it returns to
 * the loop (which then sees its deadline and stop flag). */
#define REAP_WAIT_MAX_NS 50000000ull
/* The fault draws' stream of job_seed, apart from enum rng_stream's. */
#define FAULT_RNG_STREAM 16u

/* The faults planned for one I/O slot, by bit (1u << enum fault_kind). */
struct plan {
	unsigned kinds;
	uint32_t flip_byte;     /* byte of the I/O's buffer whose bit flips */
	uint8_t flip_bit;
	bool flipped;           /* a write's bit is flipped in the buffer now */
};

struct held {
	struct io *io;
	uint64_t release_ns;
};

struct fault_state {
	struct engine inner;
	struct fault_spec spec;
	uint64_t delay_ns;
	struct rng rng;
	uint64_t seen;                  /* I/Os prepared (fault_skip) */
	uint64_t injected[FAULT_KINDS];
	uint64_t calls[FAULT_CALLS];    /* enum fault_call */
	struct plan *plans;             /* one per slot of e->ios */
	struct io **ready;              /* completed here (eio, drop): FIFO */
	unsigned ready_head, ready_tail;
	unsigned ready_new;             /* of those, queued since the last submit */
	struct held *held;              /* delayed completions */
	unsigned nr_held;
	bool delays;                    /* a delay rule is set: reap reads the clock */
	bool sync_inner;                /* ENGINE_SYNC: delays are spent in submit */
	unsigned sync_delayed;          /* prepared I/Os to delay at the next submit */
	struct io **scratch;            /* what the inner reap returns */
	unsigned slots;                 /* e->nr_ios */
	unsigned inner_outstanding;     /* prepared to the inner engine, not reaped */
};

static const char *const kind_names[FAULT_KINDS] = {
	[FAULT_EIO] = "eio", [FAULT_SHORT] = "short", [FAULT_DELAY] = "delay",
	[FAULT_DROP] = "drop", [FAULT_FLIP] = "flip",
};

const char *fault_kind_name(enum fault_kind kind)
{
	return (unsigned)kind < FAULT_KINDS ? kind_names[kind] : "unknown";
}

const char *fault_call_name(enum fault_call call)
{
	static const char *const names[FAULT_CALLS] = {
		[FAULT_CALL_SUBMITS] = "submit", [FAULT_CALL_SUBMITTED] = "submitted",
		[FAULT_CALL_REAPS] = "reap", [FAULT_CALL_REAPED] = "reaped",
	};

	return (unsigned)call < FAULT_CALLS ? names[call] : "unknown";
}

bool fault_spec_used(const struct fault_spec *spec, const char **option)
{
	static const char *const rate_option[FAULT_KINDS] = {
		"fault_eio_rate", "fault_short_rate", "fault_delay_rate",
		"fault_drop_rate", "fault_flip_rate",
	};
	static const char *const offsets_option[FAULT_KINDS] = {
		"fault_eio_offsets", "fault_short_offsets", "fault_delay_offsets",
		"fault_drop_offsets", "fault_flip_offsets",
	};
	const char *name = NULL;

	for (int k = 0; k < FAULT_KINDS && !name; k++) {
		if (spec->rule[k].rate_pct > 0)
			name = rate_option[k];
		else if (spec->rule[k].nr_offsets)
			name = offsets_option[k];
	}
	if (!name && spec->delay_ns)
		name = "fault_delay";
	if (!name && spec->skip_ios)
		name = "fault_skip";
	if (!name && spec->seed)
		name = "fault_seed";
	if (!name && spec->dirs)
		name = "fault_dir";
	if (option)
		*option = name;
	return name != NULL;
}

/* ---- the wrapper tables: one per inner engine ------------------------- */

static int fault_init(struct engine *e, const struct job_spec *spec);
static int fault_prep(struct engine *e, struct io *io);
static int fault_submit(struct engine *e);
static int fault_reap(struct engine *e, struct io **out, unsigned min, unsigned max);
static int fault_cancel(struct engine *e, struct io **out, unsigned max);
static void fault_cleanup(struct engine *e);
static int fault_collect(struct engine *e, struct job_result *r);

/* One wrapper per engine of engine_at's table, built on first use:
 * fault_tables[i] wraps engine_at(i) and carries its flags and options. */
#define MAX_TABLES 64
static struct engine_ops fault_tables[MAX_TABLES];
static char fault_names[MAX_TABLES][48];
static unsigned nr_tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	const struct engine_ops *inner;

	for (nr_tables = 0; nr_tables < MAX_TABLES && (inner = engine_at(nr_tables));
	     nr_tables++) {
		struct engine_ops *t = &fault_tables[nr_tables];

		snprintf(fault_names[nr_tables], sizeof(fault_names[0]), "%s%s",
			 FAULT_ENGINE_PREFIX, inner->name);
		t->name = fault_names[nr_tables];
		t->flags = inner->flags;
		t->options = inner->options;
		t->init = fault_init;
		t->prep = fault_prep;
		t->submit = fault_submit;
		t->reap = fault_reap;
		t->cancel = fault_cancel;
		t->cleanup = fault_cleanup;
		t->side_files = inner->side_files;
		t->collect = inner->collect ? fault_collect : NULL;
	}
}

const struct engine_ops *fault_engine_wrap(const struct engine_ops *inner)
{
	pthread_once(&tables_once, build_tables);
	for (unsigned i = 0; i < nr_tables; i++)
		if (engine_at(i) == inner)
			return &fault_tables[i];
	err_set("ioengine: '%s' cannot be wrapped by the fault engine",
		inner && inner->name ? inner->name : "");
	return NULL;
}

const struct engine_ops *fault_engine_inner(const struct engine_ops *ops)
{
	pthread_once(&tables_once, build_tables);
	if (ops >= fault_tables && ops < fault_tables + nr_tables)
		return engine_at((unsigned)(ops - fault_tables));
	return NULL;
}

void fault_engine_counts(const struct engine *e, uint64_t out[FAULT_KINDS])
{
	const struct fault_state *st = e ? e->priv : NULL;

	for (int k = 0; k < FAULT_KINDS; k++)
		out[k] = st && fault_engine_inner(e->ops) ? st->injected[k] : 0;
}

void fault_engine_calls(const struct engine *e, uint64_t out[FAULT_CALLS])
{
	const struct fault_state *st = e ? e->priv : NULL;

	for (int k = 0; k < FAULT_CALLS; k++)
		out[k] = st && fault_engine_inner(e->ops) ? st->calls[k] : 0;
}

/* ---- setup ------------------------------------------------------------ */

static void free_state(struct fault_state *st)
{
	free(st->plans);
	free(st->ready);
	free(st->held);
	free(st->scratch);
	free(st);
}

static int fault_init(struct engine *e, const struct job_spec *spec)
{
	const struct engine_ops *inner = fault_engine_inner(e->ops);
	struct fault_state *st;

	if (!inner)
		return err_set("fault: engine table is not a fault engine");
	if (!e->ios || e->nr_ios == 0)
		return err_set("fault: no I/O pool");
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("fault: out of memory");
	st->slots = e->nr_ios;
	st->plans = calloc(st->slots, sizeof(*st->plans));
	st->ready = calloc(st->slots, sizeof(*st->ready));
	st->held = calloc(st->slots, sizeof(*st->held));
	st->scratch = calloc(st->slots, sizeof(*st->scratch));
	if (!st->plans || !st->ready || !st->held || !st->scratch) {
		free_state(st);
		return err_set("fault: out of memory");
	}
	st->spec = spec->fault;
	st->delay_ns = spec->fault.delay_ns ? spec->fault.delay_ns : DEFAULT_DELAY_NS;
	st->delays = spec->fault.rule[FAULT_DELAY].rate_pct > 0 ||
		     spec->fault.rule[FAULT_DELAY].nr_offsets > 0;
	st->sync_inner = (inner->flags & ENGINE_SYNC) != 0;
	rng_seed(&st->rng, spec->fault.seed ? spec->fault.seed :
		 job_seed(spec, 0, FAULT_RNG_STREAM));
	st->inner = *e;
	st->inner.ops = inner;
	st->inner.priv = NULL;
	if (inner->init(&st->inner, spec)) {
		free_state(st);
		return err_prefix("fault:%s", inner->name);
	}
	e->priv = st;
	return 0;
}

static int fault_collect(struct engine *e, struct job_result *r)
{
	struct fault_state *st = e->priv;

	return st && st->inner.ops->collect ? st->inner.ops->collect(&st->inner, r) : 0;
}

static void fault_cleanup(struct engine *e)
{
	struct fault_state *st = e->priv;

	if (!st)
		return;
	if (st->inner.priv && st->inner.ops->cleanup)
		st->inner.ops->cleanup(&st->inner);
	free_state(st);
	e->priv = NULL;
}

/* ---- deciding ------------------------------------------------------------ */

static bool covers_offset(const struct fault_rule *rule, const struct io *io)
{
	for (unsigned i = 0; i < rule->nr_offsets; i++)
		if (rule->offsets[i] >= io->offset &&
		    rule->offsets[i] - io->offset < io->len)
			return true;
	return false;
}

static bool kind_applies(enum fault_kind kind, const struct io *io)
{
	switch (kind) {
	case FAULT_SHORT:
		return io->len > SHORT_UNIT;
	case FAULT_DROP:
		return io->dir == DIR_WRITE;
	case FAULT_FLIP:
		return io->len > FLIP_SKIP;
	default:
		return true;
	}
}

/* Which faults hit this I/O. Every kind with a rate draws for every
 * eligible I/O, so one kind's rate does not shift another's sequence.
 * At most one of eio, drop, short and flip (in that precedence); a delay
 * can come with any of them. */
static unsigned plan_faults(struct fault_state *st, const struct io *io)
{
	static const enum fault_kind precedence[] = {
		FAULT_EIO, FAULT_DROP, FAULT_SHORT, FAULT_FLIP,
	};
	unsigned hits = 0, kinds = 0;

	st->seen++;
	if (st->seen <= st->spec.skip_ios)
		return 0;
	if (st->spec.dirs && !(st->spec.dirs & (1u << io->dir)))
		return 0;
	for (int k = 0; k < FAULT_KINDS; k++) {
		const struct fault_rule *rule = &st->spec.rule[k];
		bool hit = false;

		if (rule->rate_pct > 0)
			hit = rng_unit(&st->rng) * 100.0 < rule->rate_pct;
		if (!hit && rule->nr_offsets)
			hit = covers_offset(rule, io);
		if (hit && kind_applies((enum fault_kind)k, io))
			hits |= 1u << k;
	}
	for (size_t i = 0; i < sizeof(precedence) / sizeof(precedence[0]); i++)
		if (hits & (1u << precedence[i])) {
			kinds = 1u << precedence[i];
			break;
		}
	return kinds | (hits & (1u << FAULT_DELAY));
}

static void flip_bit(struct io *io, const struct plan *p)
{
	((unsigned char *)io->buf)[p->flip_byte] ^= (unsigned char)(1u << p->flip_bit);
}

static struct plan *plan_of(struct fault_state *st, struct engine *e,
			    const struct io *io)
{
	if (io < e->ios || io >= e->ios + st->slots)
		return NULL;
	return &st->plans[io - e->ios];
}

/* ---- the engine --------------------------------------------------------- */

static int fault_prep(struct engine *e, struct io *io)
{
	struct fault_state *st = e->priv;
	struct plan *p = plan_of(st, e, io);

	if (!p)
		return err_set("fault: I/O is not from the engine's pool");
	memset(p, 0, sizeof(*p));
	p->kinds = plan_faults(st, io);
	if (st->sync_inner && (p->kinds & (1u << FAULT_DELAY)) &&
	    st->delay_ns <= REAP_WAIT_MAX_NS) {
		/* a synchronous engine's I/O is done when submit returns: the
		 * delay is device time, spent inside the submit call. A longer
		 * one is held in reap as for any engine, so that the loop sees
		 * its stop flag within a slice (the runner stamps the I/O
		 * before submit and after reap, so it is clat either way). */
		p->kinds &= ~(1u << FAULT_DELAY);
		st->sync_delayed++;
	}
	if (p->kinds & ((1u << FAULT_EIO) | (1u << FAULT_DROP))) {
		/* completes here; the inner engine never sees it */
		if (st->ready_tail - st->ready_head >= st->slots)
			return err_set("fault: queue full (%u I/Os)", st->slots);
		if (p->kinds & (1u << FAULT_EIO)) {
			io->result = -EIO;
			st->injected[FAULT_EIO]++;
		} else {
			io->result = (int32_t)io->len;
			st->injected[FAULT_DROP]++;
		}
		st->ready[st->ready_tail++ % st->slots] = io;
		st->ready_new++;
		return 0;
	}
	if (p->kinds & (1u << FAULT_FLIP)) {
		p->flip_byte = FLIP_SKIP + (uint32_t)rng_below(&st->rng, io->len - FLIP_SKIP);
		p->flip_bit = (uint8_t)rng_below(&st->rng, 8);
		if (io->dir == DIR_WRITE) {
			flip_bit(io, p);   /* the device gets the flipped data */
			p->flipped = true;
		}
	}
	if (st->inner.ops->prep(&st->inner, io)) {
		if (p->flipped)
			flip_bit(io, p);
		p->kinds = 0;
		return -1;
	}
	if (p->flipped)
		st->injected[FAULT_FLIP]++;
	st->inner_outstanding++;
	return 0;
}

/* The delays of a synchronous inner engine's submitted I/Os, one after
 * the other as such an engine does them. A signal (the stop) cuts the
 * sleep short rather than holding the run's end back. */
static int spend_sync_delays(struct fault_state *st)
{
	uint64_t total = st->delay_ns > UINT64_MAX / st->sync_delayed ? UINT64_MAX :
			 st->delay_ns * st->sync_delayed, until;
	struct timespec ts;
	int rc;

	st->injected[FAULT_DELAY] += st->sync_delayed;
	st->sync_delayed = 0;
	until = clock_now_ns();
	until = until + total < until ? UINT64_MAX : until + total;
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	if (rc && rc != EINTR)
		return err_set("fault: clock_nanosleep: %s", strerror(rc));
	return 0;
}

static int fault_submit(struct engine *e)
{
	struct fault_state *st = e->priv;
	int n = st->inner.ops->submit(&st->inner);

	if (n < 0)
		return -1;
	if (st->sync_delayed && spend_sync_delays(st))
		return -1;
	n += (int)st->ready_new;
	st->ready_new = 0;
	if (n > 0) {
		st->calls[FAULT_CALL_SUBMITS]++;
		st->calls[FAULT_CALL_SUBMITTED] += (unsigned)n;
	}
	return n;
}

/* What happens when the inner engine hands an I/O back. */
static void inner_completed(struct fault_state *st, struct plan *p, struct io *io)
{
	if (p->flipped) {
		flip_bit(io, p);   /* the caller's buffer is restored */
		p->flipped = false;
	}
	if ((p->kinds & (1u << FAULT_SHORT)) && io->result == (int32_t)io->len) {
		uint32_t part = io->len / 2 / SHORT_UNIT * SHORT_UNIT;

		io->result = (int32_t)(part ? part : SHORT_UNIT);
		st->injected[FAULT_SHORT]++;
	}
	if ((p->kinds & (1u << FAULT_FLIP)) && io->dir == DIR_READ &&
	    io->result > (int32_t)p->flip_byte) {
		flip_bit(io, p);
		st->injected[FAULT_FLIP]++;
	}
}

/* Passes a completion on, or holds it back when it is to be delayed.
 * Returns true when it goes to the caller now. */
static bool pass_or_hold(struct fault_state *st, struct plan *p, struct io *io,
			 uint64_t now)
{
	if (!(p->kinds & (1u << FAULT_DELAY)))
		return true;
	p->kinds &= ~(1u << FAULT_DELAY);
	st->injected[FAULT_DELAY]++;
	st->held[st->nr_held].io = io;
	if (io->complete_ns) {
		/* the inner engine models latency (null_latency): the delay adds
		 * to it, and the completion waits for it like any other */
		io->complete_ns = io->complete_ns + st->delay_ns < io->complete_ns ?
				  UINT64_MAX : io->complete_ns + st->delay_ns;
		st->held[st->nr_held].release_ns = io->complete_ns;
	} else {
		st->held[st->nr_held].release_ns = now + st->delay_ns < now ?
						   UINT64_MAX : now + st->delay_ns;
	}
	st->nr_held++;
	return false;
}

/* Moves held completions due by now to out; returns how many. */
static unsigned take_released(struct fault_state *st, uint64_t now,
			      struct io **out, unsigned room)
{
	unsigned n = 0, i = 0;

	while (i < st->nr_held && n < room) {
		if (st->held[i].release_ns <= now) {
			out[n++] = st->held[i].io;
			st->held[i] = st->held[--st->nr_held];
		} else {
			i++;
		}
	}
	return n;
}

static uint64_t earliest_release(const struct fault_state *st)
{
	uint64_t first = UINT64_MAX;

	for (unsigned i = 0; i < st->nr_held; i++)
		if (st->held[i].release_ns < first)
			first = st->held[i].release_ns;
	return first;
}

static int sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	if (nanosleep(&ts, NULL) && errno != EINTR)
		return err_set("fault: nanosleep: %s", strerror(errno));
	return 0;
}

static int reap_completions(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct fault_state *st = e->priv;
	uint64_t waited_from = 0;
	unsigned n = 0;

	st->inner.measuring = e->measuring;
	if (min > max)
		min = max;
	for (;;) {
		/* the clock only matters when something is or may be delayed */
		uint64_t now = st->delays || st->nr_held ? clock_now_ns() : 0, first;

		if (st->nr_held)
			n += take_released(st, now, out + n, max - n);
		while (n < max && st->ready_head != st->ready_tail) {
			struct io *io = st->ready[st->ready_head++ % st->slots];

			if (pass_or_hold(st, plan_of(st, e, io), io, now))
				out[n++] = io;
		}
		if (n < max && st->inner_outstanding) {
			unsigned room = max - n < st->slots ? max - n : st->slots;
			/* block in the inner engine only when nothing held back
			 * could become due meanwhile */
			unsigned want = n < min && st->nr_held == 0 ? min - n : 0;
			int got;

			if (want > room)
				want = room;
			got = st->inner.ops->reap(&st->inner, st->scratch, want, room);
			if (got < 0)
				return -1;
			st->inner_outstanding -= (unsigned)got;
			if (st->delays)
				now = clock_now_ns();
			for (int i = 0; i < got; i++) {
				struct io *io = st->scratch[i];
				struct plan *p = plan_of(st, e, io);

				if (!p)
					return err_set("fault: inner engine returned a foreign I/O");
				inner_completed(st, p, io);
				if (pass_or_hold(st, p, io, now))
					out[n++] = io;
			}
		}
		if (n >= min || n >= max)
			return (int)n;
		if (st->nr_held == 0) {
			/* nothing left to wait for; or an inner engine on a
			 * modelled clock, which waited its slice already */
			if (!st->inner_outstanding || st->inner.ops->cancel)
				return (int)n;
			continue;            /* the next pass blocks in the inner reap */
		}
		now = clock_now_ns();
		if (!waited_from)
			waited_from = now;
		else if (now - waited_from >= REAP_WAIT_MAX_NS)
			return (int)n;   /* fewer than min: the loop comes back */
		first = earliest_release(st);
		if (first > now) {
			uint64_t wait = first - now;

			if (st->inner_outstanding && wait > WAIT_SLICE_NS)
				wait = WAIT_SLICE_NS;
			if (wait > REAP_WAIT_MAX_NS)
				wait = REAP_WAIT_MAX_NS;
			if (sleep_ns(wait))
				return -1;
		}
	}
}

/* The engine's reap: reap_completions, counted (fault_engine_calls). */
static int fault_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct fault_state *st = e->priv;
	int n = reap_completions(e, out, min, max);

	if (n > 0) {
		st->calls[FAULT_CALL_REAPS]++;
		st->calls[FAULT_CALL_REAPED] += (unsigned)n;
	}
	return n;
}

/* Held completions, and what the inner engine can cancel, handed back
 * undone: the data of a held write is on the device, but the I/O did not
 * complete within the run. */
static int fault_cancel(struct engine *e, struct io **out, unsigned max)
{
	struct fault_state *st = e->priv;
	unsigned n = 0;
	int got = 0;

	while (n < max && st->nr_held) {
		struct io *io = st->held[--st->nr_held].io;

		io->result = -ECANCELED;
		out[n++] = io;
	}
	if (n < max && st->inner_outstanding && st->inner.ops->cancel) {
		got = st->inner.ops->cancel(&st->inner, out + n, max - n);
		if (got < 0)
			return -1;
		st->inner_outstanding -= (unsigned)got;
		for (int i = 0; i < got; i++) {
			struct plan *p = plan_of(st, e, out[n + (unsigned)i]);

			if (p && p->flipped) {   /* the caller's buffer is restored */
				flip_bit(out[n + (unsigned)i], p);
				p->flipped = false;
			}
		}
	}
	return (int)n + got;
}

bool fault_engine_named(const char *ioengine)
{
	return ioengine && !strncmp(ioengine, FAULT_ENGINE_PREFIX, strlen(FAULT_ENGINE_PREFIX));
}
