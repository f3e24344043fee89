/* cmd_checkpoint.c - `drivebench checkpoint`: sizes a DLIO-style LLM
 * checkpoint (workload/dlio.h), prints the plan, or writes checkpoints
 * into a directory for several passes (pass 1 fills, later passes write
 * over them in place) through the one runner, storing one result per
 * checkpoint and printing per-checkpoint progress and the pass means. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "run/runner.h"
#include "store/store.h"
#include "target/output_gate.h"
#include "util/error.h"
#include "workload/checkpoint.h"
#include "workload/dlio.h"
#include "workload/options.h"

static const char checkpoint_usage[] =
	"usage: drivebench checkpoint [options] DIR\n"
	"       drivebench checkpoint --plan [--json] [sizing options]\n"
	"\n"
	"Writes DLIO-style LLM checkpoints into DIR (a directory on a mounted\n"
	"filesystem): one job per rank and file, all starting at one barrier;\n"
	"a checkpoint's time runs from that barrier to the last file's fsync.\n"
	"Pass 1 writes as many checkpoints as fit in DIR's free space x --fill,\n"
	"passes 2.. write over the same files in place. See docs/checkpoint.md.\n"
	"\n"
	"sizing:\n"
	"  --model NAME             llama3-8b, llama3-70b, llama3-405b, llama3-1t\n"
	"  --layers N --hidden N --ffn N --heads N --kv-heads N --vocab N\n"
	"  --tp N --pp N --dp N --zero N   parallelism and ZeRO stage (0-3)\n"
	"  --model-dtype T --optimizer-dtype T   bf16, fp16, fp32, ...\n"
	"  --checkpoint-size SIZE --ranks N   explicit total over N ranks\n"
	"                           (sizes in decimal units: 1636GB)\n"
	"  --plan [--json]          print the per-rank files and the total; no I/O\n"
	"\n"
	"writing:\n"
	"  --passes N               passes over the checkpoints (default 3)\n"
	"  --fill F                 fraction of the free space to fill (default 0.9)\n"
	"  --count N                checkpoints per pass instead of --fill\n"
	"  --no-fsync               do not fsync each file before it counts as done\n"
	"  --readback               after the passes, drop the page cache and read\n"
	"                           every checkpoint back (dropping needs root)\n"
	"  --bs SIZE                request size (default 1m)\n"
	"  --db FILE                results database (default $DRIVEBENCH_DB or\n"
	"                           ./drivebench.db)\n"
	"  --label LABEL            the drive's name in reports\n"
	"  --destroy-data ID        allow writing over an existing checkpoint file\n"
	"                           drivebench did not create (its path); repeatable\n"
	"  -h, --help               this text\n";

struct checkpoint_args {
	struct dlio_config cfg;
	bool have_model, have_size;
	bool plan, json, fsync, readback;
	unsigned passes, count;
	double fill;
	uint64_t bs;
	const char *dir;
	struct store_args store;      /* --db, --label, --destroy-data */
};

static int parse_unsigned(const char *opt, const char *v, unsigned min, unsigned *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!v[0] || *end || errno || v[0] == '-' || n < min || n > 1000000000ul)
		return err_set("%s: bad number '%s'", opt, v);
	*out = (unsigned)n;
	return 0;
}

static int parse_u64(const char *opt, const char *v, uint64_t *out)
{
	unsigned n;

	if (parse_unsigned(opt, v, 1, &n))
		return -1;
	*out = n;
	return 0;
}

static int parse_dtype(const char *opt, const char *v, char *out, size_t len)
{
	if (!v[0] || strlen(v) >= len)
		return err_set("%s: bad datatype '%s'", opt, v);
	snprintf(out, len, "%s", v);
	return 0;
}

