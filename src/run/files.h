/* files.h - private to src/run/: a job clone with several files (fio's
 * nrfiles, filename=a:b) or with a file-ops engine (filecreate, ...).
 * The runner prepares the set before the run (fileset.c: names, the
 * write gate for every file, sizes, layout); the worker opens it and each
 * I/O takes its file and offset from files_pick (files.c), fio's
 * get_next_file. A clone with one file and an I/O engine has no set
 * (worker->files is NULL) and runs exactly as before. */
#ifndef DRIVEBENCH_RUN_FILES_H
#define DRIVEBENCH_RUN_FILES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/target.h"
#include "device/write_consent.h"
#include "io/engine.h"
#include "job/file_service.h"
#include "job/offsets.h"

struct worker;
struct loop;
struct target;
struct run_options;
struct job_list;

/* One file of a clone (fio's fio_file). */
struct job_file {
	char *path;
	int fd;                      /* -1 while closed */
	uint64_t start, len;         /* the file's byte range (fio: file_offset, io_size) */
	uint64_t pos[DIR_COUNT];     /* next sequential offset, range-relative */
	struct offset_gen *offsets;  /* a random job's, per file */
	bool done;                   /* range used up: skipped until a reset */
	struct target_identity id;   /* what the gate judged (target_open_judged) */
};

struct worker_files {
	struct job_file *file;
	unsigned nr;
	int *handles;                /* engine->files: what io->file carries */
	unsigned nr_open, open_limit;
	bool lazy;                   /* openfiles < nr: opened as the job goes */
	bool file_ops;               /* a file-ops engine (loop_fileops.c) */
	uint64_t total;              /* sum of the ranges */
	uint64_t bytes_target;       /* the job's bytes: io_size, size or total */
	bool wrap;                   /* all done: start over (time_based, io_size > total) */
	struct file_picker picker;
	unsigned cur, left;          /* the file served, I/Os left on it */
	bool have_cur;
	unsigned nr_done;
	unsigned char *busy;         /* scratch of depth bytes for closing files */
};

/* fileset.c: the runner's side */

/* (whether a clone has a file set: device/write_consent.h's
 * target_has_file_set) */

/* What a clone's set holds in memory (its files, their paths and a
 * random job's offset generators), for the runner's memory check. */
uint64_t fileset_memory_bytes(const struct job_spec *spec);

/* The write gate for every file of every clone of every job with a set,
 * before anything is laid out, so a refusal leaves nothing written; and
 * each such job's memory against limit (--max-buffer-mem). Returns 0, or
 * -1 with err_msg (err_refused() for a refusal). */
int fileset_consent(const struct job_list *jobs, const struct run_options *opt,
		    uint64_t limit);

/* Names, probes and lays out clone w's files and sets w->files and the
 * first file as *t (the worker's target). Returns 0 or -1 with err_msg. */
int fileset_prepare(struct worker *w, struct target *t, const volatile sig_atomic_t *stop);

/* runner.c's gate (device/write_consent.h with the run's --destroy-data
 * ids): for one path of a job (a job that only reads an existing file
 * needs no consent), and for a path whatever the job does (a file-ops
 * engine that creates or deletes). 0, or -1 with err_msg. */
int check_write_consent(const struct job_spec *s, const char *path,
			const struct run_options *opt);
int check_path_consent(const struct job_spec *s, const char *path,
		       const struct run_options *opt);

/* files.c: the worker's side */

/* Opens the set before the engine starts (every file, or the first when
 * openfiles is below their count), its offset generators and the file
 * picker, and fills w->engine.files. Returns 0 or -1 with err_msg. */
int files_open(struct worker *w);

/* The file and offset of a new I/O of len bytes in direction dir: sets
 * io->file and *off. Returns 0; 1 when no file can take it now (the
 * files it may open are busy: reap first), and when every file is done
 * (fio: the job ends) l->issuing is cleared; -1 with err_msg. */
int files_pick(struct loop *l, struct io *io, int dir, uint64_t len, uint64_t *off);

/* fsync of every open file (fsync=N, end_fsync). */
int files_sync(struct worker *w);

/* Closes the set, removes its files when unlink=1 (fio deletes them when
 * the job ends), and frees it. Safe on a worker without a set. */
void files_close(struct worker *w);

/* unlink=1 for a clone without a set: its one file. */
void files_unlink_single(struct worker *w);

#endif
