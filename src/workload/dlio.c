/* dlio.c - LLM checkpoint sizing as DLIO computes it (argonne-lcf/
 * dlio_benchmark, checkpointing/base_checkpointing.py since Feb 2025):
 * parameter count, per-layer tensor sizes by TP / PP / ZeRO, optimizer
 * groups, which rank writes which file and its name; the built-in Llama 3
 * table; and the explicit (total over N ranks) mode. Pure arithmetic. */
#include "workload/dlio.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

/* Largest world size (tp*pp*dp or explicit ranks) a plan accepts. */
#define DLIO_MAX_RANKS (1u << 20)

/* MLPerf Storage v2.0's Llama 3 configs (configs/dlio/workload/llama3_*.yaml,
 * run by DLIO) with the TPxPPxDP of its Submission_guidelines.md Table 2;
 * DLIO's own yaml files leave DP to the MPI world size. */
static const struct {
	struct dlio_model model;
	unsigned tp, pp, dp, zero;
} builtin_models[] = {
	{ { "llama3-8b", 32, 4096, 14336, 32, 8, 128256 }, 1, 1, 8, 3 },
	{ { "llama3-70b", 80, 8192, 28672, 128, 8, 128256 }, 8, 1, 8, 3 },
	{ { "llama3-405b", 126, 16384, 53248, 128, 8, 128256 }, 8, 32, 2, 1 },
	{ { "llama3-1t", 128, 25872, 98304, 192, 32, 128256 }, 8, 64, 2, 1 },
};

int dlio_model_defaults(const char *name, struct dlio_config *cfg)
{
	if (!name || !cfg)
		return err_set("dlio: model name and config are required");
	for (size_t i = 0; i < sizeof(builtin_models) / sizeof(builtin_models[0]); i++) {
		if (strcasecmp(name, builtin_models[i].model.name) != 0)
			continue;
		memset(cfg, 0, sizeof(*cfg));
		cfg->model = builtin_models[i].model;
		cfg->tp = builtin_models[i].tp;
		cfg->pp = builtin_models[i].pp;
		cfg->dp = builtin_models[i].dp;
		cfg->zero = builtin_models[i].zero;
		snprintf(cfg->model_dtype, sizeof(cfg->model_dtype), "fp16");
		snprintf(cfg->optimizer_dtype, sizeof(cfg->optimizer_dtype), "fp32");
		return 0;
	}
	return err_set("dlio: unknown model '%s' (known: llama3-8b, llama3-70b, "
		       "llama3-405b, llama3-1t)", name);
}

/* DLIO's get_datatype_size(); an empty name means DLIO's default. */
static int dtype_bytes(const char *dtype, const char *fallback, const char *param,
		       uint64_t *bytes)
{
	static const struct { const char *name; uint64_t bytes; } types[] = {
		{ "int8", 1 }, { "uint8", 1 }, { "fp16", 2 }, { "bf16", 2 },
		{ "fp32", 4 }, { "fp64", 8 },
	};
	const char *name = dtype[0] ? dtype : fallback;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strcmp(name, types[i].name) == 0) {
			*bytes = types[i].bytes;
			return 0;
		}
	}
	return err_set("dlio: %s '%s' is not one of int8, uint8, fp16, bf16, fp32, fp64",
		       param, name);
}

/* Overflow-checked arithmetic: any overflow sets *overflow and the caller
 * reports it once. */
static uint64_t mul(uint64_t a, uint64_t b, bool *overflow)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		*overflow = true;
	return r;
}

static uint64_t add(uint64_t a, uint64_t b, bool *overflow)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		*overflow = true;
	return r;
}

/* Everything derived once from a validated configuration. */
struct layout {
	const struct dlio_config *cfg;
	uint64_t model_elem, optim_elem;  /* bytes per element */
	uint64_t dim_kv;                  /* (hidden / heads) * kv_heads, floored */
	uint64_t params;
	unsigned mp, world;               /* tp*pp, tp*pp*dp */
	uint64_t optim_bytes;             /* per writing rank, 0 = no file */
};

