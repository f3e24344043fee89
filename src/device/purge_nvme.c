/* purge_nvme.c - the purge methods beyond a discard: NVMe Format NVM and
 * Sanitize, what a controller offers of them, and the choice of the
 * strongest (see purge.h). */
#include "device/purge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "device/model_target.h"
#include "device/nvme.h"
#include "device/target.h"
#include "util/error.h"

#define SANITIZE_POLL_NS 1000000000L          /* the status log read this often */
#define SANITIZE_WAIT_S (48u * 3600u)          /* at most this long */
#define SANITIZE_NEVER_S 30u                   /* "never sanitized" past this: not started */

static const char *const method_names[] = {
	[PURGE_DISCARD] = "discard",
	[PURGE_FORMAT] = "format",
	[PURGE_SANITIZE_BLOCK] = "sanitize-block",
	[PURGE_SANITIZE_CRYPTO] = "sanitize-crypto",
	[PURGE_SANITIZE] = "sanitize",
	[PURGE_STRONGEST] = "strongest",
};
#define NR_METHODS (sizeof(method_names) / sizeof(method_names[0]))

int purge_method_parse(const char *text, enum purge_method *out)
{
	for (unsigned i = 0; i < NR_METHODS; i++)
		if (!strcmp(text, method_names[i])) {
			*out = (enum purge_method)i;
			return 0;
		}
	return err_set("'%s' is not a purge method (discard, format, sanitize-block, "
		       "sanitize-crypto, sanitize, strongest)", text);
}

const char *purge_method_name(enum purge_method m)
{
	return (unsigned)m < NR_METHODS ? method_names[m] : "?";
}

unsigned purge_nvme_offers(const struct nvme_ctrl_info *ctrl)
{
	unsigned offers = 0;

	if (ctrl->oncs & 0x4u)
		offers |= PURGE_OFFERS(PURGE_DISCARD);
	if (ctrl->oacs & 0x2u)
		offers |= PURGE_OFFERS(PURGE_FORMAT);
	if (ctrl->sanicap & NVME_SANICAP_BLOCK)
		offers |= PURGE_OFFERS(PURGE_SANITIZE_BLOCK);
	if (ctrl->sanicap & NVME_SANICAP_CRYPTO)
		offers |= PURGE_OFFERS(PURGE_SANITIZE_CRYPTO);
	return offers;
}

bool purge_choose(enum purge_method asked, unsigned offers, enum purge_method *use)
{
	int low = asked, high = asked;

	if (asked == PURGE_SANITIZE) {
		low = PURGE_SANITIZE_BLOCK;
		high = PURGE_SANITIZE_CRYPTO;
	} else if (asked == PURGE_STRONGEST) {
		low = PURGE_DISCARD;
		high = PURGE_SANITIZE_CRYPTO;
	}
	for (int m = high; m >= low; m--)
		if (offers & PURGE_OFFERS(m)) {
			*use = (enum purge_method)m;
			return true;
		}
	return false;
}

void purge_offers_text(unsigned offers, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (int m = PURGE_SANITIZE_CRYPTO; m >= PURGE_DISCARD && n < len; m--)
		if (offers & PURGE_OFFERS(m))
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "",
					      method_names[m]);
	if (!out[0])
		snprintf(out, len, "none");
}

int purge_sanitize_siblings(const char *serial, uint32_t own, const uint32_t *nsids,
			    unsigned nr, const char *const *ids, unsigned nr_ids)
{
	char id[64];

	for (unsigned i = 0; i < nr; i++) {
		bool named = false;

		if (nsids[i] == own)
			continue;
		snprintf(id, sizeof(id), "%s:ns%u", serial, (unsigned)nsids[i]);
		for (unsigned k = 0; k < nr_ids && !named; k++)
			named = !strcmp(ids[k], id);
		if (!named)
			return err_refuse("this purge erases every namespace of controller %s; "
					  "namespace %u is not named: pass --destroy-data=%s too",
					  serial, (unsigned)nsids[i], id);
	}
	return 0;
}

