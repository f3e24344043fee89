/* checkpoint_regions.h - checkpoints on a raw device: each checkpoint's
 * files laid out as consecutive regions of the target (what a filesystem
 * would give as distinct files), how many fit, and the step detail that
 * records the layout (docs/checkpoint.md, "Raw devices"). */
#ifndef DRIVEBENCH_CHECKPOINT_REGIONS_H
#define DRIVEBENCH_CHECKPOINT_REGIONS_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "workload/checkpoint.h"
#include "workload/dlio.h"

/* Each file's region starts on a 4 KiB boundary, as a filesystem's file
 * starts on a block: the page-cache writes never share a page. */
#define CHECKPOINT_REGION_ALIGN 4096u

/* Bytes a file of `bytes` takes as a region: rounded up to the alignment. */
uint64_t checkpoint_region_len(uint64_t bytes);

/* Bytes one checkpoint's regions take: every file rounded up to the
 * alignment. */
uint64_t checkpoint_span(const struct dlio_plan *plan);

/* The region of file `file` of checkpoint `index` (from 1), checkpoints
 * one after another from base. */
uint64_t checkpoint_region_offset(const struct dlio_plan *plan, uint64_t base,
				  unsigned index, unsigned file);

/* 0 when count checkpoints fit in the available bytes (from the base);
 * -1 with err_msg naming device, the bytes needed and available. */
int checkpoint_regions_fit(const struct dlio_plan *plan, unsigned count,
			   uint64_t available, const char *device);

/* The step detail of a checkpoint step or pass: {"mode":"files",
 * "directory":...} or {"mode":"regions","device":...,"offset":base,
 * "span":...,"bytes_needed":...,"regions":[{"checkpoint","rank","file",
 * "offset","length"}...]}, both with "checkpoints":count. NULL when out
 * of memory. */
cJSON *checkpoint_detail_json(const struct dlio_plan *plan, const struct checkpoint_write *w,
			      unsigned count);

/* One line for the log: "4 checkpoints as regions of /dev/loop0 from
 * offset 0 (256 MB of 1.07 GB)" or "in files under DIR". */
void checkpoint_mode_text(const struct dlio_plan *plan, const struct checkpoint_write *w,
			  unsigned count, uint64_t available, char *out, size_t len);

#endif
