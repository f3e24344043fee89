/* cmd_checkpoint.c - `drivebench checkpoint`: sizes a DLIO-style LLM
 * checkpoint (workload/dlio.h), prints the plan, or writes checkpoints
 * into a directory, or as regions of a block device, for several passes
 * (pass 1 fills, later passes write the same files again, each truncated
 * first as torch.save does; regions are overwritten) through the one
 * runner, storing one result per checkpoint and printing per-checkpoint
 * progress and the pass means. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "run/files.h"
#include "run/runner.h"
#include "store/store.h"
#include "device/output_gate.h"
#include "device/model_target.h"
#include "device/target.h"
#include "util/error.h"
#include "record/rank_merge.h"
#include "record/rank_run.h"
#include "record/record_run.h"
#include "cmd/run_live.h"
#include "output/metrics.h"
#include "util/clock.h"
#include "util/units.h"
#include "workload/checkpoint.h"
#include "workload/checkpoint_fs.h"
#include "workload/checkpoint_regions.h"
#include "workload/dlio.h"
#include "job/options.h"

struct checkpoint_args {
	struct dlio_config cfg;
	bool have_model, have_size;
	bool plan, json, fsync, no_fsync, readback;
	unsigned passes, count;
	double fill;
	uint64_t bs;
	const char *dir;
	const char *fs_type;          /* --checkpoint-fs: made on the DEVICE */
	struct store_args store;      /* --db, --label, --destroy-data */
	const char *metrics_file;     /* --metrics-file (output/metrics.h) */
	const char *status_interval;  /* how often it is written */
	uint64_t metrics_ns;
};




/* One architecture or parallelism option; 1 when argv[*i] was one. */

/* The model comes first, whatever the order given: the other sizing
 * options override its numbers. */
static int find_model(struct checkpoint_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v;

		err_clear();
		if ((v = cmd_option("--model", argc, argv, &i))) {
			if (err_msg()[0])
				return -1;
			if (dlio_model_defaults(v, &a->cfg))
				return err_prefix("--model");
			a->have_model = true;
		}
	}
	return 0;
}

static int opt_model(void *args, const struct cmdopt *o, const char *v)
{
	(void)args, (void)o, (void)v;
	return 0;   /* applied first (find_model), so the options after it refine it */
}

static int opt_zero(void *args, const struct cmdopt *o, const char *v)
{
	struct checkpoint_args *a = args;

	(void)o;
	if (strlen(v) != 1 || v[0] < '0' || v[0] > '3')
		return err_set("--zero: stage '%s' (0-3)", v);
	a->cfg.zero = (unsigned)(v[0] - '0');
	return 0;
}

static int opt_dtype(void *args, const struct cmdopt *o, const char *v)
{
	struct checkpoint_args *a = args;
	bool model = !strcmp(o->name, "--model-dtype");
	char *out = model ? a->cfg.model_dtype : a->cfg.optimizer_dtype;
	size_t len = model ? sizeof(a->cfg.model_dtype) : sizeof(a->cfg.optimizer_dtype);

	if (!v[0] || strlen(v) >= len)
		return err_set("%s: bad datatype '%s'", o->name, v);
	snprintf(out, len, "%s", v);
	return 0;
}

static int opt_checkpoint_size(void *args, const struct cmdopt *o, const char *v)
{
	struct checkpoint_args *a = args;

	if (parse_size(v, 1000, &a->cfg.explicit_total) || !a->cfg.explicit_total)
		return err_set("%s: bad size '%s'", o->name, v);
	a->have_size = true;
	return 0;
}

static int opt_fill(void *args, const struct cmdopt *o, const char *v)
{
	struct checkpoint_args *a = args;
	char *end;

	(void)o;
	a->fill = strtod(v, &end);
	if (!v[0] || *end || !(a->fill > 0 && a->fill <= 1))
		return err_set("--fill: '%s' is not a fraction in (0, 1]", v);
	return 0;
}

static int opt_fs(void *args, const struct cmdopt *o, const char *v)
{
	struct checkpoint_args *a = args;

	if (!fs_setup_known(v))
		return err_set("%s %s: unknown filesystem (supported: %s)", o->name, v,
			       FS_SETUP_TYPES);
	a->fs_type = v;
	return 0;
}

static int opt_dir(void *args, const char *v)
{
	struct checkpoint_args *a = args;

	if (a->dir)
		return err_set("unexpected argument '%s' (one directory or device)", v);
	a->dir = v;
	return 0;
}

