/* spec.c - the drive spec sheet parser: INI sections [drive] and [rated],
 * key = value lines, '#' or ';' comments; a [model] section (a modelled
 * drive's geometry and timing, src/vssd/model.c reads it) and a [fit]
 * section (measured figures the model was fitted to where they differ
 * from [rated], docs/vssd-fit.md; read by tests/unit/test_vssd_fit.c)
 * are skipped. The
 * DWPD ratings beyond the headline are keys spelt dwpd_<workload>, read by
 * their workload (spec_workload_parse). Every error names file:line and the
 * key. */
#include "report/analysis/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

enum key_kind { KEY_TEXT, KEY_NUMBER, KEY_UNSIGNED, KEY_SIZE, KEY_RATE, KEY_WORKLOAD };

struct spec_key {
	const char *section, *name;
	enum key_kind kind;
	size_t offset, size;
};

#define TEXT_KEY(sec, field) { sec, #field, KEY_TEXT, offsetof(struct drive_spec, field), \
	sizeof(((struct drive_spec *)0)->field) }
#define NUM_KEY(sec, field) { sec, #field, KEY_NUMBER, offsetof(struct drive_spec, field), 0 }

static const struct spec_key keys[] = {
	TEXT_KEY("drive", model),
	NUM_KEY("drive", capacity_tb),
	TEXT_KEY("drive", interface),
	{ "drive", "iu_kib", KEY_UNSIGNED, offsetof(struct drive_spec, iu_kib), 0 },
	TEXT_KEY("drive", form_factor),
	TEXT_KEY("drive", nand),
	{ "drive", "nand_layers", KEY_UNSIGNED, offsetof(struct drive_spec, nand_layers), 0 },
	NUM_KEY("drive", mtbf_hours),
	{ "drive", "uber", KEY_RATE, offsetof(struct drive_spec, uber), 0 },
	NUM_KEY("drive", warranty_years),
	NUM_KEY("rated", seq_read_mbs),
	NUM_KEY("rated", seq_write_mbs),
	NUM_KEY("rated", rand_read_iops),
	{ "rated", "rand_read_bs", KEY_SIZE, offsetof(struct drive_spec, rand_read_bs), 0 },
	NUM_KEY("rated", rand_write_iops),
	{ "rated", "rand_write_bs", KEY_SIZE, offsetof(struct drive_spec, rand_write_bs), 0 },
	NUM_KEY("rated", read_latency_us),
	NUM_KEY("rated", write_latency_us),
	NUM_KEY("rated", power_active_w),
	NUM_KEY("rated", power_idle_w),
	NUM_KEY("rated", dwpd),
	NUM_KEY("rated", pbw),
	{ "rated", "dwpd_workload", KEY_WORKLOAD, offsetof(struct drive_spec, dwpd_workload), 0 },
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static int parse_value(const struct spec_key *k, const char *value,
		       struct drive_spec *spec)
{
	char *end;
	double d;

	if (k->kind == KEY_TEXT) {
		if (strlen(value) >= k->size)
			return err_set("value longer than %zu characters", k->size - 1);
		memcpy((char *)spec + k->offset, value, strlen(value) + 1);
		return 0;
	}
	if (k->kind == KEY_WORKLOAD)
		return spec_workload_parse(value, (struct spec_workload *)((char *)spec + k->offset));
	errno = 0;
	d = strtod(value, &end);
	if (end == value || errno || !isfinite(d) || d < 0)
		return err_set("'%s' is not a non-negative number", value);
	if (k->kind == KEY_SIZE) {
		double mult = 1;
		switch (tolower((unsigned char)*end)) {
		case 'k': mult = 1024.0; end++; break;
		case 'm': mult = 1024.0 * 1024; end++; break;
		default: break;
		}
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
		if (*end)
			return err_set("'%s' is not a size (4k, 16k, 4096)", value);
		*(uint64_t *)((char *)spec + k->offset) = (uint64_t)llround(d * mult);
		return 0;
	}
	if (*end)
		return err_set("'%s' is not a number", value);
	/* an exabyte: far past any drive (1e300 is a typo, not a drive) */
	if (k->offset == offsetof(struct drive_spec, capacity_tb) && d > 1e6)
		return err_set("'%s' is out of range: a capacity in TB from 0 to 1000000", value);
	if (k->kind == KEY_RATE && d >= 1)
		return err_set("'%s' is not an error rate per bit read (a number below 1: "
			       "1e-17 is 1 sector per 10^17 bits read)", value);
	if (k->kind == KEY_UNSIGNED) {
		if (d != floor(d) || d > 1e9)
			return err_set("'%s' is not a whole number", value);
		*(unsigned *)((char *)spec + k->offset) = (unsigned)d;
		return 0;
	}
	*(double *)((char *)spec + k->offset) = d;
	return 0;
}

/* A whole number without a leading zero, 1..max; its end in *end. */
static bool whole(const char *p, unsigned long max, unsigned long *v, const char **end)
{
	unsigned long n = 0;

	if (!isdigit((unsigned char)*p) || *p == '0')
		return false;
	while (isdigit((unsigned char)*p)) {
		n = n * 10 + (unsigned long)(*p++ - '0');
		if (n > max)
			return false;
	}
	*v = n;
	*end = p;
	return true;
}

int spec_workload_parse(const char *text, struct spec_workload *w)
{
	const char *p = text;
	unsigned long n;

	memset(w, 0, sizeof(*w));
	if (!strncmp(p, "seq", 3)) {
		w->writes = SPEC_WRITES_SEQ;
		p += 3;
	} else if (!strncmp(p, "rand", 4)) {
		w->writes = SPEC_WRITES_RAND;
		p += 4;
	}
	if (w->writes != SPEC_WRITES_ANY && isdigit((unsigned char)*p)) {
		if (!whole(p, 1u << 20, &n, &p) || (*p != 'k' && *p != 'm'))
			goto bad;
		w->bs = (uint64_t)n << (*p == 'k' ? 10 : 20);
		p++;
	}
	if (w->writes != SPEC_WRITES_ANY && *p) {
		if (*p != '_')
			goto bad;
		p++;
		if (!*p)
			goto bad;
	}
	if (*p) {
		if (!whole(p, 99, &n, &p) || strcmp(p, "y"))
			goto bad;
		w->years = (unsigned)n;
	}
	if (w->writes == SPEC_WRITES_ANY && !w->years)
		goto bad;
	return 0;
bad:
	memset(w, 0, sizeof(*w));
	return err_set("'%s' is not a workload: seq or rand, then a block size (4k, 16k, "
		       "128k, 1m) and a term (_3y), any of them optional, or a term alone: "
		       "rand4k, seq128k, rand, rand16k_3y, 3y", text);
}

static bool same_workload(const struct spec_workload *a, const struct spec_workload *b)
{
	return a->writes == b->writes && a->bs == b->bs && a->years == b->years;
}

void spec_workload_name(const struct spec_workload *w, char *buf, size_t len)
{
	char size[32] = "";
	const char *writes = w->writes == SPEC_WRITES_SEQ ? "sequential write" :
			     w->writes == SPEC_WRITES_RAND ? "random write" : "";

	if (!len)
		return;
	if (w->bs && w->bs % (1u << 20) == 0)
		snprintf(size, sizeof(size), "%lluM ", (unsigned long long)(w->bs >> 20));
	else if (w->bs)
		snprintf(size, sizeof(size), "%lluK ", (unsigned long long)(w->bs >> 10));
	snprintf(buf, len, "%s%s", *writes ? size : "", writes);
	if (w->years)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sover %u year%s",
			 *writes ? ", " : "", w->years, w->years == 1 ? "" : "s");
}

