/* test_dlio.c - DLIO checkpoint sizing: MLPerf Storage's published sizes,
 * hand-computed toy models (every tensor worked out in the comments),
 * file lists and names, explicit mode, JSON, and every bad parameter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"
#include "workload/dlio.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static uint64_t kind_bytes(const struct dlio_plan *p, enum dlio_file_kind kind)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < p->nr; i++)
		if (p->files[i].kind == kind)
			sum += p->files[i].bytes;
	return sum;
}

static uint64_t model_bytes(const struct dlio_plan *p)
{
	return kind_bytes(p, DLIO_MODEL) + kind_bytes(p, DLIO_MODEL_LAYER);
}

/* DLIO prints sizes as bytes / 1024^3 with "GB"; format like a table. */
static const char *gib(uint64_t bytes, const char *fmt, double scale)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), fmt, (double)bytes / GIB / scale);
	return buf;
}

static struct dlio_plan plan_for(const char *model)
{
	struct dlio_config cfg;
	struct dlio_plan p;

	assert_int_equal(dlio_model_defaults(model, &cfg), 0);
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	return p;
}

/* MLPerf Storage Table 2: 8B, 1x1x8, ZeRO 3: "105 GB". DLIO prints
 * 104.704521 GB (GiB): model 14.957527 + optimizer 89.746994. */
static void test_llama3_8b_published(void **state)
{
	(void)state;
	struct dlio_plan p = plan_for("llama3-8b");

	assert_int_equal(p.params, 8030261248ULL);  /* Llama 3 8B's real count */
	assert_int_equal(p.ranks, 8);
	assert_int_equal(p.nr, 16);                 /* model + optimizer per rank */
	assert_int_equal(p.total_bytes, 112425623552ULL);
	assert_string_equal(gib(p.total_bytes, "%.0f", 1), "105");
	assert_string_equal(gib(p.total_bytes, "%.6f", 1), "104.704521");
	assert_string_equal(gib(model_bytes(&p), "%.6f", 1), "14.957527");
	assert_string_equal(gib(kind_bytes(&p, DLIO_OPTIMIZER), "%.6f", 1), "89.746994");
	assert_string_equal(p.files[0].name, "zero_pp_rank_0_mp_rank_0_model_states.pt");
	assert_string_equal(p.files[15].name, "zero_pp_rank_7_mp_rank_0_optim_states.pt");
	dlio_plan_free(&p);
}

/* 70B, 8x1x8, ZeRO 3: Table 2 says "912 GB"; DLIO's arithmetic gives
 * 911.212128 GiB, which mlpstorage's own LLM_SIZE_BY_RANK lists as
 * model 130 + optimizer 781. The table's last digit is 0.09% high. */
static void test_llama3_70b_published(void **state)
{
	(void)state;
	struct dlio_plan p = plan_for("llama3-70b");

	assert_int_equal(p.params, 69882617856ULL);
	assert_int_equal(p.ranks, 64);
	assert_int_equal(p.nr, 128);
	assert_int_equal(p.total_bytes, 978406572032ULL);
	assert_string_equal(gib(p.total_bytes, "%.6f", 1), "911.212128");
	assert_true((double)p.total_bytes / GIB > 911.0 && (double)p.total_bytes / GIB < 912.0);
	assert_string_equal(gib(model_bytes(&p), "%.0f", 1), "130");
	assert_string_equal(gib(kind_bytes(&p, DLIO_OPTIMIZER), "%.0f", 1), "781");
	dlio_plan_free(&p);
}

/* 405B, 8x32x2, ZeRO 1: "5.29 TB" = 5292.248718 GiB / 1000 (in TiB it
 * would be 5.17, so the table's unit is GiB-based). */
static void test_llama3_405b_published(void **state)
{
	(void)state;
	struct dlio_plan p = plan_for("llama3-405b");

	assert_int_equal(p.params, 405853388800ULL);
	assert_int_equal(p.ranks, 512);
	assert_int_equal(p.total_bytes, 5682508791808ULL);
	assert_string_equal(gib(p.total_bytes, "%.2f", 1000), "5.29");
	assert_string_equal(gib(p.total_bytes, "%.6f", 1), "5292.248718");
	/* ZeRO 1 with PP > 1: DP rank 0 (ranks 0..255) writes one file per
	 * layer: 126 transformer layers + embedding + lm_head + final norm,
	 * each layer on 8 TP ranks; all 512 ranks write an optimizer file. */
	assert_int_equal(kind_bytes(&p, DLIO_MODEL), 0);
	assert_int_equal(p.nr, (126 + 3) * 8 + 512);
	/* The model is written once: 2 bytes per parameter plus the norms each
	 * TP rank repeats: (2*126 + 1) * 16384 elements * 7 extra copies. */
	assert_int_equal(model_bytes(&p), 2 * (405853388800ULL + 253ULL * 16384 * 7));
	dlio_plan_free(&p);
}

