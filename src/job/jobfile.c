/* jobfile.c - fio job files: [global] and job sections, ';' and '#'
 * comments, "include FILE", ${VAR} from the environment in option lines
 * (an unset one is empty, as in fio), and fio's --section filter. Options
 * of a section are collected and applied when the section ends (kb_base
 * first, as fio gives it priority); every error names "file:line". */
#include "job/job_list.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env_expand.h"
#include "util/error.h"
#include "job/values.h"
#include "util/text.h"
#include "job/options.h"

#define INCLUDE_DEPTH_MAX 16

/* One "key[=value]" line waiting for its section to end. */
struct pending_option {
	char *key;
	char *value;      /* NULL for a bare flag */
	char *file;
	unsigned line;
};

struct parser {
	struct job_spec global;
	struct job_spec job;        /* scratch for the section being built */
	struct job_list jobs;
	/* the open section */
	bool in_section, section_is_global;
	char section_name[JOB_NAME_MAX];
	char section_file[JOB_PATH_MAX];
	unsigned section_line;
	struct pending_option *pending;
	unsigned nr_pending, cap_pending;
	/* bytes of job file text read, includes too (TEXT_FILE_MAX in all) */
	uint64_t bytes_read;
	unsigned includes;          /* include lines followed (JOB_INCLUDES_LIMIT) */
	/* --section: only these job sections (and [global]) are read; a
	 * skipped section's lines are not looked at, as in fio */
	const char *const *sections;
	unsigned nr_sections;
	bool *section_seen;
	bool skipping;
};

static void clear_pending(struct parser *p)
{
	for (unsigned i = 0; i < p->nr_pending; i++) {
		free(p->pending[i].key);
		free(p->pending[i].value);
		free(p->pending[i].file);
	}
	p->nr_pending = 0;
}

static int add_pending(struct parser *p, const char *file, unsigned line,
		       const char *key, const char *value)
{
	struct pending_option *o;

	if (p->nr_pending == p->cap_pending) {
		unsigned cap = p->cap_pending ? p->cap_pending * 2 : 32;
		struct pending_option *grown = realloc(p->pending, cap * sizeof(*grown));

		if (!grown)
			return err_set("%s:%u: out of memory", file, line);
		p->pending = grown;
		p->cap_pending = cap;
	}
	o = &p->pending[p->nr_pending];
	o->key = strdup(key);
	o->value = value ? strdup(value) : NULL;
	o->file = strdup(file);
	o->line = line;
	if (!o->key || !o->file || (value && !o->value)) {
		free(o->key);
		free(o->value);
		free(o->file);
		return err_set("%s:%u: out of memory", file, line);
	}
	p->nr_pending++;
	return 0;
}

static int apply_pending(struct parser *p, struct job_spec *spec)
{
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < p->nr_pending; i++) {
			struct pending_option *o = &p->pending[i];

			if ((strcmp(o->key, "kb_base") == 0) != (pass == 0))
				continue;
			if (job_option_set(spec, o->key, o->value))
				return err_prefix("%s:%u", o->file, o->line);
		}
	}
	return 0;
}

/* Ends the open section: [global] updates the global state, a job section
 * becomes a job copied from the global state. */
static int close_section(struct parser *p)
{
	int rc = 0;

	if (!p->in_section)
		return 0;
	if (p->section_is_global) {
		rc = apply_pending(p, &p->global);
	} else {
		p->job = p->global;
		job_output_mark_global(&p->job);
		memcpy(p->job.name, p->section_name, sizeof(p->job.name));
		snprintf(p->job.source, sizeof(p->job.source), "%s", p->section_file);
		p->job.source_line = p->section_line;
		rc = apply_pending(p, &p->job);
		if (!rc && job_list_append(&p->jobs, &p->job))
			rc = err_prefix("%s:%u", p->section_file, p->section_line);
	}
	clear_pending(p);
	p->in_section = false;
	return rc;
}