unsigned spec_dwpd_list(const struct drive_spec *spec, struct spec_dwpd *out, unsigned max)
{
	unsigned n = 0;

	if (spec->dwpd > 0) {
		if (n < max)
			out[n] = (struct spec_dwpd){ spec->dwpd, spec->dwpd_workload };
		n++;
	}
	for (unsigned i = 0; i < spec->nr_dwpd_more; i++, n++)
		if (n < max)
			out[n] = spec->dwpd_more[i];
	return n;
}

/* A dwpd_<workload> key of [rated]: 1 when key is one (added, or -1 with
 * err_msg), 0 when it is not. lines[] holds each rating's line; headline
 * the line of dwpd_workload (0 = none). */
static int dwpd_rating(const char *key, const char *value, const char *name,
		       unsigned lineno, struct drive_spec *spec, unsigned *lines,
		       unsigned headline)
{
	struct spec_workload w;
	struct spec_dwpd *r;
	char *end;
	double d;

	if (strncmp(key, "dwpd_", 5) || spec_workload_parse(key + 5, &w) < 0) {
		err_clear();
		return 0;
	}
	for (unsigned i = 0; i < spec->nr_dwpd_more; i++)
		if (same_workload(&spec->dwpd_more[i].workload, &w))
			return err_set("%s:%u:%s: duplicate key (the workload of line %u)",
				       name, lineno, key, lines[i]);
	if (headline && same_workload(&spec->dwpd_workload, &w))
		return err_set("%s:%u:%s: the headline dwpd's workload (dwpd_workload, line %u): "
			       "give that rating once, as dwpd", name, lineno, key, headline);
	if (spec->nr_dwpd_more == SPEC_DWPD_MAX)
		return err_set("%s:%u:%s: more than %d dwpd_<workload> ratings", name, lineno,
			       key, SPEC_DWPD_MAX);
	if (!*value)
		return err_set("%s:%u:%s: empty value", name, lineno, key);
	errno = 0;
	d = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(d) || d <= 0)
		return err_set("%s:%u:%s: '%s' is not a positive number", name, lineno, key, value);
	lines[spec->nr_dwpd_more] = lineno;
	r = &spec->dwpd_more[spec->nr_dwpd_more++];
	r->dwpd = d;
	r->workload = w;
	return 1;
}

