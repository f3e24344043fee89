/* env_expand.c - ${VAR} expansion for the job and suite file parsers
 * (env_expand.h). */
#include "util/env_expand.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

#define NAME_MAX_STRICT 256

/* Appends n bytes of piece to *out (cap bytes, len used), growing it. */
static int append(char **out, size_t *cap, size_t *len, const char *piece, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t new_cap = (*len + n + 1) * 2;
		char *grown = realloc(*out, new_cap);

		if (!grown)
			return -1;
		*out = grown;
		*cap = new_cap;
	}
	if (n)
		memcpy(*out + *len, piece, n);
	*len += n;
	return 0;
}

char *env_expand(const char *line, const char *file, unsigned lineno, bool strict)
{
	size_t cap = strlen(line) + 1, len = 0;
	char *out = malloc(cap);
	const char *s = line;

	if (!out)
		goto nomem;
	while (*s) {
		const char *piece = s, *close = NULL;
		size_t piece_len = 1;

		if (s[0] == '$' && s[1] == '{')
			close = strchr(s + 2, '}');
		if (s[0] == '$' && s[1] == '{' && (close || strict)) {
			size_t name_len = close ? (size_t)(close - (s + 2)) : 0;
			char *name;

			if (strict && (!close || name_len == 0 || name_len >= NAME_MAX_STRICT)) {
				err_set("%s:%u: bad ${VAR} in '%s'", file, lineno, s);
				goto fail;
			}
			name = malloc(name_len + 1);
			if (!name)
				goto nomem;
			memcpy(name, s + 2, name_len);
			name[name_len] = '\0';
			piece = name_len ? getenv(name) : NULL;
			if (!piece && name_len) {
				err_set("%s:%u: environment variable '%s' is not set", file, lineno,
					name);
				free(name);
				goto fail;
			}
			free(name);
			piece_len = piece ? strlen(piece) : 0;
			s = close + 1;
		} else {
			s++;
		}
		if (append(&out, &cap, &len, piece, piece_len))
			goto nomem;
	}
	out[len] = '\0';
	return out;
nomem:
	err_set("%s:%u: out of memory", file, lineno);
fail:
	free(out);
	return NULL;
}