#define COUNT_MAX 1000000000u

static const struct cmdopt checkpoint_options[] = {
	CMDOPT_GROUP("sizing:"),
	CMDOPT_VALUE_FN("--model", 0, opt_model, "NAME",
			"llama3-8b, llama3-70b, llama3-405b, llama3-1t"),
	CMDOPT_UINT("--layers", struct checkpoint_args, cfg.model.layers, 1, COUNT_MAX, "the architecture, instead of\n"
		    "or over --model: layers, hidden size, FFN size, attention\n"
		    "heads, KV heads, vocabulary"),
	CMDOPT_U64("--hidden", struct checkpoint_args, cfg.model.hidden, 1, COUNT_MAX, ""),
	CMDOPT_U64("--ffn", struct checkpoint_args, cfg.model.ffn, 1, COUNT_MAX, ""),
	CMDOPT_UINT("--heads", struct checkpoint_args, cfg.model.heads, 1, COUNT_MAX, ""),
	CMDOPT_UINT("--kv-heads", struct checkpoint_args, cfg.model.kv_heads, 1, COUNT_MAX, ""),
	CMDOPT_U64("--vocab", struct checkpoint_args, cfg.model.vocab, 1, COUNT_MAX, ""),
	CMDOPT_UINT("--tp", struct checkpoint_args, cfg.tp, 1, COUNT_MAX, "tensor, pipeline and data parallelism"),
	CMDOPT_UINT("--pp", struct checkpoint_args, cfg.pp, 1, COUNT_MAX, ""),
	CMDOPT_UINT("--dp", struct checkpoint_args, cfg.dp, 1, COUNT_MAX, ""),
	CMDOPT_VALUE_FN("--zero", 0, opt_zero, "N", "ZeRO stage (0-3)"),
	CMDOPT_VALUE_FN("--model-dtype", 0, opt_dtype, "T", "bf16, fp16, fp32, ..."),
	CMDOPT_VALUE_FN("--optimizer-dtype", 0, opt_dtype, "T", "bf16, fp16, fp32, ..."),
	CMDOPT_VALUE_FN("--checkpoint-size", 0, opt_checkpoint_size, "SIZE",
			"an explicit total over --ranks N (decimal units: 1636GB)"),
	CMDOPT_UINT("--ranks", struct checkpoint_args, cfg.explicit_ranks, 1, COUNT_MAX, "ranks of --checkpoint-size"),
	CMDOPT_FLAG("--plan", 0, struct checkpoint_args, plan, "print the per-rank files and the total; no I/O"),
	CMDOPT_FLAG("--json", 0, struct checkpoint_args, json, "the plan as JSON (with --plan)"),
	CMDOPT_GROUP("writing:"),
	CMDOPT_UINT("--passes", struct checkpoint_args, passes, 1, COUNT_MAX, "passes over the checkpoints (default 3)"),
	CMDOPT_VALUE_FN("--fill", 0, opt_fill, "F", "fraction of the free space to fill (default 0.9)"),
	CMDOPT_UINT("--count", struct checkpoint_args, count, 1, COUNT_MAX, "checkpoints per pass instead of --fill"),
	CMDOPT_FLAG("--no-fsync", 0, struct checkpoint_args, no_fsync, "do not fsync each file before it counts as done"),
	CMDOPT_FLAG("--readback", 0, struct checkpoint_args, readback, "after the passes, drop the page cache and read\n"
		    "every checkpoint back (dropping needs root)"),
	CMDOPT_SIZE("--bs", struct checkpoint_args, bs, "request size (default 1m)"),
	CMDOPT_VALUE_FN("--checkpoint-fs", 0, opt_fs, "TYPE",
			"make TYPE (xfs, ext4) on the DEVICE, mount it for\n"
			"the run and write the checkpoints as files in it;\n"
			"unmounted and its signature wiped after"),
	CMDOPT_STRING("--metrics-file", 0, struct checkpoint_args, metrics_file, "PATH",
		      "write live metrics for Prometheus (OpenMetrics text,\n"
		      "atomically) to PATH every --status-interval and\n"
		      "after each checkpoint (node_exporter's textfile\n"
		      "collector); under mpirun each rank its own: %r\n"
		      "in PATH"),
	CMDOPT_STRING("--status-interval", 0, struct checkpoint_args, status_interval, "TIME",
		      "how often --metrics-file is written (default 5s)"),
	STORE_OPTION_DB(struct checkpoint_args, store),
	STORE_OPTION_LABEL(struct checkpoint_args, store),
	CMDOPT_APPEND("--destroy-data", struct checkpoint_args, store.destroy_ids, store.nr_destroy_ids, "PATH",
		      "allow writing over an existing checkpoint file\n"
		      "drivebench did not create, or over the device with\n"
		      "this serial (or kernel name); repeatable"),
};

