/* ss_monitor.c - fio's steady state over a phase's workers, from a thread
 * of its own as fio's helper thread does it: every ss_interval after the
 * start it takes each judged unit's IOPS, bandwidth and mean completion
 * latency since the last check (a reporting group with group_reporting,
 * else one clone) with fio's arithmetic, from ss_ramp + one interval on
 * adds them to the window (measure/steadystate.c), and once steady state
 * is attained stops the unit's workers as their runtime would. The
 * workers' counters are read as the progress report reads them. */
#include "run/checks_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/check_results.h"
#include "util/error.h"

#define NS_PER_MS 1000000ull
#define POLL_NS (50 * NS_PER_MS)   /* how soon a Ctrl-C reaches the workers */

struct ss_unit {
	struct steady_report report;
	unsigned *members;           /* worker indices */
	unsigned nr_members;
	uint64_t next_check, prev_check;
	bool ramp_over;
};

/* What a worker had done at the last check. */
struct ss_prev {
	uint64_t ios, bytes, lat_sum, lat_n;
};

struct ss_monitor {
	struct worker *workers;
	unsigned nr;
	const volatile sig_atomic_t *stop;
	volatile sig_atomic_t *flags;    /* the workers' stop flags */
	bool *attained;                  /* per worker: its unit got there */
	struct ss_prev *prev;
	struct ss_unit *units;
	unsigned nr_units;
	pthread_barrier_t *barrier;
	pthread_t thread;
	bool started;
	int finished;                    /* atomic: the workers are done */
};

static bool has_ss(const struct worker *w)
{
	return w->spec->checks.ss_dur_ns != 0;
}

/* fio: td_steadystate_init compares every job of a group. */
static bool same_ss(const struct job_checks *a, const struct job_checks *b)
{
	return a->ss_dur_ns == b->ss_dur_ns && a->ss_ramp_ns == b->ss_ramp_ns &&
	       a->ss_interval_ns == b->ss_interval_ns &&
	       (!a->ss_dur_ns || (a->ss_metric == b->ss_metric && a->ss_slope == b->ss_slope &&
				  a->ss_pct == b->ss_pct && a->ss_limit == b->ss_limit));
}

static int check_groups(const struct worker *ws, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		for (unsigned j = 0; j < i; j++)
			if (ws[i].result.groupid == ws[j].result.groupid &&
			    (has_ss(&ws[i]) || has_ss(&ws[j])) &&
			    !same_ss(&ws[i].spec->checks, &ws[j].spec->checks))
				return err_set("job '%s': steadystate options must be consistent within reporting groups (job '%s' differs)",
					       ws[i].spec->name, ws[j].spec->name);
	return 0;
}

/* The unit worker i belongs to: its group's with group_reporting. */
static struct ss_unit *unit_for(struct ss_monitor *m, unsigned i)
{
	const struct worker *w = &m->workers[i];

	if (w->spec->group_reporting)
		for (unsigned u = 0; u < m->nr_units; u++) {
			const struct worker *first = &m->workers[m->units[u].members[0]];

			if (first->spec->group_reporting &&
			    first->result.groupid == w->result.groupid)
				return &m->units[u];
		}
	if (steady_report_init(&m->units[m->nr_units].report, &w->spec->checks))
		return NULL;
	return &m->units[m->nr_units++];
}

static void monitor_free(struct ss_monitor *m)
{
	if (!m)
		return;
	for (unsigned u = 0; u < m->nr_units; u++) {
		steady_report_free(&m->units[u].report);
		free(m->units[u].members);
	}
	free(m->units);
	free((void *)m->flags);
	free(m->attained);
	free(m->prev);
	free(m);
}

int ss_monitor_create(struct worker *workers, unsigned nr,
		      const volatile sig_atomic_t *stop, struct ss_monitor **out)
{
	struct ss_monitor *m;
	bool any = false;

	*out = NULL;
	for (unsigned i = 0; i < nr; i++)
		any = any || has_ss(&workers[i]);
	if (!any)
		return 0;
	if (check_groups(workers, nr))
		return -1;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->units = calloc(nr, sizeof(*m->units))) ||
	    !(m->flags = calloc(nr, sizeof(*m->flags))) ||
	    !(m->attained = calloc(nr, sizeof(*m->attained))) ||
	    !(m->prev = calloc(nr, sizeof(*m->prev)))) {
		monitor_free(m);
		return err_set("steadystate: out of memory");
	}
	m->workers = workers;
	m->nr = nr;
	m->stop = stop;
	for (unsigned i = 0; i < nr; i++) {
		struct ss_unit *u;

		if (!has_ss(&workers[i]))
			continue;
		if (!(u = unit_for(m, i)) ||
		    !(u->members = realloc(u->members, (u->nr_members + 1) * sizeof(*u->members)))) {
			monitor_free(m);
			return err_set("steadystate: out of memory");
		}
		u->members[u->nr_members++] = i;
		workers[i].stop = &m->flags[i];
	}
	*out = m;
	return 0;
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* fio's steadystate_check for one unit at now: the members' work since the
 * last check, scaled as fio scales it (rate_time x delta / interval^2). */
