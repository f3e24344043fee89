/* suiteselect.c - which steps of a suite run: --only and --skip by step name
 * or by test name (a PTS test is several steps: its purge, its
 * preconditioning, its rounds), for `suite` and for `plan`. */
#include "suite/suite.h"

#include <string.h>

#include "util/error.h"

bool suite_step_is(const struct suite_step *st, const char *name)
{
	return !strcmp(st->name, name) || (st->test[0] && !strcmp(st->test, name));
}

static bool listed(const char *const *names, const struct suite_step *st)
{
	for (; names && *names; names++)
		if (suite_step_is(st, *names))
			return true;
	return false;
}

int suite_select(const struct suite *s, const char *const *only, const char *const *skip,
		 unsigned *selected, unsigned *nr)
{
	const char *const *lists[2] = { only, skip };
	bool tests = false;

	for (unsigned i = 0; i < s->nr_steps; i++)
		tests = tests || s->steps[i].test[0];
	for (int l = 0; l < 2; l++)
		for (const char *const *n = lists[l]; n && *n; n++) {
			unsigned i = 0;

			while (i < s->nr_steps && !suite_step_is(&s->steps[i], *n))
				i++;
			if (i == s->nr_steps)
				return err_set("%s: suite '%s' has no step%s '%s'",
					       l ? "--skip" : "--only", s->name,
					       tests ? " or test" : "", *n);
		}
	*nr = 0;
	for (unsigned i = 0; i < s->nr_steps; i++) {
		if (only && only[0] && !listed(only, &s->steps[i]))
			continue;
		if (listed(skip, &s->steps[i]))
			continue;
		selected[(*nr)++] = i;
	}
	if (!*nr)
		return err_set("no step of suite '%s' is selected", s->name);
	return 0;
}

void suite_keep_steps(struct suite *s, const unsigned *selected, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (selected[i] != i)
			s->steps[i] = s->steps[selected[i]];
	s->nr_steps = nr;
}
