/* line_relay.h - the standard error of several child processes relayed
 * line by line, each line under its source's name ("[/dev/sdb] ..."), so
 * that children writing at once never mix within a line. */
#ifndef DRIVEBENCH_LINE_RELAY_H
#define DRIVEBENCH_LINE_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LINE_RELAY_MAX 4096   /* a longer line is relayed in pieces */

struct line_relay {
	int fd;                    /* the read end of a child's pipe; -1 closed */
	const char *name;          /* not copied */
	char buf[LINE_RELAY_MAX];
	size_t used;
};

void line_relay_init(struct line_relay *r, int fd, const char *name);

/* Waits up to timeout_ms for output on the open relays, writes every
 * whole line that arrived to out as "[NAME] line", and closes a relay at
 * the end of its pipe (its last line relayed even without a newline).
 * Returns how many are still open. A signal ends the wait early. */
unsigned line_relay_poll(struct line_relay *r, unsigned nr, int timeout_ms, FILE *out);

/* Closes a relay without waiting (what its pipe still holds is relayed). */
void line_relay_close(struct line_relay *r, FILE *out);

#endif
