/* pacing.c - when a paced clone may issue its next I/O, as fio decides it:
 * rate and rate_iops (fio's usec_for_io: linear from the bytes issued,
 * per I/O with bssplit, or poisson), with inline submission draining the
 * queue before it sleeps and offload keeping it full; rate_min checked
 * every rate_cycle; thinktime (drain, spin, sleep) every thinktime_blocks
 * issued or completed I/Os or thinktime_iotime; the latency_target search
 * of the queue depth (fio's lat_target_*); flows; number_ios; loops;
 * iodepth_low. All times are CLOCK_MONOTONIC ns from the measured start. */
#include "run/pacing.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/jobctl.h"
#include "run/loop.h"
#include "run/shape.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/random.h"

#define STREAM_POISSON 0x50   /* job/random.h's streams are 0..3 */
#define MIN_RATE_SETTLE_NS 2000000000ull   /* fio's 2 s before rate_min counts */

enum wait_kind { WAIT_NONE, WAIT_RATE, WAIT_THINK, WAIT_FLOW };

struct pacing {
	const struct job_pacing *p;
	/* rate: bytes/s per direction, fio's rate_io_issue_bytes, the due
	 * time of the next I/O, and the running schedule of poisson and of
	 * rate_iops with bssplit (fio's last_usec) */
	bool rate_on, mixed, per_iop[DIR_ALL];
	uint64_t bps[DIR_ALL], iops[DIR_ALL], min_bs[DIR_ALL];
	uint64_t issued_bytes[DIR_ALL], next_ns[DIR_ALL], last_ns[DIR_ALL];
	uint64_t epoch;
	struct rng poisson;
	int pending_dir;              /* the direction a rate wait was for */
	/* rate_min */
	uint64_t start_ns, check_ns[DIR_ALL], check_bytes[DIR_ALL], check_ios[DIR_ALL];
	/* counts since the measured start: issued (plus what was in flight
	 * then) and completed */
	uint64_t issued, completed;
	uint64_t ios_limit;           /* number_ios x loops, 0 = none */
	/* thinktime */
	uint64_t think_last_blocks, think_last_ns;
	/* loops */
	unsigned loops_done;
	uint64_t loop_bytes;
	/* latency_target (fio's latency_qd, _low, _high, stable count) */
	unsigned qd, qd_low, qd_high, stable;
	bool end_run, ramp_down, fatal;
	uint64_t lat_ts, lat_ios, lat_failed, fatal_lat;
	/* flow */
	struct flow *flow;
	/* iodepth_low */
	unsigned low;
	bool was_full;
	enum wait_kind wait;
	uint64_t wait_until;
};

static bool any(const uint64_t *v)
{
	for (int d = 0; d < DIR_ALL; d++)
		if (v[d])
			return true;
	return false;
}

/* fio's min_bs of a direction: the range's start, the split's smallest,
 * or bs. */
static uint64_t min_bs_of(const struct job_spec *s, int d)
{
	uint64_t m = s->bs[d];

	if (s->pacing.bs_max[d])
		return s->pacing.bs_min[d];
	for (unsigned i = 0; d < DIR_COUNT && i < s->bssplit_nr[d]; i++)
		if (s->bssplit[d][i].pct > 0 && (i == 0 || s->bssplit[d][i].bs < m))
			m = s->bssplit[d][i].bs;
	return m ? m : 1;
}

static void setup_rates(struct pacing *pc, const struct job_spec *s)
{
	const struct job_pacing *p = &s->pacing;

	for (int d = 0; d < DIR_ALL; d++) {
		pc->min_bs[d] = min_bs_of(s, d);
		pc->bps[d] = p->rate[d] ? p->rate[d] : p->rate_iops[d] * pc->min_bs[d];
		/* fio: rate_iops with bssplit paces each I/O at 1/iops */
		pc->per_iop[d] = !p->rate[d] && p->rate_iops[d] && d < DIR_COUNT &&
				 s->bssplit_nr[d];
		pc->iops[d] = pc->per_iop[d] ? p->rate_iops[d] : pc->bps[d] / pc->min_bs[d];
	}
	pc->rate_on = any(pc->bps);
	pc->mixed = s->rw == RW_READWRITE || s->rw == RW_RANDRW;
}