static void check_unit(struct ss_monitor *m, struct ss_unit *u, uint64_t now, uint64_t start)
{
	uint64_t interval_ms = u->report.interval_ns / NS_PER_MS;
	uint64_t rate_ms = (now - u->prev_check) / NS_PER_MS;
	double iops = 0, bw = 0, lat_sum = 0, lat_n = 0;

	u->prev_check = now;
	if (!u->ramp_over && now - start >= u->report.ramp_ns + u->report.interval_ns)
		u->ramp_over = true;
	for (unsigned k = 0; k < u->nr_members; k++) {
		unsigned i = u->members[k];
		const struct dir_stats *d = m->workers[i].result.dir;
		struct ss_prev cur = { 0 }, *p = &m->prev[i];

		for (int dir = 0; dir < DIR_COUNT; dir++) {
			cur.ios += load(&d[dir].ios);
			cur.bytes += load(&d[dir].bytes);
			cur.lat_sum += load(&d[dir].clat.sum);
			cur.lat_n += load(&d[dir].clat.n);
		}
		if (cur.ios < p->ios || cur.lat_n < p->lat_n)   /* the ramp's end reset them */
			*p = (struct ss_prev){ 0 };
		iops += (double)rate_ms * (double)(cur.ios - p->ios) /
			((double)interval_ms * interval_ms / 1000.0);
		bw += (double)rate_ms * (double)(cur.bytes - p->bytes) /
		      ((double)interval_ms * interval_ms / 1000.0);
		lat_sum += (double)(cur.lat_sum - p->lat_sum);
		lat_n += (double)(cur.lat_n - p->lat_n);
		*p = cur;
	}
	if (!u->ramp_over || u->report.attained)
		return;
	if (steady_report_add(&u->report, (uint64_t)iops, (uint64_t)bw,
			      lat_n ? (uint64_t)(lat_sum / lat_n) : 0))
		for (unsigned k = 0; k < u->nr_members; k++) {
			m->attained[u->members[k]] = true;
			m->flags[u->members[k]] = 1;
		}
}

static void sleep_until(uint64_t when)
{
	uint64_t now = clock_now_ns();
	struct timespec ts;

	if (when <= now)
		return;
	ts.tv_sec = (time_t)((when - now) / 1000000000ull);
	ts.tv_nsec = (long)((when - now) % 1000000000ull);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *monitor_main(void *arg)
{
	struct ss_monitor *m = arg;
	uint64_t start;

	pthread_barrier_wait(m->barrier);
	start = clock_now_ns();
	for (unsigned u = 0; u < m->nr_units; u++) {
		m->units[u].prev_check = start;
		m->units[u].next_check = start + m->units[u].report.interval_ns;
		m->units[u].ramp_over = m->units[u].report.ramp_ns == 0;
	}
	while (!__atomic_load_n(&m->finished, __ATOMIC_ACQUIRE)) {
		uint64_t now = clock_now_ns(), next = now + POLL_NS;

		if (*m->stop)
			for (unsigned i = 0; i < m->nr; i++)
				m->flags[i] = 1;
		for (unsigned u = 0; u < m->nr_units; u++) {
			struct ss_unit *unit = &m->units[u];

			if (now >= unit->next_check) {
				check_unit(m, unit, now, start);
				/* a late wake-up skips the slots it missed */
				while (unit->next_check <= now)
					unit->next_check += unit->report.interval_ns;
			}
			if (unit->next_check < next)
				next = unit->next_check;
		}
		sleep_until(next);
	}
	return NULL;
}

int ss_monitor_start(struct ss_monitor *mon, pthread_barrier_t *barrier)
{
	int rc;

	mon->barrier = barrier;
	rc = pthread_create(&mon->thread, NULL, monitor_main, mon);
	if (rc)
		return err_set("steadystate: cannot start its thread: %s", strerror(rc));
	mon->started = true;
	return 0;
}

int ss_monitor_finish(struct ss_monitor *m)
{
	int rc = 0;

	if (!m)
		return 0;
	__atomic_store_n(&m->finished, 1, __ATOMIC_RELEASE);
	if (m->started)
		pthread_join(m->thread, NULL);
	for (unsigned u = 0; u < m->nr_units && rc == 0; u++)
		for (unsigned k = 0; k < m->units[u].nr_members && rc == 0; k++) {
			struct worker *w = &m->workers[m->units[u].members[k]];
			struct check_results *c = check_results_of(&w->result.checks);

			if (!c)
				rc = err_set("steadystate: out of memory");
			else if (!c->steady)
				rc = steady_report_dup(&c->steady, &m->units[u].report);
		}
	for (unsigned i = 0; i < m->nr; i++) {
		if (!has_ss(&m->workers[i]))
			continue;
		/* stopped by steady state, not by a signal: a whole result */
		if (m->attained[i] && !*m->stop)
			m->workers[i].result.partial = false;
		m->workers[i].stop = m->stop;
	}
	monitor_free(m);
	return rc;
}
