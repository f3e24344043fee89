/* endurance.c - the figures derived from a drive's sheet (see the header). */
#include "report/analysis/endurance.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

double endurance_pbw(double dwpd, double capacity_tb, double years)
{
	if (!(dwpd > 0) || !(capacity_tb > 0))
		return NAN;
	if (!(years > 0))
		years = ENDURANCE_DEFAULT_YEARS;
	return dwpd * capacity_tb * 365.0 * years / 1000.0;
}

double endurance_term_years(const struct drive_spec *spec, const struct spec_workload *w,
			    bool *assumed)
{
	*assumed = false;
	if (w && w->years)
		return w->years;
	if (spec && spec->warranty_years > 0)
		return spec->warranty_years;
	*assumed = true;
	return ENDURANCE_DEFAULT_YEARS;
}

double endurance_dwpd_from_rate(double rate_mbs, unsigned drives, double capacity_tb,
				double copies)
{
	if (!(rate_mbs >= 0) || !drives || !(capacity_tb > 0) || !(copies > 0) ||
	    !isfinite(rate_mbs) || !isfinite(copies))
		return NAN;
	/* MB/s x s/day = MB/day; a drive holds capacity_tb x 10^6 MB */
	return rate_mbs * 86400.0 * copies / ((double)drives * capacity_tb * 1e6);
}

double endurance_tb_per_watt(double capacity_tb, double active_w)
{
	if (!(capacity_tb > 0) || !(active_w > 0))
		return NAN;
	return capacity_tb / active_w;
}

/* The densest common chassis per form factor (docs/report.md says why). */
static const struct endurance_chassis chassis_table[] = {
	{ "U.2", 24, 2, "2U server, 24 2.5-inch bays" },
	{ "U.3", 24, 2, "2U server, 24 2.5-inch bays" },
	{ "2.5", 24, 2, "2U server, 24 2.5-inch bays" },
	{ "E1.S", 32, 1, "1U, 32 E1.S bays" },
	{ "E1.L", 32, 1, "1U, 32 E1.L bays (the 1U \"ruler\" chassis)" },
	{ "E3.S", 20, 1, "1U, 20 E3 1T bays (4 rows of 5)" },
	{ "E3.L", 20, 1, "1U, 20 E3 1T bays (4 rows of 5)" },
};
#define NR_CHASSIS (sizeof(chassis_table) / sizeof(chassis_table[0]))

const struct endurance_chassis *endurance_chassis_table(unsigned *nr)
{
	*nr = NR_CHASSIS;
	return chassis_table;
}

const struct endurance_chassis *endurance_chassis_of(const char *form_factor)
{
	const char *p = form_factor ? form_factor : "";

	while (isspace((unsigned char)*p))
		p++;
	for (unsigned i = 0; i < NR_CHASSIS; i++) {
		size_t n = strlen(chassis_table[i].form_factor);

		/* "E3.S 7.5mm", "U.2," and "2.5\"" match; "E3.SX", "U.25" do not */
		if (!strncasecmp(p, chassis_table[i].form_factor, n) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '.')
			return &chassis_table[i];
	}
	return NULL;
}

double endurance_pb(double capacity_tb, double drives)
{
	if (!(capacity_tb > 0) || !(drives >= 0))
		return NAN;
	return drives * capacity_tb / 1000.0;
}

double endurance_pb_per_u(double capacity_tb, const struct endurance_chassis *c)
{
	if (!c || !c->units)
		return NAN;
	return endurance_pb(capacity_tb, c->drives) / c->units;
}

void endurance_of_sheet(const struct drive_spec *spec, struct endurance_sheet *e)
{
	struct spec_dwpd list[SPEC_DWPD_MAX + 1];
	unsigned n = spec_dwpd_list(spec, list, SPEC_DWPD_MAX + 1);

	memset(e, 0, sizeof(*e));
	if (n > SPEC_DWPD_MAX + 1)
		n = SPEC_DWPD_MAX + 1;
	for (unsigned i = 0; i < n; i++) {
		struct endurance_rating *r = &e->ratings[i];

		r->rating = list[i];
		r->years = endurance_term_years(spec, &list[i].workload, &r->years_assumed);
		r->pbw = endurance_pbw(list[i].dwpd, spec->capacity_tb, r->years);
	}
	e->nr_ratings = n;
	e->tb_per_watt = endurance_tb_per_watt(spec->capacity_tb, spec->power_active_w);
	e->chassis = endurance_chassis_of(spec->form_factor);
	e->pb_per_u = endurance_pb_per_u(spec->capacity_tb, e->chassis);
}