/* 1T, 8x64x2, ZeRO 1: hidden 25872 / 192 heads is not whole; DLIO floors
 * the head size (134). Gives 15426.589 GiB, the figure mlpstorage's
 * LLM_SIZE_BY_RANK carries (15426); Table 2's "18 TB" adds 2571 to it. */
static void test_llama3_1t(void **state)
{
	(void)state;
	struct dlio_plan p = plan_for("llama3-1t");

	assert_int_equal(p.params, 1183035102480ULL);
	assert_int_equal(p.ranks, 1024);
	assert_int_equal(p.total_bytes, 16564174094592ULL);
	assert_string_equal(gib(p.total_bytes, "%.0f", 1), "15427");
	assert_true((uint64_t)((double)p.total_bytes / GIB) == 15426);
	dlio_plan_free(&p);
}

static void test_model_defaults(void **state)
{
	(void)state;
	struct dlio_config cfg;

	memset(&cfg, 0xff, sizeof(cfg));
	assert_int_equal(dlio_model_defaults("LLAMA3-405B", &cfg), 0);
	assert_string_equal(cfg.model.name, "llama3-405b");
	assert_int_equal(cfg.model.layers, 126);
	assert_int_equal(cfg.model.hidden, 16384);
	assert_int_equal(cfg.model.ffn, 53248);
	assert_int_equal(cfg.model.heads, 128);
	assert_int_equal(cfg.model.kv_heads, 8);
	assert_int_equal(cfg.model.vocab, 128256);
	assert_int_equal(cfg.tp, 8);
	assert_int_equal(cfg.pp, 32);
	assert_int_equal(cfg.dp, 2);
	assert_int_equal(cfg.zero, 1);
	assert_string_equal(cfg.model_dtype, "fp16");
	assert_string_equal(cfg.optimizer_dtype, "fp32");
	assert_int_equal(cfg.explicit_total, 0);
	assert_int_equal(cfg.explicit_ranks, 0);

	assert_int_equal(dlio_model_defaults("llama2-7b", &cfg), -1);
	assert_non_null(strstr(err_msg(), "llama2-7b"));
	assert_int_equal(dlio_model_defaults(NULL, &cfg), -1);
	assert_int_equal(dlio_model_defaults("llama3-8b", NULL), -1);
}

/* Toy model: 2 layers, hidden 8, ffn 16, 4 heads, 2 KV heads, vocab 10.
 * head size 8/4 = 2, dim_kv = 2*2 = 4.
 *   embedding  10*8            =  80   lm_head 80, final norm 8
 *   per layer: input norm 8, QKV 8*(8+2*4) = 128, dense 8*8 = 64,
 *              post norm 8, gate+up 16*2*8 = 256, down 16*8 = 128 -> 592
 *   params = 80 + 2*592 + 8 + 80 = 1352 */
static struct dlio_config toy(unsigned tp, unsigned pp, unsigned dp, unsigned zero)
{
	struct dlio_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.model.name, sizeof(cfg.model.name), "toy");
	cfg.model.layers = 2;
	cfg.model.hidden = 8;
	cfg.model.ffn = 16;
	cfg.model.heads = 4;
	cfg.model.kv_heads = 2;
	cfg.model.vocab = 10;
	cfg.tp = tp;
	cfg.pp = pp;
	cfg.dp = dp;
	cfg.zero = zero;
	snprintf(cfg.model_dtype, sizeof(cfg.model_dtype), "fp16");
	snprintf(cfg.optimizer_dtype, sizeof(cfg.optimizer_dtype), "fp32");
	return cfg;
}

static void expect_file(const struct dlio_plan *p, unsigned i, unsigned rank,
			enum dlio_file_kind kind, const char *name, uint64_t bytes)
{
	assert_true(i < p->nr);
	assert_int_equal(p->files[i].rank, rank);
	assert_int_equal(p->files[i].kind, kind);
	assert_string_equal(p->files[i].name, name);
	assert_int_equal(p->files[i].bytes, bytes);
}

