/* test_report_select.c - what report's selection reads for modelled
 * drives: the model file of a run (its target in each spelling, else its
 * results' drive snapshot), the spec sheet from that file with its note,
 * the warning when the file is gone or is not a sheet; and from a real
 * database: each label's stored sheet before the model file's, the drives
 * its runs were measured on (each once), its steps' names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/analysis/model_sheet.h"
#include "report/analysis/select.h"
#include "store/store.h"
#include "util/error.h"
#include "helpers/tmpdir.h"

static const char model_ini[] =
	"[drive]\nmodel = generic QLC model (unfitted)\ncapacity_tb = 61.44\n"
	"[model]\ncell = qlc\nop = 7%\n[rated]\nseq_write_mbs = 2000\n";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static struct stored_run run_on(const char *target)
{
	struct stored_run run;

	memset(&run, 0, sizeof(run));
	run.id = 4;
	snprintf(run.target, sizeof(run.target), "%s", target);
	return run;
}

static void test_model_file_of_a_run(void **state)
{
	struct result_record recs[3];
	char file[256];
	struct stored_run run;
	(void)state;

	memset(recs, 0, sizeof(recs));
	run = run_on("vssd:/models/p5336.ini@1/1000");
	assert_true(model_sheet_file(&run, NULL, 0, file, sizeof(file)));
	assert_string_equal(file, "/models/p5336.ini");
	/* a job file's filename= escapes the colon */
	run = run_on("vssd\\:models/generic-qlc.ini");
	assert_true(model_sheet_file(&run, NULL, 0, file, sizeof(file)));
	assert_string_equal(file, "models/generic-qlc.ini");
	/* a real target, none, or a model target that names no file: the
	 * results' snapshots decide */
	run = run_on("/dev/nvme0n1");
	assert_false(model_sheet_file(&run, recs, 3, file, sizeof(file)));
	assert_string_equal(file, "");
	run = run_on("vssd:");
	err_clear();
	assert_false(model_sheet_file(&run, NULL, 0, file, sizeof(file)));
	assert_string_equal(err_msg(), "");
	recs[0].drive_before = "{not json";
	recs[1].drive_before = "{\"kind\":\"nvme\",\"path\":\"/dev/nvme0n1\"}";
	recs[2].drive_before = "{\"kind\":\"model\",\"path\":\"vssd:models/a.ini@1/100\"}";
	run = run_on("");
	assert_true(model_sheet_file(&run, recs, 3, file, sizeof(file)));
	assert_string_equal(file, "models/a.ini");
	assert_false(model_sheet_file(&run, recs, 2, file, sizeof(file)));
}

static void test_model_sheet_load(void **state)
{
	char target[TMPDIR_PATH_MAX + 64], note[1200], warning[1200];
	struct stored_run run;
	char *text;
	(void)state;

	write_text(tmp_path("m.ini"), model_ini);
	snprintf(target, sizeof(target), "vssd:%s@1/1000", tmp_path("m.ini"));
	run = run_on(target);
	model_sheet_load(&run, NULL, 0, &text, note, sizeof(note), warning, sizeof(warning));
	assert_non_null(text);
	assert_string_equal(text, model_ini);
	assert_non_null(strstr(note, "spec sheet from the model file "));
	assert_non_null(strstr(note, "m.ini"));
	assert_string_equal(warning, "");
	free(text);

	/* the file is gone: a warning naming the run and the file */
	snprintf(target, sizeof(target), "vssd:%s", tmp_path("gone.ini"));
	run = run_on(target);
	model_sheet_load(&run, NULL, 0, &text, note, sizeof(note), warning, sizeof(warning));
	assert_null(text);
	assert_string_equal(note, "");
	assert_non_null(strstr(warning, "no spec sheet: the model file of run 4 can no longer "
			       "be read ("));
	assert_non_null(strstr(warning, "gone.ini': No such file or directory)"));
	assert_string_equal(err_msg(), "");

	/* a file that is no longer a sheet: the same, with the parser's error */
	write_text(tmp_path("odd.ini"), "[drive]\nmodel = x\n[power]\n");
	snprintf(target, sizeof(target), "vssd:%s", tmp_path("odd.ini"));
	run = run_on(target);
	model_sheet_load(&run, NULL, 0, &text, note, sizeof(note), warning, sizeof(warning));
	assert_null(text);
	assert_non_null(strstr(warning, "odd.ini:3: unknown section [power]"));

	/* not a model: nothing to say */
	run = run_on("/dev/nvme0n1");
	model_sheet_load(&run, NULL, 0, &text, note, sizeof(note), warning, sizeof(warning));
	assert_null(text);
	assert_string_equal(note, "");
	assert_string_equal(warning, "");
}

