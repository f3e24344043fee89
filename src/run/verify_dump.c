/* verify_dump.c - fio's verify_dump: every failed unit a read found (of
 * those the result keeps) is written to files in the working directory,
 * named as fio names them: FILE.OFFSET.received (the unit as read) and
 * FILE.OFFSET.expected (as it was written) when the header checked out,
 * FILE.OFFSET.hdr_fail (as read) when the header did not; FILE is the
 * target's base name, OFFSET the unit's. Both are header first (a
 * verify_offset is undone), so they compare byte for byte. Each file
 * passes the output gate (target/output_gate.h). */
#include "run/verify_dump.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/output_gate.h"
#include "util/error.h"

static int dump_file(const struct worker *w, uint64_t offset, const char *kind,
		     const void *data, uint32_t len)
{
	const char *path = w->target->path, *base = strrchr(path, '/');
	char name[PATH_MAX];
	FILE *f;
	int n;

	base = base ? base + 1 : path;
	n = snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", base, offset, kind);
	if (n < 0 || (size_t)n >= sizeof(name))
		return err_set("verify_dump: file name for '%s' too long", base);
	f = output_gate_open("verify_dump", name);
	if (!f)
		return -1;
	errno = 0;
	if (fwrite(data, 1, len, f) != len) {
		err_set("verify_dump: writing '%s': %s", name,
			errno ? strerror(errno) : "write error");
		fclose(f);
		return -1;
	}
	return output_gate_close(f, "verify_dump", name);
}

static bool header_failure(const struct verify_format *fmt, enum verify_verdict v)
{
	return fmt->header_len && v != VERIFY_TORN && v != VERIFY_CORRUPT;
}

/* One failure of the read io: its unit is inside io's buffer. */
static int dump_one(const struct worker *w, const struct io *io,
		    const struct verify_failure *f, unsigned char *scratch)
{
	const struct verify_ctx *v = &w->verify;
	const unsigned char *read = (const unsigned char *)io->buf + (f->offset - io->offset);

	verify_logical_copy(&v->fmt, scratch, read, v->unit);
	if (header_failure(&v->fmt, f->verdict))
		return dump_file(w, f->offset, "hdr_fail", scratch, v->unit);
	if (dump_file(w, f->offset, "received", scratch, v->unit))
		return -1;
	/* as written: the header's seed and write, which checked out */
	verify_expected_unit(&v->fmt, scratch, v->unit, f->offset, f->found_seed,
			     f->found_seq);
	return dump_file(w, f->offset, "expected", scratch, v->unit);
}

int verify_dump_failures(const struct worker *w, const struct io *io, unsigned first)
{
	const struct job_result *r = &w->result;
	unsigned char *scratch;
	int rc = 0;

	if (first >= r->nr_verify_failures)
		return 0;
	scratch = malloc(w->verify.unit);
	if (!scratch)
		return err_set("verify_dump: out of memory");
	for (unsigned i = first; i < r->nr_verify_failures && rc == 0; i++) {
		const struct verify_failure *f = &r->verify_failures[i];

		if (f->verdict == VERIFY_MISSING || f->offset < io->offset ||
		    f->offset + f->len > io->offset + (uint64_t)io->result)
			continue;
		rc = dump_one(w, io, f, scratch);
	}
	free(scratch);
	return rc;
}
