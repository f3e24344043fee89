/* endurance.h - the figures a review derives from a drive's sheet (../shared/
 * METHODOLOGY.md section 7): petabytes written over a DWPD rating's term,
 * the DWPD a sustained write rate over an array asks of each drive, TB per
 * watt and PB per rack unit. Pure functions; docs/report.md gives the
 * formulas and the assumptions (a term of 5 years when the sheet has no
 * warranty, the chassis each form factor is counted in). */
#ifndef DRIVEBENCH_ENDURANCE_H
#define DRIVEBENCH_ENDURANCE_H

#include <stdbool.h>

#include "report/analysis/spec.h"

/* The term assumed when a rating has none and the sheet no warranty. */
#define ENDURANCE_DEFAULT_YEARS 5.0

/* PB written over the term: dwpd x capacity_tb x 365 x years / 1000.
 * years <= 0: ENDURANCE_DEFAULT_YEARS. NAN when dwpd or capacity_tb is not
 * positive. */
double endurance_pbw(double dwpd, double capacity_tb, double years);

/* The term a rating of the sheet holds over: its own (dwpd_rand4k_3y), else
 * the sheet's warranty_years, else ENDURANCE_DEFAULT_YEARS with *assumed
 * true. */
double endurance_term_years(const struct drive_spec *spec, const struct spec_workload *w,
			    bool *assumed);

/* The drive writes per day a host write rate of rate_mbs (10^6 B/s),
 * around the clock, asks of each of `drives` drives of capacity_tb each
 * when every host byte is stored `copies` times (1 striped, 2 mirrored):
 * rate x 86400 x copies / (drives x capacity). NAN for a rate below 0 or
 * a count, capacity or copies not positive. */
double endurance_dwpd_from_rate(double rate_mbs, unsigned drives, double capacity_tb,
				double copies);

/* capacity_tb / active_w; NAN when either is not positive. */
double endurance_tb_per_watt(double capacity_tb, double active_w);

/* How a form factor is counted in a rack: the chassis assumed (the densest
 * common one) and the drives it holds. */
struct endurance_chassis {
	const char *form_factor;       /* "U.2", "E3.S" ... */
	unsigned drives, units;        /* 24 drives in 2U */
	const char *chassis;           /* "2U server, 24 2.5-inch bays" */
};

/* The chassis of the first form factor text names ("E3.S 7.5mm, U.2 15mm"
 * -> E3.S; "U.2 15mm or E1.L" -> U.2); NULL when text names none the
 * table has (M.2, an add-in card, ""). */
const struct endurance_chassis *endurance_chassis_of(const char *form_factor);
/* Every chassis assumed, for the documentation and tests. */
const struct endurance_chassis *endurance_chassis_table(unsigned *nr);

/* PB in `drives` drives of capacity_tb: drives x capacity_tb / 1000 (NAN
 * when capacity_tb is not positive). */
double endurance_pb(double capacity_tb, double drives);
/* PB per rack unit: the chassis' drives x capacity_tb / 1000 / its units;
 * NAN without a chassis or a capacity. */
double endurance_pb_per_u(double capacity_tb, const struct endurance_chassis *c);

/* A DWPD rating with the PBW it gives. */
struct endurance_rating {
	struct spec_dwpd rating;
	double years;                  /* its term */
	bool years_assumed;            /* no term, no warranty: ENDURANCE_DEFAULT_YEARS */
	double pbw;                    /* NAN when the sheet has no capacity */
};

/* Everything derived from one sheet. */
struct endurance_sheet {
	struct endurance_rating ratings[SPEC_DWPD_MAX + 1];   /* spec_dwpd_list's order */
	unsigned nr_ratings;
	double tb_per_watt;            /* NAN: no capacity or no active power */
	const struct endurance_chassis *chassis;   /* NULL: no known form factor */
	double pb_per_u;               /* NAN when not derivable */
};

void endurance_of_sheet(const struct drive_spec *spec, struct endurance_sheet *e);

#endif
