/* run_command.h - what `drivebench run` and `drivebench verify` share: the
 * options of a run (one table both commands include), the jobs they
 * describe (a job file or fio options, --set overrides), and running them
 * on their targets through the record path, printing fio's outputs. verify
 * is run with verify_only set: it calls run_command_execute directly. */
#ifndef DRIVEBENCH_RUN_COMMAND_H
#define DRIVEBENCH_RUN_COMMAND_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/args.h"
#include "job/job_list.h"

enum {
	FORMAT_NORMAL = 1, FORMAT_JSON = 2, FORMAT_JSON_PLUS = 4, FORMAT_TERSE = 8,
};

/* A command's argument struct that takes the run options has a struct
 * run_args as its FIRST member (the options' callbacks rely on it). */
struct run_args {
	const char *jobfile;
	const char **fio_args;        /* "--KEY=VALUE" job options, in order */
	unsigned nr_fio_args;
	const char **sets;            /* --set KEY=VALUE */
	unsigned nr_sets;
	const char *output_format;    /* --output-format (--minimal: "terse") */
	const char *terse_version;
	unsigned formats;             /* FORMAT_*, from output_format */
	int terse;                    /* from terse_version */
	const char **sections;        /* --section */
	unsigned nr_sections;
	const char *output;
	uint64_t max_buffer_mem;
	const char *status_interval;  /* --status-interval (cmd/run_live.h) */
	const char *eta;              /* --eta */
	const char *metrics_file;     /* --metrics-file */
	uint64_t status_ns;           /* from status_interval; 0 = none */
	int eta_mode;                 /* RUN_ETA_*, from eta */
	struct store_args store;      /* --db, --no-db, --label, --destroy-data */
	int argc;                     /* the command line, stored with the run */
	char **argv;
};

int run_opt_minimal(void *args, const struct cmdopt *o, const char *value);

/* The run options as table entries for st, whose first member is f. */
#define RUN_OPTIONS(st, f)                                                        \
	CMDOPT_APPEND("--set", st, f.sets, f.nr_sets, "KEY=VALUE",                \
		      "override option KEY in every job (repeatable)"),           \
	CMDOPT_APPEND("--section", st, f.sections, f.nr_sections, "NAME",         \
		      "run only job section NAME of JOBFILE (and its\n"          \
		      "[global]); repeatable, as fio's --section"),              \
	CMDOPT_STRING("--output-format", 0, st, f.output_format, "FORMAT",        \
		      "normal (default), json, json+ or terse, or several\n"     \
		      "of them comma-separated (json,normal); printed in\n"      \
		      "fio's order: terse, json, normal"),                       \
	CMDOPT_STRING("--terse-version", 0, st, f.terse_version, "N",             \
		      "fio's terse line version 2, 3 (default), 4 or 5"),        \
	CMDOPT_FLAG_FN("--minimal", run_opt_minimal,                              \
		       "the same as --output-format=terse"),                     \
	CMDOPT_STRING("--output", 0, st, f.output, "FILE",                        \
		      "write the results to FILE instead of stdout"),             \
	CMDOPT_STRING("--status-interval", 0, st, f.status_interval, "TIME",      \
		      "print the full results so far every TIME (seconds\n"     \
		      "unless a unit is given) in the output formats, as\n"    \
		      "fio does: JSON documents one after another"),            \
	CMDOPT_STRING("--eta", 0, st, f.eta, "WHEN",                              \
		      "fio's ETA line on stderr: always, never or auto\n"       \
		      "(default: when stderr is a terminal)"),                  \
	CMDOPT_STRING("--metrics-file", 0, st, f.metrics_file, "PATH",            \
		      "write live metrics for Prometheus (OpenMetrics text,\n"  \
		      "atomically) to PATH every --status-interval\n"           \
		      "(default 5s), for node_exporter's textfile collector;\n" \
		      "under mpirun each rank its own: %r in PATH"),            \
	CMDOPT_SIZE("--max-buffer-mem", st, f.max_buffer_mem,                     \
		    "refuse jobs needing more memory for I/O buffers,\n"        \
		    "verify maps, series and histograms (default: a\n"          \
		    "quarter of RAM)"),                                          \
	STORE_OPTION_DB(st, f.store), STORE_OPTION_NO_DB(st, f.store),            \
	STORE_OPTION_LABEL(st, f.store), STORE_OPTION_DESTROY(st, f.store)

/* Each argument that is not a run option: "--KEY=VALUE" is a job option,
 * anything else the job file (one at most). For cmdopt_spec.positional
 * with pass_unknown. */
int run_args_positional(void *args, const char *value);

/* Before parsing: room for argc arguments; remembers the command line. */
int run_args_init(struct run_args *a, int argc, char **argv);
/* After parsing: the formats, the terse version, --section's job file,
 * --no-db. 0 or -1 with err_msg naming the option. */
int run_args_done(struct run_args *a);
void run_args_free(struct run_args *a);

/* The jobs a's job file or fio options describe, --set applied and
 * checked (verify_only jobs converted to read and check). */
int run_command_jobs(const struct run_args *a, struct job_list *jobs);

/* Runs jobs on their targets (the default scratch target where they name
 * none), prints a's outputs and stores the run. Returns the exit code;
 * what failed is printed as "drivebench COMMAND: ...". */
int run_command_execute(const char *command, const struct run_args *a,
			struct job_list *jobs);

#endif