int pacing_begin(struct loop *l)
{
	const struct job_spec *s = l->w->spec;
	struct pacing *pc;

	l->pace = NULL;
	l->pace_dir = -1;
	if (!pacing_active(s))
		return 0;
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return err_set("job '%s': out of memory", s->name);
	pc->p = &s->pacing;
	setup_rates(pc, s);
	rng_seed(&pc->poisson, job_seed(s, l->w->clone, STREAM_POISSON));
	pc->pending_dir = -1;
	pc->start_ns = clock_now_ns();
	pc->loop_bytes = l->bytes_target;
	if (s->pacing.number_ios) {
		pc->ios_limit = s->pacing.number_ios * s->pacing.loops;
		/* fio: trimwrite counts the trim and the write */
		if (s->rw == RW_TRIMWRITE || s->rw == RW_RANDTRIMWRITE)
			pc->ios_limit *= 2;
	}
	pc->flow = jobctl_flow(l->w);
	if (s->pacing.iodepth_low && s->pacing.iodepth_low < s->iodepth)
		pc->low = s->pacing.iodepth_low;
	pc->qd = s->iodepth;
	l->pace = pc;
	/* the ramp is paced too: its schedules start now */
	pacing_restart(l, clock_now_ns());
	return 0;
}

void pacing_end(struct loop *l)
{
	struct pacing *pc = l->pace;

	if (pc && pc->p->latency_target_ns)
		l->w->result.latency_depth = pc->qd;
	free(pc);
	l->pace = NULL;
}

static void latency_cycle(struct pacing *pc, uint64_t now)
{
	pc->lat_ts = now;
	pc->lat_ios = pc->completed;
	pc->lat_failed = 0;
}

void pacing_restart(struct loop *l, uint64_t now)
{
	struct pacing *pc = l->pace;

	if (!pc)
		return;
	memset(pc->issued_bytes, 0, sizeof(pc->issued_bytes));
	memset(pc->next_ns, 0, sizeof(pc->next_ns));
	memset(pc->last_ns, 0, sizeof(pc->last_ns));
	memset(pc->check_ns, 0, sizeof(pc->check_ns));
	pc->epoch = now;
	pc->issued = l->inflight;
	pc->completed = 0;
	pc->think_last_blocks = 0;
	pc->think_last_ns = now;
	/* fio's lat_target_reset: a search starts at depth 1, unless this is
	 * the final run at the depth found */
	if (pc->p->latency_target_ns && !pc->end_run) {
		pc->qd = 1;
		pc->qd_high = l->w->spec->iodepth;
		pc->qd_low = 1;
		pc->stable = 0;
		latency_cycle(pc, now);
	}
}

/* fio's usec_for_io, in ns: when the next I/O of dir is due. */
static uint64_t next_due(struct pacing *pc, int d)
{
	if (pc->p->rate_process == RATE_POISSON && pc->iops[d]) {
		double u = 1.0 - rng_unit(&pc->poisson);   /* (0, 1] */

		pc->last_ns[d] += (uint64_t)(1e9 / (double)pc->iops[d] * -log(u));
		return pc->last_ns[d];
	}
	if (!pc->bps[d])
		return 0;
	if (pc->per_iop[d]) {
		pc->last_ns[d] += 1000000000ull / pc->iops[d];
		return pc->last_ns[d];
	}
	return (uint64_t)((unsigned __int128)pc->issued_bytes[d] * 1000000000u / pc->bps[d]);
}

void pacing_issued(struct loop *l, struct io *const *batch, unsigned nb)
{
	struct pacing *pc = l->pace;

	for (unsigned i = 0; i < nb; i++) {
		const struct io *io = batch[i];
		const struct request *rq = io->owner;
		int d = io->dir;

		pc->issued++;
		pc->issued_bytes[d] += rq->active ? rq->total : io->len;
		if (pc->rate_on)
			pc->next_ns[d] = next_due(pc, d);
	}
}

