/* exec.c - fio's exec engine: moves no data; runs program with arguments
 * beside the job for its runtime. The first "I/O" starts it (posix_spawnp,
 * standard output and error in NAME.stdout / NAME.stderr, which the
 * runner passed through the output gate, unless std_redirect=0); every
 * later one takes 50 ms, as
 * fio's exec polls its program. When the job ends the program gets
 * SIGTERM, grace_time seconds to exit, then SIGKILL. In arguments, %r is
 * the runtime in seconds and %n the job's name. */
#include "io/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/sync_queue.h"
#include "util/clock.h"
#include "util/error.h"
#include "job/option_table.h"

#define POLL_NS 50000000ull        /* fio's exec thinks 50 ms a poll */
#define MAX_ARGS 256

extern char **environ;

struct exec_state {
	struct sync_queue q;       /* first: the shared ops find it */
	struct exec_opts o;
	char name[JOB_NAME_MAX];
	uint64_t runtime_s;
	pid_t pid;                 /* -1: not started, or reaped */
	bool started;
	int out_fd, err_fd;        /* std_redirect, until the program starts */
	char expanded[4096];
	char line[1024 + 4096 + 2];   /* program and arguments, split in place */
};

static int32_t exec_mark(struct engine *e, struct io *io)
{
	(void)e;
	return (int32_t)io->len;
}

/* Appends text to out[*used..len), %r and %n expanded. */
static int expand(const struct exec_state *st, const char *text, char *out, size_t len)
{
	size_t used = 0;

	for (const char *p = text; *p; p++) {
		char number[32];
		const char *add = NULL;

		if (p[0] == '%' && p[1] == 'r') {
			snprintf(number, sizeof(number), "%llu", (unsigned long long)st->runtime_s);
			add = number;
		} else if (p[0] == '%' && p[1] == 'n') {
			add = st->name;
		}
		if (add) {
			size_t n = strlen(add);

			if (used + n >= len)
				return err_set("exec: arguments too long");
			memcpy(out + used, add, n);
			used += n;
			p++;
			continue;
		}
		if (used + 1 >= len)
			return err_set("exec: arguments too long");
		out[used++] = *p;
	}
	out[used] = '\0';
	return 0;
}

/* "program arguments" split on spaces, as fio splits them (no quoting). */
static int split_args(char *line, char **argv)
{
	int argc = 0;

	for (char *p = strtok(line, " "); p; p = strtok(NULL, " ")) {
		if (argc >= MAX_ARGS - 1)
			return err_set("exec: more than %d arguments", MAX_ARGS - 2);
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	return argc;
}

static void close_outputs(struct exec_state *st)
{
	if (st->out_fd >= 0)
		close(st->out_fd);
	if (st->err_fd >= 0)
		close(st->err_fd);
	st->out_fd = st->err_fd = -1;
}

static int spawn(struct exec_state *st)
{
	char *argv[MAX_ARGS];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, defaults;
	int rc;

	if (expand(st, st->o.arguments, st->expanded, sizeof(st->expanded)))
		return -1;
	snprintf(st->line, sizeof(st->line), "%s %s", st->o.program, st->expanded);
	if (split_args(st->line, argv) < 1)
		return err_set("exec: no program");
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGINT);
	sigaddset(&defaults, SIGTERM);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &defaults);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (st->out_fd >= 0) {
		posix_spawn_file_actions_adddup2(&fa, st->out_fd, STDOUT_FILENO);
		posix_spawn_file_actions_adddup2(&fa, st->err_fd, STDERR_FILENO);
	}
	rc = posix_spawnp(&st->pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close_outputs(st);
	st->started = true;
	if (rc) {
		st->pid = -1;
		return err_set("exec: cannot run '%s': %s", argv[0], strerror(rc));
	}
	return 0;
}

static int exec_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	struct exec_state *st = e->priv;
	struct io *io = sync_queue_peek(&st->q);
	uint64_t now, due;

	if (!io || !max || !min)
		return 0;
	if (!st->started) {
		if (spawn(st))
			return -1;
	} else {
		if (st->pid > 0 && waitpid(st->pid, NULL, WNOHANG) == st->pid)
			st->pid = -1;     /* ended early: the job runs on, as fio's */
		due = io->issue_ns + POLL_NS;
		now = clock_now_ns();
		if (now < due) {
			struct timespec ts = { 0, (long)(due - now) };

			nanosleep(&ts, NULL);
		}
		io->complete_ns = clock_now_ns();
	}
	sync_queue_pop(&st->q);
	out[0] = io;
	return 1;
}

