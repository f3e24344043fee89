/* cmd_gds.c - `drivebench gds`: NVIDIA gdsio's sweep through the cufile
 * engine and the one runner. Picks the transfer type from what gds_probe
 * finds (CPU_ONLY, said out loud, when no GPU path is there), runs each
 * point as one job, prints gdsio's line per point and stores the points
 * with the GPU path they ran on. Sweep logic in workload/gds.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "io/cufile.h"
#include "record/record_run.h"
#include "run/runner.h"
#include "store/store.h"
#include "device/target.h"
#include "util/error.h"
#include "util/units.h"
#include "workload/gds.h"
#include "job/job_list.h"
#include "job/options.h"

struct gds_args {
	struct gds_sweep sweep;
	bool xfer_given;
	struct store_args store;      /* --db, --label, --destroy-data */
};

static int parse_count(const char *opt, const char *v, unsigned max, unsigned *out)
{
	uint64_t n;

	if (units_parse_count(v, 0, max, &n))
		return err_set("%s: bad number '%s'", opt, v);
	*out = (unsigned)n;
	return 0;
}

static int set_path(const char *opt, const char *v, char *out)
{
	if (!v[0] || strlen(v) >= JOB_PATH_MAX)
		return err_set("%s: bad path '%s'", opt, v);
	if (out[0])
		return err_set("%s: the target was already given ('%s')", opt, out);
	snprintf(out, JOB_PATH_MAX, "%s", v);
	return 0;
}

#define SWEEP(a) (&((struct gds_args *)(a))->sweep)

static int opt_rw(void *a, const struct cmdopt *o, const char *v)
{
	(void)o;
	return gds_parse_rw_list(v, SWEEP(a));
}

static int opt_bs(void *a, const struct cmdopt *o, const char *v)
{
	(void)o;
	return gds_parse_bs_list(v, SWEEP(a));
}

static int opt_threads(void *a, const struct cmdopt *o, const char *v)
{
	(void)o;
	return gds_parse_threads_list(v, SWEEP(a));
}

static int opt_io_type(void *a, const struct cmdopt *o, const char *v)
{
	(void)o;
	return gds_parse_io_type(v, SWEEP(a));
}

static int opt_xfer(void *args, const struct cmdopt *o, const char *v)
{
	struct gds_args *a = args;
	unsigned n = 0;

	if (parse_count(o->name, v, 99, &n))
		return -1;
	if (!gds_xfer_valid((int)n))
		return err_set("-x: transfer type %u not supported (0 GPUD, 1 CPUONLY, 2 CPU_GPU, 5 GPUD_ASYNC)", n);
	a->sweep.xfer = (int)n;
	a->xfer_given = true;
	return 0;
}

static int opt_file_size(void *a, const struct cmdopt *o, const char *v)
{
	struct gds_sweep *s = SWEEP(a);

	if (parse_size(v, 1024, &s->file_size) || !s->file_size)
		return err_set("%s: bad size '%s'", o->name, v);
	return 0;
}

static int opt_time(void *a, const struct cmdopt *o, const char *v)
{
	uint64_t ns;

	if (parse_time_ns(v, 1000000000ull, &ns) || ns < 1000000)
		return err_set("%s: bad time '%s'", o->name, v);
	SWEEP(a)->runtime_ns = ns;
	return 0;
}

static int opt_gpu(void *a, const struct cmdopt *o, const char *v)
{
	return parse_count(o->name, v, 1024, &SWEEP(a)->gpu);
}

static int opt_file(void *a, const struct cmdopt *o, const char *v)
{
	return set_path(o->name, v, SWEEP(a)->filename);
}

static int opt_dir(void *a, const struct cmdopt *o, const char *v)
{
	return set_path(o->name, v, SWEEP(a)->directory);
}

static int opt_target(void *a, const char *v)
{
	return set_path("TARGET", v, SWEEP(a)->filename);
}