static int validate(const struct dlio_config *cfg, struct layout *lay)
{
	const struct dlio_model *m = &cfg->model;
	bool overflow = false;
	uint64_t world;

	if (m->layers == 0)
		return err_set("dlio: layers must be at least 1");
	if (m->hidden == 0)
		return err_set("dlio: hidden must be at least 1");
	if (m->ffn == 0)
		return err_set("dlio: ffn must be at least 1");
	if (m->heads == 0)
		return err_set("dlio: heads must be at least 1");
	if (m->kv_heads == 0)
		return err_set("dlio: kv_heads must be at least 1");
	if (m->vocab == 0)
		return err_set("dlio: vocab must be at least 1");
	if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
		return err_set("dlio: heads (%u) is not a multiple of kv_heads (%u)",
			       m->heads, m->kv_heads);
	if (m->heads > m->hidden)
		return err_set("dlio: heads (%u) exceeds hidden (%llu)", m->heads,
			       (unsigned long long)m->hidden);
	if (cfg->tp == 0)
		return err_set("dlio: tp must be at least 1");
	if (cfg->pp == 0)
		return err_set("dlio: pp must be at least 1");
	if (cfg->dp == 0)
		return err_set("dlio: dp must be at least 1");
	if (cfg->zero > 3)
		return err_set("dlio: zero must be 0, 1, 2 or 3 (got %u)", cfg->zero);
	/* The two checks DLIO's config validation makes. */
	if (m->layers < cfg->pp)
		return err_set("dlio: pp (%u) exceeds layers (%u)", cfg->pp, m->layers);
	if (cfg->zero == 3 && cfg->pp > 1)
		return err_set("dlio: zero 3 is not compatible with pp > 1 (pp %u)", cfg->pp);
	/* tp*pp < 2^64; once it is bounded, times dp < 2^52. */
	world = (uint64_t)cfg->tp * cfg->pp;
	if (world <= DLIO_MAX_RANKS)
		world *= cfg->dp;
	if (world > DLIO_MAX_RANKS)
		return err_set("dlio: tp*pp*dp exceeds %u ranks", DLIO_MAX_RANKS);
	if (dtype_bytes(cfg->model_dtype, "fp16", "model_dtype", &lay->model_elem) < 0 ||
	    dtype_bytes(cfg->optimizer_dtype, "fp32", "optimizer_dtype", &lay->optim_elem) < 0)
		return -1;

	lay->cfg = cfg;
	lay->mp = cfg->tp * cfg->pp;
	lay->world = (unsigned)world;
	lay->dim_kv = (m->hidden / m->heads) * m->kv_heads;

	/* get_num_parameters(): untied embedding and lm_head, per layer input
	 * norm + QKV + dense (o) + post-attention norm + gated MLP (3 matrices),
	 * and the final norm weight. */
	uint64_t h = m->hidden;
	uint64_t embedding = mul(m->vocab, h, &overflow);
	uint64_t qkv = mul(h, add(h, mul(2, lay->dim_kv, &overflow), &overflow), &overflow);
	uint64_t per_layer = add(add(h, qkv, &overflow), mul(h, h, &overflow), &overflow);
	per_layer = add(per_layer, h, &overflow);
	per_layer = add(per_layer, mul(3, mul(m->ffn, h, &overflow), &overflow), &overflow);
	lay->params = add(add(embedding, mul(per_layer, m->layers, &overflow), &overflow),
			  add(h, embedding, &overflow), &overflow);

	/* get_optimization_groups(): [n, 5h] three times, n the rank's share. */
	uint64_t share = cfg->zero > 0 ? lay->params / (uint64_t)lay->world
				       : lay->params / lay->mp;
	lay->optim_bytes = 0;
	if (share > 0) {
		uint64_t elems = mul(3, add(share, mul(5, h, &overflow), &overflow), &overflow);
		lay->optim_bytes = mul(elems, lay->optim_elem, &overflow);
	}
	/* Every tensor is at most the whole model, so a rank's model bytes are
	 * at most params * element size; bound the sums over all ranks. */
	mul(lay->optim_bytes, world, &overflow);
	mul(mul(lay->params, lay->model_elem, &overflow), world, &overflow);
	if (overflow)
		return err_set("dlio: model too large: sizes overflow 64 bits");
	return 0;
}

/* get_layer_parameters() summed over its tensors (those > 0 only, as DLIO
 * allocates them), in bytes. Index 0 = embedding, 1..L = transformer
 * layers, L+1 = lm_head, L+2 = final norm weight. */
