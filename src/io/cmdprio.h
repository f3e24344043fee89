/* cmdprio.h - per-command I/O priorities for libaio and io_uring, as
 * fio's cmdprio: cmdprio_percentage of the I/Os (or, by block size,
 * cmdprio_bssplit's shares) carry the priority cmdprio_class / cmdprio /
 * cmdprio_hint, the rest the job's own (prio / prioclass). The engines
 * declare the options (CMDPRIO_OPTIONS), pick each I/O's priority at
 * prep, and keep the clat of each priority (fio's "prios") in reap. */
#ifndef DRIVEBENCH_CMDPRIO_H
#define DRIVEBENCH_CMDPRIO_H

#include "io/engine.h"
#include "measure/stats.h"
#include "job/option_table.h"
#include "job/random.h"

#define CMDPRIO_MAX 16            /* distinct priorities per direction */

struct cmdprio_pick {
	uint64_t bs;                 /* 0 in percentage mode: every size */
	unsigned tot_perc;           /* of this size's I/Os, any prio */
	unsigned first, nr;          /* its shares in share[] */
};

struct cmdprio_share {
	unsigned perc;
	uint8_t index;               /* into value[] / stat[] */
};

struct cmdprio {
	unsigned nr_values[DIR_COUNT];
	unsigned value[DIR_COUNT][CMDPRIO_MAX];    /* [0]: the job's ioprio */
	struct cmdprio_pick pick[DIR_COUNT][CMDPRIO_SPLIT_MAX];
	unsigned nr_picks[DIR_COUNT];
	struct cmdprio_share share[DIR_COUNT][CMDPRIO_SPLIT_MAX];
	struct rng rng;
	struct lat_stat stat[DIR_COUNT][CMDPRIO_MAX];
};

/* The job's ioprio_set value from prio / prioclass / priohint (class 0
 * means best effort, as fio's ioprio_value); 0 when none is given. */
unsigned cmdprio_job_ioprio(const struct job_spec *spec);

/* A cmdprio for the job, or NULL (no err_msg) when it uses none; NULL
 * with err_msg on bad options or no memory. */
struct cmdprio *cmdprio_create(const struct job_spec *spec, bool *failed);
void cmdprio_destroy(struct cmdprio *c);

/* The ioprio value io is issued with; sets io->prio to its index. */
unsigned cmdprio_pick(struct cmdprio *c, struct io *io);

/* A completion: stamps it (the runner then uses that time) and, when
 * measuring, adds its clat to its priority's. */
void cmdprio_complete(struct cmdprio *c, struct io *io, bool measuring);

/* Moves the measured clat by priority into r (fio's prios). */
int cmdprio_collect(const struct cmdprio *c, struct job_result *r);

/* The option setters, shared by libaio's and io_uring's tables. */
int cmdprio_set_percentage(struct job_spec *spec, const char *value);
int cmdprio_set_class(struct job_spec *spec, const char *value);
int cmdprio_set_level(struct job_spec *spec, const char *value);
int cmdprio_set_hint(struct job_spec *spec, const char *value);
int cmdprio_set_bssplit(struct job_spec *spec, const char *value);

#define CMDPRIO_OPTIONS                                                   \
	FUNC("cmdprio_percentage", NULL, cmdprio_set_percentage),         \
	FUNC("cmdprio_class", NULL, cmdprio_set_class),                   \
	FUNC("cmdprio", NULL, cmdprio_set_level),                         \
	FUNC("cmdprio_hint", NULL, cmdprio_set_hint),                     \
	FUNC("cmdprio_bssplit", NULL, cmdprio_set_bssplit)

#endif