/* SIGTERM, grace_time to exit, SIGKILL; the program is always reaped. */
static void stop_program(struct exec_state *st)
{
	uint64_t deadline;

	if (st->pid <= 0)
		return;
	kill(st->pid, SIGTERM);
	deadline = clock_now_ns() + (uint64_t)st->o.grace_s * 1000000000ull;
	for (;;) {
		struct timespec ts = { 0, 10000000 };

		if (waitpid(st->pid, NULL, WNOHANG) == st->pid)
			break;
		if (clock_now_ns() >= deadline) {
			kill(st->pid, SIGKILL);
			waitpid(st->pid, NULL, 0);
			break;
		}
		nanosleep(&ts, NULL);
	}
	st->pid = -1;
}

static void exec_cleanup(struct engine *e)
{
	struct exec_state *st = e->priv;

	if (!st)
		return;
	stop_program(st);
	close_outputs(st);
	sync_queue_destroy(e);
}

/* The program must be there before the job starts (bad input, not a
 * failed run): a path, or a name found on $PATH as posix_spawnp finds it. */
static int find_program(const char *program)
{
	const char *path = getenv("PATH");
	char candidate[4096];

	if (strchr(program, '/')) {
		if (access(program, X_OK) == 0)
			return 0;
		return err_set("exec: program '%s': %s", program, strerror(errno));
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, p, program);
		if (len && access(candidate, X_OK) == 0)
			return 0;
		p += len + (p[len] == ':');
	}
	return err_set("exec: program '%s' is not on $PATH", program);
}

/* std_redirect's NAME.stdout and NAME.stderr, in the current directory */
static int exec_side_files(const struct job_spec *spec, unsigned clone,
			   struct side_file *out, unsigned max)
{
	(void)clone;
	if (!spec->eng.exec.std_redirect || max < 2)
		return 0;
	for (unsigned i = 0; i < 2; i++) {
		int n = snprintf(out[i].path, sizeof(out[i].path), "%s.%s", spec->name,
				 i ? "stderr" : "stdout");

		out[i].kind = SIDE_FILE_OUTPUT;
		if (n < 0 || (size_t)n >= sizeof(out[i].path))
			return err_set("exec: output name too long");
	}
	return 2;
}

static int exec_init(struct engine *e, const struct job_spec *spec)
{
	struct exec_state *st;
	struct side_file files[2];

	if (!spec->eng.exec.program[0])
		return err_set("exec: needs program=");
	if (strchr(spec->eng.exec.program, ' '))
		return err_set("exec: program '%s' holds a space; put its arguments in "
			       "arguments=", spec->eng.exec.program);
	if (find_program(spec->eng.exec.program))
		return -1;
	st = sync_queue_create(e, sizeof(*st), "exec", exec_mark);
	if (!st)
		return -1;
	st->o = spec->eng.exec;
	st->pid = -1;
	st->out_fd = st->err_fd = -1;
	st->runtime_s = spec->runtime_ns / 1000000000ull;
	snprintf(st->name, sizeof(st->name), "%s", spec->name);
	if (!st->o.std_redirect)
		return 0;
	/* the runner passed both through the output gate (side_files) */
	if (exec_side_files(spec, 0, files, 2) != 2)
		return -1;
	st->out_fd = open(files[0].path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	st->err_fd = st->out_fd >= 0 ?
		open(files[1].path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	if (st->err_fd < 0) {
		err_set("exec: cannot open '%s': %s", files[st->out_fd >= 0].path,
			strerror(errno));
		exec_cleanup(e);
		return -1;
	}
	return 0;
}

#define XFIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

static const struct option_def exec_options[] = {
	{ "program", NULL, OPT_STRING, XFIELD(eng.exec.program) },
	{ "arguments", NULL, OPT_STRING, XFIELD(eng.exec.arguments) },
	{ "grace_time", NULL, OPT_UINT, XFIELD(eng.exec.grace_s), 0, 3600 },
	{ "std_redirect", NULL, OPT_BOOL, XFIELD(eng.exec.std_redirect), 0, 0, 0, NULL, true },
	{ NULL },
};

static int exec_check(const struct job_spec *spec)
{
	if (!spec->eng.exec.program[0])
		return err_set("ioengine=exec needs program= (the program to run)");
	return 0;
}

const struct engine_ops engine_exec = {
	.name = "exec",
	.flags = ENGINE_SYNC | ENGINE_NO_FD | ENGINE_NO_IO,
	.options = exec_options,
	.check = exec_check,
	.init = exec_init,
	.prep = sync_queue_prep,
	.submit = sync_queue_submit,
	.reap = exec_reap,
	.cancel = sync_queue_cancel,
	.cleanup = exec_cleanup,
	.side_files = exec_side_files,
};
