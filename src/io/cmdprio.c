/* cmdprio.c - per-command I/O priorities (cmdprio.h): the options, which
 * priority each I/O gets (a draw of 0..99 against the percentage, or
 * against the shares of the I/O's block size in cmdprio_bssplit, as fio),
 * and the clat of each priority, index 0 being the job's own. */
#include "io/cmdprio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/error.h"
#include "util/units.h"
#include "job/options.h"

#define CMDPRIO_RNG_STREAM 18u
#define IOPRIO_CLASS_RT 1u
#define IOPRIO_CLASS_BE 2u
#define HINT_MAX 1023u

unsigned cmdprio_job_ioprio(const struct job_spec *spec)
{
	const struct engine_opts *o = &spec->eng;

	if (!o->prio_set && !o->prioclass_set)
		return 0;
	return ioprio_value(o->prioclass ? o->prioclass : IOPRIO_CLASS_BE, o->prio, 0);
}

static int parse_one(const char *text, size_t len, unsigned lo, unsigned hi,
		     unsigned *out)
{
	char number[32];
	uint64_t n;

	if (len == 0 || len >= sizeof(number))
		return err_set("bad number '%.*s'", (int)len, text);
	memcpy(number, text, len);
	number[len] = '\0';
	if (units_parse_count(number, 0, UINT64_MAX, &n))
		return err_set("bad number '%s'", number);
	if (units_check_range(n, lo, hi, UNITS_COUNT, number))
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* "R[,W]": one number for both directions, or one each. */
static int per_direction(const char *value, unsigned lo, unsigned hi,
			 unsigned out[DIR_COUNT])
{
	const char *comma = strchr(value, ',');
	unsigned r, w;

	if (comma && strchr(comma + 1, ','))
		return err_set("bad value '%s' (N, or R,W)", value);
	if (parse_one(value, comma ? (size_t)(comma - value) : strlen(value), lo, hi, &r))
		return -1;
	w = r;
	if (comma && parse_one(comma + 1, strlen(comma + 1), lo, hi, &w))
		return -1;
	out[DIR_READ] = r;
	out[DIR_WRITE] = w;
	return 0;
}

int cmdprio_set_percentage(struct job_spec *spec, const char *value)
{
	return per_direction(value, 0, 100, spec->eng.cmdprio.percentage);
}

int cmdprio_set_class(struct job_spec *spec, const char *value)
{
	return per_direction(value, 1, 3, spec->eng.cmdprio.prio_class);
}

int cmdprio_set_level(struct job_spec *spec, const char *value)
{
	return per_direction(value, 0, 7, spec->eng.cmdprio.level);
}

int cmdprio_set_hint(struct job_spec *spec, const char *value)
{
	return per_direction(value, 0, HINT_MAX, spec->eng.cmdprio.hint);
}

/* One "bs/perc[/class/level[/hint]]" entry. */
static int parse_split_entry(const struct job_spec *spec, char *text,
			     struct cmdprio_split *e)
{
	char *field[6];
	int n = 0;
	uint64_t v[5] = { 0 };

	for (char *p = strtok(text, "/"); p && n < 6; p = strtok(NULL, "/"))
		field[n++] = p;
	if (n < 1 || n == 3 || n > 5)
		return err_set("bad entry (bs/perc, bs/perc/class/level or "
			       "bs/perc/class/level/hint)");
	if (parse_size(field[0], spec->kb_base, &e->bs) || e->bs == 0)
		return err_set("bad block size '%s'", field[0]);
	for (int i = 1; i < n; i++)
		if (units_parse_count(field[i], 0, UINT64_MAX, &v[i]))
			return err_set("bad number '%s'", field[i]);
	if (v[1] > 100 || (n >= 4 && (v[2] > 3 || v[3] > 7)) || (n == 5 && v[4] > HINT_MAX))
		return err_set("out of range: perc 0..100, class 0..3, level 0..7, "
			       "hint 0..%u", HINT_MAX);
	e->perc = (unsigned)v[1];
	e->prio_class = n >= 4 ? (int)v[2] : -1;
	e->prio_level = n >= 4 ? (int)v[3] : -1;
	e->prio_hint = n == 5 ? (int)v[4] : 0;
	return 0;
}

/* One direction's list "e1:e2:..."; entries with 0% are dropped (fio). */
static int parse_split_dir(const struct job_spec *spec, const char *text,
			   struct cmdprio_split *out, unsigned *nr)
{
	char copy[1024], *save = NULL;
	unsigned count = 0;

	if (strlen(text) >= sizeof(copy))
		return err_set("list too long");
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		struct cmdprio_split e;
		char entry[256];

		snprintf(entry, sizeof(entry), "%s", p);
		if (parse_split_entry(spec, entry, &e))
			return err_prefix("entry '%s'", p);
		if (!e.perc)
			continue;
		if (count >= CMDPRIO_SPLIT_MAX)
			return err_set("more than %d entries", CMDPRIO_SPLIT_MAX);
		out[count++] = e;
	}
	*nr = count;
	return 0;
}