/* One architecture or parallelism option; 1 when argv[*i] was one. */
static int sizing_option(struct checkpoint_args *a, int argc, char **argv, int *i)
{
	struct dlio_config *c = &a->cfg;
	const char *v;

	if ((v = cmd_option("--layers", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--layers", v, 1, &c->model.layers) ? -1 : 1;
	if ((v = cmd_option("--hidden", argc, argv, i)))
		return err_msg()[0] || parse_u64("--hidden", v, &c->model.hidden) ? -1 : 1;
	if ((v = cmd_option("--ffn", argc, argv, i)))
		return err_msg()[0] || parse_u64("--ffn", v, &c->model.ffn) ? -1 : 1;
	if ((v = cmd_option("--heads", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--heads", v, 1, &c->model.heads) ? -1 : 1;
	if ((v = cmd_option("--kv-heads", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--kv-heads", v, 1, &c->model.kv_heads) ? -1 : 1;
	if ((v = cmd_option("--vocab", argc, argv, i)))
		return err_msg()[0] || parse_u64("--vocab", v, &c->model.vocab) ? -1 : 1;
	if ((v = cmd_option("--tp", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--tp", v, 1, &c->tp) ? -1 : 1;
	if ((v = cmd_option("--pp", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--pp", v, 1, &c->pp) ? -1 : 1;
	if ((v = cmd_option("--dp", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--dp", v, 1, &c->dp) ? -1 : 1;
	if ((v = cmd_option("--zero", argc, argv, i))) {
		if (err_msg()[0] || parse_unsigned("--zero", v, 0, &c->zero))
			return -1;
		return c->zero > 3 ? err_set("--zero: stage %u (0-3)", c->zero) : 1;
	}
	if ((v = cmd_option("--model-dtype", argc, argv, i)))
		return err_msg()[0] || parse_dtype("--model-dtype", v, c->model_dtype,
						   sizeof(c->model_dtype)) ? -1 : 1;
	if ((v = cmd_option("--optimizer-dtype", argc, argv, i)))
		return err_msg()[0] || parse_dtype("--optimizer-dtype", v, c->optimizer_dtype,
						   sizeof(c->optimizer_dtype)) ? -1 : 1;
	if ((v = cmd_option("--checkpoint-size", argc, argv, i))) {
		if (err_msg()[0])
			return -1;
		if (parse_size(v, 1000, &c->explicit_total) || !c->explicit_total)
			return err_set("--checkpoint-size: bad size '%s'", v);
		a->have_size = true;
		return 1;
	}
	if ((v = cmd_option("--ranks", argc, argv, i)))
		return err_msg()[0] || parse_unsigned("--ranks", v, 1, &c->explicit_ranks) ? -1 : 1;
	return 0;
}

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

static int parse_args(int argc, char **argv, struct checkpoint_args *a)
{
	a->cfg.tp = a->cfg.pp = a->cfg.dp = 1;
	snprintf(a->cfg.model.name, sizeof(a->cfg.model.name), "custom");
	snprintf(a->cfg.model_dtype, sizeof(a->cfg.model_dtype), "bf16");
	snprintf(a->cfg.optimizer_dtype, sizeof(a->cfg.optimizer_dtype), "fp32");
	a->passes = 3;
	a->fill = 0.9;
	a->fsync = true;
	a->bs = CHECKPOINT_DEFAULT_BS;
	if (store_args_init(&a->store, argc))
		return -1;
	if (find_model(a, argc, argv))
		return -1;
	for (int i = 1; i < argc; i++) {
		const char *v;
		int rc;

		err_clear();
		if ((v = cmd_option("--model", argc, argv, &i)))
			continue;   /* applied first */
		if ((rc = sizing_option(a, argc, argv, &i)) < 0)
			return -1;
		if (rc)
			continue;
		if (!strcmp(argv[i], "--plan")) {
			a->plan = true;
		} else if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--no-fsync")) {
			a->fsync = false;
		} else if (!strcmp(argv[i], "--readback")) {
			a->readback = true;
		} else if ((v = cmd_option("--passes", argc, argv, &i))) {
			if (err_msg()[0] || parse_unsigned("--passes", v, 1, &a->passes))
				return -1;
		} else if ((v = cmd_option("--count", argc, argv, &i))) {
			if (err_msg()[0] || parse_unsigned("--count", v, 1, &a->count))
				return -1;
		} else if ((v = cmd_option("--fill", argc, argv, &i))) {
			char *end;

			if (err_msg()[0])
				return -1;
			a->fill = strtod(v, &end);
			if (!v[0] || *end || !(a->fill > 0 && a->fill <= 1))
				return err_set("--fill: '%s' is not a fraction in (0, 1]", v);
		} else if ((v = cmd_option("--bs", argc, argv, &i))) {
			if (err_msg()[0])
				return -1;
			if (parse_size(v, 1024, &a->bs) || !a->bs)
				return err_set("--bs: bad size '%s'", v);
		} else if ((rc = store_args_option(&a->store, false, argc, argv, &i))) {
			if (rc < 0)
				return -1;
		} else if (!strncmp(argv[i], "--", 2)) {
			return err_set("unknown option '%s' (see 'drivebench checkpoint --help')", argv[i]);
		} else if (!a->dir) {
			a->dir = argv[i];
		} else {
			return err_set("unexpected argument '%s' (one directory)", argv[i]);
		}
	}
	if (a->have_size != (a->cfg.explicit_ranks > 0))
		return err_set("--checkpoint-size and --ranks go together");
	if (a->have_size && a->have_model)
		return err_set("give --model or --checkpoint-size, not both");
	if (!a->have_size && !a->have_model && !a->cfg.model.layers)
		return err_set("give --model NAME, the architecture (--layers ...) or --checkpoint-size SIZE --ranks N");
	if (a->json && !a->plan)
		return err_set("--json goes with --plan");
	if (!a->plan && !a->dir)
		return err_set("give the directory to write the checkpoints into");
	return 0;
}

/* Decimal units at the edges, as the reviews quote them. */
static void format_bytes(uint64_t b, char *out, size_t len)
{
	double v = (double)b;

	if (v >= 1e12)
		snprintf(out, len, "%.2f TB", v / 1e12);
	else if (v >= 1e9)
		snprintf(out, len, "%.1f GB", v / 1e9);
	else if (v >= 1e6)
		snprintf(out, len, "%.1f MB", v / 1e6);
	else
		snprintf(out, len, "%llu B", (unsigned long long)b);
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

		format_bytes(f->bytes, size, sizeof(size));
		printf("%-6u %-10s %-48s %18llu  %s\n", f->rank, kind_name(f->kind), f->name,
		       (unsigned long long)f->bytes, size);
	}
	format_bytes(plan->total_bytes, size, sizeof(size));
	printf("total: %llu bytes (%s, %.2f GiB) in %u files over %u ranks\n",
	       (unsigned long long)plan->total_bytes, size,
	       (double)plan->total_bytes / (1ull << 30), plan->nr, plan->ranks);
	return 0;
}

struct pass_stats {
	double seconds;      /* sum over the pass's checkpoints */
	uint64_t bytes;
	unsigned nr;
};

/* Drops the page cache before the read-back, as MLPerf Storage does. */
static void drop_page_cache(void)
{
	FILE *f;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	if (!f || fputs("3\n", f) == EOF || fclose(f)) {
		if (f)
			fclose(f);
		fprintf(stderr, "drivebench checkpoint: could not drop the page cache (needs root): the read-back may be served from memory\n");
		return;
	}
	fprintf(stderr, "drivebench checkpoint: page cache dropped\n");
}

struct session {
	const struct checkpoint_args *a;
	const struct dlio_plan *plan;
	struct store *db;
	int64_t run_id;
	unsigned count;
	struct pass_stats *stats;   /* [passes + 1]: [0] = read-back */
	bool stopped;
	int exit_code;
};

/* One checkpoint: prepare its files (pass 1 creates them), run, store,
 * print progress. */
static int one_checkpoint(struct session *ss, unsigned pass, unsigned index,
			  int64_t step_id)
{
	const struct checkpoint_args *a = ss->a;
	struct checkpoint_write w = { .dir = a->dir, .bs = a->bs, .fsync = a->fsync,
				      .read = pass == 0 };
	struct checkpoint_one one;
	struct run_options opt = { .stop = &cmd_stop_requested,
				   .destroy_ids = a->store.destroy_ids,
				   .nr_destroy_ids = a->store.nr_destroy_ids };
	struct result_record rec;
	enum run_failure why = RUN_FAILED_INPUT;
	char size[32], label[16];
	uint64_t bytes;
	double seconds;
	int rc = -1;

	if (checkpoint_one_run(ss->plan, &w, pass, index, &opt, &one, &why)) {
		ss->exit_code = run_failure_exit_code(why);
		goto done;
	}
	if (one.out.nr == 0) {   /* stopped before the start */
		ss->stopped = true;
		rc = 0;
		goto done;
	}
	bytes = one.merged.dir[DIR_READ].bytes + one.merged.dir[DIR_WRITE].bytes;
	seconds = (double)one.merged.runtime_ns / 1e9;
	if (record_from_result(&one.merged, &rec))
		goto done;
	rec.step_id = step_id;
	rc = store_result_add(ss->db, ss->run_id, &rec, NULL);
	record_free(&rec);
	if (rc)
		goto done;
	format_bytes(bytes, size, sizeof(size));
	if (pass)
		snprintf(label, sizeof(label), "pass %u", pass);
	else
		snprintf(label, sizeof(label), "read-back");
	fprintf(stderr, "%s checkpoint %u/%u: %s in %.3f s, %.2f GB/s%s\n",
		label, index, ss->count, size,
		seconds, seconds > 0 ? (double)bytes / 1e9 / seconds : 0.0,
		one.merged.partial ? " (stopped: partial)" : "");
	if (one.merged.partial) {
		ss->stopped = true;
	} else {
		ss->stats[pass].seconds += seconds;
		ss->stats[pass].bytes += bytes;
		ss->stats[pass].nr++;
	}
	for (unsigned i = 0; i < one.out.nr; i++)
		if (one.out.results[i].error && !ss->stopped) {
			rc = err_set("job '%s': I/O error: %s", one.out.results[i].name,
				     err_errno_text(one.out.results[i].error));
			ss->exit_code = EXIT_RUN_FAILED;
			break;
		}
done:
	if (rc && ss->exit_code == EXIT_OK)
		ss->exit_code = EXIT_RUN_FAILED;
	checkpoint_one_free(&one);
	return rc;
}

static int one_pass(struct session *ss, unsigned pass)
{
	int64_t step_id;
	char step[32];
	int rc = 0;

	snprintf(step, sizeof(step), pass ? "pass %u" : "read-back", pass);
	if (store_step_begin(ss->db, ss->run_id, pass ? pass - 1 : ss->a->passes, step,
			     pass ? "checkpoint" : "checkpoint-read", &step_id))
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

static void print_pass_means(const struct session *ss)
{
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

static int check_directory(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return err_set("cannot use '%s': %s", dir, strerror(errno));
	if (S_ISBLK(st.st_mode))
		return err_set("'%s' is a block device: checkpoints on a raw device region are not supported yet; give a directory on a mounted filesystem", dir);
	if (!S_ISDIR(st.st_mode))
		return err_set("'%s' is not a directory", dir);
	return output_gate_check("DIR", dir, OUTPUT_DIRECTORY);
}

static int write_checkpoints(const struct checkpoint_args *a, const struct dlio_plan *plan,
			     int argc, char **argv)
{
	struct session ss = { .a = a, .plan = plan, .exit_code = EXIT_OK };
	struct run_meta meta = { .label = a->store.label, .source = "checkpoint", .target = a->dir };
	char command[1024], size[32], avail[32];
	uint64_t free_bytes;

	if (check_directory(a->dir) || checkpoint_free_bytes(a->dir, &free_bytes))
		return err_exit_code(EXIT_BAD_INPUT);
	format_bytes(plan->total_bytes, size, sizeof(size));
	format_bytes(free_bytes, avail, sizeof(avail));
	if (a->count) {
		ss.count = a->count;
		if ((double)a->count * (double)plan->total_bytes > (double)free_bytes)
			fprintf(stderr, "drivebench checkpoint: warning: %u checkpoints of %s need more than the %s free\n",
				a->count, size, avail);
	} else {
		ss.count = checkpoint_count_for_space(free_bytes, a->fill, plan->total_bytes);
		if (!ss.count) {
			err_set("not one checkpoint of %s fits in %s free x fill %g", size, avail, a->fill);
			return EXIT_BAD_INPUT;
		}
	}
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
	fprintf(stderr, "drivebench checkpoint: %u checkpoints of %s (%u files, %u ranks) per pass, %u passes, in %s (%s free)\n",
		ss.count, size, plan->nr, plan->ranks, a->passes, a->dir, avail);
	cmd_catch_stop_signals();
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
	return ss.exit_code;
}

int cmd_checkpoint(int argc, char **argv)
{
	struct checkpoint_args a;
	struct dlio_plan plan = { 0 };
	int rc;

	memset(&a, 0, sizeof(a));
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(checkpoint_usage, stdout);
			return EXIT_OK;
		}
	if (parse_args(argc, argv, &a) || dlio_plan(&a.cfg, &plan)) {
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