static uint64_t layer_bytes(const struct layout *lay, unsigned index)
{
	const struct dlio_config *cfg = lay->cfg;
	uint64_t h = cfg->model.hidden, tp = cfg->tp;
	uint64_t shard = cfg->zero == 3 ? cfg->dp : 1;
	unsigned layers = cfg->model.layers;
	uint64_t elems;

	if (index == 0 || index == layers + 1) {
		elems = h * cfg->model.vocab / tp / shard;
	} else if (index == layers + 2) {
		elems = h / shard;
	} else {
		uint64_t tensors[6] = {
			h / shard,                                   /* input norm */
			h * (h + 2 * lay->dim_kv) / tp / shard,      /* QKV */
			h * h / tp / shard,                          /* dense (o) */
			h / shard,                                   /* post-attn norm */
			h * 2 * cfg->model.ffn / tp / shard,         /* gate + up */
			h * cfg->model.ffn / tp / shard,             /* down */
		};
		elems = 0;
		for (int i = 0; i < 6; i++)
			elems += tensors[i];
	}
	return elems * lay->model_elem;
}

/* get_layer_index(): the pipeline stage's layers, transformer layers split
 * with the remainder on the first stages; stage 0 adds the embedding, the
 * last stage the lm_head and final norm. */
static void stage_layers(const struct layout *lay, unsigned stage, unsigned *start,
			 unsigned *end)
{
	unsigned layers = lay->cfg->model.layers, pp = lay->cfg->pp;
	unsigned per = layers / pp, rem = layers % pp;

	if (stage < rem) {
		*start = stage * (per + 1) + 1;
		*end = *start + per;
	} else {
		*start = rem * (per + 1) + (stage - rem) * per + 1;
		*end = *start + per - 1;
	}
	if (stage == pp - 1)
		*end = layers + 2;
	if (stage == 0)
		*start = 0;
}

