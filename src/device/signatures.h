/* signatures.h - what libblkid's safe probe finds in a device, a region of
 * one (a partition the kernel knows) or a regular file: filesystems,
 * partition tables, RAID/LVM, encryption and swap signatures. */
#ifndef DRIVEBENCH_SIGNATURES_H
#define DRIVEBENCH_SIGNATURES_H

#include <stdint.h>

#define SIGNATURE_MAX_FINDINGS 2

struct signature_findings {
	unsigned nr;
	char sentence[SIGNATURE_MAX_FINDINGS][256]; /* "X carries an ext4 filesystem" */
};

/* Probes [offset, offset + size) of fd (size 0: to its end), naming what it
 * finds after subject. Returns the number of findings (an unreadable or
 * ambiguous probe is a finding too: it may hide data), or -1 with err_msg
 * when the probe cannot be set up. */
int signatures_probe(int fd, uint64_t offset, uint64_t size, const char *subject,
		     struct signature_findings *out);

#endif
