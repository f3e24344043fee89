/* vssd.h - the modelled drives of this process (ioengine=vssd, io/vssd.c)
 * as the rest of the program sees a drive: its counters (what an NVMe
 * SMART / OCP log reports) and a format (the purge step). A drive is
 * named by its model file and scale, as a job's vssd_model= / vssd_scale=
 * name it; the same file by another path is the same drive. */
#ifndef DRIVEBENCH_IO_VSSD_H
#define DRIVEBENCH_IO_VSSD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#define VSSD_DEFAULT_SCALE "1/1000"

struct vssd_counters {
	bool opened;                   /* the drive has served this process */
	uint64_t host_read_bytes, host_written_bytes, host_trimmed_bytes;
	uint64_t nand_read_bytes;      /* pages read x page size */
	uint64_t nand_written_bytes;   /* IUs programmed (host, GC, fold) x IU */
	uint64_t erases, format_erases;
	uint32_t erase_max;            /* per block */
	double erase_mean;
};

/* The counters of the drive (model, scale; scale NULL or "" = the
 * default). A drive not opened yet is a fresh one: every counter 0 and
 * opened false. 0, or -1 with err_msg when the model cannot be read. */
int vssd_drive_counters(const char *model, const char *scale, struct vssd_counters *c);

/* Formats the drive (opening it first if this process has not): every
 * IU unmapped and every used block erased, as an NVMe Format with
 * secure erase does. 0, or -1 with err_msg. */
int vssd_drive_format(const char *model, const char *scale);

/* Names state as the state file of the drive (model, scale) for this
 * process (vssd_state=, docs/vssd.md): the drive is made now if it is not
 * yet, loaded from the file when it exists, and saved there when the last
 * job on it ends and after a format. So whatever opens the drive next (a
 * job, a format, a snapshot's counters) meets the saved drive. The file
 * and FILE.tmp must be regular files when they exist; a file of another
 * drive, not a state file or truncated is refused, and so is a drive that
 * already has another state file or was made without one. state NULL or
 * "": nothing to do. stop NULL: the flag of vssd_drives_stop_on. 0, or -1
 * with err_msg. */
int vssd_drive_open_state(const char *model, const char *scale, const char *state,
			  const volatile sig_atomic_t *stop);

/* The stop flag (SIGINT/SIGTERM) that making a drive outside a job checks
 * (a suite's purge makes it): a large drive takes seconds to clear, and a
 * set flag ends that with an error. A job's drive checks the run's flag. */
void vssd_drives_stop_on(const volatile sig_atomic_t *stop);

/* The logical capacity of the drive (model, scale) in bytes: what a job
 * on it without size= covers, and what size=N% is a share of (as fio
 * sizes a job to its device). 0, or -1 with err_msg. */
int vssd_drive_capacity(const char *model, const char *scale, uint64_t *capacity);

#endif