/* 1x1x1 ZeRO 0: one rank, whole model 1352 * 2 = 2704 bytes; optimizer
 * n = 1352, groups 3 * (1352 + 5*8) = 4176 elements * 4 = 16704 bytes. */
static void test_toy_single_rank(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 1, 1, 0);
	struct dlio_plan p;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.params, 1352);
	assert_int_equal(p.ranks, 1);
	assert_int_equal(p.nr, 2);
	expect_file(&p, 0, 0, DLIO_MODEL, "zero_pp_rank_0_mp_rank_0_model_states.pt", 2704);
	expect_file(&p, 1, 0, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_0_optim_states.pt", 16704);
	assert_int_equal(p.total_bytes, 2704 + 16704);
	dlio_plan_free(&p);
	assert_null(p.files);
	assert_int_equal(p.nr, 0);
}

/* 2x2x2 ZeRO 1 (8 ranks, model parallel 4). rank r: stage (r/2)%2,
 * dp rank r/4, mp rank r%4. Stage 0 holds layers 0..1, stage 1 2..4.
 * TP-split layers: embedding 80/2 = 40; transformer layer 8 + 128/2 +
 * 64/2 + 8 + 256/2 + 128/2 = 304; lm_head 40; final norm 8 (not split).
 * DP rank 0 writes per-layer files (fp16: 80, 608 | 608, 80, 16 bytes).
 * Optimizer: n = 1352 / 8 = 169, 3 * (169 + 40) = 627 * 4 = 2508. */
static void test_toy_zero1_pipeline(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(2, 2, 2, 1);
	struct dlio_plan p;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.ranks, 8);
	assert_int_equal(p.nr, 3 + 3 + 4 + 4 + 4);
	expect_file(&p, 0, 0, DLIO_MODEL_LAYER, "layer_0-model_0_model_states.pt", 80);
	expect_file(&p, 1, 0, DLIO_MODEL_LAYER, "layer_1-model_0_model_states.pt", 608);
	expect_file(&p, 2, 0, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_0_optim_states.pt", 2508);
	expect_file(&p, 3, 1, DLIO_MODEL_LAYER, "layer_0-model_1_model_states.pt", 80);
	expect_file(&p, 6, 2, DLIO_MODEL_LAYER, "layer_2-model_2_model_states.pt", 608);
	expect_file(&p, 7, 2, DLIO_MODEL_LAYER, "layer_3-model_2_model_states.pt", 80);
	expect_file(&p, 8, 2, DLIO_MODEL_LAYER, "layer_4-model_2_model_states.pt", 16);
	expect_file(&p, 9, 2, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_2_optim_states.pt", 2508);
	expect_file(&p, 14, 4, DLIO_OPTIMIZER, "zero_pp_rank_1_mp_rank_0_optim_states.pt", 2508);
	expect_file(&p, 17, 7, DLIO_OPTIMIZER, "zero_pp_rank_1_mp_rank_3_optim_states.pt", 2508);
	assert_int_equal(model_bytes(&p), 2 * (80 + 608) + 2 * (608 + 80 + 16));
	assert_int_equal(kind_bytes(&p, DLIO_OPTIMIZER), 8 * 2508);
	assert_int_equal(p.total_bytes, 2784 + 20064);
	dlio_plan_free(&p);
}

/* 1x1x2 ZeRO 3: model sharded over DP (factor 2): embedding 80/2 = 40,
 * layer 4 + 64 + 32 + 4 + 128 + 64 = 296, lm_head 40, final norm 4:
 * 676 elements = 1352 bytes per rank. Optimizer n = 676:
 * 3 * (676 + 40) = 2148 * 4 = 8592 bytes. */
static void test_toy_zero3(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 1, 2, 3);
	struct dlio_plan p;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.nr, 4);
	expect_file(&p, 0, 0, DLIO_MODEL, "zero_pp_rank_0_mp_rank_0_model_states.pt", 1352);
	expect_file(&p, 1, 0, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_0_optim_states.pt", 8592);
	expect_file(&p, 2, 1, DLIO_MODEL, "zero_pp_rank_1_mp_rank_0_model_states.pt", 1352);
	expect_file(&p, 3, 1, DLIO_OPTIMIZER, "zero_pp_rank_1_mp_rank_0_optim_states.pt", 8592);
	assert_int_equal(p.total_bytes, 2 * (1352 + 8592));
	dlio_plan_free(&p);
}

/* 1x1x2 ZeRO 2, PP 1: DP rank 0 writes the whole model (2704 bytes) in
 * one model_<mp>_model_states file; both ranks write 8592 optimizer bytes.
 * (DLIO's printed "Model size" also counts the unwritten DP-rank-1 copy
 * for ZeRO 2; the plan lists what is written.) */