/* What the namespace fd is open on offers, and its controller and nsid;
 * -1 (no err_msg) when fd is no NVMe namespace, -2 with err_msg when
 * Identify failed. */
static int nvme_offers(int fd, struct nvme_ctrl_info *ctrl, uint32_t *nsid, unsigned *offers)
{
	uint8_t buf[NVME_IDENTIFY_SIZE];

	if (nvme_namespace_id(fd, nsid))
		return -1;
	if (nvme_identify(fd, 0, 1, buf) || nvme_parse_ctrl(buf, ctrl))
		return -2;
	*offers = purge_nvme_offers(ctrl);
	return 0;
}

/* Whether fd is a partition's block device (its sysfs "partition" file):
 * a format or sanitize would erase the whole namespace around it. */
static bool is_partition(int fd)
{
	char sys[96];
	struct stat st;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition", major(st.st_rdev),
		 minor(st.st_rdev));
	return access(sys, F_OK) == 0;
}

/* The resolution itself, fd open on path (or -1: it offers discard). */
static int resolve(const char *path, int fd, enum purge_method asked, enum purge_method *use,
		   struct nvme_ctrl_info *ctrl, uint32_t *nsid, int *exit_code)
{
	unsigned offers = PURGE_OFFERS(PURGE_DISCARD);
	char text[96], who[96];
	int rc = fd < 0 ? -1 : nvme_offers(fd, ctrl, nsid, &offers);

	*exit_code = EXIT_BAD_INPUT;
	if (rc == -2)
		return err_prefix("purge = %s on '%s'", purge_method_name(asked), path);
	if (rc == 0 && asked == PURGE_STRONGEST && is_partition(fd))
		rc = -1;   /* a partition's strongest is its discard */
	if (rc == -1) {
		offers = PURGE_OFFERS(PURGE_DISCARD);
		snprintf(who, sizeof(who), "'%s' is not an NVMe namespace", path);
	} else if (asked != PURGE_DISCARD && is_partition(fd)) {
		return err_set("purge = %s: '%s' is a partition; a format or sanitize erases "
			       "the whole namespace: name the namespace itself",
			       purge_method_name(asked), path);
	} else {
		snprintf(who, sizeof(who), "controller %s does not offer it", ctrl->serial);
	}
	/* a discard is always tried as before: BLKDISCARD says if it fails */
	if (asked == PURGE_DISCARD) {
		*use = PURGE_DISCARD;
		return 0;
	}
	if (purge_choose(asked, offers, use))
		return 0;
	purge_offers_text(offers, text, sizeof(text));
	return err_set("purge = %s: %s; it offers: %s", purge_method_name(asked), who, text);
}

int target_purge_resolve(const char *path, enum purge_method asked,
			 enum purge_method *use, int *exit_code)
{
	struct nvme_ctrl_info ctrl;
	struct target t;
	uint32_t nsid;
	int fd = -1, rc;

	*use = PURGE_DISCARD;
	if (asked == PURGE_DISCARD)
		return 0;
	if (!model_target_is(path) && access(path, F_OK) != 0 && asked == PURGE_STRONGEST)
		return 0;   /* a missing target is left alone, as target_purge does */
	if (target_probe(path, &t)) {
		*exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	if (t.is_block && !t.is_model) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			*exit_code = EXIT_BAD_INPUT;
			return err_set("cannot open '%s': %s", path, strerror(errno));
		}
	}
	rc = resolve(path, fd, asked, use, &ctrl, &nsid, exit_code);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Waits for the sanitize started to complete (the Sanitize Status log). */