static int job_direction(const struct job_spec *s)
{
	if (job_spec_trims(s) && s->rw != RW_TRIMWRITE && s->rw != RW_RANDTRIMWRITE)
		return DIR_TRIM;
	return job_spec_reads(s) ? DIR_READ : DIR_WRITE;
}

/* fio's rate_ddir: the picked direction if it is due, else the other one
 * of a mixed job if that is due; else wait for the earlier of the two. */
static bool rate_allows(struct loop *l, struct pacing *pc, uint64_t rel)
{
	const struct job_spec *s = l->w->spec;
	int d = pc->pending_dir, o;

	if (d < 0)
		d = pc->mixed ? (rng_below(&l->w->rng_mix, 100) < s->rwmixread ? DIR_READ :
				 DIR_WRITE) : job_direction(s);
	pc->pending_dir = -1;
	if (pc->next_ns[d] <= rel)
		goto go;
	o = d ^ 1;
	if (pc->mixed && (o == DIR_READ ? s->rwmixread : 100 - s->rwmixread)) {
		if (pc->next_ns[o] <= rel) {
			d = o;
			goto go;
		}
		if (pc->next_ns[o] < pc->next_ns[d])
			d = o;
	}
	pc->pending_dir = d;
	pc->wait = WAIT_RATE;
	pc->wait_until = pc->epoch + pc->next_ns[d];
	return false;
go:
	if (pc->mixed)
		l->pace_dir = d;
	return true;
}

/* fio's flow_threshold_exceeded: ahead of its weight's share, a job waits
 * (sleeps flow_sleep when set); otherwise both counters move on. */
static bool flow_allows(struct loop *l, struct pacing *pc)
{
	struct flow *f = pc->flow;
	double mine = (double)l->w->flow_counter /
		(double)__atomic_load_n(&f->counter, __ATOMIC_RELAXED);
	uint64_t total = __atomic_load_n(&f->total_weight, __ATOMIC_RELAXED);
	double share = total ? (double)pc->p->flow / (double)total : 1.0;

	if (mine > share) {
		pc->wait = WAIT_FLOW;
		pc->wait_until = clock_now_ns() + pc->p->flow_sleep_ns;
		return false;
	}
	__atomic_add_fetch(&f->counter, 1, __ATOMIC_RELAXED);
	l->w->flow_counter++;
	return true;
}

/* fio's handle_thinktime condition: thinktime_iotime of I/O done, or
 * thinktime_blocks more I/Os issued or completed. */
static bool think_due(const struct pacing *pc, uint64_t now)
{
	const struct job_pacing *p = pc->p;
	uint64_t b = p->thinktime_blocks_type == THINK_ISSUE ? pc->issued : pc->completed;

	if (!p->thinktime_ns && !p->thinktime_spin_ns)
		return false;
	if (p->thinktime_iotime_ns) {
		if (now - pc->think_last_ns >= p->thinktime_iotime_ns)
			return true;
		if (!p->thinktime_blocks_set)
			return false;
	}
	return b >= pc->think_last_blocks + p->thinktime_blocks;
}

unsigned pacing_allow(struct loop *l, unsigned max)
{
	struct pacing *pc = l->pace;
	const struct job_pacing *p = pc->p;
	uint64_t now = l->now;

	if (pc->ios_limit) {
		if (pc->issued >= pc->ios_limit) {
			l->issuing = false;
			return 0;
		}
		if (pc->ios_limit - pc->issued < max)
			max = (unsigned)(pc->ios_limit - pc->issued);
	}
	if (p->latency_target_ns) {
		if (l->inflight >= pc->qd)
			return 0;   /* the searched depth is the queue's size */
		if (pc->qd - l->inflight < max)
			max = pc->qd - l->inflight;
	}
	if ((p->thinktime_ns || p->thinktime_spin_ns) && p->thinktime_blocks_type == THINK_ISSUE) {
		uint64_t left = pc->think_last_blocks + p->thinktime_blocks - pc->issued;

		if (pc->issued >= pc->think_last_blocks + p->thinktime_blocks) {
			pc->wait = WAIT_THINK;
			return 0;
		}
		if (left < max)
			max = (unsigned)left;
	}
	if (pc->rate_on) {
		now = clock_now_ns();
		if (!rate_allows(l, pc, now - pc->epoch))
			return 0;
		max = 1;   /* each I/O's due time follows from the last one */
	}
	if (pc->flow) {
		if (!flow_allows(l, pc))
			return 0;
		max = 1;
	}
	return max;
}

