/* fault.h - the fault-injection engine, ioengine=fault:<engine>: it wraps
 * any other engine and injects the faults of the job's fault_spec (EIO,
 * short transfers, delays, dropped writes, flipped bits), counting each
 * kind. See docs/faults.md. */
#ifndef DRIVEBENCH_FAULT_H
#define DRIVEBENCH_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "io/engine.h"

#define FAULT_ENGINE_PREFIX "fault:"

/* True when the ioengine option names the fault engine ("fault:..."). */
bool fault_engine_named(const char *ioengine);

/* The fault engine wrapping inner ("fault:<inner name>"); NULL (err_msg)
 * when inner is itself a fault engine or unknown. */
const struct engine_ops *fault_engine_wrap(const struct engine_ops *inner);

/* The engine a fault engine wraps; NULL when ops is not a fault engine. */
const struct engine_ops *fault_engine_inner(const struct engine_ops *ops);

/* Faults injected so far by kind (enum fault_kind); all zero when e is
 * not a set-up fault engine. */
void fault_engine_counts(const struct engine *e, uint64_t out[FAULT_KINDS]);

/* What the fault engine saw of the runner's calls: submit calls that
 * carried I/O and the I/Os they carried, reap calls that returned
 * completions and the completions; the submission pattern a test checks
 * (fio's batching defaults, one I/O at a time on a sync engine). */
enum fault_call {
	FAULT_CALL_SUBMITS, FAULT_CALL_SUBMITTED, FAULT_CALL_REAPS, FAULT_CALL_REAPED,
	FAULT_CALLS
};

/* The counts by enum fault_call; all zero when e is not a set-up fault
 * engine. */
void fault_engine_calls(const struct engine *e, uint64_t out[FAULT_CALLS]);

/* "submit", "submitted", "reap", "reaped" (output names). */
const char *fault_call_name(enum fault_call call);

/* "eio", "short", "delay", "drop", "flip" (option and output names). */
const char *fault_kind_name(enum fault_kind kind);

/* True when any fault_* option differs from its default; *option is then
 * the name of the first such option (for "needs ioengine=fault:"). */
bool fault_spec_used(const struct fault_spec *spec, const char **option);

#endif