static const struct cmdopt gds_options[] = {
	CMDOPT_GROUP("sweep:"),
	CMDOPT_VALUE_FN("--rw", 0, opt_rw, "LIST", "directions: read,write,randread,randwrite"),
	CMDOPT_VALUE_FN("--bs", 'i', opt_bs, "LIST",
			"I/O sizes, e.g. 16k,128k,1m (-i SIZE: gdsio's one size)"),
	CMDOPT_VALUE_FN("--threads", 'w', opt_threads, "LIST",
			"thread counts, e.g. 1,4,8 (-w N: gdsio's one count)"),
	CMDOPT_GROUP("gdsio's options:"),
	CMDOPT_VALUE_FN("-x", 0, opt_xfer, "XFER",
			"transfer type: 0 GPUD (GPU_DIRECT), 1 CPUONLY,\n"
			"2 CPU_GPU, 5 GPUD_ASYNC (default: 0 when a GPU\n"
			"path is available, else 1)"),
	CMDOPT_VALUE_FN("-I", 0, opt_io_type, "TYPE", "0 read, 1 write, 2 randread, 3 randwrite"),
	CMDOPT_VALUE_FN("-s", 0, opt_file_size, "SIZE",
			"file size: with -D each thread's file, with a\n"
			"file the whole file, split among the threads\n"
			"(default: the file's size)"),
	CMDOPT_VALUE_FN("-T", 0, opt_time, "SECONDS", "time per point (default 10)"),
	CMDOPT_VALUE_FN("-d", 0, opt_gpu, "GPU", "GPU index (default 0)"),
	CMDOPT_VALUE_FN("-f", 0, opt_file, "FILE", "the file or device (as TARGET)"),
	CMDOPT_VALUE_FN("-D", 0, opt_dir, "DIR", "a file per thread in DIR (DIR/gdsio.N.0)"),
	CMDOPT_GROUP("storing:"),
	STORE_OPTION_DB(struct gds_args, store),
	STORE_OPTION_LABEL(struct gds_args, store),
	STORE_OPTION_DESTROY(struct gds_args, store),
};

static const struct cmdopt_spec gds_spec = {
	.command = "gds",
	.synopsis = "gds [options] TARGET\ngds [options] -D DIR -s SIZE",
	.about =
	"Runs NVIDIA gdsio's sweep through the cuFile API: every combination of\n"
	"direction, I/O size and thread count, one synchronous I/O per thread,\n"
	"each point for -T seconds, printed in gdsio's format and stored. The\n"
	"default is the review sweep: read and write x 16K,128K,1M x threads\n"
	"1,4,8,16,32,64,128, 10 s each (42 points, 7 minutes). Without a usable\n"
	"GPU and libcufile it runs CPU_ONLY and says so. See docs/gds.md.\n",
	.options = gds_options,
	.nr_options = CMDOPT_COUNT(gds_options),
	.positional = opt_target,
};

/* 0 to go on, or 1 with *exit_code: parsed, then the target's rules. */
static int parse_args(int argc, char **argv, struct gds_args *a, int *exit_code)
{
	gds_sweep_defaults(&a->sweep);
	if (store_args_init(&a->store, argc)) {
		*exit_code = EXIT_RUN_FAILED;
		return 1;
	}
	if (cmd_parse(&gds_spec, argc, argv, a, exit_code))
		return 1;
	if (a->sweep.filename[0] && a->sweep.directory[0])
		err_set("give a file (TARGET or -f) or a directory (-D), not both");
	else if (!a->sweep.filename[0] && !a->sweep.directory[0])
		err_set("give the file or device to test (TARGET or -f), or -D DIR");
	else if (a->sweep.directory[0] && !a->sweep.file_size)
		err_set("-D needs -s SIZE (each thread's file)");
	else
		return 0;
	fprintf(stderr, "drivebench gds: %s (see 'drivebench gds --help')\n", err_msg());
	*exit_code = EXIT_BAD_INPUT;
	return 1;
}

/* The shared file's size when -s is not given. */
static int file_size_default(struct gds_sweep *s)
{
	struct target t;

	if (s->file_size || s->directory[0])
		return 0;
	if (target_probe(s->filename, &t))
		return -1;
	if (!t.exists || !t.size)
		return err_set("'%s' does not exist or is empty: give -s SIZE", s->filename);
	s->file_size = t.size;
	return 0;
}

