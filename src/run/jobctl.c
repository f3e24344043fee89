/* jobctl.c - startdelay, wait_for, exitall and flows across the clones of
 * one run. A clone waits (in 50 ms slices, so a stop is honoured) before
 * its loop starts, so what it measures begins when it really starts; a
 * finished clone wakes the jobs waiting for it and, with exitall, ends the
 * others by moving their deadline to now (they finish as at the end of
 * their runtime: counted, not partial). */
#include "run/jobctl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/worker.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/random.h"

#define SLICE_NS 50000000ull
#define MAX_FLOWS 64
/* the random stream of startdelay's draw (job/random.h's are 0..3) */
#define STREAM_STARTDELAY 0x51

enum clone_state { CLONE_WAITING, CLONE_RUNNING, CLONE_DONE };

struct jobctl {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint64_t run_start_ns;      /* fio's genesis */
	bool exitall;               /* any job's exitall applies to all (fio) */
	const struct job_list *jobs;
	int *waitee;                /* per job: the job it waits for, or -1 */
	unsigned *clones_left;      /* per job: clones not finished */
	struct worker *workers;
	enum clone_state *state;    /* per clone */
	unsigned nr_workers;
	struct flow flows[MAX_FLOWS];
	unsigned nr_flows;
};

static bool uses_jobctl(const struct job_spec *s)
{
	const struct job_pacing *p = &s->pacing;

	return p->startdelay_ns || p->startdelay_max_ns || p->wait_for[0] || p->exitall ||
	       p->exitall_on_error || p->flow;
}

/* fio finds the waitee among the jobs defined before the waiting one. */
static int find_waitee(const struct job_list *jobs, unsigned j, int *out)
{
	const char *name = jobs->jobs[j].pacing.wait_for;

	*out = -1;
	if (!name[0])
		return 0;
	for (unsigned k = 0; k < j; k++)
		if (!strcmp(jobs->jobs[k].name, name)) {
			if (*out >= 0)
				return err_set("job '%s': wait_for=%s: more than one job has that "
					       "name", jobs->jobs[j].name, name);
			*out = (int)k;
		}
	if (*out < 0)
		return err_set("job '%s': wait_for=%s: no job of that name before it",
			       jobs->jobs[j].name, name);
	return 0;
}

static struct flow *flow_of(struct jobctl *c, unsigned id)
{
	for (unsigned i = 0; i < c->nr_flows; i++)
		if (c->flows[i].id == id)
			return &c->flows[i];
	if (c->nr_flows == MAX_FLOWS)
		return NULL;
	c->flows[c->nr_flows].id = id;
	c->flows[c->nr_flows].counter = 1;   /* fio starts it at 1 */
	return &c->flows[c->nr_flows++];
}

int jobctl_create(const struct job_list *jobs, struct worker *workers, unsigned nr,
		  struct jobctl **out)
{
	struct jobctl *c;
	bool any = false;

	*out = NULL;
	for (unsigned j = 0; j < jobs->nr; j++)
		any = any || uses_jobctl(&jobs->jobs[j]);
	if (!any)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return err_set("out of memory");
	c->waitee = calloc(jobs->nr, sizeof(*c->waitee));
	c->clones_left = calloc(jobs->nr, sizeof(*c->clones_left));
	c->state = calloc(nr ? nr : 1, sizeof(*c->state));
	if (!c->waitee || !c->clones_left || !c->state) {
		jobctl_free(c);
		return err_set("out of memory");
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->changed, NULL);
	c->jobs = jobs;
	c->workers = workers;
	c->nr_workers = nr;
	c->run_start_ns = clock_now_ns();
	for (unsigned j = 0; j < jobs->nr; j++) {
		const struct job_spec *s = &jobs->jobs[j];

		if (find_waitee(jobs, j, &c->waitee[j])) {
			jobctl_free(c);
			return -1;
		}
		c->clones_left[j] = s->numjobs;
		c->exitall = c->exitall || s->pacing.exitall;
		if (s->pacing.flow && !flow_of(c, s->pacing.flow_id)) {
			jobctl_free(c);
			return err_set("job '%s': more than %d flow ids", s->name, MAX_FLOWS);
		}
	}
	for (unsigned i = 0; i < nr; i++)
		workers[i].ctl = c;
	*out = c;
	return 0;
}

