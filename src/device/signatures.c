/* signatures.c - libblkid's safe probe (superblocks and partition tables)
 * over a whole device, one of its partitions or a regular file, turned into
 * one sentence per finding for the safety gate. */
#include "device/signatures.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static const char *article(const char *word)
{
	return word[0] && strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

static void add(struct signature_findings *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct signature_findings *out, const char *fmt, ...)
{
	va_list ap;

	if (out->nr == SIGNATURE_MAX_FINDINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(out->sentence[out->nr], sizeof(out->sentence[0]), fmt, ap);
	va_end(ap);
	out->nr++;
}

static void describe_type(struct signature_findings *out, const char *subject,
			  const char *type, const char *usage)
{
	const char *what = "signature";

	if (usage && !strcmp(usage, "filesystem"))
		what = "filesystem";
	else if (usage && !strcmp(usage, "raid"))
		what = "RAID/LVM signature";
	else if (usage && !strcmp(usage, "crypto"))
		what = "encryption signature";
	add(out, "%s carries %s %s %s", subject, article(type), type, what);
}

int signatures_probe(int fd, uint64_t offset, uint64_t size, const char *subject,
		     struct signature_findings *out)
{
	blkid_probe probe = blkid_new_probe();
	const char *type = NULL, *usage = NULL, *pttype = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!probe)
		return err_set("cannot probe %s for signatures: out of memory", subject);
	if (blkid_probe_set_device(probe, fd, (blkid_loff_t)offset, (blkid_loff_t)size)) {
		blkid_free_probe(probe);
		return err_set("cannot probe %s for signatures: %s", subject,
			       strerror(errno ? errno : EIO));
	}
	blkid_probe_enable_superblocks(probe, 1);
	blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(probe, 1);
	rc = blkid_do_safeprobe(probe);
	if (rc == 0) {
		blkid_probe_lookup_value(probe, "TYPE", &type, NULL);
		blkid_probe_lookup_value(probe, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(probe, "PTTYPE", &pttype, NULL);
		if (pttype)
			add(out, "%s has %s %s partition table", subject, article(pttype), pttype);
		if (type)
			describe_type(out, subject, type, usage);
		if (!pttype && !type)
			add(out, "%s carries a signature of unknown type", subject);
	} else if (rc == -2) {
		add(out, "%s carries more than one conflicting signature "
			 "(filesystem, partition table or RAID)", subject);
	} else if (rc < 0) {
		add(out, "%s could not be probed for signatures", subject);
	}
	blkid_free_probe(probe);
	return (int)out->nr;
}