static const struct cmdopt_spec checkpoint_spec = {
	.command = "checkpoint",
	.synopsis = "checkpoint [options] DIR|DEVICE|vssd:MODEL[@SCALE]\ncheckpoint --plan [--json] [sizing options]",
	.about =
	"Writes DLIO-style LLM checkpoints into DIR (a directory on a mounted\n"
	"filesystem): one job per rank and file, all starting at one barrier;\n"
	"a checkpoint's time runs from that barrier to the last file's fsync.\n"
	"Pass 1 writes as many checkpoints as fit in DIR's free space x --fill,\n"
	"passes 2.. write the same files again, each truncated first as\n"
	"torch.save does. On a block DEVICE the files are consecutive regions\n"
	"of it from its start (overwritten in place), or with\n"
	"--checkpoint-fs files on a filesystem made on it for the run (the\n"
	"device's --destroy-data consent as for any write to it); on a\n"
	"modelled drive, vssd:MODEL[@SCALE], regions of it. See\n"
	"docs/checkpoint.md.\n",
	.options = checkpoint_options,
	.nr_options = CMDOPT_COUNT(checkpoint_options),
	.positional = opt_dir,
};

/* The defaults, --model first, then the table; 0 to go on, or 1 with
 * *exit_code. */
static int parse_args(int argc, char **argv, struct checkpoint_args *a, int *exit_code)
{
	a->cfg.tp = a->cfg.pp = a->cfg.dp = 1;
	snprintf(a->cfg.model.name, sizeof(a->cfg.model.name), "custom");
	snprintf(a->cfg.model_dtype, sizeof(a->cfg.model_dtype), "bf16");
	snprintf(a->cfg.optimizer_dtype, sizeof(a->cfg.optimizer_dtype), "fp32");
	a->passes = 3;
	a->fill = 0.9;
	a->bs = CHECKPOINT_DEFAULT_BS;
	*exit_code = EXIT_BAD_INPUT;
	if (store_args_init(&a->store, argc) || find_model(a, argc, argv))
		goto bad;
	if (cmd_parse(&checkpoint_spec, argc, argv, a, exit_code))
		return 1;
	a->fsync = !a->no_fsync;
	if (a->have_size != (a->cfg.explicit_ranks > 0))
		err_set("--checkpoint-size and --ranks go together");
	else if (a->have_size && a->have_model)
		err_set("give --model or --checkpoint-size, not both");
	else if (!a->have_size && !a->have_model && !a->cfg.model.layers)
		err_set("give --model NAME, the architecture (--layers ...) or --checkpoint-size SIZE --ranks N");
	else if (a->json && !a->plan)
		err_set("--json goes with --plan");
	else if (!a->plan && !a->dir)
		err_set("give the directory (or block device) to write the checkpoints into");
	else if (a->plan && a->fs_type)
		err_set("--checkpoint-fs goes with a DEVICE to write, not --plan");
	else
		return 0;
bad:
	fprintf(stderr, "drivebench checkpoint: %s\n", err_msg());
	return 1;
}

static const char *kind_name(enum dlio_file_kind k)
{
	return k == DLIO_MODEL ? "model" : k == DLIO_MODEL_LAYER ? "layer" : "optimizer";
}

static int print_plan(const struct checkpoint_args *a, const struct dlio_plan *plan)
{
	char size[32];

	if (a->json) {
		cJSON *j = dlio_plan_json(&a->cfg, plan);
		char *text = j ? cJSON_Print(j) : NULL;

		cJSON_Delete(j);
		if (!text)
			return err_set("out of memory");
		printf("%s\n", text);
		free(text);
		return 0;
	}
	printf("%-6s %-10s %-48s %18s\n", "rank", "kind", "file", "bytes");
	for (unsigned i = 0; i < plan->nr; i++) {
		const struct dlio_file *f = &plan->files[i];

		units_format_bytes(f->bytes, UNITS_SI_COARSE, 0, size, sizeof(size));
		printf("%-6u %-10s %-48s %18llu  %s\n", f->rank, kind_name(f->kind), f->name,
		       (unsigned long long)f->bytes, size);
	}
	units_format_bytes(plan->total_bytes, UNITS_SI_COARSE, 0, size, sizeof(size));
	printf("total: %llu bytes (%s, %.2f GiB) in %u files over %u ranks\n",
	       (unsigned long long)plan->total_bytes, size,
	       (double)plan->total_bytes / (1ull << 30), plan->nr, plan->ranks);
	return 0;
}