/* Every point fits the file(s), checked before the first one runs. */
static int check_points(const struct gds_sweep *s)
{
	uint64_t region;

	for (unsigned b = 0; b < s->nr_bs; b++)
		for (unsigned t = 0; t < s->nr_threads; t++)
			if (gds_thread_region(s, s->bs[b], s->threads[t], &region))
				return -1;
	return 0;
}

/* The transfer type to run, and the path it takes. -1 (exit 2) when the
 * type asked for cannot run here. */
static int choose_path(struct gds_args *a, const struct gds_env *env, struct gds_path *path)
{
	bool gpu = env->have_cufile && env->have_cuda;
	const char *why = env->why[0] ? env->why : "unknown reason";
	int x = a->sweep.xfer;

	path->gpu_model = env->gpu_model;
	path->no_gpu = "";
	if (!a->xfer_given) {
		if (gpu) {
			a->sweep.xfer = x = GDS_XFER_GPUD;
		} else {
			fprintf(stderr, "drivebench gds: no GPU path available: %s; running CPU_ONLY\n", why);
			path->no_gpu = why;
		}
	} else if ((x == GDS_XFER_GPUD || x == GDS_XFER_GPUD_ASYNC) && !gpu) {
		return err_set("-x %d (%s) needs cuFile and a GPU: %s", x, gds_xfer_label(x), why);
	} else if (x == GDS_XFER_CPU_GPU && !env->have_cuda) {
		return err_set("-x %d (%s) needs a GPU: %s", x, gds_xfer_label(x), why);
	} else if (x == GDS_XFER_GPUD_ASYNC && !env->have_async) {
		return err_set("-x %d (%s): this libcufile has no stream API (cuFileReadAsync)",
			       x, gds_xfer_label(x));
	}
	if (x == GDS_XFER_GPUD || x == GDS_XFER_GPUD_ASYNC)
		path->mode = env->compat_mode ? "compat" : "gds";
	else
		path->mode = "host";
	if (x != GDS_XFER_CPUONLY)
		fprintf(stderr, "drivebench gds: XferType %s on GPU %u%s%s%s\n", gds_xfer_label(x),
			a->sweep.gpu, env->gpu_model[0] ? " (" : "", env->gpu_model,
			env->gpu_model[0] ? ")" : "");
	if (!strcmp(path->mode, "compat"))
		fprintf(stderr, "drivebench gds: cuFile runs in compatibility mode (no nvidia-fs): "
			"POSIX I/O underneath, not true GPU Direct Storage\n");
	return 0;
}

struct session {
	const struct gds_args *a;
	const struct gds_path *path;
	struct store *db;
	int64_t run_id;               /* 0 until the first point is stored */
	struct run_meta meta;
	bool stopped;
	int exit_code;
};