static void test_toy_zero2(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 1, 2, 2);
	struct dlio_plan p;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.nr, 3);
	expect_file(&p, 0, 0, DLIO_MODEL, "model_0_model_states.pt", 2704);
	expect_file(&p, 1, 0, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_0_optim_states.pt", 8592);
	expect_file(&p, 2, 1, DLIO_OPTIMIZER, "zero_pp_rank_1_mp_rank_0_optim_states.pt", 8592);
	dlio_plan_free(&p);
}

/* 1x1x2 ZeRO 0: only the first replica (rank 0) writes: 2704 + 16704;
 * rank 1 writes nothing but still counts as a rank. */
static void test_toy_zero0_replica(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 1, 2, 0);
	struct dlio_plan p;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.ranks, 2);
	assert_int_equal(p.nr, 2);
	expect_file(&p, 0, 0, DLIO_MODEL, "zero_pp_rank_0_mp_rank_0_model_states.pt", 2704);
	expect_file(&p, 1, 0, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_0_optim_states.pt", 16704);
	dlio_plan_free(&p);
}

/* 3 layers over 2 stages: the remainder goes to the first stage:
 * stage 0 = layers 0..2, stage 1 = 3..5 (layer 3, lm_head 4, norm 5).
 * bf16 and fp16 are both 2 bytes; fp32 model doubles the model bytes. */
static void test_uneven_pipeline_and_dtypes(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 2, 1, 1);
	struct dlio_plan p;

	cfg.model.layers = 3;
	snprintf(cfg.model_dtype, sizeof(cfg.model_dtype), "bf16");
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.nr, 8);
	expect_file(&p, 0, 0, DLIO_MODEL_LAYER, "layer_0-model_0_model_states.pt", 160);
	expect_file(&p, 1, 0, DLIO_MODEL_LAYER, "layer_1-model_0_model_states.pt", 1184);
	expect_file(&p, 2, 0, DLIO_MODEL_LAYER, "layer_2-model_0_model_states.pt", 1184);
	assert_int_equal(p.files[3].kind, DLIO_OPTIMIZER);
	expect_file(&p, 4, 1, DLIO_MODEL_LAYER, "layer_3-model_1_model_states.pt", 1184);
	expect_file(&p, 5, 1, DLIO_MODEL_LAYER, "layer_4-model_1_model_states.pt", 160);
	expect_file(&p, 6, 1, DLIO_MODEL_LAYER, "layer_5-model_1_model_states.pt", 16);
	/* params = 80 + 3*592 + 8 + 80 = 1944; n = 1944/2 = 972;
	 * 3 * (972 + 40) * 4 = 12144 */
	assert_int_equal(p.params, 1944);
	assert_int_equal(p.files[7].bytes, 12144);
	dlio_plan_free(&p);

	snprintf(cfg.model_dtype, sizeof(cfg.model_dtype), "fp32");
	snprintf(cfg.optimizer_dtype, sizeof(cfg.optimizer_dtype), "fp16");
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.files[0].bytes, 320);
	assert_int_equal(p.files[3].bytes, 6072);
	dlio_plan_free(&p);

	/* Empty dtypes mean DLIO's defaults, fp16 and fp32. */
	cfg.model_dtype[0] = cfg.optimizer_dtype[0] = '\0';
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.files[0].bytes, 160);
	assert_int_equal(p.files[3].bytes, 12144);
	dlio_plan_free(&p);
}

/* 1636 GB (10^9) over 8 ranks, no model: 204.5e9 per rank, split
 * model : optimizer = 2 : 3*4 (fp16 weights, fp32 master + 2 moments). */
static void test_explicit_review_config(void **state)
{
	(void)state;
	struct dlio_config cfg;
	struct dlio_plan p;

	memset(&cfg, 0, sizeof(cfg));
	cfg.explicit_total = 1636000000000ULL;
	cfg.explicit_ranks = 8;
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.ranks, 8);
	assert_int_equal(p.params, 0);
	assert_int_equal(p.nr, 16);
	assert_int_equal(p.total_bytes, 1636000000000ULL);
	for (unsigned r = 0; r < 8; r++) {
		assert_int_equal(p.files[2 * r].rank, r);
		assert_int_equal(p.files[2 * r].bytes, 29214285714ULL);  /* floor(204.5e9/7) */
		assert_int_equal(p.files[2 * r + 1].bytes, 204500000000ULL - 29214285714ULL);
	}
	expect_file(&p, 14, 7, DLIO_MODEL, "zero_pp_rank_0_mp_rank_7_model_states.pt",
		    29214285714ULL);
	expect_file(&p, 15, 7, DLIO_OPTIMIZER, "zero_pp_rank_0_mp_rank_7_optim_states.pt",
		    175285714286ULL);
	dlio_plan_free(&p);
}

