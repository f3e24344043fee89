/* sections.c - a result's section and its test's reader name (see the
 * header; the rules are documented in docs/report.md "Sections"). */
#include "report/analysis/sections.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const titles[SECTION_COUNT] = {
	[SECTION_FILL] = "Preconditioning",
	[SECTION_SEQ128K] = "128K sequential",
	[SECTION_RAND64K] = "64K random",
	[SECTION_16K] = "16K random and sequential",
	[SECTION_4K] = "4K random",
	[SECTION_OTHER] = "Other synthetic tests",
	[SECTION_CDN] = "CDN workload",
	[SECTION_OBJECT] = "Object storage",
	[SECTION_NOT_A_POINT] = "",
};

static const char *const anchors[SECTION_COUNT] = {
	[SECTION_FILL] = "precondition", [SECTION_SEQ128K] = "seq128k",
	[SECTION_RAND64K] = "rand64k", [SECTION_16K] = "k16", [SECTION_4K] = "rand4k",
	[SECTION_OTHER] = "other", [SECTION_CDN] = "cdn", [SECTION_OBJECT] = "object",
	[SECTION_NOT_A_POINT] = "",
};

const char *report_section_title(enum report_section s)
{
	return s < SECTION_COUNT ? titles[s] : "";
}

const char *report_section_anchor(enum report_section s)
{
	return s < SECTION_COUNT ? anchors[s] : "";
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Whether s[from..] is "-" word digits (word one of the alternatives). */
static size_t suffix_at(const char *s, size_t end, const char *word)
{
	size_t digits = 0, wl = strlen(word);

	while (digits < end && isdigit((unsigned char)s[end - 1 - digits]))
		digits++;
	if (!digits || end < digits + wl + 1)
		return 0;
	size_t at = end - digits - wl;
	if (strncmp(s + at, word, wl) || s[at - 1] != '-')
		return 0;
	return end - (at - 1);
}

void report_job_stem(const char *job, char *stem, size_t len)
{
	size_t end = strlen(job), cut;

	if ((cut = suffix_at(job, end, "round")))
		end -= cut;
	else {
		if ((cut = suffix_at(job, end, "j")))
			end -= cut;
		if ((cut = suffix_at(job, end, "qd")))
			end -= cut;
	}
	snprintf(stem, len, "%.*s", (int)end, job);
}

static bool is_random(const char *rw)
{
	return starts(rw, "rand");
}

static bool is_sequential(const char *rw)
{
	return !strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "rw") ||
	       !strcmp(rw, "readwrite");
}

static enum report_section synthetic_section(const struct result_record *rec)
{
	if (rec->bs == 131072 && is_sequential(rec->rw))
		return SECTION_SEQ128K;
	if (rec->bs == 65536 && is_random(rec->rw))
		return SECTION_RAND64K;
	if (rec->bs == 16384 && (is_random(rec->rw) || is_sequential(rec->rw)))
		return SECTION_16K;
	if (rec->bs == 4096 && is_random(rec->rw))
		return SECTION_4K;
	return SECTION_OTHER;
}

static bool is_fill_name(const char *stem)
{
	return starts(stem, "precondition") || starts(stem, "fill") || strstr(stem, "-fill");
}

void report_identity_of(const struct result_record *rec, struct report_identity *id)
{
	char stem[REPORT_GROUP_MAX];
	const char *kind = rec->step_kind;

	const char *name = rec->step_name[0] ? rec->step_name : rec->job_name;

	/* an object test is one point: its whole name is its identity (a
	 * suite stores it under its step's name) */
	if (starts(name, "obj-")) {
		id->section = SECTION_OBJECT;
		snprintf(id->group, sizeof(id->group), "%.*s", REPORT_GROUP_MAX - 1, name);
		return;
	}
	if (rec->step_name[0])
		snprintf(stem, sizeof(stem), "%s", rec->step_name);
	else
		report_job_stem(rec->job_name, stem, sizeof(stem));
	id->group[0] = '\0';
	/* a steady-state round: by its step, or an imported job "X-roundN" */
	if (!strcmp(kind, "steady") ||
	    (!rec->step_name[0] && suffix_at(rec->job_name, strlen(rec->job_name), "round"))) {
		id->section = SECTION_NOT_A_POINT;
		return;
	}
	if (starts(stem, "cdn-"))
		id->section = SECTION_CDN;
	else if (!strcmp(kind, "precondition") || (!kind[0] && is_fill_name(stem)))
		id->section = SECTION_FILL;
	else {
		id->section = synthetic_section(rec);
		return;
	}
	snprintf(id->group, sizeof(id->group), "%s", stem);
}

/* "rand-read" -> "random read", "saturate" -> "saturation": the words of
 * a phase's name after its prefix. */
static void phase_words(const char *from, char *buf, size_t len)
{
	static const struct { const char *word, *says; } words[] = {
		{ "rand", "random" }, { "seq", "sequential" }, { "saturate", "saturation" },
	};
	size_t n = 0;

	buf[0] = '\0';
	while (*from && n + 1 < len) {
		size_t wl = strcspn(from, "-");
		const char *says = NULL;

		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (wl == strlen(words[i].word) && !strncmp(from, words[i].word, wl))
				says = words[i].says;
		int w = says ? snprintf(buf + n, len - n, "%s%s", n ? " " : "", says)
			     : snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)wl, from);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
		from += wl;
		if (*from == '-')
			from++;
	}
}

void report_phase_name(enum report_section s, const char *group, const char *rw,
		       unsigned iodepth, unsigned numjobs, char *buf, size_t len)
{
	char words[96];

	buf[0] = '\0';
	if (!group[0])
		return;
	if (s == SECTION_CDN) {
		phase_words(group + strlen("cdn-"), words, sizeof(words));
		snprintf(buf, len, "CDN %s", words);
	} else if (s == SECTION_OBJECT) {
		snprintf(buf, len, "Object storage: %s %s, %u thread%s QD%u",
			 is_random(rw) ? "random" : "sequential",
			 strstr(rw, "write") ? "write" : "read", numjobs, numjobs == 1 ? "" : "s",
			 iodepth);
	} else if (s == SECTION_FILL) {
		snprintf(buf, len, "%s fill (%s)", is_random(rw) ? "Random" : "Sequential", group);
	}
}