void jobctl_free(struct jobctl *c)
{
	if (!c)
		return;
	if (c->jobs) {
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->changed);
	}
	free(c->waitee);
	free(c->clones_left);
	free(c->state);
	free(c);
}

static unsigned index_of(const struct jobctl *c, const struct worker *w)
{
	return (unsigned)(w - c->workers);
}

static bool terminated(const struct worker *w)
{
	return __atomic_load_n(&w->deadline_ns, __ATOMIC_RELAXED) == 0;
}

bool jobctl_sleep_until(struct worker *w, uint64_t until)
{
	for (;;) {
		uint64_t now = clock_now_ns(), left;
		struct timespec ts;

		if (*w->stop || terminated(w))
			return false;
		if (now >= until)
			return true;
		left = until - now < SLICE_NS ? until - now : SLICE_NS;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* startdelay=MIN-MAX: fio draws one value per clone in the range. */
static uint64_t start_delay(const struct worker *w)
{
	const struct job_pacing *p = &w->spec->pacing;
	struct rng r;

	if (!p->startdelay_max_ns || p->startdelay_max_ns == p->startdelay_ns)
		return p->startdelay_ns;
	rng_seed(&r, job_seed(w->spec, w->clone, STREAM_STARTDELAY));
	return p->startdelay_ns + rng_below(&r, p->startdelay_max_ns - p->startdelay_ns + 1);
}

static bool waitee_done(struct jobctl *c, const struct worker *w)
{
	int waitee = c->waitee[w->job_index];

	return waitee < 0 || c->clones_left[waitee] == 0;
}

void jobctl_start(struct worker *w)
{
	struct jobctl *c = w->ctl;
	uint64_t delay = start_delay(w);

	/* a stop or an exitall during the wait ends it; the loop then sees
	 * the same and ends at once, with its start stamped */
	if (delay)
		jobctl_sleep_until(w, c->run_start_ns + delay);
	pthread_mutex_lock(&c->lock);
	while (!waitee_done(c, w) && !*w->stop && !terminated(w)) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)SLICE_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&c->changed, &c->lock, &until);
	}
	c->state[index_of(c, w)] = CLONE_RUNNING;
	if (w->spec->pacing.flow)
		__atomic_add_fetch(&flow_of(c, w->spec->pacing.flow_id)->total_weight,
				   w->spec->pacing.flow, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&c->lock);
}

/* exitall: fio ends the finished job's group (exit_what=group), every
 * job already running (stonewall), or every job (all); a clone that has
 * not started yet (startdelay, wait_for) then never starts. */
static void terminate_others(struct jobctl *c, const struct worker *w)
{
	enum exit_what what = w->spec->pacing.exit_what;

	for (unsigned i = 0; i < c->nr_workers; i++) {
		struct worker *o = &c->workers[i];
		bool hit = what == EXIT_ALL ||
			   (what == EXIT_GROUP && o->result.groupid == w->result.groupid) ||
			   (what == EXIT_STONEWALL && c->state[i] == CLONE_RUNNING);

		if (hit && o != w && c->state[i] != CLONE_DONE)
			__atomic_store_n(&o->deadline_ns, 0, __ATOMIC_RELAXED);
	}
}

void jobctl_finish(struct worker *w)
{
	struct jobctl *c = w->ctl;
	const struct job_pacing *p = &w->spec->pacing;
	unsigned i = index_of(c, w);

	pthread_mutex_lock(&c->lock);
	if (c->state[i] == CLONE_RUNNING && p->flow) {
		struct flow *f = flow_of(c, p->flow_id);

		__atomic_sub_fetch(&f->counter, w->flow_counter, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&f->total_weight, p->flow, __ATOMIC_RELAXED);
	}
	c->state[i] = CLONE_DONE;
	if (c->clones_left[w->job_index])
		c->clones_left[w->job_index]--;
	if (c->exitall || (p->exitall_on_error && (w->result.error || w->run_failed)))
		terminate_others(c, w);
	pthread_cond_broadcast(&c->changed);
	pthread_mutex_unlock(&c->lock);
}

struct flow *jobctl_flow(const struct worker *w)
{
	struct jobctl *c = w->ctl;

	if (!c || !w->spec->pacing.flow)
		return NULL;
	for (unsigned i = 0; i < c->nr_flows; i++)
		if (c->flows[i].id == w->spec->pacing.flow_id)
			return &c->flows[i];
	return NULL;
}
