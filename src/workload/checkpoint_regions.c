/* checkpoint_regions.c - a checkpoint's files as regions of a raw target:
 * file after file, each from a 4 KiB boundary, checkpoint after
 * checkpoint from the base offset; the fit check and the recorded layout. */
#include <stdio.h>

#include "util/error.h"
#include "workload/checkpoint_fs.h"
#include "workload/checkpoint_regions.h"

uint64_t checkpoint_region_len(uint64_t bytes)
{
	return (bytes + CHECKPOINT_REGION_ALIGN - 1) / CHECKPOINT_REGION_ALIGN *
	       CHECKPOINT_REGION_ALIGN;
}

uint64_t checkpoint_span(const struct dlio_plan *plan)
{
	uint64_t span = 0;

	for (unsigned i = 0; i < plan->nr; i++)
		span += checkpoint_region_len(plan->files[i].bytes);
	return span;
}

uint64_t checkpoint_region_offset(const struct dlio_plan *plan, uint64_t base,
				  unsigned index, unsigned file)
{
	uint64_t at = base + (uint64_t)(index - 1) * checkpoint_span(plan);

	for (unsigned i = 0; i < file && i < plan->nr; i++)
		at += checkpoint_region_len(plan->files[i].bytes);
	return at;
}

int checkpoint_regions_fit(const struct dlio_plan *plan, unsigned count,
			   uint64_t available, const char *device)
{
	uint64_t span = checkpoint_span(plan), needed;

	if (__builtin_mul_overflow(span, (uint64_t)count, &needed) || needed > available)
		return err_set("%u checkpoint%s of %llu bytes (as regions of %s) need %.0f bytes; "
			       "%llu are available", count, count == 1 ? "" : "s",
			       (unsigned long long)span, device, (double)span * count,
			       (unsigned long long)available);
	return 0;
}

static int add_regions(cJSON *detail, const struct dlio_plan *plan, uint64_t base,
		       unsigned count)
{
	cJSON *regions = cJSON_AddArrayToObject(detail, "regions");

	if (!regions)
		return -1;
	for (unsigned c = 1; c <= count; c++) {
		uint64_t at = checkpoint_region_offset(plan, base, c, 0);

		for (unsigned i = 0; i < plan->nr; i++) {
			const struct dlio_file *f = &plan->files[i];
			cJSON *r = cJSON_CreateObject();

			if (!r || !cJSON_AddItemToArray(regions, r)) {
				cJSON_Delete(r);
				return -1;
			}
			if (!cJSON_AddNumberToObject(r, "checkpoint", c) ||
			    !cJSON_AddNumberToObject(r, "rank", f->rank) ||
			    !cJSON_AddStringToObject(r, "file", f->name) ||
			    !cJSON_AddNumberToObject(r, "offset", (double)at) ||
			    !cJSON_AddNumberToObject(r, "length", (double)f->bytes))
				return -1;
			at += checkpoint_region_len(f->bytes);
		}
	}
	return 0;
}

cJSON *checkpoint_detail_json(const struct dlio_plan *plan, const struct checkpoint_write *w,
			      unsigned count)
{
	cJSON *j = cJSON_CreateObject();
	uint64_t span = checkpoint_span(plan);
	bool ok;

	if (!j)
		return NULL;
	ok = cJSON_AddNumberToObject(j, "checkpoints", count) != NULL;
	if (w->fs) {
		ok = ok && checkpoint_fs_detail(j, w->fs) == 0;
	} else if (w->device) {
		ok = ok && cJSON_AddStringToObject(j, "mode", "regions") &&
		     cJSON_AddStringToObject(j, "device", w->device) &&
		     cJSON_AddNumberToObject(j, "offset", (double)w->base) &&
		     cJSON_AddNumberToObject(j, "span", (double)span) &&
		     cJSON_AddNumberToObject(j, "bytes_needed", (double)span * count) &&
		     add_regions(j, plan, w->base, count) == 0;
	} else {
		ok = ok && cJSON_AddStringToObject(j, "mode", "files") &&
		     cJSON_AddStringToObject(j, "directory", w->dir ? w->dir : "");
	}
	if (!ok) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

void checkpoint_mode_text(const struct dlio_plan *plan, const struct checkpoint_write *w,
			  unsigned count, uint64_t available, char *out, size_t len)
{
	char fs[1024];

	if (w->fs) {
		checkpoint_fs_text(w->fs, fs, sizeof(fs));
		snprintf(out, len, "%u checkpoint%s as files on %s, %llu bytes free", count,
			 count == 1 ? "" : "s", fs, (unsigned long long)available);
	} else if (w->device) {
		snprintf(out, len, "%u checkpoint%s as regions of %s from offset %llu "
			 "(%llu of %llu bytes)", count, count == 1 ? "" : "s", w->device,
			 (unsigned long long)w->base,
			 (unsigned long long)(checkpoint_span(plan) * count),
			 (unsigned long long)available);
	} else {
		snprintf(out, len, "%u checkpoint%s as files in %s", count,
			 count == 1 ? "" : "s", w->dir);
	}
}