/* 1003 bytes over 4 ranks: 250 each, the first 3 ranks one more. */
static void test_explicit_remainder_and_model_ratio(void **state)
{
	(void)state;
	struct dlio_config cfg;
	struct dlio_plan p;

	memset(&cfg, 0, sizeof(cfg));
	cfg.explicit_total = 1003;
	cfg.explicit_ranks = 4;
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.files[0].bytes + p.files[1].bytes, 251);
	assert_int_equal(p.files[4].bytes + p.files[5].bytes, 251);
	assert_int_equal(p.files[6].bytes + p.files[7].bytes, 250);
	assert_int_equal(p.files[6].bytes, 35);   /* floor(250 * 2 / 14) */
	assert_int_equal(p.total_bytes, 1003);
	dlio_plan_free(&p);

	/* Known model: its DLIO proportion, here 405B's 811764809728 model
	 * bytes : 4870743982080 optimizer bytes. 7e12 / 7 ranks = 1e12 each. */
	assert_int_equal(dlio_model_defaults("llama3-405b", &cfg), 0);
	cfg.explicit_total = 7000000000000ULL;
	cfg.explicit_ranks = 7;
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.nr, 14);
	assert_int_equal(p.files[0].bytes,
			 (uint64_t)((unsigned __int128)1000000000000ULL * 811764809728ULL /
				    5682508791808ULL));
	assert_int_equal(p.files[0].bytes, 142853243077ULL);
	assert_int_equal(p.total_bytes, 7000000000000ULL);
	dlio_plan_free(&p);

	/* Tiny shares keep both files non-empty. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.explicit_total = 2;
	cfg.explicit_ranks = 1;
	assert_int_equal(dlio_plan(&cfg, &p), 0);
	assert_int_equal(p.files[0].bytes, 1);
	assert_int_equal(p.files[1].bytes, 1);
	dlio_plan_free(&p);
}

static void test_json(void **state)
{
	(void)state;
	struct dlio_config cfg = toy(1, 1, 2, 3);
	struct dlio_plan p;
	cJSON *json, *files, *first;

	assert_int_equal(dlio_plan(&cfg, &p), 0);
	json = dlio_plan_json(&cfg, &p);
	assert_non_null(json);
	assert_int_equal(cJSON_GetObjectItem(json, "total_bytes")->valuedouble, 19888);
	assert_int_equal(cJSON_GetObjectItem(json, "model_bytes")->valuedouble, 2704);
	assert_int_equal(cJSON_GetObjectItem(json, "optimizer_bytes")->valuedouble, 17184);
	assert_int_equal(cJSON_GetObjectItem(json, "ranks")->valuedouble, 2);
	assert_int_equal(cJSON_GetObjectItem(json, "params")->valuedouble, 1352);
	assert_int_equal(cJSON_GetObjectItem(json, "zero")->valuedouble, 3);
	assert_string_equal(cJSON_GetObjectItem(json, "mode")->valuestring, "architecture");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "model"), "name")
				    ->valuestring, "toy");
	files = cJSON_GetObjectItem(json, "files");
	assert_int_equal(cJSON_GetArraySize(files), 4);
	first = cJSON_GetArrayItem(files, 3);
	assert_int_equal(cJSON_GetObjectItem(first, "rank")->valuedouble, 1);
	assert_string_equal(cJSON_GetObjectItem(first, "kind")->valuestring, "optimizer");
	assert_string_equal(cJSON_GetObjectItem(first, "name")->valuestring,
			    "zero_pp_rank_1_mp_rank_0_optim_states.pt");
	assert_int_equal(cJSON_GetObjectItem(first, "bytes")->valuedouble, 8592);
	cJSON_Delete(json);

	/* Without a config: the plan alone. */
	json = dlio_plan_json(NULL, &p);
	assert_non_null(json);
	assert_null(cJSON_GetObjectItem(json, "mode"));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(json, "files")), 4);
	cJSON_Delete(json);
	dlio_plan_free(&p);

	assert_null(dlio_plan_json(&cfg, NULL));
}

