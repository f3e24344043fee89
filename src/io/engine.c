/* engine.c - the table of I/O engines and lookup by fio's ioengine= name.
 * The engines themselves live in io_uring.c, libaio.c, psync.c, null.c and cufile.c. */
#include "io/engine.h"

#include <stddef.h>
#include <string.h>

#include "util/error.h"

static const struct engine_ops *const engines[] = {
	&engine_io_uring,
	&engine_libaio,
	&engine_psync,
	&engine_null,
	&engine_cufile,
};

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	if (name) {
		for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
			if (strcmp(engines[i]->name, name) == 0)
				return engines[i];
	}
	err_set("unknown ioengine '%s' (known: io_uring, libaio, psync, null)",
		name ? name : "");
	return NULL;
}

int engine_needs_fd(const struct engine_ops *ops)
{
	return ops != &engine_null;
}