/* With --section, only the sections named (fio's skip_this_section). */
static bool section_wanted(struct parser *p, const char *name)
{
	bool wanted = p->nr_sections == 0;

	for (unsigned i = 0; i < p->nr_sections; i++)
		if (!strcmp(p->sections[i], name)) {
			p->section_seen[i] = true;
			wanted = true;
		}
	return wanted;
}

static int open_section(struct parser *p, const char *file, unsigned line,
			const char *name)
{
	if (close_section(p))
		return -1;
	if (!*name)
		return err_set("%s:%u: empty section name", file, line);
	if (strlen(name) >= sizeof(p->section_name))
		return err_set("%s:%u: section name longer than %d characters", file,
			       line, JOB_NAME_MAX - 1);
	if (strlen(file) >= sizeof(p->section_file))
		return err_set("%s: path too long", file);
	strcpy(p->section_name, name);
	strcpy(p->section_file, file);
	p->section_line = line;
	/* fio: any section whose name starts with "global" is global */
	p->section_is_global = strncmp(name, "global", 6) == 0;
	p->skipping = !p->section_is_global && !section_wanted(p, name);
	p->in_section = !p->skipping;
	return 0;
}

static int parse_file(struct parser *p, const char *path, int depth,
		      const char *from_file, unsigned from_line);

/* "include FILE": FILE is relative to the directory of the including file. */
static int handle_include(struct parser *p, const char *file, unsigned line,
			  const char *target, int depth)
{
	const char *slash = strrchr(file, '/');
	char *resolved;
	size_t dir_len;
	int rc;

	if (!*target)
		return err_set("%s:%u: include needs a file name", file, line);
	if (++p->includes > JOB_INCLUDES_LIMIT)
		return err_set("%s:%u: more than %u includes in the job file and its "
			       "includes", file, line, JOB_INCLUDES_LIMIT);
	if (depth + 1 > INCLUDE_DEPTH_MAX)
		return err_set("%s:%u: includes nested deeper than %d (a cycle?)", file,
			       line, INCLUDE_DEPTH_MAX);
	dir_len = (target[0] != '/' && slash) ? (size_t)(slash - file) + 1 : 0;
	resolved = malloc(dir_len + strlen(target) + 1);
	if (!resolved)
		return err_set("%s:%u: out of memory", file, line);
	memcpy(resolved, file, dir_len);
	strcpy(resolved + dir_len, target);
	rc = parse_file(p, resolved, depth + 1, file, line);
	free(resolved);
	return rc;
}

/* An option line of the open section: ${VAR}s expanded (fio expands the
 * option lines, never section headers or include lines). */
static int handle_option(struct parser *p, const char *file, unsigned lineno,
			 const char *raw)
{
	/* fio's rule: an unset ${VAR} is empty */
	char *expanded = env_expand(raw, file, lineno, false), *key, *value;
	int rc;

	if (!expanded)
		return -1;
	key = text_split_option(text_trim(expanded), &value);
	if (!p->in_section)
		rc = err_set("%s:%u: option '%s' outside any section", file, lineno, key);
	else if (!*key)
		rc = err_set("%s:%u: missing option name", file, lineno);
	else
		rc = add_pending(p, file, lineno, key, value);
	free(expanded);
	return rc;
}

static int handle_line(struct parser *p, const char *file, unsigned lineno,
		       char *raw, int depth)
{
	char *line;

	text_strip_comment(raw);
	line = text_trim(raw);
	if (!*line)
		return 0;
	if (line[0] == '[') {
		size_t len = strlen(line);

		if (line[len - 1] != ']')
			return err_set("%s:%u: bad section header '%s'", file, lineno, line);
		line[len - 1] = '\0';
		return open_section(p, file, lineno, text_trim(line + 1));
	}
	if (p->skipping)
		return 0;
	if (!strncmp(line, "include", 7) &&
	    (line[7] == '\0' || isspace((unsigned char)line[7])))
		return handle_include(p, file, lineno, text_trim(line + 7), depth);
	return handle_option(p, file, lineno, line);
}

