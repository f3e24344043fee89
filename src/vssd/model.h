/* model.h - a virtual SSD's description: the [model] section of a drive's
 * spec file (specs/NAME.ini; docs/vssd.md lists every key), scaled to a
 * logical capacity that fits in memory (vssd_scale=1/1000, 0.001 or a
 * capacity such as 8g). It yields the FTL's geometry and the clock's
 * parameters; the rated figures stay in the spec file's [rated] section
 * and are never read here. */
#ifndef DRIVEBENCH_VSSD_MODEL_H
#define DRIVEBENCH_VSSD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "vssd/ftl.h"
#include "vssd/timing.h"

#define VSSD_NAME_MAX 128

struct vssd_model {
	char name[VSSD_NAME_MAX];        /* [drive] model, "" when none */
	uint64_t rated_capacity;         /* logical bytes of the real drive */
	uint64_t capacity;               /* logical bytes after the scale */
	double scale;                    /* capacity / rated_capacity */
	struct ftl_geometry geometry;
	struct timing_params timing;
};

/* Reads path's [model] (and [drive]'s model name and capacity_tb) and
 * scales it by scale_text (NULL: 1/1000). 0, or -1 with err_msg naming
 * "FILE:LINE: key 'K': ..." or what does not fit (a scale that leaves a
 * die fewer blocks than garbage collection needs names the smallest). */
int vssd_model_load(const char *path, const char *scale_text, struct vssd_model *m);

/* Parses a scale: "1/1000", "0.001" (a fraction in (0, 1]) or a logical
 * capacity ("8g"); *fraction for the first two, *capacity for the last
 * (the other 0). -1 with err_msg. */
int vssd_scale_parse(const char *text, double *fraction, uint64_t *capacity);

/* The scale as its parsed value, one spelling per drive: "f0.001" for
 * 1/1000, 0.001 and 2/2000; "c2147483648" for 2g, 2G and 2048m. A scale
 * that does not parse is kept as written (its error comes elsewhere). */
void vssd_scale_key(const char *text, char *key, size_t len);

#endif
