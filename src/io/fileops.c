/* fileops.c - fio's file and directory operation engines (fio's
 * engines/fileoperations.c, formerly filecreate.c, filestat.c,
 * filedelete.c): the operation each one performs on a path, its ops table
 * with its flags. The loop that runs
 * them over the job's files is run/loop_fileops.c. */
#include "io/fileops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/option_table.h"

/* Nothing to set up: the operation needs no state. The loop never calls
 * prep, submit or reap (ENGINE_FILE_OPS). */
static int fileop_init(struct engine *e, const struct job_spec *spec)
{
	(void)e;
	(void)spec;
	return 0;
}

static int fileop_no_io(struct engine *e, struct io *io)
{
	(void)e;
	(void)io;
	return err_set("internal error: a file-ops engine has no I/O to queue");
}

static int fileop_no_submit(struct engine *e)
{
	(void)e;
	return 0;
}

static int fileop_no_reap(struct engine *e, struct io **out, unsigned min, unsigned max)
{
	(void)e;
	(void)out;
	(void)min;
	(void)max;
	return 0;
}

static void fileop_cleanup(struct engine *e)
{
	(void)e;
}

/* stat_type is a file-set option (job/file_options.c), checked against
 * the engine by job_files_check, so the tables carry no options */
#define FILEOP_ENGINE(engine_name) {                            \
	.name = engine_name, .flags = ENGINE_SYNC | ENGINE_FILE_OPS,  \
	.init = fileop_init, .prep = fileop_no_io,                   \
	.submit = fileop_no_submit, .reap = fileop_no_reap,          \
	.cleanup = fileop_cleanup }

const struct engine_ops engine_filecreate = FILEOP_ENGINE("filecreate");
const struct engine_ops engine_filestat = FILEOP_ENGINE("filestat");
const struct engine_ops engine_filedelete = FILEOP_ENGINE("filedelete");
const struct engine_ops engine_dircreate = FILEOP_ENGINE("dircreate");
const struct engine_ops engine_dirstat = FILEOP_ENGINE("dirstat");
const struct engine_ops engine_dirdelete = FILEOP_ENGINE("dirdelete");

bool fileop_engine(const struct engine_ops *ops, enum fileop_kind *kind, bool *dirs)
{
	static const struct {
		const struct engine_ops *ops;
		enum fileop_kind kind;
		bool dirs;
	} table[] = {
		{ &engine_filecreate, FILEOP_CREATE, false },
		{ &engine_filestat, FILEOP_STAT, false },
		{ &engine_filedelete, FILEOP_DELETE, false },
		{ &engine_dircreate, FILEOP_CREATE, true },
		{ &engine_dirstat, FILEOP_STAT, true },
		{ &engine_dirdelete, FILEOP_DELETE, true },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].ops == ops) {
			*kind = table[i].kind;
			*dirs = table[i].dirs;
			return true;
		}
	return false;
}

bool fileop_needs_layout(const struct engine_ops *ops)
{
	enum fileop_kind kind;
	bool dirs;

	return fileop_engine(ops, &kind, &dirs) && !dirs && kind != FILEOP_CREATE;
}

static int do_stat(const char *path, unsigned stat_type)
{
	struct stat st;
	int rc;

	switch (stat_type) {
	case FILEOP_STAT_LSTAT:
		rc = lstat(path, &st);
		break;
	case FILEOP_STAT_STATX: {
#ifdef STATX_ALL
		struct statx stx;

		rc = statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
#else
		rc = stat(path, &st);
#endif
		break;
	}
	default:
		rc = stat(path, &st);
		break;
	}
	return rc ? -errno : 0;
}

int fileop_do(const struct engine_ops *ops, const char *path, unsigned stat_type, int *fd)
{
	enum fileop_kind kind;
	bool dirs;

	*fd = -1;
	if (!fileop_engine(ops, &kind, &dirs))
		return -EINVAL;
	switch (kind) {
	case FILEOP_CREATE:
		/* fio: open(O_CREAT|O_RDWR, 0600) for a file; mkdir for a
		 * directory (fio passes S_IFDIR as the mode; 0700 here) */
		if (dirs)
			return mkdir(path, 0700) ? -errno : 0;
		*fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		return *fd < 0 ? -errno : 0;
	case FILEOP_STAT:
		return do_stat(path, stat_type);
	case FILEOP_DELETE:
		return (dirs ? rmdir(path) : unlink(path)) ? -errno : 0;
	}
	return -EINVAL;
}
