/* host_facts.h - the host a run ran on, as the store keeps it: name,
 * kernel, CPU model and count, memory, OS (os-release) and server (DMI
 * vendor and product). Read here; an MPI rank sends its own to rank 0. */
#ifndef DRIVEBENCH_HOST_FACTS_H
#define DRIVEBENCH_HOST_FACTS_H

#include <stdint.h>

struct host_facts {
	char hostname[256], kernel[256], cpu_model[256], os[256], server[256];
	long cores;
	uint64_t memory_bytes;
};

/* This machine's facts ("" / 0 for what cannot be read). */
void host_facts_read(struct host_facts *h);

#endif
