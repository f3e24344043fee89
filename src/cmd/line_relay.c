/* line_relay.c - relays children's standard error line by line under
 * their names (line_relay.h): poll on every open pipe, whole lines out,
 * a partial line kept until its newline, the pipe's end, or a full
 * buffer. */
#include "cmd/line_relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void line_relay_init(struct line_relay *r, int fd, const char *name)
{
	r->fd = fd;
	r->name = name;
	r->used = 0;
}

static void emit(struct line_relay *r, const char *text, size_t len, FILE *out)
{
	fprintf(out, "[%s] %.*s\n", r->name, (int)len, text);
}

/* Writes the whole lines in the buffer and keeps the rest; a full buffer
 * without a newline goes out as it is. */
static void flush_lines(struct line_relay *r, FILE *out)
{
	size_t start = 0;

	for (size_t i = 0; i < r->used; i++) {
		if (r->buf[i] != '\n')
			continue;
		emit(r, r->buf + start, i - start, out);
		start = i + 1;
	}
	if (start == 0 && r->used == sizeof(r->buf)) {
		emit(r, r->buf, r->used, out);
		start = r->used;
	}
	memmove(r->buf, r->buf + start, r->used - start);
	r->used -= start;
	fflush(out);
}

void line_relay_close(struct line_relay *r, FILE *out)
{
	if (r->fd < 0)
		return;
	/* what is left in the pipe, without blocking on a writer still alive */
	if (fcntl(r->fd, F_SETFL, O_NONBLOCK) == 0) {
		ssize_t n;

		while ((n = read(r->fd, r->buf + r->used, sizeof(r->buf) - r->used)) > 0) {
			r->used += (size_t)n;
			flush_lines(r, out);
		}
	}
	if (r->used)
		emit(r, r->buf, r->used, out);
	r->used = 0;
	fflush(out);
	close(r->fd);
	r->fd = -1;
}

/* Reads what the pipe holds; closes the relay at its end. */
static void relay_read(struct line_relay *r, FILE *out)
{
	ssize_t n = read(r->fd, r->buf + r->used, sizeof(r->buf) - r->used);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		line_relay_close(r, out);
		return;
	}
	r->used += (size_t)n;
	flush_lines(r, out);
}

unsigned line_relay_poll(struct line_relay *r, unsigned nr, int timeout_ms, FILE *out)
{
	struct pollfd *fds = calloc(nr ? nr : 1, sizeof(*fds));
	unsigned open = 0, *which = calloc(nr ? nr : 1, sizeof(*which));

	if (!fds || !which) {
		/* out of memory: no wait, every relay closed with what it had */
		for (unsigned i = 0; i < nr; i++)
			line_relay_close(&r[i], out);
		free(fds);
		free(which);
		return 0;
	}
	for (unsigned i = 0; i < nr; i++) {
		if (r[i].fd < 0)
			continue;
		fds[open].fd = r[i].fd;
		fds[open].events = POLLIN;
		which[open++] = i;
	}
	if (open && poll(fds, open, timeout_ms) > 0)
		for (unsigned k = 0; k < open; k++)
			if (fds[k].revents & (POLLIN | POLLHUP | POLLERR))
				relay_read(&r[which[k]], out);
	free(fds);
	free(which);
	open = 0;
	for (unsigned i = 0; i < nr; i++)
		open += r[i].fd >= 0;
	return open;
}
