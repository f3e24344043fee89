/* fileops.h - fio's file and directory operation engines: filecreate,
 * filestat, filedelete, dircreate, dirstat, dirdelete. Each "I/O" is one
 * operation on one of the job's files (create, stat or delete a file or a
 * directory), timed as fio times it: the operation alone is the clat
 * sample; the block-sized I/Os fio then counts for the file do nothing
 * (FIO_FAKEIO). run/loop_fileops.c runs them. */
#ifndef DRIVEBENCH_FILEOPS_H
#define DRIVEBENCH_FILEOPS_H

#include <stdbool.h>

#include "io/engine.h"
#include "job/file_options.h"

enum fileop_kind { FILEOP_CREATE, FILEOP_STAT, FILEOP_DELETE };

/* The operation of a file-ops engine, and whether it works on
 * directories; false for any other engine. */
bool fileop_engine(const struct engine_ops *ops, enum fileop_kind *kind, bool *dirs);

/* Whether the engine lays out its files before the job as fio does
 * (filestat, filedelete: their files must exist with their size; the
 * dir engines' setup creates the directories; filecreate and dircreate
 * create them as their operation). */
bool fileop_needs_layout(const struct engine_ops *ops);

/* The operation itself on path: 0, or -errno. A file create leaves the
 * new file open in *fd (for the caller to mark and close), -1 otherwise.
 * Nothing here reads the clock: the caller times it. */
int fileop_do(const struct engine_ops *ops, const char *path, unsigned stat_type, int *fd);

#endif
