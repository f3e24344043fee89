/* html_bench.h - the "Bench and drives" part of the review page, from
 * plain structs: the host(s) the results were measured on, and per drive
 * its identity (model, firmware and serial from the drive snapshot stored
 * with its results; the serial masked but for its last 4 characters), its
 * sheet's record (form factor, NAND, MTBF, UBER, warranty, the DWPD
 * ratings) and the figures derived from it (report/analysis/endurance.h). Every
 * text is escaped; what is not known shows as "-". */
#ifndef DRIVEBENCH_HTML_BENCH_H
#define DRIVEBENCH_HTML_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/analysis/spec.h"
#include "store/record.h"

/* A host; NULL or "" texts and 0 numbers are not known. */
struct bench_host {
	const char *hostname;          /* hosts.hostname */
	const char *server;            /* hosts.server (DMI): "Dell Inc. PowerEdge R760" */
	const char *cpu;               /* "2 x Intel Xeon Gold 6430", or the stored cpu_model */
	unsigned cores;                /* online CPUs as stored (hosts.cores) */
	uint64_t memory_bytes;         /* hosts.memory_bytes (MemTotal) */
	const char *os;                /* "Ubuntu 22.04.2 LTS" */
	const char *kernel;            /* hosts.kernel: "Linux 6.8.0-45-generic x86_64" */
};

/* A drive's identity as its snapshot gives it; "" = not known. */
struct bench_drive_id {
	char model[128], firmware[64], serial[128];   /* serial in full: masked when shown */
};

struct bench_drive {
	const char *label;             /* the report's name for it */
	struct bench_drive_id id;
	const struct drive_spec *spec; /* NULL = no sheet */
};

/* Model, firmware and serial from a drive snapshot's JSON (a result's
 * drive_before; docs/info.md): the top-level keys, each missing one from
 * nvme.identify_controller. false (id all "") when json is NULL, not JSON,
 * or names none of the three. */
bool bench_drive_id_from_snapshot(const char *json, struct bench_drive_id *id);
/* The same from the first of recs whose drive_before names one. */
bool bench_drive_id_from_results(const struct result_record *recs, unsigned nr,
				 struct bench_drive_id *id);

/* "S6CKNE0W900123" -> "**********0123": all but the last 4 characters as
 * '*'; a serial of 4 characters or fewer is all '*'; "" stays "". */
void bench_mask_serial(const char *serial, char *buf, size_t len);

/* Writes the fragment: <section id="bench"> with the heading "Bench and
 * drives", a host table (one row per host; nr_hosts 0: one row of "-"),
 * the drives' identity and record, their DWPD ratings with the derived PBW
 * (its term, and "assumed" where the sheet gives none), and density (TB
 * per watt, the chassis assumed, PB per rack unit), then a note with the
 * formulas. 0, or -1 with err_msg on a write error. */
int html_bench_section(FILE *out, const struct bench_host *hosts, unsigned nr_hosts,
		       const struct bench_drive *drives, unsigned nr_drives);

#endif
