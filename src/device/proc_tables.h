/* proc_tables.h - what the safety gate reads from /proc: mounts by device
 * number or source, and active swap areas. Pure parsers over the files'
 * text, so tests can feed them constructed tables. */
#ifndef DRIVEBENCH_PROC_TABLES_H
#define DRIVEBENCH_PROC_TABLES_H

#include <stddef.h>

/* Finds a mount of the block device major:minor, or whose mount source is
 * devnode (may be NULL; catches btrfs, whose mountinfo shows an anonymous
 * device number), in the text of /proc/self/mountinfo. Returns 1 and copies
 * the (unescaped) mount point into mountpoint, or 0 when not mounted. */
int mountinfo_find(const char *text, unsigned major, unsigned minor,
		   const char *devnode, char *mountpoint, size_t len);

/* The index-th (0-based) swap area named in the text of /proc/swaps, after
 * the header line, unescaped. Returns 1 with path filled, 0 when there are
 * no more entries. */
int swaps_entry(const char *text, unsigned index, char *path, size_t len);

#endif