struct pass_stats {
	double seconds;      /* sum over the pass's checkpoints */
	uint64_t bytes;
	unsigned nr;
	/* MPI (MLPerf Storage's metrics), summed over the checkpoints: the
	 * duration of the slowest rank, the throughput of the slowest rank */
	double max_rank_seconds, min_rank_gbps;
	unsigned ranks;
};

/* MLPerf Storage's figures of one checkpoint written by several ranks:
 * the longest rank's duration and the lowest rank's throughput. */
static unsigned rank_figures(const struct recorded *rec, double *max_s, double *min_gbps)
{
	unsigned writers = 0;

	*max_s = 0;
	*min_gbps = 0;
	for (unsigned r = 0; r < rec->ranks.nr; r++) {
		const struct run_output *o = &rec->ranks.per_rank[r];
		uint64_t ns, bytes;
		double gbps;

		rank_span(o->results, o->nr, &ns, &bytes);
		if (!o->nr || !ns)
			continue;
		writers++;
		gbps = (double)bytes / (double)ns;   /* bytes per ns = GB/s */
		if ((double)ns / 1e9 > *max_s)
			*max_s = (double)ns / 1e9;
		if (*min_gbps == 0 || gbps < *min_gbps)
			*min_gbps = gbps;
	}
	return writers;   /* ranks with no DLIO rank's files wrote nothing */
}

/* Drops the page cache before the read-back, as MLPerf Storage does: on
 * every rank's host under mpirun. */
static void drop_page_cache(void)
{
	if (rank_drop_page_cache()) {
		fprintf(stderr, "drivebench checkpoint: could not drop the page cache (%s): the read-back may be served from memory\n",
			err_msg());
		return;
	}
	fprintf(stderr, "drivebench checkpoint: page cache dropped\n");
}

struct session {
	const struct checkpoint_args *a;
	const struct dlio_plan *plan;
	struct checkpoint_write where;   /* files in a->dir, or regions of it */
	struct store *db;
	int64_t run_id;
	unsigned count;
	struct pass_stats *stats;   /* [passes + 1]: [0] = read-back */
	/* files this run created but could not mark: its consent, every pass */
	struct checkpoint_consent consent;
	bool stopped;
	int exit_code;
	/* --metrics-file: the checkpoint running and the last rates */
	unsigned pass, index;
	struct metrics_state metrics;
	struct run_metrics_note metrics_note;   /* the other ranks' (MPI) */
	char step_name[32];
};

/* --metrics-file: the checkpoint's figures so far (or at its end). */
static void checkpoint_metrics(struct session *ss, const struct job_result *entries,
			       unsigned nr, double progress)
{
	char step[32];
	struct metrics_context ctx = {
		.command = "checkpoint", .step = step,
		.step_index = ss->pass ? ss->pass : ss->a->passes + 1,   /* the read-back is last */
		.nr_steps = ss->a->passes + (ss->a->readback ? 1 : 0),
		.point = ss->index, .nr_points = ss->count, .progress = progress, .eta_s = -1,
	};

	if (ss->pass)
		snprintf(step, sizeof(step), "pass %u", ss->pass);
	else
		snprintf(step, sizeof(step), "read-back");
	if (metrics_write(ss->a->metrics_file, entries, nr, &ctx, &ss->metrics, clock_now_ns()))
		fprintf(stderr, "drivebench: %s\n", err_msg());
}

static void checkpoint_on_status(void *arg, const struct run_status *st)
{
	struct job_result *entries = NULL;
	unsigned nr = 0;

	if (run_output_for_report(st->live, &entries, &nr))
		return;
	checkpoint_metrics(arg, entries, nr, st->fraction);
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
}

/* One checkpoint: prepare its files (pass 1 creates them, later passes
 * truncate them), run, store, print progress. */
