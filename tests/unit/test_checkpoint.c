/* test_checkpoint.c - checkpoint jobs, files and naming: the jobs of one
 * checkpoint (tail jobs, one phase, fsync), sparse layout that later passes
 * empty again (same inodes, blocks freed) only for drivebench's own files
 * (a foreign file, a link, a FIFO refused and left alone), the fit count, result names, a real tiny checkpoint run whose
 * merged result carries exactly the planned bytes, region mode (a raw
 * device's regions, their fit and the recorded layout), and the filesystem
 * mode's record, checks and restored files. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/error.h"
#include "record/record_run.h"
#include "workload/checkpoint.h"
#include "workload/checkpoint_fs.h"
#include "workload/checkpoint_regions.h"
#include "helpers/tmpdir.h"

/* two ranks, two files each; one size not a multiple of 1 MiB */
static struct dlio_file files[] = {
	{ 0, DLIO_MODEL, "r0_model.pt", 3 * 1048576 + 5 },
	{ 0, DLIO_OPTIMIZER, "r0_optim.pt", 2 * 1048576 },
	{ 1, DLIO_MODEL, "r1_model.pt", 4000 },
	{ 1, DLIO_OPTIMIZER, "r1_optim.pt", 1048576 },
};

static struct dlio_plan test_plan(void)
{
	struct dlio_plan p = { .files = files, .nr = 4, .ranks = 2 };

	for (unsigned i = 0; i < p.nr; i++)
		p.total_bytes += files[i].bytes;
	return p;
}

static void test_dir_path(void **state)
{
	char out[64], longdir[200];

	(void)state;
	assert_int_equal(checkpoint_dir_path("/x", 3, out, sizeof(out)), 0);
	assert_string_equal(out, "/x/ckpt-003");
	assert_int_equal(checkpoint_dir_path("/x", 1234, out, sizeof(out)), 0);
	assert_string_equal(out, "/x/ckpt-1234");
	memset(longdir, 'a', sizeof(longdir) - 1);
	longdir[sizeof(longdir) - 1] = '\0';
	assert_int_equal(checkpoint_dir_path(longdir, 1, out, sizeof(out)), -1);
	assert_non_null(strstr(err_msg(), "too long"));
}

static void test_count_for_space(void **state)
{
	(void)state;
	assert_int_equal(checkpoint_count_for_space(100, 0.9, 30), 3);
	assert_int_equal(checkpoint_count_for_space(100, 1.0, 25), 4);
	assert_int_equal(checkpoint_count_for_space(100, 0.9, 91), 0);
	assert_int_equal(checkpoint_count_for_space(100, 0.9, 0), 0);
	assert_int_equal(checkpoint_count_for_space(100, 0, 10), 0);
	/* the review: 15 checkpoints of 1,636 GB on a 30.72 TB drive at 0.9 x
	 * the raw capacity would be 16; the free space decides */
	assert_int_equal(checkpoint_count_for_space(30720000000000ull, 0.8,
						    1636000000000ull), 15);
}

static void test_free_bytes(void **state)
{
	uint64_t free_bytes = 0;

	(void)state;
	assert_int_equal(checkpoint_free_bytes(tmp_dir(), &free_bytes), 0);
	assert_true(free_bytes > 0);
	assert_int_equal(checkpoint_free_bytes("/nonexistent/dir", &free_bytes), -1);
	assert_non_null(strstr(err_msg(), "/nonexistent/dir"));
}

static void test_names(void **state)
{
	char name[32];

	(void)state;
	checkpoint_result_name(2, 3, name, sizeof(name));
	assert_string_equal(name, "pass2-ckpt003");
	checkpoint_result_name(0, 12, name, sizeof(name));
	assert_string_equal(name, "read-ckpt012");
	checkpoint_result_name(1, 1234, name, sizeof(name));
	assert_string_equal(name, "pass1-ckpt1234");
}