static int sanitize_wait(int fd, const char *serial)
{
	struct timespec pause = { SANITIZE_POLL_NS / 1000000000L, SANITIZE_POLL_NS % 1000000000L };
	uint8_t buf[NVME_SANITIZE_LOG_SIZE];
	struct nvme_sanitize_status st;

	for (unsigned waited = 0; waited < SANITIZE_WAIT_S; waited++) {
		if (nvme_get_log(fd, NVME_NSID_ALL, NVME_LOG_SANITIZE, buf, sizeof(buf)))
			return -1;
		nvme_parse_sanitize_status(buf, &st);
		switch (st.state) {
		case NVME_SANITIZE_DONE:
		case NVME_SANITIZE_DONE_NO_DEALLOC:
			return 0;
		case NVME_SANITIZE_FAILED:
			return err_set("sanitize of controller %s failed (Sanitize Status log)",
				       serial);
		case NVME_SANITIZE_NEVER:
			if (waited >= SANITIZE_NEVER_S)
				return err_set("sanitize of controller %s: the Sanitize Status "
					       "log still says it never ran", serial);
			break;
		default:
			break;
		}
		nanosleep(&pause, NULL);
	}
	return err_set("sanitize of controller %s did not complete in %u hours", serial,
		       SANITIZE_WAIT_S / 3600u);
}

/* The method use (format or a sanitize) on the namespace nsid fd is open on. */
static int erase(int fd, enum purge_method use, const struct nvme_ctrl_info *ctrl,
		 uint32_t nsid, const char *const *ids, unsigned nr_ids, int *exit_code)
{
	uint8_t buf[NVME_IDENTIFY_SIZE];
	uint32_t nsids[NVME_IDENTIFY_SIZE / 4];
	struct nvme_ns_info ns;
	unsigned nr;

	*exit_code = EXIT_RUN_FAILED;
	/* a sanitize, and a format where FNA says so, erase every namespace */
	if (use != PURGE_FORMAT || (ctrl->fna & 0x3u)) {
		if (nvme_active_namespaces(fd, nsids, &nr))
			return -1;
		if (purge_sanitize_siblings(ctrl->serial, nsid, nsids, nr, ids, nr_ids)) {
			*exit_code = EXIT_UNSAFE;
			return -1;
		}
	}
	if (use == PURGE_FORMAT)
		return nvme_identify(fd, nsid, 0, buf) || nvme_parse_ns(buf, &ns) ||
			       nvme_format_nvm(fd, nsid, ns.lba_format, 1) ? -1 : 0;
	if (nvme_sanitize(fd, use == PURGE_SANITIZE_CRYPTO ? NVME_SANACT_CRYPTO_ERASE
			  : NVME_SANACT_BLOCK_ERASE))
		return -1;
	return sanitize_wait(fd, ctrl->serial);
}

int target_purge_method(const char *path, enum purge_method asked,
			const char *const *destroy_ids, unsigned nr_destroy_ids,
			struct purge_result *out, int *exit_code)
{
	struct nvme_ctrl_info ctrl;
	enum purge_method use;
	struct target t;
	uint32_t nsid;
	int fd;

	out->method = "none";
	out->bytes = 0;
	if (target_purge_resolve(path, asked, &use, exit_code))
		return -1;
	if (use == PURGE_DISCARD)
		return target_purge(path, destroy_ids, nr_destroy_ids, out, exit_code);
	/* resolved past discard: an NVMe namespace, a block device */
	if (target_probe(path, &t)) {
		*exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	if (target_purge_consent(path, destroy_ids, nr_destroy_ids, exit_code))
		return -1;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*exit_code = EXIT_BAD_INPUT;
		return err_set("cannot open '%s': %s", path, strerror(errno));
	}
	if (resolve(path, fd, asked, &use, &ctrl, &nsid, exit_code) ||
	    erase(fd, use, &ctrl, nsid, destroy_ids, nr_destroy_ids, exit_code)) {
		close(fd);
		return -1;
	}
	close(fd);
	out->method = use == PURGE_FORMAT ? "nvme-format"
		: use == PURGE_SANITIZE_BLOCK ? "nvme-sanitize-block" : "nvme-sanitize-crypto";
	out->bytes = t.size;
	return 0;
}
