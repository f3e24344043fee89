/* checkpoint.c - DLIO-style checkpoints as producers of job specs: lays out
 * one checkpoint's files (empty, as torch.save's open(path, "wb") leaves
 * them, and only files drivebench owns: make_empty), builds its jobs
 * (one per rank and file, one phase, group_reporting), runs them through
 * the one runner and merges them into one result per checkpoint. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "device/model_target.h"
#include "device/safety.h"
#include "device/output_gate.h"
#include "device/target.h"
#include "device/write_consent.h"
#include "util/error.h"
#include "util/text.h"
#include "workload/checkpoint.h"
#include "workload/checkpoint_regions.h"

int checkpoint_plan_for(const char *model, uint64_t total_bytes, unsigned ranks,
			struct dlio_plan *plan)
{
	struct dlio_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	memset(plan, 0, sizeof(*plan));
	if (model && model[0]) {
		if (dlio_model_defaults(model, &cfg))
			return -1;
	} else {
		cfg.tp = cfg.pp = cfg.dp = 1;
		snprintf(cfg.model_dtype, sizeof(cfg.model_dtype), "bf16");
		snprintf(cfg.optimizer_dtype, sizeof(cfg.optimizer_dtype), "fp32");
		cfg.explicit_total = total_bytes;
		cfg.explicit_ranks = ranks;
	}
	return dlio_plan(&cfg, plan);
}

int checkpoint_dir_path(const char *dir, unsigned index, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/ckpt-%03u", dir, index);

	if (n < 0 || (size_t)n >= len)
		return err_set("checkpoint directory path too long: '%s'", dir);
	return 0;
}

unsigned checkpoint_count_for_space(uint64_t free_bytes, double fill,
				    uint64_t total_bytes)
{
	double fit;

	if (total_bytes == 0 || fill <= 0)
		return 0;
	fit = (double)free_bytes * fill / (double)total_bytes;
	return fit >= 1e9 ? 1000000000u : (unsigned)fit;
}

int checkpoint_free_bytes(const char *dir, uint64_t *free_bytes)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs))
		return err_set("cannot read the free space of '%s': %s", dir,
			       strerror(errno));
	*free_bytes = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
	return 0;
}

static int consent_add(struct checkpoint_consent *c, const char *path)
{
	char *copy;

	if (c->nr == c->cap) {
		unsigned cap = c->cap ? c->cap * 2 : 16;
		char **grown = realloc(c->paths, cap * sizeof(*grown));

		if (!grown)
			return err_set("out of memory");
		c->paths = grown;
		c->cap = cap;
	}
	copy = strdup(path);
	if (!copy)
		return err_set("out of memory");
	c->paths[c->nr++] = copy;
	return 0;
}

void checkpoint_consent_free(struct checkpoint_consent *c)
{
	for (unsigned i = 0; i < c->nr; i++)
		free(c->paths[i]);
	free(c->paths);
	memset(c, 0, sizeof(*c));
}

static int file_path(const char *ckpt_dir, const struct dlio_file *f, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", ckpt_dir, f->name);

	if (n < 0 || (size_t)n >= len)
		return err_set("checkpoint file path too long: '%s/%s'", ckpt_dir, f->name);
	return 0;
}

static bool consent_has(const struct checkpoint_consent *c, const char *path)
{
	for (unsigned i = 0; i < c->nr; i++)
		if (strcmp(c->paths[i], path) == 0)
			return true;
	return false;
}

/* ids (--destroy-data, this run's consent) name path, as the safety gate
 * reads them. */
static bool ids_name(const char *path, const char *const *ids, unsigned nr_ids)
{
	for (unsigned i = 0; i < nr_ids; i++)
		if (safety_names_file(ids[i], path))
			return true;
	return false;
}

/* A checkpoint file that exists, opened for emptying once it is known to
 * be drivebench's: a regular file, never followed through a link, judged
 * by the safety gate (the refusal worded as the runner words it: the
 * same message, exit 3), and owned on the descriptor opened (its mark
 * read there, or a consent naming the path), the same inode before and
 * after the gate. The descriptor, or -1 with err_msg. */