static int one_checkpoint(struct session *ss, unsigned pass, unsigned index,
			  int64_t step_id)
{
	const struct checkpoint_args *a = ss->a;
	struct checkpoint_write w = ss->where;
	struct checkpoint_one one;
	struct run_options opt = { .stop = &cmd_stop_requested,
				   .destroy_ids = a->store.destroy_ids,
				   .nr_destroy_ids = a->store.nr_destroy_ids };
	struct record_place place = {
		.db = ss->db, .run_id = &ss->run_id, .step_id = step_id,
		.has_pass = true, .pass = pass, .pass_index = index,
		.merged_name = one.name, .store_partial = true,
	};
	double max_s = 0, min_gbps = 0;
	unsigned writers = 0;
	struct recorded rec = { 0 };
	const struct job_result *merged;
	enum run_failure why = RUN_FAILED_INPUT;
	char size[32], label[16];
	uint64_t bytes;
	double seconds;
	int rc = -1;

	w.read = pass == 0;
	ss->pass = pass;
	ss->index = index;
	metrics_state_restart(&ss->metrics);
	ss->metrics.interval_ns = a->metrics_ns;
	if (a->metrics_file) {
		/* under mpirun every other rank writes its own */
		ss->metrics_note = (struct run_metrics_note){
			.path = a->metrics_file, .interval_ns = a->metrics_ns,
			.command = "checkpoint", .step = ss->step_name,
			.step_index = pass ? pass : a->passes + 1,
			.nr_steps = a->passes + (a->readback ? 1 : 0),
			.point = index, .nr_points = ss->count,
		};
		if (pass)
			snprintf(ss->step_name, sizeof(ss->step_name), "pass %u", pass);
		else
			snprintf(ss->step_name, sizeof(ss->step_name), "read-back");
		opt.metrics = &ss->metrics_note;
		opt.status_tick_ns = a->metrics_ns;
		opt.status = checkpoint_on_status;
		opt.status_arg = ss;
	}
	if (checkpoint_one_prepare(ss->plan, &w, pass, index, &opt, &ss->consent, &one, &why)) {
		ss->exit_code = run_failure_exit_code(why);
		goto done;
	}
	place.job_shards = one.shards;   /* under mpirun each rank its own files */
	if (record_run(&one.jobs, &one.opt, &place, &rec)) {
		if (!rec.ran)
			ss->exit_code = run_failure_exit_code(rec.why);
		goto done;
	}
	if (rec.nr == 0) {   /* stopped before the start */
		ss->stopped = true;
		rc = 0;
		goto done;
	}
	merged = &rec.entries[0];
	if (a->metrics_file) {   /* MPI: rank 0's own, as its status */
		struct recorded_own own;

		if (recorded_own(&rec, &own) == 0)
			checkpoint_metrics(ss, own.entries, own.nr, 1.0);
		recorded_own_free(&own);
	}
	bytes = merged->dir[DIR_READ].bytes + merged->dir[DIR_WRITE].bytes;
	seconds = (double)merged->runtime_ns / 1e9;
	rc = 0;
	units_format_bytes(bytes, UNITS_SI_COARSE, 0, size, sizeof(size));
	if (pass)
		snprintf(label, sizeof(label), "pass %u", pass);
	else
		snprintf(label, sizeof(label), "read-back");
	writers = rank_figures(&rec, &max_s, &min_gbps);
	fprintf(stderr, "%s checkpoint %u/%u: %s in %.3f s, %.2f GB/s%s",
		label, index, ss->count, size,
		seconds, seconds > 0 ? (double)bytes / 1e9 / seconds : 0.0,
		merged->partial ? " (stopped: partial)" : "");
	if (rec.ranks.nr > 1)
		fprintf(stderr, "; %u ranks: slowest %.3f s, lowest %.2f GB/s", writers,
			max_s, min_gbps);
	fputc('\n', stderr);
	if (merged->partial) {
		ss->stopped = true;
	} else {
		ss->stats[pass].seconds += seconds;
		ss->stats[pass].bytes += bytes;
		ss->stats[pass].nr++;
		ss->stats[pass].max_rank_seconds += max_s;
		ss->stats[pass].min_rank_gbps += min_gbps;
		ss->stats[pass].ranks = rec.ranks.nr > 1 ? writers : 0;
	}
	for (unsigned i = 0; i < rec.out.nr; i++)
		if (rec.out.results[i].error && !ss->stopped) {
			rc = err_set("job '%s': I/O error: %s", rec.out.results[i].name,
				     err_errno_text(rec.out.results[i].error));
			ss->exit_code = EXIT_RUN_FAILED;
			break;
		}
done:
	if (rc && ss->exit_code == EXIT_OK)
		ss->exit_code = EXIT_RUN_FAILED;
	recorded_free(&rec);
	checkpoint_one_free(&one);
	return rc;
}

