/* purge.h - a target made as if new, behind the safety gate: a block
 * device's every block discarded (BLKDISCARD), a file's blocks punched out
 * (its size kept), a modelled drive formatted (every block erased). */
#ifndef DRIVEBENCH_TARGET_PURGE_H
#define DRIVEBENCH_TARGET_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct purge_result {
	const char *method;      /* "BLKDISCARD", "punch-hole", "format", "none" */
	uint64_t bytes;
};

/* Purges path when the safety gate lets it (it holds no data, or one of
 * destroy_ids names it); a path that does not exist is left alone (method
 * "none"). 0, or -1 with err_msg and *exit_code (3 refused, 2 cannot
 * open, 1 the discard failed). */
int target_purge(const char *path, const char *const *destroy_ids, unsigned nr_destroy_ids,
		 struct purge_result *out, int *exit_code);

/* The gate alone: 0 when path holds no data or one of destroy_ids names
 * it; -1 with err_msg and *exit_code (3 refused, 2 it cannot be checked).
 * An MPI run checks every rank's target so before any rank purges. */
int target_purge_consent(const char *path, const char *const *destroy_ids,
			 unsigned nr_destroy_ids, int *exit_code);

/* A suite's `purge = ...` (docs/suites.md). The concrete methods are
 * ordered weakest first, so "strongest" is the highest offered. */
enum purge_method {
	PURGE_DISCARD,          /* target_purge: BLKDISCARD, punch hole, model format */
	PURGE_FORMAT,           /* NVMe Format NVM, user data erase (SES 1) */
	PURGE_SANITIZE_BLOCK,   /* NVMe Sanitize, block erase (SANACT 2) */
	PURGE_SANITIZE_CRYPTO,  /* NVMe Sanitize, crypto erase (SANACT 4) */
	PURGE_SANITIZE,         /* the strongest sanitize offered */
	PURGE_STRONGEST,        /* the strongest method offered (PTS) */
};
#define PURGE_OFFERS(m) (1u << (m))

/* "discard", "format", "sanitize-block", "sanitize-crypto", "sanitize",
 * "strongest": 0, or -1 with err_msg listing them. */
int purge_method_parse(const char *text, enum purge_method *out);
const char *purge_method_name(enum purge_method m);
/* What an NVMe controller offers (PURGE_OFFERS bits): discard with
 * Dataset Management (ONCS bit 2), format with Format NVM (OACS bit 1),
 * the sanitizes by SANICAP. */
struct nvme_ctrl_info;
unsigned purge_nvme_offers(const struct nvme_ctrl_info *ctrl);
/* The concrete method asked resolves to among offers (strongest first
 * for "sanitize" and "strongest"); false when none fits. */
bool purge_choose(enum purge_method asked, unsigned offers, enum purge_method *use);
/* The offered methods, strongest first, ", " between: "format, discard". */
void purge_offers_text(unsigned offers, char *out, size_t len);
/* A sanitize (and a format where FNA says so) erases every namespace of
 * the controller: 0 when each active namespace but own is named
 * SERIAL:nsN in ids, else -1 with err_refuse naming the first that is not. */
int purge_sanitize_siblings(const char *serial, uint32_t own, const uint32_t *nsids,
			    unsigned nr, const char *const *ids, unsigned nr_ids);

/* The method path's purge would use for asked, without any I/O: a target
 * that is not an NVMe namespace (a file, a model, another block device,
 * one that does not exist) offers only discard. 0 with *use, or -1 with
 * err_msg ("purge = M: controller S does not offer it; it offers: ...")
 * and *exit_code 2. */
int target_purge_resolve(const char *path, enum purge_method asked,
			 enum purge_method *use, int *exit_code);

/* target_purge with the method asked (resolved as above): discard is
 * target_purge itself; format is Format NVM with user data erase in the
 * LBA format in use (method "nvme-format"); a sanitize (method
 * "nvme-sanitize-block", "nvme-sanitize-crypto") also needs every other
 * active namespace of the controller named in destroy_ids, and waits for
 * the Sanitize Status log to say it completed. */
int target_purge_method(const char *path, enum purge_method asked,
			const char *const *destroy_ids, unsigned nr_destroy_ids,
			struct purge_result *out, int *exit_code);

#endif
