/* atomic.c - atomic=1's check (atomic.h): statx(STATX_WRITE_ATOMIC) on the
 * open target gives the atomic write unit range; a write size outside it,
 * or not a power of two, would fail with EINVAL on every write. The statx
 * fields are read at their kernel offsets: the C library's headers here
 * predate them. */
#include "io/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/error.h"

#define STATX_WRITE_ATOMIC_MASK 0x00010000u
#define STATX_ATTR_WRITE_ATOMIC_BIT 0x00400000ull
#define OFF_UNIT_MIN 0xa8
#define OFF_UNIT_MAX 0xac

_Static_assert(sizeof(struct statx) >= OFF_UNIT_MAX + 4, "statx holds the atomic fields");

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check_size(const struct engine *e, uint64_t bs, uint32_t lo, uint32_t hi)
{
	if (power_of_two(bs) && bs >= lo && bs <= hi)
		return 0;
	return err_set("atomic=1: a %llu-byte write cannot be atomic on '%s': it "
		       "takes powers of two from %u to %u bytes", (unsigned long long)bs,
		       e->path ? e->path : "", lo, hi);
}

int atomic_writes_check(const struct engine *e, const struct job_spec *spec)
{
	struct statx stx;
	uint32_t lo, hi;

	if (!spec->eng.atomic || !job_spec_writes(spec))
		return 0;
	memset(&stx, 0, sizeof(stx));
	if (statx(e->fd, "", AT_EMPTY_PATH, STATX_WRITE_ATOMIC_MASK, &stx))
		return err_set("atomic=1: statx '%s': %s", e->path ? e->path : "",
			       strerror(errno));
	memcpy(&lo, (const char *)&stx + OFF_UNIT_MIN, sizeof(lo));
	memcpy(&hi, (const char *)&stx + OFF_UNIT_MAX, sizeof(hi));
	if (!(stx.stx_mask & STATX_WRITE_ATOMIC_MASK) ||
	    !(stx.stx_attributes & STATX_ATTR_WRITE_ATOMIC_BIT) || hi == 0)
		return err_set("atomic=1: '%s' has no atomic writes (statx reports "
			       "none: the kernel, filesystem or device does not offer "
			       "them; see /sys/block/DEV/queue/atomic_write_unit_max_bytes)",
			       e->path ? e->path : "");
	if (spec->bssplit_nr[DIR_WRITE] == 0)
		return check_size(e, spec->bs[DIR_WRITE], lo, hi);
	for (unsigned i = 0; i < spec->bssplit_nr[DIR_WRITE]; i++)
		if (spec->bssplit[DIR_WRITE][i].pct > 0 &&
		    check_size(e, spec->bssplit[DIR_WRITE][i].bs, lo, hi))
			return -1;
	return 0;
}