/* Each pass's step records the mode and, on a device, the regions. */
static int step_detail(const struct session *ss, int64_t step_id)
{
	cJSON *j = checkpoint_detail_json(ss->plan, &ss->where, ss->count);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	int rc;

	cJSON_Delete(j);
	rc = text ? store_step_detail_set(ss->db, step_id, text) : err_set("out of memory");
	free(text);
	return rc;
}

static int one_pass(struct session *ss, unsigned pass)
{
	int64_t step_id;
	char step[32];
	int rc = 0;

	snprintf(step, sizeof(step), pass ? "pass %u" : "read-back", pass);
	if (store_step_begin(ss->db, ss->run_id, pass ? pass - 1 : ss->a->passes, step,
			     pass ? "checkpoint" : "checkpoint-read", &step_id) ||
	    step_detail(ss, step_id))
		return -1;
	for (unsigned i = 1; i <= ss->count && rc == 0 && !ss->stopped; i++) {
		if (cmd_stop_requested) {
			ss->stopped = true;
			break;
		}
		rc = one_checkpoint(ss, pass, i, step_id);
	}
	if (store_step_end(ss->db, step_id, rc ? "failed" : ss->stopped ? "partial" : "done"))
		return -1;
	return rc;
}

/* Under mpirun, MLPerf Storage's means over a pass's checkpoints: the
 * duration of the slowest rank and the throughput of the slowest rank. */
static void print_rank_means(const struct session *ss)
{
	if (ss->stats[1].ranks < 2)
		return;
	printf("%-10s %8s %24s %24s\n", "pass", "ranks", "mean duration (max, s)",
	       "mean throughput (min, GB/s)");
	for (unsigned p = 1; p <= ss->a->passes + 1; p++) {
		unsigned k = p <= ss->a->passes ? p : 0;
		const struct pass_stats *s = &ss->stats[k];
		char label[16];

		if ((k == 0 && !ss->a->readback) || !s->nr)
			continue;
		snprintf(label, sizeof(label), k ? "%u" : "read-back", k);
		printf("%-10s %8u %24.3f %24.3f\n", label, s->ranks, s->max_rank_seconds / s->nr,
		       s->min_rank_gbps / s->nr);
	}
	putchar('\n');
}

static void print_pass_means(const struct session *ss)
{
	print_rank_means(ss);
	printf("%-10s %12s %16s %12s %10s\n", "pass", "checkpoints", "mean seconds", "GB/s", "GB");
	for (unsigned p = 1; p <= ss->a->passes + 1; p++) {
		unsigned k = p <= ss->a->passes ? p : 0;
		const struct pass_stats *s = &ss->stats[k];
		char label[16];

		if (k == 0 && !ss->a->readback)
			break;
		snprintf(label, sizeof(label), k ? "%u" : "read-back", k);
		if (!s->nr) {
			printf("%-10s %12u %16s %12s %10s\n", label, 0u, "-", "-", "-");
			continue;
		}
		printf("%-10s %12u %16.3f %12.3f %10.3f\n", label, s->nr, s->seconds / s->nr,
		       s->seconds > 0 ? (double)s->bytes / 1e9 / s->seconds : 0.0,
		       (double)s->bytes / 1e9);
	}
}

/* --checkpoint-fs: the filesystem made on the device and mounted for the
 * run (target/fs_setup.h), under the --destroy-data consent; the
 * checkpoints are files in it (available: its free space). */
static int make_fs(const struct checkpoint_args *a, struct checkpoint_write *w,
		   uint64_t *available, struct fs_setup *fs)
{
	if (checkpoint_fs_check("--checkpoint-fs", a->fs_type, a->dir))
		return EXIT_BAD_INPUT;
	if (fs_setup_make(fs, a->dir, a->fs_type, a->store.destroy_ids,
			  a->store.nr_destroy_ids, &cmd_stop_requested))
		return err_refused() ? EXIT_UNSAFE : EXIT_RUN_FAILED;
	w->fs = fs;
	w->dir = fs->dir;
	return checkpoint_free_bytes(fs->dir, available) ? EXIT_RUN_FAILED : EXIT_OK;
}

