/* ranks_common.c - what both builds of dist.h share: the target-name
 * escapes (%r %h %l %t) and the rank map they read (--rank-map). */
#include "ranks/ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranks/ranks_internal.h"
#include "util/error.h"
#include "util/text.h"

static char *rank_target;   /* this rank's line of --rank-map, or NULL */

#ifdef DRIVEBENCH_MPI
static const bool expands = true;
#else
static const bool expands = false;
#endif

/* Whether name has an escape of set (a %% is skipped, never read as the
 * start of another). */
static bool has_escape(const char *name, const char *set)
{
	for (const char *p = strchr(name, '%'); p && p[1]; p = strchr(p + 2, '%'))
		if (strchr(set, p[1]))
			return true;
	return false;
}

bool ranks_names_rank(const char *name)
{
	return has_escape(name, "rhlt%");
}

bool ranks_names_own(const char *name)
{
	return has_escape(name, "rt") || (has_escape(name, "h") && has_escape(name, "l"));
}

int ranks_expand(const char *in, char *out, size_t len)
{
	size_t used = 0;

	if (!expands || !strchr(in, '%')) {
		if (strlen(in) >= len)
			return err_set("'%s' is too long", in);
		memcpy(out, in, strlen(in) + 1);
		return 0;
	}
	for (const char *p = in; *p; p++) {
		char piece[300];

		if (*p != '%' || !p[1] || !strchr("rhlt%", p[1])) {
			piece[0] = *p;
			piece[1] = '\0';
		} else {
			p++;
			if (*p == 'r')
				snprintf(piece, sizeof(piece), "%d", ranks_rank());
			else if (*p == 'l')
				snprintf(piece, sizeof(piece), "%d", ranks_local_rank());
			else if (*p == 'h')
				snprintf(piece, sizeof(piece), "%s", ranks_host());
			else if (*p == '%')
				snprintf(piece, sizeof(piece), "%%");
			else if (!rank_target)
				return err_set("'%s': %%t names the rank's target in --rank-map, and "
					       "rank %d (host %s) has none (no --rank-map, or no line for it)",
					       in, ranks_rank(), ranks_host());
			else if (strlen(rank_target) >= sizeof(piece))
				return err_set("--rank-map: the target of rank %d is too long", ranks_rank());
			else
				snprintf(piece, sizeof(piece), "%s", rank_target);
		}
		if (used + strlen(piece) >= len)
			return err_set("'%s' is too long once expanded for rank %d", in, ranks_rank());
		memcpy(out + used, piece, strlen(piece));
		used += strlen(piece);
	}
	out[used] = '\0';
	return 0;
}

/* "RANK TARGET" or "HOST:LOCAL TARGET" lines; '#' starts a comment. */
static int map_line_matches(const char *key, bool *match, const char *path, unsigned line)
{
	const char *colon = strrchr(key, ':');
	char *end;
	long n;

	if (colon) {
		n = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end || n < 0)
			return err_set("%s:%u: '%s' is not RANK or HOST:LOCAL_RANK", path, line, key);
		*match = (size_t)(colon - key) == strlen(ranks_host()) &&
			 !strncmp(key, ranks_host(), (size_t)(colon - key)) && n == ranks_local_rank();
		return 0;
	}
	n = strtol(key, &end, 10);
	if (end == key || *end || n < 0)
		return err_set("%s:%u: '%s' is not RANK or HOST:LOCAL_RANK", path, line, key);
	*match = n == ranks_rank();
	return 0;
}

int ranks_read_rank_map(const char *path)
{
	FILE *f = text_open_input_stream(path, "--rank-map");
	char buf[4200];
	unsigned line = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		char *hash = strchr(buf, '#'), *text, *key, *target;
		bool match = false;

		line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			fclose(f);
			return err_set("%s:%u: line too long", path, line);
		}
		if (hash)
			*hash = '\0';
		text = text_trim(buf);
		if (!text[0])
			continue;
		key = text;
		target = key + strcspn(key, " \t");
		if (!*target) {
			fclose(f);
			return err_set("%s:%u: '%s' names no target (RANK TARGET)", path, line, key);
		}
		*target++ = '\0';
		target = text_trim(target);
		if (map_line_matches(key, &match, path, line)) {
			fclose(f);
			return -1;
		}
		if (match && rank_target) {
			fclose(f);
			return err_set("%s:%u: a second target for rank %d (host %s)", path, line,
				       ranks_rank(), ranks_host());
		}
		if (match && !(rank_target = strdup(target))) {
			fclose(f);
			return err_set("out of memory");
		}
	}
	fclose(f);
	if (!rank_target)
		return err_set("%s has no target for rank %d (host %s, local rank %d)", path,
			       ranks_rank(), ranks_host(), ranks_local_rank());
	return 0;
}

void ranks_forget_rank_map(void)
{
	free(rank_target);
	rank_target = NULL;
}