static int64_t add_run(struct store *s, const char *label, const char *target,
		       const char *model, const char *step)
{
	char json[256];
	struct run_meta meta = { .label = label, .source = "run", .command = "test",
				 .target = target, .started_ms = 1700000000000ull,
				 .drive_json = json };
	struct result_record rec;
	int64_t run_id, step_id = 0, result_id;

	snprintf(json, sizeof(json), "{\"model\":\"%s\",\"serial\":\"\"}", model);
	assert_int_equal(store_run_begin(s, &meta, &run_id), 0);
	if (step)
		assert_int_equal(store_step_begin(s, run_id, 0, step, "sweep", &step_id), 0);
	memset(&rec, 0, sizeof(rec));
	snprintf(rec.job_name, sizeof(rec.job_name), "job");
	snprintf(rec.rw, sizeof(rec.rw), "write");
	rec.step_id = step_id;
	assert_int_equal(store_result_add(s, run_id, &rec, &result_id), 0);
	if (step)
		assert_int_equal(store_step_end(s, step_id, "done"), 0);
	assert_int_equal(store_run_end(s, run_id, false), 0);
	return run_id;
}

static const struct report_group *group(const struct report_selection *sel, const char *label)
{
	for (unsigned i = 0; i < sel->nr_groups; i++)
		if (!strcmp(sel->groups[i].label, label))
			return &sel->groups[i];
	fail_msg("no group '%s'", label);
	return NULL;
}

static void test_select_modelled_drives(void **state)
{
	char model_target[TMPDIR_PATH_MAX + 64], gone_target[TMPDIR_PATH_MAX + 64];
	const char *qlc = "generic QLC model (unfitted) (model, scale 1/1000)";
	struct report_selection sel;
	const struct report_group *g;
	struct store *s;
	int64_t gone_id;
	(void)state;

	write_text(tmp_path("qlc.ini"), model_ini);
	snprintf(model_target, sizeof(model_target), "vssd:%s@1/1000", tmp_path("qlc.ini"));
	snprintf(gone_target, sizeof(gone_target), "vssd:%s@1/1000", tmp_path("deleted.ini"));
	assert_int_equal(store_open(tmp_path("r.db"), &s), 0);
	add_run(s, "m", model_target, qlc, "seq-fill");
	add_run(s, "m", model_target, qlc, NULL);
	add_run(s, "m", "/dev/nvme0n1", "SOLIDIGM SSDPF2NQ307TZ", NULL);
	add_run(s, "stored", model_target, qlc, NULL);
	assert_int_equal(store_spec_set(s, "stored", "[drive]\nmodel = the stored one\n"), 0);
	gone_id = add_run(s, "", gone_target, qlc, NULL);
	add_run(s, "real", "/dev/nvme1n1", "SOLIDIGM SSDPF2NQ307TZ", NULL);

	assert_int_equal(report_select(s, NULL, 0, &sel), 0);
	/* the model's sheet, its note; each drive measured on once */
	g = group(&sel, "m");
	assert_non_null(g->spec_text);
	assert_non_null(strstr(g->spec_text, "capacity_tb = 61.44"));
	assert_non_null(strstr(g->spec_note, "qlc.ini"));
	assert_string_equal(g->spec_warning, "");
	assert_int_equal(g->nr_measured_on, 2);
	assert_string_equal(g->measured_on[0], qlc);
	assert_string_equal(g->measured_on[1], "SOLIDIGM SSDPF2NQ307TZ");
	assert_int_equal(g->nr_steps, 1);
	assert_string_equal(g->steps[0].name, "seq-fill");
	assert_true(g->steps[0].id > 0 && g->recs[0].step_id == g->steps[0].id);
	/* a sheet stored for the label comes first */
	g = group(&sel, "stored");
	assert_string_equal(g->spec_text, "[drive]\nmodel = the stored one\n");
	assert_string_equal(g->spec_note, "");
	/* the model file is gone: a warning, not a failure */
	char label[32];
	snprintf(label, sizeof(label), "run %lld", (long long)gone_id);
	g = group(&sel, label);
	assert_null(g->spec_text);
	assert_non_null(strstr(g->spec_warning, "deleted.ini': No such file or directory"));
	/* a real drive: its model, no sheet, nothing to say */
	g = group(&sel, "real");
	assert_null(g->spec_text);
	assert_int_equal(g->nr_measured_on, 1);
	assert_string_equal(g->spec_note, "");
	assert_string_equal(g->spec_warning, "");
	report_selection_free(&sel);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_file_of_a_run),
		cmocka_unit_test(test_model_sheet_load),
		cmocka_unit_test(test_select_modelled_drives),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
