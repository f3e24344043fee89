/* dlio.h - LLM checkpoint sizing exactly as DLIO computes it (its LLM
 * checkpointing code since early 2025): parameters from the architecture,
 * per-rank model and optimizer state by tensor / pipeline / data parallel
 * split and ZeRO stage, and which rank writes which file. Also an explicit
 * mode (a total size over N ranks) for configurations known only by their
 * total. Pure arithmetic: no I/O. */
#ifndef DRIVEBENCH_DLIO_H
#define DRIVEBENCH_DLIO_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct dlio_model {
	char name[32];              /* "llama3-8b", "llama3-70b", "llama3-405b", "llama3-1t" */
	unsigned layers;
	uint64_t hidden;            /* hidden size */
	uint64_t ffn;               /* FFN (intermediate) size */
	unsigned heads, kv_heads;   /* attention heads, KV heads (GQA) */
	uint64_t vocab;
};

struct dlio_config {
	struct dlio_model model;
	unsigned tp, pp, dp;        /* tensor, pipeline, data parallel */
	unsigned zero;              /* ZeRO stage 0..3 */
	char model_dtype[8];        /* "bf16", "fp16", "fp32", ... */
	char optimizer_dtype[8];
	/* explicit mode: total bytes written by nr ranks (0 = architecture mode) */
	uint64_t explicit_total;
	unsigned explicit_ranks;
};

enum dlio_file_kind { DLIO_MODEL, DLIO_MODEL_LAYER, DLIO_OPTIMIZER };

struct dlio_file {
	unsigned rank;
	enum dlio_file_kind kind;
	char name[96];              /* relative name inside one checkpoint */
	uint64_t bytes;
};

struct dlio_plan {
	struct dlio_file *files;
	unsigned nr;
	unsigned ranks;
	uint64_t params;            /* 0 in explicit mode */
	uint64_t total_bytes;
};

/* Fills cfg with a built-in model's architecture and DLIO's shipped
 * parallel settings for it (every number can be overridden afterwards). */
int dlio_model_defaults(const char *name, struct dlio_config *cfg);
/* The per-rank file list. Returns 0 or -1 with err_msg naming the bad
 * parameter. */
int dlio_plan(const struct dlio_config *cfg, struct dlio_plan *out);
void dlio_plan_free(struct dlio_plan *p);
/* The plan as JSON: {"total_bytes":..., "ranks":..., "files":[...]} */
cJSON *dlio_plan_json(const struct dlio_config *cfg, const struct dlio_plan *p);

#endif