static void expect_error(struct dlio_config cfg, const char *needle)
{
	struct dlio_plan p;

	memset(&p, 0xab, sizeof(p));
	err_clear();
	assert_int_equal(dlio_plan(&cfg, &p), -1);
	if (!strstr(err_msg(), needle))
		fail_msg("error '%s' does not name '%s'", err_msg(), needle);
	assert_null(p.files);
	assert_int_equal(p.nr, 0);
}

static void test_bad_parameters(void **state)
{
	(void)state;
	struct dlio_config cfg;

	cfg = toy(0, 1, 1, 0); expect_error(cfg, "tp");
	cfg = toy(1, 0, 1, 0); expect_error(cfg, "pp");
	cfg = toy(1, 1, 0, 0); expect_error(cfg, "dp");
	cfg = toy(1, 1, 1, 4); expect_error(cfg, "zero");
	cfg = toy(1, 2, 2, 3); expect_error(cfg, "zero 3");       /* DLIO refuses too */
	cfg = toy(1, 3, 1, 1); expect_error(cfg, "exceeds layers");
	cfg = toy(1024, 1024, 1024, 1); cfg.model.layers = 2000;
	expect_error(cfg, "tp*pp*dp");
	cfg = toy(4294967295u, 4294967295u, 4294967295u, 1);
	cfg.model.layers = 4294967295u;
	expect_error(cfg, "tp*pp*dp");
	cfg = toy(1, 1, 1, 0); cfg.model.layers = 0; expect_error(cfg, "layers");
	cfg = toy(1, 1, 1, 0); cfg.model.hidden = 0; expect_error(cfg, "hidden");
	cfg = toy(1, 1, 1, 0); cfg.model.ffn = 0; expect_error(cfg, "ffn");
	cfg = toy(1, 1, 1, 0); cfg.model.heads = 0; expect_error(cfg, "heads");
	cfg = toy(1, 1, 1, 0); cfg.model.kv_heads = 0; expect_error(cfg, "kv_heads");
	cfg = toy(1, 1, 1, 0); cfg.model.vocab = 0; expect_error(cfg, "vocab");
	cfg = toy(1, 1, 1, 0); cfg.model.kv_heads = 3; expect_error(cfg, "kv_heads");
	cfg = toy(1, 1, 1, 0); cfg.model.kv_heads = 8; expect_error(cfg, "kv_heads");
	cfg = toy(1, 1, 1, 0); cfg.model.heads = 16; cfg.model.kv_heads = 2;
	expect_error(cfg, "exceeds hidden");
	cfg = toy(1, 1, 1, 0); snprintf(cfg.model_dtype, 8, "fp8"); expect_error(cfg, "model_dtype");
	cfg = toy(1, 1, 1, 0); snprintf(cfg.optimizer_dtype, 8, "int4");
	expect_error(cfg, "optimizer_dtype");
	cfg = toy(1, 1, 1, 0); cfg.model.hidden = 1ULL << 40; cfg.model.vocab = 1ULL << 30;
	expect_error(cfg, "overflow");

	/* Explicit mode. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.explicit_total = 1000;
	expect_error(cfg, "explicit_ranks");
	cfg.explicit_ranks = (1u << 20) + 1;
	expect_error(cfg, "explicit_ranks");
	cfg.explicit_total = 0;
	cfg.explicit_ranks = 8;
	expect_error(cfg, "explicit_total");
	cfg.explicit_total = 15;
	expect_error(cfg, "explicit_total");
	snprintf(cfg.model_dtype, 8, "fp12");
	cfg.explicit_total = 1000;
	expect_error(cfg, "model_dtype");
	cfg = toy(0, 1, 1, 0);
	cfg.explicit_total = 1000;
	cfg.explicit_ranks = 2;
	expect_error(cfg, "tp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llama3_8b_published),
		cmocka_unit_test(test_llama3_70b_published),
		cmocka_unit_test(test_llama3_405b_published),
		cmocka_unit_test(test_llama3_1t),
		cmocka_unit_test(test_model_defaults),
		cmocka_unit_test(test_toy_single_rank),
		cmocka_unit_test(test_toy_zero1_pipeline),
		cmocka_unit_test(test_toy_zero3),
		cmocka_unit_test(test_toy_zero2),
		cmocka_unit_test(test_toy_zero0_replica),
		cmocka_unit_test(test_uneven_pipeline_and_dtypes),
		cmocka_unit_test(test_explicit_review_config),
		cmocka_unit_test(test_explicit_remainder_and_model_ratio),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_bad_parameters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
