/* spec.h - drive spec sheets: a small INI file per drive model with its
 * record and rated figures (the .ini files in specs/, format in
 * docs/report.md). Zero or "" means "not rated". */
#ifndef DRIVEBENCH_SPEC_H
#define DRIVEBENCH_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* dwpd_<workload> ratings a sheet may give besides the headline dwpd */
#define SPEC_DWPD_MAX 8

/* The writes a DWPD rating holds for, spelt [seq|rand][SIZE][_TERM] or
 * TERM alone: "rand32k", "seq128k", "rand", "rand4k_3y", "3y" (SIZE a
 * whole number of k or m, TERM whole years then 'y'). */
enum spec_writes { SPEC_WRITES_ANY, SPEC_WRITES_SEQ, SPEC_WRITES_RAND };

struct spec_workload {
	enum spec_writes writes;       /* ANY: the sheet does not say */
	uint64_t bs;                   /* bytes; 0 = not stated */
	unsigned years;                /* the term; 0 = the warranty's */
};

struct spec_dwpd {
	double dwpd;
	struct spec_workload workload;
};

struct drive_spec {
	/* [drive] */
	char model[128];
	double capacity_tb;            /* decimal TB */
	char interface[96];            /* "PCIe 4.0 x4, NVMe 1.4c" */
	unsigned iu_kib;               /* indirection unit */
	/* the form factors, the reviewed one first ("E3.S 7.5mm, U.2 15mm"):
	 * the first is the one the density figures use (report/analysis/endurance.h) */
	char form_factor[64];
	char nand[64];                 /* "QLC", "TLC", "G9 QLC" */
	unsigned nand_layers;
	double mtbf_hours;
	double uber;                   /* errors per bit read: 1e-17 is "1
					* sector per 10^17 bits read" */
	double warranty_years;
	/* [rated] */
	double seq_read_mbs, seq_write_mbs;      /* 10^6 B/s */
	double rand_read_iops, rand_write_iops;
	uint64_t rand_read_bs, rand_write_bs;    /* bytes; 0 = 4 KiB */
	double read_latency_us, write_latency_us;
	double power_active_w, power_idle_w;
	double dwpd, pbw;              /* the headline rating; PBW as rated */
	struct spec_workload dwpd_workload;      /* the headline's (dwpd_workload) */
	struct spec_dwpd dwpd_more[SPEC_DWPD_MAX];   /* dwpd_<workload>, in file order */
	unsigned nr_dwpd_more;
};

/* Parses INI text. name is used in messages ("name:line: key: ..."). [drive]
 * model is required; unknown sections or keys, bad numbers and duplicate
 * keys are errors (two dwpd_ keys of one workload are duplicates, and so
 * is a dwpd_ key of the headline's dwpd_workload). A [model] section (a
 * modelled drive's, docs/vssd.md) is skipped whole: its keys are the model
 * loader's to check. Returns 0 or -1 with err_msg. */
int spec_parse(const char *text, const char *name, struct drive_spec *spec);
/* Reads and parses a file; *text (optional) gets the file's text, malloc'd. */
int spec_load(const char *path, struct drive_spec *spec, char **text);

/* "rand16k_3y" -> a workload. 0, or -1 with err_msg saying the spelling. */
int spec_workload_parse(const char *text, struct spec_workload *w);
/* "32K random write", "128K sequential write", "random write",
 * "random write, over 3 years", "over 3 years"; "" when nothing is stated. */
void spec_workload_name(const struct spec_workload *w, char *buf, size_t len);
/* The sheet's DWPD ratings: the headline dwpd first (when rated), then its
 * dwpd_<workload> ratings. Returns how many (at most max are written). */
unsigned spec_dwpd_list(const struct drive_spec *spec, struct spec_dwpd *out, unsigned max);

#endif