bool pacing_waits(struct loop *l)
{
	struct pacing *pc = l->pace;

	pc->was_full = !l->w->nr_free || (pc->p->latency_target_ns && l->inflight >= pc->qd);
	return pc->wait != WAIT_NONE;
}

/* The time still left before the deadline (runtime), for capping waits. */
static uint64_t cap_to_deadline(const struct worker *w, uint64_t until)
{
	uint64_t deadline = __atomic_load_n(&w->deadline_ns, __ATOMIC_RELAXED);

	return until < deadline ? until : deadline;
}

/* io_submit_mode=offload: fio hands each I/O to a submitting thread at
 * its due time, so the queue stays full while the schedule waits. Here
 * the one thread waits for whichever comes first, a completion (reaped and
 * stamped at once) or the due time; an engine without a timed wait is
 * reaped without waiting, then waited on for one completion. */
static int offload_wait(struct loop *l, uint64_t until)
{
	struct worker *w = l->w;

	for (;;) {
		uint64_t now = clock_now_ns();

		if (now >= until || *w->stop || !__atomic_load_n(&w->deadline_ns, __ATOMIC_RELAXED))
			return 0;
		if (!l->inflight) {
			jobctl_sleep_until(w, until);
			continue;
		}
		if (w->ops->wait && w->ops->wait(&w->engine, until - now) < 0)
			return -1;
		if (loop_reap(l, 0, l->inflight))
			return -1;
		if (!w->ops->wait && l->inflight && clock_now_ns() < until &&
		    loop_reap(l, 1, l->inflight))
			return -1;
		if (l->measuring)
			loop_tick(l, l->now);
	}
}

/* fio's think: quiesce, spin thinktime_spin, sleep the rest of thinktime
 * (both within the runtime left); rate_ignore_thinktime then counts the
 * time as if I/O had gone on at the rate. */
static int think(struct loop *l, struct pacing *pc)
{
	struct worker *w = l->w;
	const struct job_pacing *p = pc->p;
	uint64_t start, end, spun = 0;

	if (loop_drain(l))
		return -1;
	start = clock_now_ns();
	if (p->thinktime_spin_ns) {
		uint64_t until = cap_to_deadline(w, start + p->thinktime_spin_ns);

		while ((end = clock_now_ns()) < until && !*w->stop)
			;
		spun = clock_now_ns() - start;
	}
	if (p->thinktime_ns > spun)
		jobctl_sleep_until(w, cap_to_deadline(w, start + p->thinktime_ns));
	end = clock_now_ns();
	if (p->rate_ignore_thinktime && pc->rate_on) {
		uint64_t total_us = (end - start) / 1000;

		for (int d = 0; d < DIR_ALL; d++) {
			uint64_t missed, usperop, over;

			if (!pc->bps[d])
				continue;
			missed = pc->bps[d] * total_us / 1000000ull;
			usperop = pc->min_bs[d] * 1000000ull / pc->bps[d];
			over = usperop <= total_us ? pc->min_bs[d] : 0;
			pc->issued_bytes[d] += missed - over;
			pc->last_ns[d] += end - start;
		}
	}
	pc->think_last_blocks = p->thinktime_blocks_type == THINK_ISSUE ? pc->issued :
		pc->completed;
	if (p->thinktime_iotime_ns)
		pc->think_last_ns = end;
	return 0;
}