static void test_jobs(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_write w = { .dir = "/d", .fsync = true };
	struct job_list jobs = { 0 };
	uint64_t total = 0;

	(void)state;
	assert_int_equal(checkpoint_jobs(&plan, &w, 7, &jobs), 0);
	/* r0_model: whole + tail; r0_optim: whole; r1_model: tail only
	 * (4000 < 1 MiB); r1_optim: whole. A file's tail is its first
	 * bytes, so that the whole requests append to the file after it */
	assert_int_equal(jobs.nr, 5);
	assert_string_equal(jobs.jobs[0].filename, "/d/ckpt-007/r0_model.pt");
	assert_int_equal(jobs.jobs[0].size, 3 * 1048576);
	assert_int_equal(jobs.jobs[0].offset, 5);
	assert_int_equal(jobs.jobs[0].bs[DIR_WRITE], 1048576);
	assert_string_equal(jobs.jobs[1].filename, "/d/ckpt-007/r0_model.pt");
	assert_int_equal(jobs.jobs[1].offset, 0);
	assert_int_equal(jobs.jobs[1].size, 5);
	assert_int_equal(jobs.jobs[1].bs[DIR_WRITE], 5);
	assert_int_equal(jobs.jobs[2].offset, 0);
	assert_int_equal(jobs.jobs[3].offset, 0);
	assert_int_equal(jobs.jobs[3].size, 4000);
	assert_int_equal(jobs.jobs[3].bs[DIR_WRITE], 4000);
	for (unsigned i = 0; i < jobs.nr; i++) {
		const struct job_spec *s = &jobs.jobs[i];

		total += s->size;
		assert_int_equal(s->rw, RW_WRITE);
		assert_true(s->end_fsync);
		assert_false(s->direct);
		assert_true(s->group_reporting);
		assert_false(s->stonewall);   /* one phase: one start barrier */
		assert_int_equal(s->numjobs, 1);
		/* the file starts empty: nothing allocated before the writes */
		assert_int_equal(s->files.fallocate, FALLOCATE_NONE);
		assert_non_null(strstr(s->options_text, "fallocate=none\n"));
	}
	assert_int_equal(total, plan.total_bytes);
	job_list_free(&jobs);

	/* read-back and --no-fsync, another block size */
	w.read = true;
	w.bs = 2 * 1048576;
	assert_int_equal(checkpoint_jobs(&plan, &w, 1, &jobs), 0);
	assert_int_equal(jobs.nr, 5);
	assert_int_equal(jobs.jobs[0].bs[DIR_READ], 2 * 1048576);
	assert_int_equal(jobs.jobs[0].size, 2 * 1048576);
	assert_int_equal(jobs.jobs[1].size, 1048576 + 5);
	for (unsigned i = 0; i < jobs.nr; i++) {
		assert_int_equal(jobs.jobs[i].rw, RW_READ);
		assert_false(jobs.jobs[i].end_fsync);
	}
	job_list_free(&jobs);

	w.read = false;
	w.fsync = false;
	assert_int_equal(checkpoint_jobs(&plan, &w, 1, &jobs), 0);
	assert_false(jobs.jobs[0].end_fsync);
	job_list_free(&jobs);

	plan.nr = 0;
	assert_int_equal(checkpoint_jobs(&plan, &w, 1, &jobs), -1);
	assert_non_null(strstr(err_msg(), "no files"));
	job_list_free(&jobs);
}

/* region mode: each file from a 4 KiB boundary, checkpoints one after
 * another from the base; the jobs write the same bytes at those offsets */
