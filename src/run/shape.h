/* shape.h - private to src/run/: the offsets, sizes and directions of a
 * clone whose job reshapes fio's plain patterns (shape.c): bsrange,
 * rw=MODE:N with rw_sequencer, the sequence distribution, zonemode=strided
 * and trimwrite. */
#ifndef DRIVEBENCH_RUN_SHAPE_H
#define DRIVEBENCH_RUN_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"

struct loop;

/* fio's bsrange draw for u in [0, 1): lo + hi x u, down to a multiple of
 * lo, at most hi (uniform over the multiples of lo when lo divides hi). */
uint64_t shape_range_size(uint64_t lo, uint64_t hi, double u);

/* True when a job needs the shaped pick. */
bool shape_needed(const struct job_spec *s);
/* Sets w->shape (and w->special_prep) for such a job, after the offset
 * generators; 0, or -1 with err_msg. */
int shape_init(struct worker *w);
void shape_free(struct worker *w);
/* loops: the next pass starts at the region's start again. */
void shape_restart(struct worker *w);
/* The bytes a size-limited job issues: trimwrite trims and writes. */
uint64_t shape_bytes_target(const struct worker *w, uint64_t bytes);
/* Direction, length and absolute offset of the next request; 0, or 1 when
 * there is nothing more to issue (a sequence distribution ran past the
 * region), 2 when a zone reset or finish (zonemode=zbd) waits for the I/O
 * in flight, -1 with err_msg. */
int shape_pick(struct loop *l, int *dir, uint64_t *len, uint64_t *off);

#endif