int pacing_wait(struct loop *l)
{
	struct pacing *pc = l->pace;
	struct worker *w = l->w;
	enum wait_kind kind = pc->wait;
	int rc = 0;

	pc->wait = WAIT_NONE;
	switch (kind) {
	case WAIT_NONE:
		break;
	case WAIT_RATE:
		if (pc->p->submit_mode == SUBMIT_OFFLOAD) {
			rc = offload_wait(l, cap_to_deadline(w, pc->wait_until));
			break;
		}
		/* inline: fio quiesces before it sleeps, so no completion waits
		 * unreaped through the sleep */
		rc = loop_drain(l);
		if (!rc)
			jobctl_sleep_until(w, cap_to_deadline(w, pc->wait_until));
		break;
	case WAIT_THINK:
		rc = think(l, pc);
		break;
	case WAIT_FLOW:
		if (!pc->p->flow_sleep_ns) {
			sched_yield();   /* fio retries at once */
			break;
		}
		rc = loop_drain(l);
		if (!rc)
			jobctl_sleep_until(w, cap_to_deadline(w, pc->wait_until));
		break;
	}
	l->now = clock_now_ns();
	/* a rate-limited job may wait every round: the series' intervals
	 * close here too, not only after the loop's own reaps */
	if (l->measuring)
		loop_tick(l, l->now);
	return rc;
}

/* fio's __lat_target_failed: halve towards the last good depth and
 * start a new window; at depth 1 the target cannot be met. */
static void latency_ramp_down(struct loop *l, struct pacing *pc, uint64_t now)
{
	pc->qd_high = pc->qd;
	if (pc->qd == pc->qd_low)
		pc->qd_low--;
	pc->qd = (pc->qd + pc->qd_low) / 2;
	pc->stable = 0;
	latency_cycle(pc, now);
	(void)l;
}

void pacing_completed(struct loop *l, int dir, uint64_t lat_ns)
{
	struct pacing *pc = l->pace;
	const struct job_pacing *p = pc->p;

	(void)dir;
	pc->completed++;
	if (!p->latency_target_ns || lat_ns <= p->latency_target_ns || !l->measuring)
		return;
	if (p->latency_percentile < 100.0) {
		pc->lat_failed++;
		return;
	}
	/* fio ramps down at the first late I/O; handled after this reap */
	if (pc->qd == 1 && !pc->fatal) {
		pc->fatal = true;
		pc->fatal_lat = lat_ns;
	}
	pc->ramp_down = true;
}

/* fio's lat_target_success: the depth doubles (or bisects towards the
 * last failing one); when it no longer changes, one more window is run at
 * it with fresh figures, and then the job is done. */
static int latency_success(struct loop *l, struct pacing *pc, uint64_t now)
{
	unsigned iodepth = l->w->spec->iodepth, before = pc->qd;

	pc->qd_low = pc->qd;
	if (pc->qd + 1 == pc->qd_high && ++pc->stable >= 3) {
		pc->qd_high++;
		pc->stable = 0;
	}
	if (pc->qd_high != iodepth)
		pc->qd = (pc->qd + pc->qd_high) / 2;
	else
		pc->qd *= 2;
	if (pc->qd > iodepth)
		pc->qd = iodepth;
	if (!pc->p->latency_run && pc->qd == before) {
		if (pc->end_run) {
			l->issuing = false;   /* done */
		} else {
			if (loop_drain(l))
				return -1;
			pc->end_run = true;
			now = clock_now_ns();
			loop_restart_measurement(l, now);
		}
	}
	latency_cycle(pc, now);
	return 0;
}