static void test_regions(void **state)
{
	struct dlio_plan plan = test_plan();
	/* 3 MiB + 5 -> 3 MiB + 4 KiB; 2 MiB; 4000 -> 4 KiB; 1 MiB */
	uint64_t span = 6 * 1048576 + 8192, base = 1 << 20;
	struct checkpoint_write w = { .device = "/dev/loop9", .base = base, .fsync = true };
	struct job_list jobs = { 0 };
	char longdev[5000];
	uint64_t total = 0;

	(void)state;
	assert_int_equal(checkpoint_span(&plan), span);
	assert_int_equal(checkpoint_region_offset(&plan, base, 1, 0), base);
	assert_int_equal(checkpoint_region_offset(&plan, base, 1, 1), base + 3 * 1048576 + 4096);
	assert_int_equal(checkpoint_region_offset(&plan, base, 3, 2), base + 2 * span + 5 * 1048576 + 4096);
	assert_int_equal(checkpoint_jobs(&plan, &w, 2, &jobs), 0);
	assert_int_equal(jobs.nr, 5);
	for (unsigned i = 0; i < jobs.nr; i++) {
		assert_string_equal(jobs.jobs[i].filename, "/dev/loop9");
		assert_true(jobs.jobs[i].end_fsync);   /* the device's fsync */
		total += jobs.jobs[i].size;
	}
	assert_int_equal(jobs.jobs[0].offset, base + span);
	assert_int_equal(jobs.jobs[1].offset, base + span + 3 * 1048576);   /* the tail */
	assert_int_equal(jobs.jobs[1].size, 5);
	assert_int_equal(jobs.jobs[2].offset, base + span + 3 * 1048576 + 4096);
	assert_int_equal(jobs.jobs[3].offset, base + span + 5 * 1048576 + 4096);
	assert_int_equal(jobs.jobs[4].offset, base + span + 5 * 1048576 + 8192);
	/* regions are overwritten as before: the tail after the whole
	 * requests, no fallocate= (a device has no file to lay out) */
	for (unsigned i = 0; i < jobs.nr; i++)
		assert_null(strstr(jobs.jobs[i].options_text, "fallocate"));
	assert_int_equal(total, plan.total_bytes);
	job_list_free(&jobs);

	/* the fit: exactly enough, one byte short, an overflow */
	assert_int_equal(checkpoint_regions_fit(&plan, 3, 3 * span, "/dev/loop9"), 0);
	assert_int_equal(checkpoint_regions_fit(&plan, 3, 3 * span - 1, "/dev/loop9"), -1);
	assert_non_null(strstr(err_msg(), "need 18898944 bytes; 18898943 are available"));
	assert_non_null(strstr(err_msg(), "/dev/loop9"));
	plan.files[0].bytes = UINT64_MAX / 2;
	assert_int_equal(checkpoint_regions_fit(&plan, 4, UINT64_MAX, "/dev/loop9"), -1);
	plan.files[0].bytes = 3 * 1048576 + 5;

	memset(longdev, 'd', sizeof(longdev) - 1);
	longdev[sizeof(longdev) - 1] = '\0';
	w.device = longdev;
	assert_int_equal(checkpoint_jobs(&plan, &w, 1, &jobs), -1);
	assert_non_null(strstr(err_msg(), "too long"));
	job_list_free(&jobs);
}

/* the step detail: the mode, and a device's regions */
static void test_detail(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_write w = { .device = "/dev/loop9", .base = 4096 };
	cJSON *j = checkpoint_detail_json(&plan, &w, 2), *regions, *r;
	char text[256];

	(void)state;
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "regions");
	assert_string_equal(cJSON_GetObjectItem(j, "device")->valuestring, "/dev/loop9");
	assert_int_equal(cJSON_GetObjectItem(j, "checkpoints")->valuedouble, 2);
	assert_int_equal(cJSON_GetObjectItem(j, "offset")->valuedouble, 4096);
	assert_int_equal(cJSON_GetObjectItem(j, "bytes_needed")->valuedouble,
			 2 * checkpoint_span(&plan));
	regions = cJSON_GetObjectItem(j, "regions");
	assert_int_equal(cJSON_GetArraySize(regions), 8);
	r = cJSON_GetArrayItem(regions, 6);
	assert_int_equal(cJSON_GetObjectItem(r, "checkpoint")->valuedouble, 2);
	assert_int_equal(cJSON_GetObjectItem(r, "rank")->valuedouble, 1);
	assert_string_equal(cJSON_GetObjectItem(r, "file")->valuestring, "r1_model.pt");
	assert_int_equal(cJSON_GetObjectItem(r, "offset")->valuedouble,
			 checkpoint_region_offset(&plan, 4096, 2, 2));
	assert_int_equal(cJSON_GetObjectItem(r, "length")->valuedouble, 4000);
	cJSON_Delete(j);
	checkpoint_mode_text(&plan, &w, 2, 1 << 30, text, sizeof(text));
	assert_non_null(strstr(text, "2 checkpoints as regions of /dev/loop9 from offset 4096"));

	w.device = NULL;
	w.dir = "/d";
	j = checkpoint_detail_json(&plan, &w, 1);
	assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "files");
	assert_string_equal(cJSON_GetObjectItem(j, "directory")->valuestring, "/d");
	assert_null(cJSON_GetObjectItem(j, "regions"));
	cJSON_Delete(j);
	checkpoint_mode_text(&plan, &w, 1, 0, text, sizeof(text));
	assert_string_equal(text, "1 checkpoint as files in /d");
}

