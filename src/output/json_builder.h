/* json_builder.h - private to src/output/json*.c: the adds every JSON
 * object is built with. Each remembers the first allocation failure in the
 * builder, and the whole document is dropped at the end; numbers are
 * written as fio writes them. Static inline: small, and called from the
 * two files that build fio's JSON (json.c, json_dir.c). */
#ifndef DRIVEBENCH_JSON_BUILDER_H
#define DRIVEBENCH_JSON_BUILDER_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "output/json_fio.h"

struct json_builder {
	bool failed;
};

static inline cJSON *attach(struct json_builder *b, cJSON *parent, const char *name,
		     cJSON *item)
{
	if (!item || !parent) {
		cJSON_Delete(item);
		b->failed = true;
		return NULL;
	}
	if (!(cJSON_IsArray(parent) ? cJSON_AddItemToArray(parent, item) :
				      cJSON_AddItemToObject(parent, name, item))) {
		cJSON_Delete(item);
		b->failed = true;
		return NULL;
	}
	return item;
}

static inline cJSON *add_object(struct json_builder *b, cJSON *parent, const char *name)
{
	return attach(b, parent, name, cJSON_CreateObject());
}

static inline cJSON *add_array(struct json_builder *b, cJSON *parent, const char *name)
{
	return attach(b, parent, name, cJSON_CreateArray());
}

/* 64-bit counters are written as exact decimal integers (raw), not through
 * cJSON's double formatting, which can drop the last digit above 10^15. */
static inline void add_u64(struct json_builder *b, cJSON *parent, const char *name,
		    uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	attach(b, parent, name, cJSON_CreateRaw(text));
}

static inline void add_int(struct json_builder *b, cJSON *parent, const char *name,
		    long long value)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", value);
	attach(b, parent, name, cJSON_CreateRaw(text));
}

/* fio writes these as floats ("iops" : 256000.000000): always with a
 * fraction or an exponent, so readers that type JSON numbers see a float
 * where fio's has one (cJSON would print 256000). */
static inline void add_double(struct json_builder *b, cJSON *parent, const char *name,
		       double value)
{
	char text[64];

	json_fio_float(isfinite(value) ? value : 0.0, text, sizeof(text));
	attach(b, parent, name, cJSON_CreateRaw(text));
}

static inline void add_string(struct json_builder *b, cJSON *parent, const char *name,
		       const char *value)
{
	attach(b, parent, name, cJSON_CreateString(value));
}

#endif
