/* suite_targets.c - one suite on several targets at once: checks every
 * target before any starts, then forks one child per target, each running
 * suite_run as a single-target run would (its own store connection: SQLite
 * serializes the writers, each point one transaction); relays their output
 * under the targets' names, forwards a stop, and sums up each target. */
#include "cmd/suite_targets.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/line_relay.h"
#include "run/runner.h"
#include "device/overlap.h"
#include "util/error.h"

/* What a child tells the parent when its suite run returns. */
struct child_report {
	int exit_code;
	int interrupted;
	int64_t run_id;          /* 0: no run was begun or found */
	char message[1024];      /* "" when the run completed */
};

/* What a child tells the parent after each step (for --report). */
struct child_step {
	int64_t run_id;
	unsigned done, nr;
	double eta_s;
};

struct child {
	struct suite_options opt;   /* target and label its own */
	bool skipped;               /* --resume: its last run finished */
	char skip_note[512];
	pid_t pid;                  /* 0: not started */
	int status_fd;              /* read end of the report pipe, or -1 */
	int step_fd;                /* read end of the step pipe (--report), or -1 */
	bool reaped;
	int wait_status;
	bool reported;
	struct child_report rep;
};

static int worse(int a, int b)
{
	return a > b ? a : b;   /* 3 refused > 2 bad input > 1 failed > 0 */
}

/* No drive is named twice: the same path, another spelling of it, or two
 * paths on one device (target/overlap.h). */
static int check_distinct(const struct suite_targets *t)
{
	int code = EXIT_OK;

	for (unsigned i = 0; i < t->nr; i++)
		for (unsigned j = i + 1; j < t->nr; j++) {
			char why[2 * JOB_PATH_MAX + 128] = "";
			int r = target_overlap(t->targets[i], t->targets[j], why, sizeof(why));

			if (r < 0)
				fprintf(stderr, "drivebench suite: %s\n", err_msg());
			else if (r)
				fprintf(stderr, "drivebench suite: targets %u and %u are one drive: %s; "
					"give each drive once\n", i + 1, j + 1, why);
			if (r)
				code = EXIT_BAD_INPUT;
		}
	return code;
}

/* One vssd_state file is one drive's: several targets (each its own drive
 * and process) would save over each other's. */
static int check_one_state(const struct suite *s, unsigned nr)
{
	const char *state;

	if (suite_vssd_state(s, &state) == 0 && !state[0])
		return EXIT_OK;
	if (state[0])
		fprintf(stderr, "drivebench suite: vssd_state=%s: one state file is one drive's; "
			"%u targets would each save theirs there: run one suite per target, each "
			"with its own file\n", state, nr);
	else
		fprintf(stderr, "drivebench suite: %s\n", err_msg());
	return EXIT_BAD_INPUT;
}

/* Every target through suite_check (the gate, the store, --resume) before
 * any starts; each failure is said, naming its target. */