/* checkpoint_fs: the mode recorded, the refusals that need no device */
static void test_fs_mode(void **state)
{
	struct dlio_plan plan = test_plan();
	struct fs_setup fs = { .device = "/dev/loop9", .type = "xfs",
			       .mkfs = "mkfs.xfs -f -q /dev/loop9",
			       .dir = "/tmp/drivebench-xfs.abcdef", .mounted = true };
	struct checkpoint_write w = { .fs = &fs, .dir = fs.dir };
	cJSON *j = checkpoint_detail_json(&plan, &w, 3);
	char text[512];

	(void)state;
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "xfs");
	assert_string_equal(cJSON_GetObjectItem(j, "device")->valuestring, "/dev/loop9");
	assert_string_equal(cJSON_GetObjectItem(j, "mkfs")->valuestring, "mkfs.xfs -f -q /dev/loop9");
	assert_string_equal(cJSON_GetObjectItem(j, "mount_options")->valuestring, "nosuid,nodev");
	assert_string_equal(cJSON_GetObjectItem(j, "directory")->valuestring, fs.dir);
	assert_int_equal(cJSON_GetObjectItem(j, "checkpoints")->valuedouble, 3);
	assert_null(cJSON_GetObjectItem(j, "regions"));
	cJSON_Delete(j);
	checkpoint_mode_text(&plan, &w, 3, 1000, text, sizeof(text));
	assert_string_equal(text, "3 checkpoints as files on xfs made on /dev/loop9 "
			    "(mkfs.xfs -f -q /dev/loop9), mounted on /tmp/drivebench-xfs.abcdef "
			    "(nosuid,nodev), 1000 bytes free");

	assert_true(fs_setup_known("xfs") && fs_setup_known("ext4"));
	assert_false(fs_setup_known("btrfs") || fs_setup_known(NULL));
	assert_int_equal(checkpoint_fs_check("checkpoint_fs", "btrfs", "/dev/null"), -1);
	assert_string_equal(err_msg(), "checkpoint_fs = btrfs: unknown filesystem (supported: xfs, ext4)");
	assert_int_equal(checkpoint_fs_check("--checkpoint-fs", "xfs", "vssd:m.vssd"), -1);
	assert_non_null(strstr(err_msg(), "--checkpoint-fs xfs: 'vssd:m.vssd' is a model target"));
	assert_int_equal(checkpoint_fs_check("checkpoint_fs", "xfs", tmp_dir()), -1);
	assert_non_null(strstr(err_msg(), "is not a block device"));
	assert_int_equal(checkpoint_fs_check("checkpoint_fs", "xfs", "/nonexistent/x"), -1);
	assert_non_null(strstr(err_msg(), "is not a block device"));
	/* a PATH without the program: the package is named */
	{
		char *saved = strdup(getenv("PATH") ? getenv("PATH") : "");
		char program[256];

		setenv("PATH", "/nonexistent", 1);
		assert_int_equal(fs_setup_tool("xfs", program, sizeof(program)), -1);
		assert_string_equal(err_msg(), "mkfs.xfs is not installed (install the package xfsprogs)");
		assert_int_equal(fs_setup_tool("ext4", program, sizeof(program)), -1);
		assert_non_null(strstr(err_msg(), "e2fsprogs"));
		setenv("PATH", saved, 1);
		free(saved);
	}
}

