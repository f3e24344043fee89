/* state_file.h - a modelled drive's FTL state in a file, between
 * processes: a header that names the drive (model, scale, capacity,
 * geometry), then the FTL's segments (ftl_state_segments). Used by the
 * vssd engine's vssd_state= (io/vssd.c) and by vssd-serve's backing file
 * (cmd/cmd_vssd_serve.c). Every error names the file as label gives it
 * ("vssd_state=PATH", "--backing PATH: its state PATH"). */
#ifndef DRIVEBENCH_VSSD_STATE_FILE_H
#define DRIVEBENCH_VSSD_STATE_FILE_H

#include "vssd/drive.h"

/* PATH+suffix, when it exists, is a regular file (the file loaded, and
 * FILE.tmp the save writes and renames). 0, or -1 with err_msg "cannot
 * read vssd_state file 'PATH': it is a FIFO, not a regular file". */
int vdrive_state_file_check(const char *path, const char *suffix);

/* Whether path is a state file: 1 (a regular file that begins as one),
 * 0 (there is no such file), -1 with err_msg (anything else: another
 * file, a FIFO, a device, a link, unreadable). */
int vdrive_state_file_kind(const char *path);

/* Saves d's FTL (its model at scale) to path through path.tmp and a
 * rename (a failed save leaves the old file; a device, FIFO or directory
 * at path is never replaced). 0, or -1 with err_msg. */
int vdrive_state_save(struct vdrive *d, const char *scale, const char *path,
		      const char *label);

/* Loads path into the fresh drive d (model at scale, named model_path in
 * messages when the model has no name): 1 loaded, 0 no such file (d
 * stays fresh), -1 with err_msg: not a state file, of another drive
 * (naming both), truncated or too long (d is formatted again). */
int vdrive_state_load(struct vdrive *d, const char *scale, const char *model_path,
		      const char *path, const char *label);

#endif