static int add_file(struct dlio_plan *out, unsigned cap, unsigned rank,
		    enum dlio_file_kind kind, uint64_t bytes, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Appends one file, or only counts it while out->files is NULL. */
static int add_file(struct dlio_plan *out, unsigned cap, unsigned rank,
		    enum dlio_file_kind kind, uint64_t bytes, const char *fmt, ...)
{
	if (out->files) {
		struct dlio_file *f;
		va_list ap;
		int len;

		if (out->nr >= cap)
			return err_set("dlio: internal error: file count changed");
		f = &out->files[out->nr];
		va_start(ap, fmt);
		len = vsnprintf(f->name, sizeof(f->name), fmt, ap);
		va_end(ap);
		if (len < 0 || (size_t)len >= sizeof(f->name))
			return err_set("dlio: file name too long");
		f->rank = rank;
		f->kind = kind;
		f->bytes = bytes;
		out->total_bytes += bytes;
	}
	out->nr++;
	return 0;
}

/* DLIO's save_checkpoint() for every rank: which files, named as DLIO
 * names them inside global_epoch<E>_step<S>/ (PyTorch's ".pt"). */
static int list_files(const struct layout *lay, struct dlio_plan *out, unsigned cap)
{
	const struct dlio_config *cfg = lay->cfg;

	out->nr = 0;
	out->total_bytes = 0;
	for (unsigned rank = 0; rank < lay->world; rank++) {
		unsigned stage = (rank / cfg->tp) % cfg->pp;
		unsigned dp_rank = rank / lay->mp, mp_rank = rank % lay->mp;
		unsigned start, end;
		uint64_t model = 0;

		/* ZeRO 0: only the first data-parallel replica checkpoints. */
		if (cfg->zero == 0 && rank >= lay->mp)
			continue;
		stage_layers(lay, stage, &start, &end);
		if (cfg->zero == 1 || cfg->zero == 2) {
			/* The model state is written by DP rank 0 only. */
			if (dp_rank == 0 && cfg->pp > 1) {
				for (unsigned l = start; l <= end; l++)
					if (add_file(out, cap, rank, DLIO_MODEL_LAYER,
						     layer_bytes(lay, l),
						     "layer_%u-model_%u_model_states.pt",
						     l, mp_rank) < 0)
						return -1;
			} else if (dp_rank == 0) {
				for (unsigned l = start; l <= end; l++)
					model += layer_bytes(lay, l);
				if (add_file(out, cap, rank, DLIO_MODEL, model,
					     "model_%u_model_states.pt", mp_rank) < 0)
					return -1;
			}
		} else {
			for (unsigned l = start; l <= end; l++)
				model += layer_bytes(lay, l);
			if (add_file(out, cap, rank, DLIO_MODEL, model,
				     "zero_pp_rank_%u_mp_rank_%u_model_states.pt",
				     dp_rank, mp_rank) < 0)
				return -1;
		}
		if (lay->optim_bytes > 0 &&
		    add_file(out, cap, rank, DLIO_OPTIMIZER, lay->optim_bytes,
			     "zero_pp_rank_%u_mp_rank_%u_optim_states.pt", dp_rank, mp_rank) < 0)
			return -1;
	}
	return 0;
}

/* Counts, allocates, fills. */
static int build_files(const struct layout *lay, struct dlio_plan *out)
{
	unsigned cap;

	out->files = NULL;
	if (list_files(lay, out, 0) < 0)
		return -1;
	cap = out->nr;
	out->files = calloc(cap ? cap : 1, sizeof(*out->files));
	if (!out->files)
		return err_set("dlio: out of memory for %u files", cap);
	if (list_files(lay, out, cap) < 0) {
		free(out->files);
		out->files = NULL;
		return -1;
	}
	return 0;
}

static int architecture_plan(const struct dlio_config *cfg, struct dlio_plan *out)
{
	struct layout lay;

	if (validate(cfg, &lay) < 0)
		return -1;
	if (build_files(&lay, out) < 0)
		return -1;
	out->ranks = lay.world;
	out->params = lay.params;
	return 0;
}

/* Explicit mode: the total split evenly over the ranks (the first
 * total % ranks ranks one byte more), each rank's share split into one
 * model and one optimizer file in the proportion DLIO gives the model
 * described in cfg (or, without one, model_dtype : 3 x optimizer_dtype per
 * parameter, DLIO's per-parameter ratio). */
static int explicit_plan(const struct dlio_config *cfg, struct dlio_plan *out)
{
	uint64_t model_part, optim_part, total = cfg->explicit_total;
	unsigned ranks = cfg->explicit_ranks;

	if (ranks == 0)
		return err_set("dlio: explicit_ranks must be at least 1");
	if (ranks > DLIO_MAX_RANKS)
		return err_set("dlio: explicit_ranks exceeds %u", DLIO_MAX_RANKS);
	if (total / 2 < ranks)
		return err_set("dlio: explicit_total (%llu bytes) is less than 2 bytes per rank",
			       (unsigned long long)total);

	if (cfg->model.layers > 0) {
		struct dlio_config arch = *cfg;
		struct dlio_plan sized;

		arch.explicit_total = 0;
		arch.explicit_ranks = 0;
		if (architecture_plan(&arch, &sized) < 0)
			return err_prefix("dlio: explicit mode model proportion");
		model_part = optim_part = 0;
		for (unsigned i = 0; i < sized.nr; i++) {
			if (sized.files[i].kind == DLIO_OPTIMIZER)
				optim_part += sized.files[i].bytes;
			else
				model_part += sized.files[i].bytes;
		}
		dlio_plan_free(&sized);
	} else {
		uint64_t model_elem, optim_elem;

		if (dtype_bytes(cfg->model_dtype, "fp16", "model_dtype", &model_elem) < 0 ||
		    dtype_bytes(cfg->optimizer_dtype, "fp32", "optimizer_dtype", &optim_elem) < 0)
			return -1;
		model_part = model_elem;
		optim_part = 3 * optim_elem;
	}
	if (model_part + optim_part == 0)
		return err_set("dlio: explicit mode: the model has no state to split by");

	out->files = calloc((size_t)ranks * 2, sizeof(*out->files));
	if (!out->files)
		return err_set("dlio: out of memory for %u files", ranks * 2);
	out->nr = 0;
	out->total_bytes = 0;
	for (unsigned rank = 0; rank < ranks; rank++) {
		uint64_t share = total / ranks + (rank < total % ranks ? 1 : 0);
		uint64_t model = (uint64_t)((unsigned __int128)share * model_part /
					    (model_part + optim_part));

		/* Keep both files non-empty. */
		if (model == 0)
			model = 1;
		if (model == share)
			model = share - 1;
		if (add_file(out, ranks * 2, rank, DLIO_MODEL, model,
			     "zero_pp_rank_0_mp_rank_%u_model_states.pt", rank) < 0 ||
		    add_file(out, ranks * 2, rank, DLIO_OPTIMIZER, share - model,
			     "zero_pp_rank_0_mp_rank_%u_optim_states.pt", rank) < 0) {
			free(out->files);
			out->files = NULL;
			return -1;
		}
	}
	out->ranks = ranks;
	out->params = 0;
	return 0;
}

int dlio_plan(const struct dlio_config *cfg, struct dlio_plan *out)
{
	int rc;

	if (!cfg || !out)
		return err_set("dlio: config and plan are required");
	memset(out, 0, sizeof(*out));
	if (cfg->explicit_total > 0 || cfg->explicit_ranks > 0)
		rc = explicit_plan(cfg, out);
	else
		rc = architecture_plan(cfg, out);
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	return rc;
}

void dlio_plan_free(struct dlio_plan *p)
{
	if (!p)
		return;
	free(p->files);
	memset(p, 0, sizeof(*p));
}

static const char *kind_name(enum dlio_file_kind kind)
{
	switch (kind) {
	case DLIO_MODEL:
		return "model";
	case DLIO_MODEL_LAYER:
		return "model_layer";
	case DLIO_OPTIMIZER:
		return "optimizer";
	}
	return "unknown";
}

/* Byte counts stay below 2^53 in any real plan, so JSON numbers (doubles)
 * hold them exactly. */
cJSON *dlio_plan_json(const struct dlio_config *cfg, const struct dlio_plan *p)
{
	cJSON *root, *files;
	uint64_t model_bytes = 0, optim_bytes = 0;
	bool ok = true;

	if (!p) {
		err_set("dlio: no plan");
		return NULL;
	}
	root = cJSON_CreateObject();
	if (!root) {
		err_set("dlio: out of memory for JSON");
		return NULL;
	}
	for (unsigned i = 0; i < p->nr; i++) {
		if (p->files[i].kind == DLIO_OPTIMIZER)
			optim_bytes += p->files[i].bytes;
		else
			model_bytes += p->files[i].bytes;
	}
	ok = ok && cJSON_AddNumberToObject(root, "total_bytes", (double)p->total_bytes);
	ok = ok && cJSON_AddNumberToObject(root, "model_bytes", (double)model_bytes);
	ok = ok && cJSON_AddNumberToObject(root, "optimizer_bytes", (double)optim_bytes);
	ok = ok && cJSON_AddNumberToObject(root, "ranks", p->ranks);
	ok = ok && cJSON_AddNumberToObject(root, "params", (double)p->params);
	if (ok && cfg) {
		bool explicit_mode = cfg->explicit_total > 0 || cfg->explicit_ranks > 0;

		ok = cJSON_AddStringToObject(root, "mode",
					     explicit_mode ? "explicit" : "architecture");
		if (ok && cfg->model.layers > 0) {
			cJSON *model = cJSON_AddObjectToObject(root, "model");

			ok = model != NULL;
			ok = ok && cJSON_AddStringToObject(model, "name", cfg->model.name);
			ok = ok && cJSON_AddNumberToObject(model, "layers", cfg->model.layers);
			ok = ok && cJSON_AddNumberToObject(model, "hidden", (double)cfg->model.hidden);
			ok = ok && cJSON_AddNumberToObject(model, "ffn", (double)cfg->model.ffn);
			ok = ok && cJSON_AddNumberToObject(model, "heads", cfg->model.heads);
			ok = ok && cJSON_AddNumberToObject(model, "kv_heads", cfg->model.kv_heads);
			ok = ok && cJSON_AddNumberToObject(model, "vocab", (double)cfg->model.vocab);
		}
		if (ok && !explicit_mode) {
			ok = cJSON_AddNumberToObject(root, "tp", cfg->tp) &&
			     cJSON_AddNumberToObject(root, "pp", cfg->pp) &&
			     cJSON_AddNumberToObject(root, "dp", cfg->dp) &&
			     cJSON_AddNumberToObject(root, "zero", cfg->zero);
		}
		ok = ok && cJSON_AddStringToObject(root, "model_dtype",
						   cfg->model_dtype[0] ? cfg->model_dtype : "fp16");
		ok = ok && cJSON_AddStringToObject(root, "optimizer_dtype",
						   cfg->optimizer_dtype[0] ? cfg->optimizer_dtype : "fp32");
	}
	files = ok ? cJSON_AddArrayToObject(root, "files") : NULL;
	ok = files != NULL;
	for (unsigned i = 0; ok && i < p->nr; i++) {
		cJSON *f = cJSON_CreateObject();

		ok = f != NULL && cJSON_AddItemToArray(files, f);
		if (f && !ok)
			cJSON_Delete(f);
		ok = ok && cJSON_AddNumberToObject(f, "rank", p->files[i].rank);
		ok = ok && cJSON_AddStringToObject(f, "kind", kind_name(p->files[i].kind));
		ok = ok && cJSON_AddStringToObject(f, "name", p->files[i].name);
		ok = ok && cJSON_AddNumberToObject(f, "bytes", (double)p->files[i].bytes);
	}
	if (!ok) {
		cJSON_Delete(root);
		err_set("dlio: out of memory for JSON");
		return NULL;
	}
	return root;
}