static int parse_file(struct parser *p, const char *path, int depth,
		      const char *from_file, unsigned from_line)
{
	struct text_reader r;
	uint64_t counted = 0;
	char *line;
	int got;

	if (text_reader_open(&r, path, "job file")) {
		if (from_file) {
			const char *reason = strstr(err_msg(), "': ");
			char why[256];

			snprintf(why, sizeof(why), "%s", reason ? reason + 3 : strerror(errno));
			return err_set("%s:%u: cannot read included file '%s': %s",
				       from_file, from_line, path, why);
		}
		return -1;
	}
	/* one budget for the file and everything it includes, so that
	 * repeated includes cannot grow the parse without bound */
	r.limit = TEXT_FILE_MAX - p->bytes_read;
	while ((got = text_reader_next(&r, &line)) > 0) {
		p->bytes_read += r.bytes - counted;
		counted = r.bytes;
		if (p->bytes_read > TEXT_FILE_MAX) {
			got = err_set("%s:%u: the job file and its includes hold more than %u MiB",
				      path, r.line, TEXT_FILE_MAX >> 20);
			break;
		}
		if (handle_line(p, path, r.line, line, depth)) {
			got = -1;
			break;
		}
	}
	if (got < 0 && r.bytes > r.limit && p->bytes_read > counted)
		err_set("%s:%u: the job file and its includes hold more than %u MiB",
			path, r.line + 1, TEXT_FILE_MAX >> 20);
	text_reader_close(&r);
	return got < 0 ? -1 : 0;
}

/* --section names that match no section of the file are an error, as
 * they would run nothing. */
static int check_sections_seen(const struct parser *p, const char *path)
{
	for (unsigned i = 0; i < p->nr_sections; i++)
		if (!p->section_seen[i])
			return err_set("%s: --section %s: no such section", path,
				       p->sections[i]);
	return 0;
}

int jobfile_parse(const char *path, const char *const *sections,
		  unsigned nr_sections, struct job_list *out)
{
	struct parser *p = calloc(1, sizeof(*p));
	unsigned before = out->nr;
	int rc = -1;

	if (!p)
		return err_set("out of memory");
	p->sections = sections;
	p->nr_sections = nr_sections;
	p->section_seen = calloc(nr_sections ? nr_sections : 1, sizeof(bool));
	if (!p->section_seen) {
		free(p);
		return err_set("out of memory");
	}
	job_spec_defaults(&p->global);
	if (parse_file(p, path, 0, NULL, 0) || close_section(p) ||
	    check_sections_seen(p, path))
		goto out;
	if (p->jobs.nr == 0) {
		err_set("%s: no jobs", path);
		goto out;
	}
	rc = 0;
	for (unsigned i = 0; i < p->jobs.nr && !rc; i++)
		rc = job_list_append(out, &p->jobs.jobs[i]);
	if (rc)
		out->nr = before;   /* all or nothing */
out:
	clear_pending(p);
	free(p->pending);
	free(p->section_seen);
	job_list_free(&p->jobs);
	free(p);
	return rc;
}

int job_list_validate(struct job_list *jobs, unsigned first)
{
	for (unsigned i = first; i < jobs->nr; i++) {
		struct job_spec *job = &jobs->jobs[i];

		if (job_spec_validate(job)) {
			if (strcmp(job->source, "command line"))
				err_prefix("%s:%u", job->source, job->source_line);
			return -1;
		}
	}
	return 0;
}

int jobfile_load(const char *path, struct job_list *out)
{
	unsigned before = out->nr;

	if (jobfile_parse(path, NULL, 0, out))
		return -1;
	if (job_list_validate(out, before)) {
		out->nr = before;
		return -1;
	}
	return 0;
}