/* A directory (its free space available), or a block device (its size
 * available: region mode, refused up front without the write gate's
 * consent, so a refused run writes nothing, stores nothing), or with
 * --checkpoint-fs a filesystem made on the device. The exit code. */
static int check_place(const struct checkpoint_args *a, struct checkpoint_write *w,
		       uint64_t *available, struct fs_setup *fs)
{
	struct run_options opt = { .destroy_ids = a->store.destroy_ids,
				   .nr_destroy_ids = a->store.nr_destroy_ids };
	struct target t;
	struct stat st;

	if (a->fs_type)
		return make_fs(a, w, available, fs);
	/* a modelled drive (vssd:MODEL@SCALE) as a raw device: its jobs run
	 * on ioengine=vssd (checkpoint.c aims them), one drive for every
	 * pass of this process, so pass 2 meets the drive pass 1 filled */
	if (model_target_is(a->dir)) {
		if (target_probe(a->dir, &t))
			return err_exit_code(EXIT_BAD_INPUT);
		w->device = a->dir;
		*available = t.size;
		return EXIT_OK;
	}
	if (stat(a->dir, &st)) {
		err_set("cannot use '%s': %s", a->dir, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (S_ISBLK(st.st_mode)) {
		if (target_probe(a->dir, &t) || check_path_consent(NULL, a->dir, &opt))
			return err_exit_code(EXIT_BAD_INPUT);
		w->device = a->dir;
		*available = t.size;
		return EXIT_OK;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set("'%s' is not a directory (or a block device)", a->dir);
		return EXIT_BAD_INPUT;
	}
	if (output_gate_check("DIR", a->dir, OUTPUT_DIRECTORY))
		return err_exit_code(EXIT_BAD_INPUT);
	w->dir = a->dir;
	return checkpoint_free_bytes(a->dir, available) ? EXIT_BAD_INPUT : EXIT_OK;
}

static int write_placed(const struct checkpoint_args *a, const struct dlio_plan *plan,
			struct checkpoint_write where, uint64_t free_bytes, int argc, char **argv)
{
	struct session ss = { .a = a, .plan = plan, .exit_code = EXIT_OK, .where = where };
	struct run_meta meta = { .label = a->store.label, .source = "checkpoint", .target = a->dir };
	char command[1024], size[32], avail[32], mode[1536];
	uint64_t span;

	/* a device's regions take each file rounded up to 4 KiB */
	span = ss.where.device ? checkpoint_span(plan) : plan->total_bytes;
	units_format_bytes(plan->total_bytes, UNITS_SI_COARSE, 0, size, sizeof(size));
	units_format_bytes(free_bytes, UNITS_SI_COARSE, 0, avail, sizeof(avail));
	if (a->count) {
		ss.count = a->count;
		if (!ss.where.device && (double)a->count * (double)plan->total_bytes > (double)free_bytes)
			fprintf(stderr, "drivebench checkpoint: warning: %u checkpoints of %s need more than the %s free\n",
				a->count, size, avail);
	} else {
		ss.count = checkpoint_count_for_space(free_bytes, a->fill, span);
		if (!ss.count) {
			err_set("not one checkpoint of %s fits in %s %s x fill %g", size, avail,
				ss.where.device ? "of the device" : "free", a->fill);
			return EXIT_BAD_INPUT;
		}
	}
	if (ss.where.device && checkpoint_regions_fit(plan, ss.count, free_bytes, ss.where.device))
		return EXIT_BAD_INPUT;
	ss.stats = calloc(a->passes + 1, sizeof(*ss.stats));
	if (!ss.stats) {
		err_set("out of memory");
		return EXIT_RUN_FAILED;
	}
	/* open the database first: a long run must not end unable to store */
	if (store_open(a->store.db_path, &ss.db)) {
		free(ss.stats);
		return err_exit_code(EXIT_BAD_INPUT);
	}
	cmd_join_command(argc, argv, command, sizeof(command));
	meta.command = command;
	meta.started_ms = (uint64_t)time(NULL) * 1000;
	checkpoint_mode_text(plan, &ss.where, ss.count, free_bytes, mode, sizeof(mode));
	fprintf(stderr, "drivebench checkpoint: %u checkpoints of %s (%u files, %u ranks) per pass, %u passes, in %s (%s %s)\n",
		ss.count, size, plan->nr, plan->ranks, a->passes, a->dir, avail,
		ss.where.device ? "device" : "free");
	fprintf(stderr, "drivebench checkpoint: %s\n", mode);
	if (store_run_begin(ss.db, &meta, &ss.run_id)) {
		ss.exit_code = EXIT_RUN_FAILED;
		goto done;
	}
	for (unsigned p = 1; p <= a->passes && !ss.stopped; p++)
		if (one_pass(&ss, p))
			break;
	if (a->readback && !ss.stopped && ss.exit_code == EXIT_OK) {
		drop_page_cache();
		one_pass(&ss, 0);
	}
	if (store_run_end(ss.db, ss.run_id, ss.stopped) && ss.exit_code == EXIT_OK)
		ss.exit_code = EXIT_RUN_FAILED;
	print_pass_means(&ss);
	if (ss.exit_code == EXIT_OK)
		fprintf(stderr, "drivebench: results stored in %s as run %lld\n", a->store.db_path,
			(long long)ss.run_id);
	if (ss.stopped && ss.exit_code == EXIT_OK) {
		err_set("stopped: the results so far are stored (partial)");
		ss.exit_code = EXIT_RUN_FAILED;
	}
done:
	store_close(ss.db);
	free(ss.stats);
	checkpoint_consent_free(&ss.consent);
	metrics_state_free(&ss.metrics);
	return ss.exit_code;
}

/* The place, the passes, and a filesystem made for them undone however
 * they ended (also stopped): unmounted, its signature wiped. */
static int write_checkpoints(const struct checkpoint_args *a, const struct dlio_plan *plan,
			     int argc, char **argv)
{
	struct checkpoint_write where = { .bs = a->bs, .fsync = a->fsync };
	struct fs_setup fs = { 0 };
	char message[1024];
	uint64_t free_bytes = 0;
	int rc;

	cmd_catch_stop_signals();   /* mkfs and the passes stop alike */
	rc = check_place(a, &where, &free_bytes, &fs);
	if (rc == EXIT_OK)
		rc = write_placed(a, plan, where, free_bytes, argc, argv);
	if (!fs.mounted && !fs.made && !fs.dir[0])
		return rc;
	snprintf(message, sizeof(message), "%s", err_msg());
	if (fs_setup_release(&fs)) {
		if (rc == EXIT_OK)
			return EXIT_RUN_FAILED;
		fprintf(stderr, "drivebench checkpoint: %s\n", err_msg());
		err_set("%s", message);
		return rc;
	}
	fprintf(stderr, "drivebench checkpoint: %s on %s unmounted, its signature wiped\n",
		fs.type, a->dir);
	err_set("%s", message);
	return rc;
}

int cmd_checkpoint(int argc, char **argv)
{
	struct checkpoint_args a;
	struct dlio_plan plan = { 0 };
	int rc;

	memset(&a, 0, sizeof(a));
	if (parse_args(argc, argv, &a, &rc)) {
		store_args_free(&a.store);
		return rc;
	}
	a.metrics_ns = RUN_METRICS_DEFAULT_NS;
	if (a.metrics_file && ((a.status_interval &&
				run_live_parse(a.status_interval, NULL, &a.metrics_ns, &rc)) ||
			       metrics_check_path(a.metrics_file) ||
			       metrics_check_other(a.metrics_file, "--db", a.store.db_path))) {
		fprintf(stderr, "drivebench checkpoint: %s\n", err_msg());
		store_args_free(&a.store);
		return err_exit_code(EXIT_BAD_INPUT);   /* 3: the gate's refusals */
	}
	if (dlio_plan(&a.cfg, &plan)) {
		fprintf(stderr, "drivebench checkpoint: %s\n", err_msg());
		store_args_free(&a.store);
		dlio_plan_free(&plan);
		return EXIT_BAD_INPUT;
	}
	err_clear();
	if (a.plan)
		rc = print_plan(&a, &plan) ? EXIT_RUN_FAILED : EXIT_OK;
	else
		rc = write_checkpoints(&a, &plan, argc, argv);
	if (rc != EXIT_OK)
		fprintf(stderr, "drivebench checkpoint: %s\n", err_msg());
	dlio_plan_free(&plan);
	store_args_free(&a.store);
	return rc;
}
