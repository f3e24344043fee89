/* file_options.h - a job's set of files as fio defines it: filename lists
 * ("a:b", "\:" for a colon in a name, repeated filename= adding to the
 * list), directory lists, nrfiles and filename_format naming, per-file
 * sizes (size split over the files, or filesize and its range), how the
 * next file is chosen (file_service_type), and the file options that
 * change layout and lifetime (fallocate, create_on_open, allow_file_create,
 * unlink, unlink_each_loop, openfiles). The runner's side is run/files.c
 * and run/fileset.c. */
#ifndef DRIVEBENCH_FILE_OPTIONS_H
#define DRIVEBENCH_FILE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_spec;

#define FILENAME_FORMAT_MAX 256
#define NRFILES_LIMIT (1u << 20)

/* file_service_type= : fio's names (normal and gauss are one) */
enum file_service {
	FSERVICE_ROUNDROBIN,   /* fio's default */
	FSERVICE_SEQUENTIAL,
	FSERVICE_RANDOM,
	FSERVICE_ZIPF,
	FSERVICE_PARETO,
	FSERVICE_NORMAL,
};

/* fallocate= : how a write job's file is laid out (fio's modes) */
enum fallocate_mode {
	FALLOCATE_NONE,        /* nothing: the file grows as it is written */
	FALLOCATE_NATIVE,      /* fallocate(2), silently none where it fails */
	FALLOCATE_POSIX,       /* posix_fallocate(3) */
	FALLOCATE_KEEP,        /* fallocate(2) FALLOC_FL_KEEP_SIZE */
	FALLOCATE_TRUNCATE,    /* ftruncate(2) to the size: sparse */
};

/* stat_type= of filestat and dirstat (fio's values) */
enum fileop_stat { FILEOP_STAT_STAT = 1, FILEOP_STAT_LSTAT, FILEOP_STAT_STATX };

struct job_files {
	unsigned nrfiles;              /* without filename=: files per clone */
	unsigned openfiles;            /* most open at once; 0 = all */
	uint64_t filesize_low, filesize_high;  /* 0 = size / nrfiles */
	enum file_service service;
	unsigned service_nr;           /* I/Os per pick (":N" of random,
					* roundrobin, sequential), at least 1 */
	double service_param;          /* zipf theta, pareto h, normal sigma (%) */
	double service_center;         /* 0..1, -1 = none (fio's ":center") */
	enum fallocate_mode fallocate;
	bool create_on_open;
	bool allow_create;             /* allow_file_create, default 1 */
	bool unlink, unlink_each_loop;
	char filename_format[FILENAME_FORMAT_MAX];  /* "" = $jobname.$jobnum.$filenum */
	unsigned stat_type;            /* filestat/dirstat: enum fileop_stat */
};

/* fio's defaults (called from job_spec_defaults). */
void job_files_defaults(struct job_files *f);

/* --set filename=X replaces the job's list rather than adding to it (a
 * job file's repeated filename= adds, as in fio). Called before the
 * override is applied to each job. */
void file_options_override(struct job_spec *spec, const char *key);

/* Cross-checks (job_spec_validate): 0 or -1 with err_msg. */
int job_files_check(const struct job_spec *spec);

/* How many files a clone of spec has: the names of filename= (fio's
 * nrfiles is then their count), else nrfiles. */
unsigned job_file_count(const struct job_spec *spec);

/* The path of file `index` of clone `clone`, as fio names it: a name of
 * the filename= list, or filename_format ($jobname, $jobnum = clone,
 * $filenum = index, $clientuid = "" outside client/server mode), joined to
 * the directory: the first of directory=A:B for filename= names, the
 * clone's (clone modulo their count) for generated ones. Returns 0, or -1
 * with err_msg when it does not fit in len. */
int job_file_path(const struct job_spec *spec, unsigned clone, unsigned index,
		  char *out, size_t len);

/* Copies one path into a filename= or directory= field as a list of one:
 * its colons escaped ("\:"), so a path such as /dev/disk/by-path/pci-0:1
 * stays one file. For the producers that set a target themselves (suites,
 * checkpoints, gds, the scratch file). 0, or -1 with err_msg (too long). */
int job_spec_set_path(char *field, size_t size, const char *path);

/* True when a clone of spec works on more than one file. */
bool job_files_many(const struct job_spec *spec);

#endif