static int open_owned(const char *path, const char *const *ids, unsigned nr_ids)
{
	struct stat before, opened, after;
	bool owned;
	int fd;

	if (lstat(path, &before))
		return err_set("cannot open '%s': %s", path, strerror(errno));
	if (S_ISLNK(before.st_mode))
		return err_refuse("refusing to write to '%s': it is a symbolic link; a "
				  "checkpoint file is never written through a link", path);
	if (!S_ISREG(before.st_mode))
		return err_refuse("refusing to write to '%s': it is %s, not a regular file",
				  path, text_file_kind(before.st_mode, "not a regular file"));
	/* no O_TRUNC: nothing is cut before the opened file is judged */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return err_refuse("refusing to write to '%s': it is a symbolic link; a "
				  "checkpoint file is never written through a link", path);
	if (fd < 0)
		return err_set("cannot open '%s': %s", path, strerror(errno));
	owned = safety_fd_marked(fd) || ids_name(path, ids, nr_ids);
	if (fstat(fd, &opened) || !S_ISREG(opened.st_mode) ||
	    opened.st_dev != before.st_dev || opened.st_ino != before.st_ino) {
		close(fd);
		return err_refuse("refusing to write to '%s': it changed while it was "
				  "being checked", path);
	}
	if (target_path_consent(NULL, path, ids, nr_ids)) {
		close(fd);
		return -1;
	}
	if (lstat(path, &after) ||
	    after.st_dev != opened.st_dev || after.st_ino != opened.st_ino) {
		close(fd);
		return err_refuse("refusing to write to '%s': it changed while it was "
				  "being checked", path);
	}
	if (!owned) {   /* the gate's answer was for another file, or not ownership */
		close(fd);
		return err_refuse("refusing to truncate '%s': the file opened carries no "
				  "mark of drivebench's and no --destroy-data names it", path);
	}
	return fd;
}

/* open_owned with --destroy-data's names (ids) and this run's consent
 * for a file it created but could not mark. */
static int open_owned_consented(const char *path, const char *const *ids, unsigned nr_ids,
				const struct checkpoint_consent *consent)
{
	const char **gate_ids = calloc(nr_ids + 1, sizeof(*gate_ids));
	int fd;

	if (!gate_ids)
		return err_set("out of memory");
	for (unsigned i = 0; i < nr_ids; i++)
		gate_ids[i] = ids[i];
	if (consent_has(consent, path))
		gate_ids[nr_ids++] = path;
	fd = open_owned(path, gate_ids, nr_ids);
	free(gate_ids);
	return fd;
}

/* One checkpoint file as torch.save's open(path, "wb") leaves it: empty,
 * so that the measured writes append to it and the filesystem allocates
 * its blocks as they come, as torch.save's writes do (the jobs leave an
 * empty file as it is: fallocate=none). A missing file is created and
 * marked as drivebench's (where the filesystem cannot mark it, consent
 * gets its path: this run may write it, every pass). An existing one (an
 * earlier pass's, or a resumed checkpoint's) is truncated to 0, so the
 * filesystem frees its blocks and the writes allocate new ones, as after
 * torch.save's O_TRUNC, but only when it is drivebench's (open_owned): a
 * file drivebench did not create, a link or anything else is refused
 * (exit 3) and left as it is. ids: --destroy-data. */
static int make_empty(const char *path, const char *const *ids, unsigned nr_ids,
		      struct checkpoint_consent *consent)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd >= 0) {
		if (safety_mark_created(fd)) {
			close(fd);
			return err_prefix("cannot create '%s'", path);
		}
		if (!safety_fd_marked(fd) && consent_add(consent, path)) {
			close(fd);
			return -1;
		}
		if (close(fd))
			return err_set("cannot create '%s': %s", path, strerror(errno));
		return 0;
	}
	if (errno != EEXIST)
		return err_set("cannot create '%s': %s", path, strerror(errno));
	fd = open_owned_consented(path, ids, nr_ids, consent);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, 0)) {
		int saved = errno;

		close(fd);
		return err_set("cannot truncate '%s': %s", path, strerror(saved));
	}
	if (close(fd))
		return err_set("cannot truncate '%s': %s", path, strerror(errno));
	return 0;
}

/* Every file of the checkpoint that exists is judged (open_owned) before
 * any is emptied: a foreign file, a link or anything else refuses the
 * checkpoint with drivebench's own files in it still whole (emptying them
 * in plan order had cut those before the foreign one). Each is judged
 * again when it is emptied (make_empty), so a file swapped in between is
 * refused then. */
