/* spec.c - the drive spec sheet parser: INI sections [drive] and [rated],
 * key = value lines, '#' or ';' comments; a [model] section (a modelled
 * drive's geometry and timing, src/vssd/model.c reads it) is skipped. Every
 * error names file:line and the key. */
#include "report/spec.h"

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

enum key_kind { KEY_TEXT, KEY_NUMBER, KEY_UNSIGNED, KEY_SIZE };

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
	if (k->kind == KEY_UNSIGNED) {
		if (d != floor(d) || d > 1e9)
			return err_set("'%s' is not a whole number", value);
		*(unsigned *)((char *)spec + k->offset) = (unsigned)d;
		return 0;
	}
	*(double *)((char *)spec + k->offset) = d;
	return 0;
}

int spec_parse(const char *text, const char *name, struct drive_spec *spec)
{
	bool seen[NR_KEYS] = { false };
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
			skipping = !strcmp(s, "model");
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
		if (i == NR_KEYS)
			return err_set("%s:%u:%s: unknown key in [%s]", name, lineno, key, section);
		if (seen[i])
			return err_set("%s:%u:%s: duplicate key", name, lineno, key);
		seen[i] = true;
		if (!*value)
			return err_set("%s:%u:%s: empty value", name, lineno, key);
		if (parse_value(&keys[i], value, spec) < 0)
			return err_prefix("%s:%u:%s", name, lineno, key);
	}
	if (!spec->model[0])
		return err_set("%s: [drive] model is required", name);
	return 0;
}

int spec_load(const char *path, struct drive_spec *spec, char **text)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (text)
		*text = NULL;
	if (!f)
		return err_set("%s: %s", path, strerror(errno));
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
