/* loop_backing.h - which loop device, if any, a regular file backs: such a
 * file is the device's data, so the safety gate judges it as the device. */
#ifndef DRIVEBENCH_LOOP_BACKING_H
#define DRIVEBENCH_LOOP_BACKING_H

#include <stddef.h>
#include <sys/stat.h>

/* Finds a loop device whose backing file is the file st describes (same
 * device and inode). Returns 1 with its kernel name ("loop3") in name, or
 * 0 when no attached loop device uses it. */
int loop_device_backed_by(const struct stat *st, char *name, size_t len);

#endif