static int check_all_owned(const struct dlio_plan *plan, const char *ckpt,
			   const char *const *ids, unsigned nr_ids,
			   const struct checkpoint_consent *consent)
{
	char path[4096];
	struct stat st;

	for (unsigned i = 0; i < plan->nr; i++) {
		int fd;

		if (file_path(ckpt, &plan->files[i], path, sizeof(path)))
			return -1;
		if (lstat(path, &st)) {
			if (errno == ENOENT)   /* made new, as pass 1 makes it */
				continue;
			return err_set("cannot open '%s': %s", path, strerror(errno));
		}
		fd = open_owned_consented(path, ids, nr_ids, consent);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* The checkpoint's directories, then each file: emptied (make_empty;
 * consent given) or, without consent, written whole (target_layout_file). */
static int lay_out(const struct dlio_plan *plan, const char *dir, unsigned index,
		   const char *const *ids, unsigned nr_ids,
		   struct checkpoint_consent *consent, const volatile sig_atomic_t *stop)
{
	char ckpt[4096], path[4096];

	if (checkpoint_dir_path(dir, index, ckpt, sizeof(ckpt)))
		return -1;
	if (mkdir(ckpt, 0755) && errno != EEXIST)
		return err_set("cannot create '%s': %s", ckpt, strerror(errno));
	if (output_gate_check("checkpoint directory", ckpt, OUTPUT_DIRECTORY))
		return -1;
	if (consent && check_all_owned(plan, ckpt, ids, nr_ids, consent))
		return -1;
	for (unsigned i = 0; i < plan->nr; i++) {
		const struct dlio_file *f = &plan->files[i];
		char *slash;

		if (file_path(ckpt, f, path, sizeof(path)))
			return -1;
		/* names may hold one level of subdirectory */
		slash = strrchr(path, '/');
		if (slash && slash > path + strlen(ckpt)) {
			*slash = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				return err_set("cannot create '%s': %s", path, strerror(errno));
			/* one that was there may lead elsewhere (a link into /dev) */
			if (output_gate_check("checkpoint directory", path, OUTPUT_DIRECTORY))
				return -1;
			*slash = '/';
		}
		if (consent ? make_empty(path, ids, nr_ids, consent) :
			      target_layout_file(path, f->bytes, stop) < 0)
			return -1;
	}
	return 0;
}

int checkpoint_prepare(const struct dlio_plan *plan, const char *dir, unsigned index,
		       const char *const *ids, unsigned nr_ids,
		       struct checkpoint_consent *consent)
{
	return lay_out(plan, dir, index, ids, nr_ids, consent, NULL);
}

int checkpoint_restore(const struct dlio_plan *plan, const char *dir, unsigned index,
		       const volatile sig_atomic_t *stop)
{
	return lay_out(plan, dir, index, NULL, 0, NULL, stop);
}

static int add_job(struct job_list *out, const struct checkpoint_write *w,
		   const char *path, const char *name, uint64_t offset,
		   uint64_t bytes, uint64_t bs)
{
	struct job_spec s;

	job_spec_defaults(&s);
	snprintf(s.name, sizeof(s.name), "%s", name);
	job_spec_set_path(s.filename, sizeof(s.filename), path);
	snprintf(s.ioengine, sizeof(s.ioengine), "psync");
	snprintf(s.source, sizeof(s.source), "checkpoint");
	s.rw = w->read ? RW_READ : RW_WRITE;
	s.bs[DIR_READ] = s.bs[DIR_WRITE] = bs;
	s.offset = offset;
	s.size = bytes;
	s.iodepth = 1;
	s.direct = false;              /* torch.save writes through the page cache */
	s.end_fsync = !w->read && w->fsync;
	s.group_reporting = true;
	/* a file is empty before its writes (checkpoint_prepare): they extend
	 * it, nothing is allocated first */
	if (!w->device)
		s.files.fallocate = FALLOCATE_NONE;
	snprintf(s.options_text, sizeof(s.options_text),
		 "rw=%s\nbs=%llu\noffset=%llu\nsize=%llu\nioengine=psync\ndirect=0\nend_fsync=%d\n%s",
		 w->read ? "read" : "write", (unsigned long long)bs,
		 (unsigned long long)offset, (unsigned long long)bytes,
		 s.end_fsync ? 1 : 0, w->device ? "" : "fallocate=none\n");
	/* a modelled drive is reached through its engine only */
	if (model_target_is(path) && model_target_aim(&s, path))
		return -1;
	if (job_spec_validate(&s))
		return -1;
	return job_list_append(out, &s) ? err_set("out of memory") : 0;
}

int checkpoint_jobs(const struct dlio_plan *plan, const struct checkpoint_write *w,
		    unsigned index, struct job_list *out)
{
	uint64_t bs = w->bs ? w->bs : CHECKPOINT_DEFAULT_BS;
	char ckpt[4096], path[4096], name[JOB_NAME_MAX];

	uint64_t at = 0;

	if (!plan->nr)
		return err_set("the checkpoint plan has no files");
	if (w->device) {
		at = checkpoint_region_offset(plan, w->base, index, 0);
		if (snprintf(path, sizeof(path), "%s", w->device) >= (int)sizeof(path))
			return err_set("device path too long: '%s'", w->device);
	} else if (checkpoint_dir_path(w->dir, index, ckpt, sizeof(ckpt))) {
		return -1;
	}
	for (unsigned i = 0; i < plan->nr; i++) {
		const struct dlio_file *f = &plan->files[i];
		uint64_t whole = f->bytes / bs * bs, tail = f->bytes - whole;
		/* a region: the whole requests, then the tail after them; a
		 * file: the tail first, at its start, so the whole requests
		 * append to it as torch.save's writes do (a tail written at
		 * the end at the start would make the file its full size at
		 * once, the rest writes into a hole) */
		uint64_t body = w->device ? at : tail, end = w->device ? at + whole : 0;

		/* the next file's region (checkpoint_regions.c's layout) */
		if (w->device)
			at += checkpoint_region_len(f->bytes);
		if (!f->bytes)
			continue;
		if (!w->device && file_path(ckpt, f, path, sizeof(path)))
			return -1;
		snprintf(name, sizeof(name), "rank%u:%.100s", f->rank, f->name);
		if (whole && add_job(out, w, path, name, body, whole, bs))
			return -1;
		/* the tail as one smaller request, so exactly f->bytes move */
		snprintf(name, sizeof(name), "rank%u:%.100s+tail", f->rank, f->name);
		if (tail && add_job(out, w, path, name, end, tail, tail))
			return -1;
	}
	if (!out->nr)
		return err_set("the checkpoint plan has no bytes to write");
	return 0;
}

/* Each job's DLIO rank, from the "rank%u:" its name starts with
 * (checkpoint_jobs names them so). */
static int job_shards(const struct job_list *jobs, unsigned **out)
{
	*out = calloc(jobs->nr ? jobs->nr : 1, sizeof(**out));
	if (!*out)
		return err_set("out of memory");
	for (unsigned j = 0; j < jobs->nr; j++)
		if (sscanf(jobs->jobs[j].name, "rank%u:", &(*out)[j]) != 1)
			return err_set("internal error: checkpoint job '%s' names no rank",
				       jobs->jobs[j].name);
	return 0;
}

int checkpoint_one_prepare(const struct dlio_plan *plan, const struct checkpoint_write *w,
			   unsigned pass, unsigned index, const struct run_options *opt,
			   struct checkpoint_consent *consent, struct checkpoint_one *one,
			   enum run_failure *why)
{
	char ckpt[4096];
	size_t len;

	memset(one, 0, sizeof(*one));
	one->opt = *opt;
	*why = RUN_FAILED_INPUT;
	if (w->read || w->device)
		goto jobs;
	/* every pass that writes: each file emptied first */
	if (checkpoint_prepare(plan, w->dir, index, opt->destroy_ids, opt->nr_destroy_ids,
			       consent)) {
		if (err_refused())
			*why = RUN_FAILED_UNSAFE;
		return -1;
	}
	if (checkpoint_dir_path(w->dir, index, ckpt, sizeof(ckpt)))
		return -1;
	len = strlen(ckpt);
	/* the run's consent for this checkpoint's files only: the gate asks
	 * every ID of the list for every file */
	if (consent->nr) {
		one->ids = calloc(opt->nr_destroy_ids + consent->nr, sizeof(*one->ids));
		if (!one->ids)
			return err_set("out of memory");
		for (unsigned i = 0; i < opt->nr_destroy_ids; i++)
			one->ids[i] = opt->destroy_ids[i];
		one->opt.destroy_ids = one->ids;
		one->opt.nr_destroy_ids = opt->nr_destroy_ids;
		for (unsigned i = 0; i < consent->nr; i++)
			if (!strncmp(consent->paths[i], ckpt, len) && consent->paths[i][len] == '/')
				one->ids[one->opt.nr_destroy_ids++] = consent->paths[i];
	}
jobs:
	if (checkpoint_jobs(plan, w, index, &one->jobs) || job_shards(&one->jobs, &one->shards))
		return -1;
	checkpoint_result_name(pass, index, one->name, sizeof(one->name));
	return 0;
}

void checkpoint_one_free(struct checkpoint_one *one)
{
	free(one->ids);
	free(one->shards);
	job_list_free(&one->jobs);
	memset(one, 0, sizeof(*one));
}

void checkpoint_result_name(unsigned pass, unsigned index, char *out, size_t len)
{
	if (pass)
		snprintf(out, len, "pass%u-ckpt%03u", pass, index);
	else
		snprintf(out, len, "read-ckpt%03u", index);
}