static int latency_check(struct loop *l, struct pacing *pc, uint64_t now)
{
	const struct job_pacing *p = pc->p;
	uint64_t ios;

	if (pc->ramp_down) {
		pc->ramp_down = false;
		if (pc->fatal) {
			fprintf(stderr, "drivebench: job '%s': latency of %llu ns exceeds "
				"latency_target (%llu ns) at iodepth 1\n", l->w->spec->name,
				(unsigned long long)pc->fatal_lat,
				(unsigned long long)p->latency_target_ns);
			if (!l->w->result.error)
				l->w->result.error = -ETIMEDOUT;
			l->issuing = false;
			l->abandon = true;
			return 0;
		}
		latency_ramp_down(l, pc, now);
		return loop_drain(l);   /* fio quiesces after a ramp down */
	}
	if (now - pc->lat_ts < p->latency_window_ns)
		return 0;
	ios = pc->completed - pc->lat_ios;
	if (!ios)
		return 0;
	if ((double)(ios - pc->lat_failed) * 100.0 / (double)ios >= p->latency_percentile)
		return latency_success(l, pc, now);
	if (pc->qd > 1) {
		latency_ramp_down(l, pc, now);
		return loop_drain(l);
	}
	latency_cycle(pc, now);
	return 0;
}

/* fio's check_min_rate: after 2 s, every rate_cycle, the bytes (or I/Os)
 * done in the cycle must reach the minimum, else the job fails (EIO). */
static void min_rate_check(struct loop *l, struct pacing *pc, uint64_t now)
{
	const struct job_pacing *p = pc->p;

	if (now - pc->start_ns < MIN_RATE_SETTLE_NS)
		return;
	for (int d = 0; d < DIR_ALL; d++) {
		const struct dir_stats *ds = &l->dir[d];
		uint64_t spent;

		if ((!p->rate_min[d] && !p->rate_iops_min[d]) || !ds->bytes)
			continue;
		if (pc->check_ns[d]) {
			uint64_t got, want;

			spent = (now - pc->check_ns[d]) / 1000000ull;
			if (spent < p->rate_cycle_ns / 1000000ull || !spent)
				continue;
			got = p->rate_min[d] ? (ds->bytes - pc->check_bytes[d]) * 1000 / spent :
				(ds->ios - pc->check_ios[d]) * 1000 / spent;
			want = p->rate_min[d] ? p->rate_min[d] : p->rate_iops_min[d];
			if (got < want) {
				fprintf(stderr, "drivebench: job '%s': %s=%llu%s not met, got %llu%s\n",
					l->w->spec->name, p->rate_min[d] ? "rate_min" : "rate_iops_min",
					(unsigned long long)want, p->rate_min[d] ? " B/s" : "",
					(unsigned long long)got, p->rate_min[d] ? " B/s" : " IOPS");
				if (!l->w->result.error)
					l->w->result.error = -EIO;
				l->issuing = false;
				l->abandon = true;
				return;
			}
		}
		pc->check_ns[d] = now;
		pc->check_bytes[d] = ds->bytes;
		pc->check_ios[d] = ds->ios;
	}
}

int pacing_reaped(struct loop *l)
{
	struct pacing *pc = l->pace;
	const struct job_pacing *p = pc->p;

	/* fio: from a full queue, reap down to iodepth_low first */
	if (pc->low && pc->was_full)
		while (l->inflight > pc->low && !l->abandon)
			if (loop_reap(l, 1, l->inflight - pc->low))
				return -1;
	pc->was_full = false;
	if (!l->measuring)
		return 0;
	if (p->latency_target_ns && latency_check(l, pc, l->now))
		return -1;
	if (any(p->rate_min) || any(p->rate_iops_min))
		min_rate_check(l, pc, l->now);
	return 0;
}

int pacing_round(struct loop *l)
{
	struct pacing *pc = l->pace;
	struct worker *w = l->w;

	if (l->issuing && think_due(pc, l->now)) {
		pc->wait = WAIT_NONE;
		if (think(l, pc))
			return -1;
		l->now = clock_now_ns();
		if (l->measuring)
			loop_tick(l, l->now);
	}
	/* loops: a pass done, the next starts at the region's start */
	if (l->issuing && !l->time_based &&
	    l->bytes_issued >= l->bytes_target && pc->loops_done + 1 < pc->p->loops) {
		if (loop_drain(l))
			return -1;
		pc->loops_done++;
		l->bytes_target += pc->loop_bytes;
		shape_restart(w);
		l->now = clock_now_ns();
	}
	return 0;
}