/* a resume's new filesystem: the kept checkpoint's files written whole */
static void test_restore(void **state)
{
	struct dlio_plan plan = test_plan();
	char path[256];
	struct stat st;

	(void)state;
	assert_int_equal(checkpoint_restore(&plan, tmp_dir(), 2, NULL), 0);
	for (unsigned i = 0; i < plan.nr; i++) {
		snprintf(path, sizeof(path), "%s/ckpt-002/%s", tmp_dir(), files[i].name);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, files[i].bytes);
		assert_true((uint64_t)st.st_blocks * 512 >= files[i].bytes);
	}
	assert_int_equal(checkpoint_restore(&plan, "/nonexistent/dir", 1, NULL), -1);
	assert_non_null(strstr(err_msg(), "cannot create"));
}

/* a file's bytes from its start (up to len), or -1 */
static ssize_t head_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return -1;
	got = fread(buf, 1, len, f);
	fclose(f);
	return (ssize_t)got;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void test_prepare(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_consent consent = { 0 };
	char path[256], buf[4096];
	struct stat st;
	ino_t first;
	int fd;

	(void)state;
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 1, NULL, 0, &consent), 0);
	for (unsigned i = 0; i < plan.nr; i++) {
		snprintf(path, sizeof(path), "%s/ckpt-001/%s", tmp_dir(), files[i].name);
		assert_int_equal(stat(path, &st), 0);
		/* empty, as torch.save's open(path, "wb"): the writes append */
		assert_int_equal(st.st_size, 0);
		assert_int_equal(st.st_blocks, 0);
	}
	snprintf(path, sizeof(path), "%s/ckpt-001/%s", tmp_dir(), files[0].name);
	assert_int_equal(stat(path, &st), 0);
	first = st.st_ino;
	/* written (as pass 1 writes it), then a later pass: the same file,
	 * emptied (its blocks freed), as torch.save's O_TRUNC */
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(pwrite(fd, buf, sizeof(buf), (off_t)i * sizeof(buf)), sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= 256 * sizeof(buf));
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 1, NULL, 0, &consent), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_ino, first);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(st.st_blocks, 0);
	checkpoint_consent_free(&consent);

	assert_int_equal(checkpoint_prepare(&plan, "/nonexistent/dir", 1, NULL, 0, &consent), -1);
	assert_non_null(strstr(err_msg(), "cannot create"));
	checkpoint_consent_free(&consent);
}

/* An existing file that is not drivebench's is refused (exit 3, the
 * gate's message) and left as it was; --destroy-data or this run's
 * consent naming it lets it be emptied. */
static void test_prepare_refuses(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_consent consent = { 0 };
	char dir[160], path[512], link_path[512], target[512], buf[64];
	const char *ids[1];
	struct stat st;

	(void)state;
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), 0);
	snprintf(dir, sizeof(dir), "%s/ckpt-004", tmp_dir());
	/* a foreign file in the place of one of drivebench's */
	snprintf(path, sizeof(path), "%s/%s", dir, files[1].name);
	assert_int_equal(unlink(path), 0);
	write_file(path, "someone's data");
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), -1);
	assert_true(err_refused());
	assert_non_null(strstr(err_msg(), "refusing to write to"));
	assert_non_null(strstr(err_msg(), "was not created by drivebench"));
	assert_non_null(strstr(err_msg(), "--destroy-data="));
	assert_int_equal(head_of(path, buf, sizeof(buf)), 14);
	assert_int_equal(memcmp(buf, "someone's data", 14), 0);
	/* the consent of this run (a file it created, not markable) */
	assert_int_equal(stat(path, &st), 0);
	consent.paths = calloc(1, sizeof(*consent.paths));
	assert_non_null(consent.paths);
	consent.paths[0] = strdup(path);
	consent.nr = consent.cap = 1;
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	checkpoint_consent_free(&consent);
	/* --destroy-data naming it, spelled otherwise */
	write_file(path, "someone's data");
	snprintf(target, sizeof(target), "%s/./%s", dir, files[1].name);
	ids[0] = target;
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, ids, 1, &consent), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	/* emptied, it is still not drivebench's (not marked): made anew */
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), -1);
	assert_true(err_refused());
	assert_int_equal(unlink(path), 0);
	/* a symbolic link in a file's place: refused, its target untouched */
	snprintf(target, sizeof(target), "%s/elsewhere.dat", tmp_dir());
	write_file(target, "someone's data");
	snprintf(link_path, sizeof(link_path), "%s/%s", dir, files[2].name);
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(symlink(target, link_path), 0);
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), -1);
	assert_true(err_refused());
	assert_non_null(strstr(err_msg(), "symbolic link"));
	assert_int_equal(head_of(target, buf, sizeof(buf)), 14);
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* even a link to a file drivebench made */
	assert_int_equal(unlink(link_path), 0);
	snprintf(target, sizeof(target), "%s/%s", dir, files[0].name);
	assert_int_equal(symlink(target, link_path), 0);
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), -1);
	assert_true(err_refused());
	/* a FIFO: refused without waiting for a reader */
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(mkfifo(link_path, 0644), 0);
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), -1);
	assert_true(err_refused());
	assert_non_null(strstr(err_msg(), "a FIFO, not a regular file"));
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 4, NULL, 0, &consent), 0);
	checkpoint_consent_free(&consent);
}

