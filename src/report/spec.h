/* spec.h - drive spec sheets: a small INI file per drive model with its
 * rated figures (the .ini files in specs/, format in docs/report.md). Zero means "not
 * rated". */
#ifndef DRIVEBENCH_SPEC_H
#define DRIVEBENCH_SPEC_H

#include <stdint.h>

struct drive_spec {
	/* [drive] */
	char model[128];
	double capacity_tb;            /* decimal TB */
	char interface[96];            /* "PCIe 4.0 x4, NVMe 1.4c" */
	unsigned iu_kib;               /* indirection unit */
	/* [rated] */
	double seq_read_mbs, seq_write_mbs;      /* 10^6 B/s */
	double rand_read_iops, rand_write_iops;
	uint64_t rand_read_bs, rand_write_bs;    /* bytes; 0 = 4 KiB */
	double read_latency_us, write_latency_us;
	double power_active_w, power_idle_w;
	double dwpd, pbw;
};

/* Parses INI text. name is used in messages ("name:line: key: ..."). [drive]
 * model is required; unknown sections or keys, bad numbers and duplicate
 * keys are errors. A [model] section (a modelled drive's, docs/vssd.md) is
 * skipped whole: its keys are the model loader's to check. Returns 0 or -1
 * with err_msg. */
int spec_parse(const char *text, const char *name, struct drive_spec *spec);
/* Reads and parses a file; *text (optional) gets the file's text, malloc'd. */
int spec_load(const char *path, struct drive_spec *spec, char **text);

#endif