static int check_targets(const struct suite *s, struct child *c, unsigned nr,
			 unsigned *runnable)
{
	int code = EXIT_OK;

	*runnable = 0;
	for (unsigned i = 0; i < nr; i++) {
		int one, rc = suite_check(s, &c[i].opt, &one);

		if (rc < 0) {
			fprintf(stderr, "drivebench suite: %s: %s\n", c[i].opt.target, err_msg());
			code = worse(code, one);
		} else if (rc == 1) {
			c[i].skipped = true;
			snprintf(c[i].skip_note, sizeof(c[i].skip_note), "%s", err_msg());
			fprintf(stderr, "drivebench suite: %s: %s; leaving it out\n",
				c[i].opt.target, c[i].skip_note);
		} else {
			(*runnable)++;
		}
	}
	if (code != EXIT_OK) {
		fprintf(stderr, "drivebench suite: nothing started: every target is checked "
			"before any of them starts\n");
		return code;
	}
	if (!*runnable) {
		fprintf(stderr, "drivebench suite: nothing to resume on any target\n");
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* suite_options.step_done in a child: the step to the parent (a write
 * under PIPE_BUF is whole); the parent gone, the suite goes on. */
static void tell_parent(void *arg, const struct suite_step_done *d)
{
	struct child_step step = { d->run_id, d->done, d->nr, d->eta_s };

	if (write(*(const int *)arg, &step, sizeof(step)) != (ssize_t)sizeof(step))
		fprintf(stderr, "drivebench suite: warning: --report: cannot tell the parent of "
			"step %u: %s\n", d->done, strerror(errno));
}

/* The child: the suite on its target, standard error into its pipe, the
 * report into the other (and, for --report, its steps into a third); it
 * stops when the parent dies. Never returns (this is a process of its
 * own: its end is its exit). */
static void run_child(const struct suite *s, struct child *me, const struct child *all,
		      const struct line_relay *relays, unsigned nr, int err_fd,
		      int report_fd, int step_fd, pid_t parent)
{
	struct child_report rep = { 0 };
	int code = EXIT_RUN_FAILED;

	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(EXIT_RUN_FAILED);   /* the parent is gone: start nothing */
	/* the parent gone, a message must not kill the run before it stops */
	signal(SIGPIPE, SIG_IGN);
	if (dup2(err_fd, STDERR_FILENO) < 0)
		_exit(EXIT_RUN_FAILED);
	close(err_fd);
	for (unsigned i = 0; i < nr; i++) {   /* the other children's read ends */
		if (all[i].status_fd >= 0)
			close(all[i].status_fd);
		if (all[i].step_fd >= 0)
			close(all[i].step_fd);
		if (relays[i].fd >= 0)
			close(relays[i].fd);
	}
	me->opt.run_id = &rep.run_id;
	if (step_fd >= 0) {
		me->opt.step_done = tell_parent;
		me->opt.step_done_arg = &step_fd;
	}
	if (suite_run(s, &me->opt, &code) == 0) {
		fprintf(stderr, "drivebench: suite '%s' complete on %s\n", s->name, me->opt.target);
	} else {
		rep.interrupted = cmd_stop_requested || strstr(err_msg(), "interrupted");
		snprintf(rep.message, sizeof(rep.message), "%s", err_msg());
		fprintf(stderr, "drivebench suite: %s\n", err_msg());
	}
	rep.exit_code = code;
	if (write(report_fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		fprintf(stderr, "drivebench suite: cannot report to the parent: %s\n",
			strerror(errno));
	/* exit, not _exit: the standard streams were flushed before the fork,
	 * and a sanitizer build checks the child for leaks as it exits */
	exit(code);
}

/* a child's three pipes, when it could not be started (a step pipe
 * not made is -1) */
static void close_pipes(const int err_pipe[2], const int report_pipe[2], const int step_pipe[2])
{
	for (int k = 0; k < 2; k++) {
		close(err_pipe[k]);
		close(report_pipe[k]);
		if (step_pipe[k] >= 0)
			close(step_pipe[k]);
	}
}

/* Starts the child of c[i]: 0, or -1 with err_msg (nothing started for it). */
static int start_child(const struct suite *s, struct child *c, struct line_relay *relays,
		       unsigned nr, unsigned i, bool steps)
{
	int err_pipe[2], report_pipe[2], step_pipe[2] = { -1, -1 };
	pid_t parent = getpid(), pid;

	if (pipe2(err_pipe, O_CLOEXEC))
		return err_set("pipe: %s", strerror(errno));
	if (pipe2(report_pipe, O_CLOEXEC)) {
		close(err_pipe[0]);
		close(err_pipe[1]);
		return err_set("pipe: %s", strerror(errno));
	}
	/* the parent reads the steps between relaying lines: never blocked */
	if (steps && (pipe2(step_pipe, O_CLOEXEC) ||
		      fcntl(step_pipe[0], F_SETFL, O_NONBLOCK))) {
		int e = errno;

		close_pipes(err_pipe, report_pipe, step_pipe);
		return err_set("pipe: %s", strerror(e));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close_pipes(err_pipe, report_pipe, step_pipe);
		return err_set("fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(err_pipe[0]);
		close(report_pipe[0]);
		if (step_pipe[0] >= 0)
			close(step_pipe[0]);
		run_child(s, &c[i], c, relays, nr, err_pipe[1], report_pipe[1], step_pipe[1],
			  parent);
	}
	close(err_pipe[1]);
	close(report_pipe[1]);
	if (step_pipe[1] >= 0)
		close(step_pipe[1]);
	c[i].pid = pid;
	c[i].status_fd = report_pipe[0];
	c[i].step_fd = step_pipe[0];
	line_relay_init(&relays[i], err_pipe[0], c[i].opt.target);
	return 0;
}

/* The steps the children told since the last call, each to the page
 * (one at a time: this process alone writes it). */
static void read_steps(struct child *c, unsigned nr, struct suite_report *report)
{
	for (unsigned i = 0; report && i < nr; i++) {
		struct child_step step;

		while (c[i].step_fd >= 0 &&
		       read(c[i].step_fd, &step, sizeof(step)) == (ssize_t)sizeof(step)) {
			struct suite_step_done d = { step.run_id, step.done, step.nr, NULL,
						     step.eta_s };

			suite_report_target_step(report, i, &d);
		}
	}
}

static void reap(struct child *c, unsigned nr, unsigned *live, struct suite_report *report)
{
	for (unsigned i = 0; i < nr; i++) {
		if (!c[i].pid || c[i].reaped)
			continue;
		if (waitpid(c[i].pid, &c[i].wait_status, WNOHANG) != c[i].pid)
			continue;
		c[i].reaped = true;
		read_steps(c, nr, report);   /* what it told before it ended */
		if (c[i].step_fd >= 0) {
			close(c[i].step_fd);
			c[i].step_fd = -1;
		}
		(*live)--;
		if (read(c[i].status_fd, &c[i].rep, sizeof(c[i].rep)) == (ssize_t)sizeof(c[i].rep))
			c[i].reported = true;
		close(c[i].status_fd);
		c[i].status_fd = -1;
	}
}

/* Relays the children's output until every one has exited; a stop (Ctrl-C
 * reaches them all from the terminal, a SIGTERM only this process) is
 * passed on to each. */
static void wait_children(struct child *c, struct line_relay *relays, unsigned nr,
			  unsigned live, struct suite_report *report)
{
	bool forwarded = false;

	while (live) {
		if (cmd_stop_requested && !forwarded) {
			forwarded = true;
			fprintf(stderr, "drivebench suite: stopping every target\n");
			for (unsigned i = 0; i < nr; i++)
				if (c[i].pid && !c[i].reaped)
					kill(c[i].pid, SIGTERM);
		}
		if (!line_relay_poll(relays, nr, 100, stderr)) {
			struct timespec pause = { 0, 50 * 1000 * 1000 };

			nanosleep(&pause, NULL);
		}
		read_steps(c, nr, report);
		reap(c, nr, &live, report);
	}
	for (unsigned i = 0; i < nr; i++)   /* a grandchild may hold a pipe open */
		line_relay_close(&relays[i], stderr);
}

/* The child's outcome as exit code and words. */
static int outcome(const struct child *c, char *text, size_t len)
{
	int code;

	if (c->skipped) {
		snprintf(text, len, "left out: %s", c->skip_note);
		return EXIT_OK;
	}
	if (!c->pid) {
		snprintf(text, len, "not started");
		return EXIT_RUN_FAILED;
	}
	if (WIFSIGNALED(c->wait_status)) {
		snprintf(text, len, "killed by signal %d", WTERMSIG(c->wait_status));
		return EXIT_RUN_FAILED;
	}
	code = WIFEXITED(c->wait_status) ? WEXITSTATUS(c->wait_status) : EXIT_RUN_FAILED;
	if (!c->reported) {
		snprintf(text, len, "exit %d, no report", code);
		return code ? code : EXIT_RUN_FAILED;
	}
	if (c->rep.run_id)
		snprintf(text, len, "run %lld %s%s%s", (long long)c->rep.run_id,
			 code == EXIT_OK ? "complete" : c->rep.interrupted ? "interrupted" : "failed",
			 c->rep.message[0] && !c->rep.interrupted ? ": " : "",
			 c->rep.interrupted ? "" : c->rep.message);
	else
		snprintf(text, len, "no run: %s", c->rep.message);
	return code;
}

/* One line per target; the resume command when any was stopped. */
static int summarize(const struct suite *s, const struct child *c, unsigned nr,
		     const char *db_path)
{
	char text[1400], again[4096];
	size_t used = (size_t)snprintf(again, sizeof(again),
				       "drivebench suite --resume --db %s", db_path);
	bool interrupted = false, listed = false;
	int code = EXIT_OK;

	fprintf(stderr, "drivebench: suite '%s' on %u targets, results in %s:\n", s->name, nr,
		db_path);
	for (unsigned i = 0; i < nr; i++) {
		int one = outcome(&c[i], text, sizeof(text));

		fprintf(stderr, "  %s: %s\n", c[i].opt.target, text);
		code = worse(code, one);
		if (c[i].reported && c[i].rep.interrupted)
			interrupted = true;
		if (one != EXIT_OK && c[i].reported && c[i].rep.run_id && used < sizeof(again)) {
			used += (size_t)snprintf(again + used, sizeof(again) - used, " --target %s",
						 c[i].opt.target);
			listed = true;
		}
	}
	if ((interrupted || cmd_stop_requested) && listed)
		fprintf(stderr, "interrupted: resume with %s\n", again);
	return code;
}

int suite_targets_run(const struct suite *s, const struct suite_options *base,
		      const struct suite_targets *t)
{
	struct child *c = calloc(t->nr, sizeof(*c));
	struct line_relay *relays = calloc(t->nr, sizeof(*relays));
	unsigned runnable = 0, live = 0;
	int code;

	if (!c || !relays) {
		free(c);
		free(relays);
		fprintf(stderr, "drivebench suite: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	code = check_distinct(t);
	if (code == EXIT_OK)
		code = check_one_state(s, t->nr);
	for (unsigned i = 0; i < t->nr; i++) {
		c[i].opt = *base;
		c[i].opt.target = t->targets[i];
		c[i].opt.label = t->labels ? t->labels[i] : "";
		c[i].opt.progress_tty = false;   /* log lines, each under its target */
		c[i].status_fd = -1;
		c[i].step_fd = -1;
		relays[i].fd = -1;
	}
	if (code == EXIT_OK)
		code = check_targets(s, c, t->nr, &runnable);
	if (code != EXIT_OK)
		goto out;
	for (unsigned i = 0; i < t->nr; i++)
		if (!base->max_buffer_mem)   /* a quarter of RAM in all, shared out */
			c[i].opt.max_buffer_mem = run_default_buffer_limit() / runnable;
	fprintf(stderr, "drivebench: suite '%s' on %u targets at once\n", s->name, runnable);
	for (unsigned i = 0; i < t->nr && !cmd_stop_requested; i++) {
		if (c[i].skipped)
			continue;
		if (start_child(s, c, relays, t->nr, i, t->report != NULL)) {
			/* the ones started run on; the rest are stopped */
			fprintf(stderr, "drivebench suite: %s: %s; stopping the targets started\n",
				c[i].opt.target, err_msg());
			cmd_stop_requested = 1;
			break;
		}
		live++;
	}
	wait_children(c, relays, t->nr, live, t->report);
	code = summarize(s, c, t->nr, base->db_path);
out:
	free(c);
	free(relays);
	return code;
}
