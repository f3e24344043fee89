/* overlap.h - whether two targets are one drive, so that a suite never
 * runs twice at once on it: the same file or block device whatever the
 * spelling, a disk and its partition, two partitions of one disk, a loop
 * device and the file behind it, or the same modelled drive. */
#ifndef DRIVEBENCH_OVERLAP_H
#define DRIVEBENCH_OVERLAP_H

#include <stddef.h>

/* 1 when a and b are one drive, with why ("'./x' and 'x' are the same
 * file"); 0 when they are not; -1 with err_msg when one cannot be examined
 * (a path that does not exist is a file to be created, never an error). */
int target_overlap(const char *a, const char *b, char *why, size_t len);

/* The kernel names of block device MAJOR:MINOR and of the disk it is on
 * (itself, or a partition's parent) as sysfs_root ("/sys") lists them.
 * 0, or -1 with err_msg when sysfs does not know the device. */
int target_block_disk(const char *sysfs_root, unsigned major_nr, unsigned minor_nr,
		      char *name, size_t name_len, char *disk, size_t disk_len);

#endif