/* cmdprio_bssplit=READS[,WRITES] (a third, trim part is not used here) */
int cmdprio_set_bssplit(struct job_spec *spec, const char *value)
{
	struct cmdprio_opts *o = &spec->eng.cmdprio;
	const char *comma = strchr(value, ',');
	char reads[1024];
	size_t len = comma ? (size_t)(comma - value) : strlen(value);

	if (len >= sizeof(reads))
		return err_set("list too long");
	memcpy(reads, value, len);
	reads[len] = '\0';
	if (parse_split_dir(spec, reads, o->split[DIR_READ], &o->nr_split[DIR_READ]))
		return -1;
	if (!comma) {
		memcpy(o->split[DIR_WRITE], o->split[DIR_READ], sizeof(o->split[0]));
		o->nr_split[DIR_WRITE] = o->nr_split[DIR_READ];
	} else {
		char writes[1024];
		const char *end = strchr(comma + 1, ',');

		len = end ? (size_t)(end - comma - 1) : strlen(comma + 1);
		if (len >= sizeof(writes))
			return err_set("list too long");
		memcpy(writes, comma + 1, len);
		writes[len] = '\0';
		if (parse_split_dir(spec, writes, o->split[DIR_WRITE], &o->nr_split[DIR_WRITE]))
			return -1;
	}
	o->bssplit_set = true;
	return 0;
}

/* The index of value in c's list for d, added when new. */
static int value_index(struct cmdprio *c, int d, unsigned value, uint8_t *index)
{
	for (unsigned i = 0; i < c->nr_values[d]; i++)
		if (c->value[d][i] == value) {
			*index = (uint8_t)i;
			return 0;
		}
	if (c->nr_values[d] >= CMDPRIO_MAX)
		return err_set("cmdprio: more than %d distinct priorities", CMDPRIO_MAX);
	*index = (uint8_t)c->nr_values[d];
	c->value[d][c->nr_values[d]++] = value;
	return 0;
}

static int add_share(struct cmdprio *c, int d, uint64_t bs, unsigned perc, unsigned value)
{
	struct cmdprio_pick *pk = NULL;
	unsigned s = 0;

	for (unsigned i = 0; i < c->nr_picks[d]; i++) {
		s += c->pick[d][i].nr;
		if (c->pick[d][i].bs == bs)
			pk = &c->pick[d][i];
	}
	if (!pk) {
		if (c->nr_picks[d] >= CMDPRIO_SPLIT_MAX)
			return err_set("cmdprio: too many block sizes");
		pk = &c->pick[d][c->nr_picks[d]++];
		pk->bs = bs;
		pk->first = s;
	} else if (pk->first + pk->nr != s) {
		return err_set("cmdprio_bssplit: list the entries of one block size together");
	}
	if (pk->tot_perc + perc > 100)
		return err_set("cmdprio_bssplit: the shares of %llu-byte I/Os add up to "
			       "more than 100", (unsigned long long)bs);
	pk->tot_perc += perc;
	c->share[d][s].perc = perc;
	pk->nr++;
	return value_index(c, d, value, &c->share[d][s].index);
}

