/* purge.c - purging a target (see the header). */
#include "device/purge.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "device/model_target.h"
#include "device/safety.h"
#include "device/target.h"
#include "util/error.h"

int target_purge_consent(const char *path, const char *const *ids, unsigned nr, int *exit_code)
{
	struct safety_verdict v;
	unsigned i = 0;

	do {
		const char *id = i < nr ? ids[i] : NULL;

		if (safety_check(path, id, &v)) {
			*exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		if (v.allowed)
			return 0;
	} while (++i < nr);
	*exit_code = EXIT_UNSAFE;
	return err_refuse("refusing to purge '%s': %s%s%s", path,
			  v.nr_reasons ? v.reasons[0] : "it may hold data",
			  safety_consent_hint(&v)[0] ? "; " : "", safety_consent_hint(&v));
}

int target_purge(const char *path, const char *const *destroy_ids, unsigned nr_destroy_ids,
		 struct purge_result *out, int *exit_code)
{
	struct target t;
	int fd, e;

	out->method = "none";
	out->bytes = 0;
	if (!model_target_is(path) && access(path, F_OK) != 0)
		return 0;
	if (target_probe(path, &t)) {
		*exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	if (!t.exists)
		return 0;
	if (target_purge_consent(path, destroy_ids, nr_destroy_ids, exit_code))
		return -1;
	out->bytes = t.size;
	if (t.is_model) {
		out->method = "format";
		if (model_target_format(path)) {
			*exit_code = EXIT_RUN_FAILED;
			return -1;
		}
		return 0;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*exit_code = EXIT_BAD_INPUT;
		return err_set("cannot open '%s': %s", path, strerror(errno));
	}
	if (t.is_block) {
		uint64_t range[2] = { 0, t.size };

		out->method = "BLKDISCARD";
		if (ioctl(fd, BLKDISCARD, range) < 0) {
			e = errno;
			close(fd);
			*exit_code = EXIT_RUN_FAILED;
			return err_set("BLKDISCARD on '%s': %s", path, strerror(e));
		}
	} else {
		out->method = "punch-hole";
		if (t.size && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					0, (off_t)t.size) < 0) {
			e = errno;
			close(fd);
			*exit_code = EXIT_RUN_FAILED;
			return err_set("punching a hole over '%s': %s", path, strerror(e));
		}
	}
	close(fd);
	return 0;
}