static int one_point(struct session *ss, enum rw_mode rw, uint64_t bs, unsigned threads,
		     unsigned idx)
{
	const struct gds_sweep *s = &ss->a->sweep;
	struct job_list jobs = { 0 };
	struct job_spec spec;
	struct run_options opt = {
		.stop = &cmd_stop_requested,
		.destroy_ids = ss->a->store.destroy_ids,
		.nr_destroy_ids = ss->a->store.nr_destroy_ids,
	};
	/* the run begins with the first point, so it carries the drive's
	 * snapshot from before that point */
	struct record_place place = {
		.db = ss->db, .run_id = &ss->run_id, .meta = &ss->meta,
		.step_kind = "gds", .store_partial = true,
	};
	struct recorded rec = { 0 };
	struct gds_line line;
	char text[512], step[96];
	int rc = -1;

	if (gds_point_job(s, rw, bs, threads, ss->path, &spec)) {
		ss->exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	if (job_list_append(&jobs, &spec)) {
		err_set("out of memory");
		goto done;
	}
	/* the step's name tells the point (one step per point, kind "gds") */
	snprintf(step, sizeof(step), "%s %lluK x%u %s", gds_io_type(rw),
		 (unsigned long long)(bs / 1024), threads, gds_xfer_label(s->xfer));
	place.step_name = step;
	place.step_idx = idx;
	if (record_run(&jobs, &opt, &place, &rec)) {
		if (!rec.ran)
			ss->exit_code = run_failure_exit_code(rec.why);
		goto done;
	}
	if (rec.nr == 0 || rec.out.partial)
		ss->stopped = true;
	if (rec.nr == 0) {   /* stopped before the start */
		rc = 0;
		goto done;
	}
	gds_line_from_result(&rec.entries[0], rw, gds_xfer_label(s->xfer), threads,
			     gds_dataset_bytes(s, threads), &line);
	if (gds_format_line(&line, text, sizeof(text)))
		goto done;
	printf("%s%s\n", text, rec.out.partial ? " (stopped: partial)" : "");
	fflush(stdout);
	for (unsigned i = 0; i < rec.out.nr; i++)
		if (rec.out.results[i].error && !ss->stopped) {
			err_set("%s: I/O error: %s", step, err_errno_text(rec.out.results[i].error));
			goto done;
		}
	rc = 0;
done:
	if (rc && ss->exit_code == EXIT_OK)
		ss->exit_code = EXIT_RUN_FAILED;
	recorded_free(&rec);
	job_list_free(&jobs);
	return rc;
}

static int run_sweep(const struct gds_args *a, const struct gds_path *path,
		     int argc, char **argv)
{
	const struct gds_sweep *s = &a->sweep;
	struct session ss = { .a = a, .path = path, .exit_code = EXIT_OK };
	char command[1024];
	unsigned idx = 0;

	/* open the database first: a long sweep must not end unable to store */
	if (store_open(a->store.db_path, &ss.db))
		return err_exit_code(EXIT_BAD_INPUT);
	cmd_join_command(argc, argv, command, sizeof(command));
	ss.meta = (struct run_meta){
		.label = a->store.label, .source = "gds", .command = command,
		.target = s->directory[0] ? s->directory : s->filename,
		.started_ms = (uint64_t)time(NULL) * 1000,
	};
	cmd_catch_stop_signals();
	for (unsigned r = 0; r < s->nr_rw && !ss.stopped; r++)
		for (unsigned b = 0; b < s->nr_bs && !ss.stopped; b++)
			for (unsigned t = 0; t < s->nr_threads && !ss.stopped; t++, idx++) {
				if (cmd_stop_requested) {
					ss.stopped = true;
					break;
				}
				if (one_point(&ss, s->rw[r], s->bs[b], s->threads[t], idx))
					goto end;
			}
end:
	if (ss.run_id) {
		if (store_run_end(ss.db, ss.run_id, ss.stopped || ss.exit_code != EXIT_OK) &&
		    ss.exit_code == EXIT_OK)
			ss.exit_code = EXIT_RUN_FAILED;
		else if (ss.exit_code == EXIT_OK)
			fprintf(stderr, "drivebench: results stored in %s as run %lld\n",
				a->store.db_path, (long long)ss.run_id);
	}
	if (ss.stopped && ss.exit_code == EXIT_OK) {
		err_set("stopped: the points so far are stored (partial)");
		ss.exit_code = EXIT_RUN_FAILED;
	}
	store_close(ss.db);
	return ss.exit_code;
}

int cmd_gds(int argc, char **argv)
{
	struct gds_args a;
	struct gds_env env;
	struct gds_path path;
	int rc;

	memset(&a, 0, sizeof(a));
	if (parse_args(argc, argv, &a, &rc))
		goto done;
	if (file_size_default(&a.sweep) || check_points(&a.sweep)) {
		rc = EXIT_BAD_INPUT;
		goto fail;
	}
	memset(&env, 0, sizeof(env));
	gds_probe(&env);
	if (choose_path(&a, &env, &path)) {
		rc = EXIT_BAD_INPUT;
		goto fail;
	}
	err_clear();
	rc = run_sweep(&a, &path, argc, argv);
	if (rc == EXIT_OK)
		goto done;
fail:
	fprintf(stderr, "drivebench gds: %s\n", err_msg());
done:
	store_args_free(&a.store);
	return rc;
}
