/* cmd_compare.c - `drivebench compare [--db FILE] A B`: A and B are run ids
 * or drive labels; prints every shared point (same rw, bs, iodepth, numjobs
 * and direction) with both values and the % difference of A over B. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "report/report.h"
#include "report/select.h"
#include "store/store.h"
#include "util/error.h"

struct compare_args {
	const char *db_path;
	const char *names[2];
	unsigned nr_names;
};

static int add_name(void *args, const char *v)
{
	struct compare_args *a = args;

	if (a->nr_names == 2)
		return err_set("wants exactly two runs or labels (a third: '%s')", v);
	a->names[a->nr_names++] = v;
	return 0;
}

static const struct cmdopt compare_options[] = {
	CMDOPT_STRING("--db", 0, struct compare_args, db_path, "FILE",
		      "the database (default " STORE_PATH_HELP ")"),
};

static const struct cmdopt_spec compare_spec = {
	.command = "compare",
	.synopsis = "compare [--db FILE] A B",
	.about =
	"A and B are run ids or drive labels (a label takes all its runs; a later\n"
	"result of the same point replaces an earlier one). Prints every point\n"
	"both have - same rw, bs, iodepth, numjobs and direction - with MB/s\n"
	"(10^6 bytes/s), IOPS, mean and p99 latency (us) of each, and the %\n"
	"difference of A over B. A run that is not whole (it never finished, or\n"
	"was stopped early) is compared as stored, with a warning naming it.\n",
	.options = compare_options,
	.nr_options = CMDOPT_COUNT(compare_options),
	.footer = "Exit 2 for an unknown run or label. See docs/report.md.\n",
	.positional = add_name,
};

struct side {
	struct report_selection sel;
	struct result_record *recs;
	unsigned nr;
	struct report_point *pts;
	unsigned n;
	char name[200];
};

static int load_side(struct store *db, const char *what, struct side *s)
{
	struct selector one = { what, false };

	if (report_select(db, &one, 1, &s->sel) < 0)
		return -1;
	s->nr = 0;
	for (unsigned g = 0; g < s->sel.nr_groups; g++)
		s->nr += s->sel.groups[g].nr;
	s->recs = calloc(s->nr + 1, sizeof(*s->recs));
	if (!s->recs)
		return err_set("out of memory");
	s->nr = 0;
	for (unsigned g = 0; g < s->sel.nr_groups; g++) {
		memcpy(&s->recs[s->nr], s->sel.groups[g].recs,
		       s->sel.groups[g].nr * sizeof(*s->recs));
		s->nr += s->sel.groups[g].nr;
	}
	snprintf(s->name, sizeof(s->name), "%s", s->sel.nr_groups ? s->sel.groups[0].label : what);
	return report_points(s->recs, s->nr, &s->pts, &s->n);
}

/* Warns about each run of a side that is not whole; returns the side's
 * mark for the header ("", ", INCOMPLETE" or ", PARTIAL"). */
static const char *warn_side(const char *which, const struct side *s)
{
	const char *mark = "";

	for (unsigned g = 0; g < s->sel.nr_groups; g++)
		for (unsigned i = 0; i < s->sel.groups[g].nr_not_whole; i++) {
			const struct stored_run *run = &s->sel.groups[g].not_whole[i];
			char text[1024];

			report_run_warning(run, text, sizeof(text));
			fprintf(stderr, "drivebench compare: warning: %s: %s\n", which, text);
			if (stored_run_incomplete(run))
				mark = ", INCOMPLETE";
			else if (!mark[0])
				mark = ", PARTIAL";
		}
	return mark;
}

static void free_side(struct side *s)
{
	free(s->pts);
	free(s->recs);
	report_selection_free(&s->sel);
}

static void print_triplet(double a, double b, const char *fmt)
{
	char diff[32];
	double pct = report_pct_diff(a, b);

	if (pct == pct)
		snprintf(diff, sizeof(diff), "%+.1f%%", pct);
	else
		snprintf(diff, sizeof(diff), "-");
	printf(fmt, a, b);
	printf(" %8s", diff);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args args = { .db_path = store_default_path() };
	const char *db_path, *names[2];
	unsigned shared = 0;
	struct side a = { 0 }, b = { 0 };
	struct store *db = NULL;
	const char *mark_a, *mark_b;
	int rc = EXIT_BAD_INPUT;

	if (cmd_parse(&compare_spec, argc, argv, &args, &rc))
		return rc;
	if (args.nr_names != 2) {
		fprintf(stderr, "drivebench compare: wants exactly two runs or labels (see "
			"'drivebench compare --help')\n");
		return EXIT_BAD_INPUT;
	}
	db_path = args.db_path;
	names[0] = args.names[0];
	names[1] = args.names[1];
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "drivebench compare: %s: %s\n", db_path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (store_open(db_path, &db) < 0) {
		fprintf(stderr, "drivebench compare: %s\n", err_msg());
		return err_exit_code(EXIT_BAD_INPUT);
	}
	if (load_side(db, names[0], &a) < 0 || load_side(db, names[1], &b) < 0) {
		fprintf(stderr, "drivebench compare: %s\n", err_msg());
		rc = a.sel.unknown || b.sel.unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		goto done;
	}
	mark_a = warn_side("A", &a);
	mark_b = warn_side("B", &b);
	printf("A = %s (%s%s), B = %s (%s%s); diff = (A - B) / B\n", names[0], a.name,
	       mark_a, names[1], b.name, mark_b);
	printf("%-26s %-7s %10s %10s %8s %10s %10s %8s %9s %9s %8s %9s %9s %8s\n",
	       "test", "QD/jobs", "A MB/s", "B MB/s", "diff", "A IOPS", "B IOPS", "diff",
	       "A mean", "B mean", "diff", "A p99", "B p99", "diff");
	for (unsigned i = 0; i < a.n; i++)
		for (unsigned k = 0; k < b.n; k++) {
			const struct report_point *p = &a.pts[i], *q = &b.pts[k];
			char test[96], point[32];
			if (!report_same_test(p, q) || p->iodepth != q->iodepth
			    || p->numjobs != q->numjobs)
				continue;
			report_test_name(p, test, sizeof(test));
			snprintf(point, sizeof(point), "%u/%u", p->iodepth, p->numjobs);
			printf("%-26s %-7s", test, point);
			print_triplet(p->mbs, q->mbs, " %10.1f %10.1f");
			print_triplet(p->iops, q->iops, " %10.0f %10.0f");
			print_triplet(p->lat_mean_us, q->lat_mean_us, " %9.1f %9.1f");
			print_triplet(p->p99_us, q->p99_us, " %9.1f %9.1f");
			printf("\n");
			shared++;
		}
	printf("%u shared point(s); latencies in us, MB/s = 10^6 bytes/s\n", shared);
	if (mark_a[0] || mark_b[0])
		printf("warning: %s not whole (see the warnings above); its points are not"
		       " the whole measurement\n", !mark_b[0] ? "A holds a run that is" :
		       !mark_a[0] ? "B holds a run that is" : "A and B hold runs that are");
	rc = EXIT_OK;
done:
	free_side(&a);
	free_side(&b);
	store_close(db);
	return rc;
}