static void test_run(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_write w = { .dir = tmp_dir(), .fsync = true };
	struct checkpoint_consent consent = { 0 };
	struct job_list jobs = { 0 };
	struct record_place place = { .merged_name = "pass1-ckpt002" };
	struct recorded rec;
	const struct job_result *merged;
	volatile sig_atomic_t stop = 0;
	struct run_options opt = { .stop = &stop };
	char path[256];
	struct stat st;

	(void)state;
	assert_int_equal(checkpoint_prepare(&plan, tmp_dir(), 2, NULL, 0, &consent), 0);
	opt.destroy_ids = (const char *const *)consent.paths;
	opt.nr_destroy_ids = consent.nr;
	assert_int_equal(checkpoint_jobs(&plan, &w, 2, &jobs), 0);
	/* the record path merges a checkpoint's files into one result */
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_int_equal(rec.nr, 1);
	merged = &rec.entries[0];
	assert_string_equal(merged->name, "pass1-ckpt002");
	assert_int_equal(merged->dir[DIR_WRITE].bytes, plan.total_bytes);
	assert_int_equal(merged->dir[DIR_READ].bytes, 0);
	assert_int_equal(merged->nr_merged, jobs.nr);
	assert_true(merged->runtime_ns > 0);
	assert_false(merged->partial);
	/* the longest job's runtime: no job ran longer than the merged one */
	for (unsigned i = 0; i < rec.out.nr; i++)
		assert_true(rec.out.results[i].runtime_ns <= merged->runtime_ns);
	assert_false(rec.stored);   /* no store given */
	recorded_free(&rec);
	/* the files are written in full now */
	snprintf(path, sizeof(path), "%s/ckpt-002/%s", tmp_dir(), files[0].name);
	assert_int_equal(stat(path, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= files[0].bytes);
	assert_int_equal(st.st_size, files[0].bytes);

	/* stopped before the start: nothing reported, nothing to store;
	 * without store_partial (the suite) it counts as interrupted */
	stop = 1;
	place.store_partial = true;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_int_equal(rec.nr, 0);
	assert_false(rec.interrupted);
	recorded_free(&rec);
	place.store_partial = false;
	assert_int_equal(record_run(&jobs, &opt, &place, &rec), 0);
	assert_true(rec.interrupted);
	recorded_free(&rec);
	job_list_free(&jobs);
	checkpoint_consent_free(&consent);
}

static void test_plan_for(void **state)
{
	struct dlio_plan plan;

	(void)state;
	assert_int_equal(checkpoint_plan_for(NULL, 8000000, 4, &plan), 0);
	assert_int_equal(plan.total_bytes, 8000000);
	assert_int_equal(plan.ranks, 4);
	dlio_plan_free(&plan);
	assert_int_equal(checkpoint_plan_for("llama3-8b", 0, 0, &plan), 0);
	assert_true(plan.total_bytes > 100000000000ull);
	dlio_plan_free(&plan);
	assert_int_equal(checkpoint_plan_for("no-such-model", 0, 0, &plan), -1);
	assert_int_equal(checkpoint_plan_for(NULL, 0, 4, &plan), -1);
}

/* one checkpoint start to end: pass 1 lays out and writes, a later pass
 * truncates and writes the same files, the result is named after pass and
 * index */
static void test_one_run(void **state)
{
	struct dlio_plan plan = test_plan();
	struct checkpoint_write w = { .dir = tmp_dir(), .fsync = true };
	volatile sig_atomic_t stop = 0;
	struct run_options opt = { .stop = &stop };
	struct checkpoint_consent consent = { 0 };
	struct checkpoint_one one;
	struct record_place place = { .merged_name = one.name };
	struct recorded rec;
	enum run_failure why;
	char path[256];
	struct stat st;
	ino_t first;

	(void)state;
	assert_int_equal(checkpoint_one_prepare(&plan, &w, 1, 3, &opt, &consent, &one, &why), 0);
	assert_string_equal(one.name, "pass1-ckpt003");
	assert_int_equal(record_run(&one.jobs, &one.opt, &place, &rec), 0);
	assert_string_equal(rec.entries[0].name, "pass1-ckpt003");
	assert_int_equal(rec.entries[0].dir[DIR_WRITE].bytes, plan.total_bytes);
	recorded_free(&rec);
	checkpoint_one_free(&one);
	snprintf(path, sizeof(path), "%s/ckpt-003/%s", tmp_dir(), files[1].name);
	assert_int_equal(stat(path, &st), 0);
	first = st.st_ino;
	assert_int_equal(checkpoint_one_prepare(&plan, &w, 2, 3, &opt, &consent, &one, &why), 0);
	assert_int_equal(record_run(&one.jobs, &one.opt, &place, &rec), 0);
	assert_string_equal(rec.entries[0].name, "pass2-ckpt003");
	assert_int_equal(rec.entries[0].dir[DIR_WRITE].bytes, plan.total_bytes);
	recorded_free(&rec);
	checkpoint_one_free(&one);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_ino, first);
	/* read-back */
	w.read = true;
	assert_int_equal(checkpoint_one_prepare(&plan, &w, 0, 3, &opt, &consent, &one, &why), 0);
	assert_int_equal(record_run(&one.jobs, &one.opt, &place, &rec), 0);
	assert_string_equal(rec.entries[0].name, "read-ckpt003");
	assert_int_equal(rec.entries[0].dir[DIR_READ].bytes, plan.total_bytes);
	assert_int_equal(rec.entries[0].dir[DIR_WRITE].bytes, 0);
	recorded_free(&rec);
	checkpoint_one_free(&one);
	/* a later pass of a checkpoint whose files are missing (a resume on
	 * a directory emptied since): made as torch.save makes them */
	w.read = false;
	assert_int_equal(checkpoint_one_prepare(&plan, &w, 2, 9, &opt, &consent, &one, &why), 0);
	assert_int_equal(record_run(&one.jobs, &one.opt, &place, &rec), 0);
	assert_int_equal(rec.entries[0].dir[DIR_WRITE].bytes, plan.total_bytes);
	recorded_free(&rec);
	checkpoint_one_free(&one);
	/* a foreign file: refused before any job, as unsafe */
	snprintf(path, sizeof(path), "%s/ckpt-009/%s", tmp_dir(), files[0].name);
	assert_int_equal(unlink(path), 0);
	write_file(path, "someone's data");
	assert_int_equal(checkpoint_one_prepare(&plan, &w, 3, 9, &opt, &consent, &one, &why), -1);
	assert_int_equal(why, RUN_FAILED_UNSAFE);
	checkpoint_one_free(&one);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 14);
	checkpoint_consent_free(&consent);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_path),
		cmocka_unit_test(test_count_for_space),
		cmocka_unit_test(test_free_bytes),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_detail),
		cmocka_unit_test(test_fs_mode),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_prepare_refuses),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_plan_for),
		cmocka_unit_test(test_one_run),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
