/* engine_catalog.c - the catalog the io layer registers (see the header). */
#include "job/engine_catalog.h"

#include <stdio.h>
#include <stdlib.h>

static const struct engine_catalog *registered;

void engine_catalog_set(const struct engine_catalog *catalog)
{
	registered = catalog;
}

const struct engine_catalog *engine_catalog(void)
{
	if (!registered) {
		fputs("drivebench: internal error: no engine catalog "
		      "(the program was linked without io/engine_check.o)\n", stderr);
		abort();
	}
	return registered;
}
