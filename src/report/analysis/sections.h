/* sections.h - which section of the review a stored result belongs to and
 * the name a reader knows its test by (issue 16). A result keeps the
 * identity of the step that made it: its step's name and kind when a
 * suite stored it, else its job name read by the convention in
 * docs/report.md ("Sections"), so imported fio JSON groups the same way.
 * The report groups by that identity, not by rw + block size alone. */
#ifndef DRIVEBENCH_REPORT_SECTIONS_H
#define DRIVEBENCH_REPORT_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "store/record.h"

/* The reviews' order. Steady-state rounds, checkpoints and GDS points are
 * not points of a test: they have sections of their own. */
enum report_section {
	SECTION_FILL,       /* preconditioning fills */
	SECTION_SEQ128K,    /* 128K sequential */
	SECTION_RAND64K,    /* 64K random */
	SECTION_16K,        /* 16K random and sequential */
	SECTION_4K,         /* 4K random */
	SECTION_OTHER,      /* any other synthetic test */
	SECTION_CDN,        /* the CDN workload's phases */
	SECTION_OBJECT,     /* the object-storage tests */
	SECTION_NOT_A_POINT,
	SECTION_COUNT
};

#define REPORT_GROUP_MAX 64

struct report_identity {
	enum report_section section;
	/* "" for the synthetic tests (so that a suite's sweep and an imported
	 * one of the same rw and block size are one test), else the step or
	 * job stem ("seq-fill-128k", "cdn-rand-read", "obj-seq-read-qd40") */
	char group[REPORT_GROUP_MAX];
};

void report_identity_of(const struct result_record *rec, struct report_identity *id);
/* "Preconditioning", "128K sequential", ... "CDN", "Object storage" */
const char *report_section_title(enum report_section s);
/* The anchor of a section on the page: "fill", "seq128k", ... */
const char *report_section_anchor(enum report_section s);
/* The stem of a job name: without a point suffix ("-qd8-j4", "-qd8",
 * "-j4") or a round's ("-round3"). */
void report_job_stem(const char *job, char *stem, size_t len);
/* A phase's name as a reader knows it, from its group and point:
 * "CDN random read", "CDN fill", "Object storage: random read, 1 thread
 * QD40", "Sequential fill (seq-fill-128k)". "" for the synthetic tests. */
void report_phase_name(enum report_section s, const char *group, const char *rw,
		       unsigned iodepth, unsigned numjobs, char *buf, size_t len);

#endif