static int build(struct cmdprio *c, const struct job_spec *spec)
{
	const struct cmdprio_opts *o = &spec->eng.cmdprio;

	for (int d = 0; d < DIR_COUNT; d++) {
		unsigned cls = o->prio_class[d] ? o->prio_class[d] : IOPRIO_CLASS_RT;
		unsigned implicit = ioprio_value(cls, o->level[d], o->hint[d]);
		bool used = d == DIR_READ ? job_spec_reads(spec) : job_spec_writes(spec);

		c->nr_values[d] = 1;
		c->value[d][0] = cmdprio_job_ioprio(spec);
		lat_stat_init(&c->stat[d][0]);
		if (!used)
			continue;
		if (!o->bssplit_set && o->percentage[d] &&
		    add_share(c, d, 0, o->percentage[d], implicit))
			return -1;
		for (unsigned i = 0; o->bssplit_set && i < o->nr_split[d]; i++) {
			const struct cmdprio_split *e = &o->split[d][i];
			unsigned v = e->prio_class < 0 ? implicit :
				ioprio_value(e->prio_class ? (unsigned)e->prio_class :
					     IOPRIO_CLASS_BE, (unsigned)e->prio_level,
					     (unsigned)e->prio_hint);

			if (add_share(c, d, e->bs, e->perc, v))
				return -1;
		}
		for (unsigned i = 1; i < c->nr_values[d]; i++)
			lat_stat_init(&c->stat[d][i]);
	}
	return 0;
}

struct cmdprio *cmdprio_create(const struct job_spec *spec, bool *failed)
{
	const struct cmdprio_opts *o = &spec->eng.cmdprio;
	struct cmdprio *c;

	*failed = false;
	if (!o->bssplit_set && !o->percentage[DIR_READ] && !o->percentage[DIR_WRITE])
		return NULL;
	*failed = true;
	if (o->bssplit_set && (o->percentage[DIR_READ] || o->percentage[DIR_WRITE])) {
		err_set("cmdprio_percentage and cmdprio_bssplit exclude each other");
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		err_set("cmdprio: out of memory");
		return NULL;
	}
	if (build(c, spec)) {
		free(c);
		return NULL;
	}
	rng_seed(&c->rng, job_seed(spec, 0, CMDPRIO_RNG_STREAM));
	*failed = false;
	return c;
}

void cmdprio_destroy(struct cmdprio *c)
{
	free(c);
}

unsigned cmdprio_pick(struct cmdprio *c, struct io *io)
{
	int d = io->dir;
	const struct cmdprio_pick *pk = NULL;
	unsigned draw, sum = 0;

	io->prio = 0;
	for (unsigned i = 0; i < c->nr_picks[d] && !pk; i++)
		if (c->pick[d][i].bs == 0 || c->pick[d][i].bs == io->len)
			pk = &c->pick[d][i];
	if (!pk)
		return c->value[d][0];
	draw = (unsigned)rng_below(&c->rng, 100);
	if (draw >= pk->tot_perc)
		return c->value[d][0];
	for (unsigned s = pk->first; s < pk->first + pk->nr; s++) {
		sum += c->share[d][s].perc;
		if (draw < sum) {
			io->prio = c->share[d][s].index;
			break;
		}
	}
	return c->value[d][io->prio];
}

void cmdprio_complete(struct cmdprio *c, struct io *io, bool measuring)
{
	io->complete_ns = clock_now_ns();
	if (measuring && io->result > 0)
		lat_add(&c->stat[io->dir][io->prio], io->complete_ns - io->issue_ns);
}

int cmdprio_collect(const struct cmdprio *c, struct job_result *r)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		free(r->prio_clat[d]);
		r->prio_clat[d] = calloc(c->nr_values[d], sizeof(*r->prio_clat[d]));
		r->nr_prio_clat[d] = 0;
		if (!r->prio_clat[d])
			return err_set("out of memory");
		for (unsigned i = 0; i < c->nr_values[d]; i++) {
			r->prio_clat[d][i].ioprio = c->value[d][i];
			r->prio_clat[d][i].clat = c->stat[d][i];
		}
		r->nr_prio_clat[d] = c->nr_values[d];
	}
	return 0;
}