int spec_parse(const char *text, const char *name, struct drive_spec *spec)
{
	bool seen[NR_KEYS] = { false };
	unsigned rating_lines[SPEC_DWPD_MAX], workload_line = 0;
	char section[32] = "";
	bool skipping = false;   /* inside [model]: not the sheet's to check */
	unsigned lineno = 0;
	const char *p = text;

	memset(spec, 0, sizeof(*spec));
	while (*p) {
		char line[1024], *s, *eq;
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		lineno++;
		if (len >= sizeof(line))
			return err_set("%s:%u: line too long", name, lineno);
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl ? 1 : 0);
		s = text_trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || close[1] != '\0')
				return err_set("%s:%u: malformed section header", name, lineno);
			*close = '\0';
			s = text_trim(s + 1);
			skipping = !strcmp(s, "model") || !strcmp(s, "fit");
			if (skipping)
				continue;
			if (strcmp(s, "drive") && strcmp(s, "rated"))
				return err_set("%s:%u: unknown section [%s] (known: drive, rated)",
					       name, lineno, s);
			snprintf(section, sizeof(section), "%s", s);
			continue;
		}
		if (skipping)
			continue;
		eq = strchr(s, '=');
		if (!eq)
			return err_set("%s:%u: expected key = value", name, lineno);
		*eq = '\0';
		char *key = text_trim(s), *value = text_trim(eq + 1);
		if (!*section)
			return err_set("%s:%u:%s: key outside a section", name, lineno, key);
		unsigned i;
		for (i = 0; i < NR_KEYS; i++)
			if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, key))
				break;
		if (i == NR_KEYS && !strcmp(section, "rated")) {
			int rc = dwpd_rating(key, value, name, lineno, spec, rating_lines,
					     workload_line);

			if (rc < 0)
				return -1;
			if (rc > 0)
				continue;
		}
		if (i == NR_KEYS)
			return err_set("%s:%u:%s: unknown key in [%s]%s", name, lineno, key, section,
				       strncmp(key, "dwpd_", 5) || strcmp(section, "rated") ? "" :
				       " (a DWPD rating is dwpd_<workload>: dwpd_rand4k, "
				       "dwpd_seq128k, dwpd_3y ...)");
		if (seen[i])
			return err_set("%s:%u:%s: duplicate key", name, lineno, key);
		seen[i] = true;
		if (!*value)
			return err_set("%s:%u:%s: empty value", name, lineno, key);
		if (parse_value(&keys[i], value, spec) < 0)
			return err_prefix("%s:%u:%s", name, lineno, key);
		if (keys[i].kind == KEY_WORKLOAD) {
			workload_line = lineno;
			for (unsigned r = 0; r < spec->nr_dwpd_more; r++)
				if (same_workload(&spec->dwpd_more[r].workload, &spec->dwpd_workload))
					return err_set("%s:%u:%s: the workload of the rating on line "
						       "%u: give that rating once, as dwpd", name,
						       lineno, key, rating_lines[r]);
		}
	}
	if (!spec->model[0])
		return err_set("%s: [drive] model is required", name);
	if (workload_line && !(spec->dwpd > 0))
		return err_set("%s:%u:dwpd_workload: names the headline rating's workload, "
			       "but the sheet has no dwpd", name, workload_line);
	return 0;
}

int spec_load(const char *path, struct drive_spec *spec, char **text)
{
	FILE *f = text_open_input_stream(path, "spec file");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (text)
		*text = NULL;
	if (!f)
		return -1;
	for (;;) {
		if (cap - len < 4096) {
			char *grown;
			if (cap > (1u << 20)) {
				free(buf);
				fclose(f);
				return err_set("%s: larger than 1 MiB, not a spec sheet", path);
			}
			cap = cap ? cap * 2 : 8192;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				return err_set("%s: out of memory", path);
			}
			buf = grown;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);

		if (memchr(buf + len, '\0', got)) {
			free(buf);
			fclose(f);
			return err_set("%s: a NUL byte: binary data, not a spec sheet", path);
		}
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return err_set("%s: read error", path);
	}
	fclose(f);
	buf[len] = '\0';
	rc = spec_parse(buf, path, spec);
	if (rc == 0 && text)
		*text = buf;
	else
		free(buf);
	return rc;
}
