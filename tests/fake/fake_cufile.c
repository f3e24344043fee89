/* fake_cufile.c - a stand-in for libcufile.so.0 for the cufile engine's
 * tests: handles wrap the file descriptor, reads and writes are pread/pwrite
 * into the (host) "GPU" buffer. Environment: FAKE_CUFILE_COMPAT=1 reports
 * compatibility mode (nvfs version 0.0); FAKE_CUFILE_FAIL= driver_open |
 * properties | handle_register | buf_register | stream_register | read |
 * read_errno | write | write_cufile_code | read_async | write_async.
 * Built with -DFAKE_CUFILE_NO_ASYNC, it lacks the stream API (pre-12.2). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct {
	int err;
	int cu_err;
} CUfileError_t;

typedef struct {
	int type;
	union {
		int fd;
		void *handle;
	} handle;
	const void *fs_ops;
} CUfileDescr_t;

typedef struct {
	struct {
		unsigned major_version, minor_version;
		size_t poll_thresh_size, max_direct_io_size;
		unsigned dstatusflags, dcontrolflags;
	} nvfs;
	unsigned fflags, max_device_cache_size, per_buffer_cache_size;
	unsigned max_device_pinned_mem_size, max_batch_io_size;
	unsigned max_batch_io_timeout_msecs;
} CUfileDrvProps_t;

struct fake_handle {
	int fd;
};

/* atomic: engine threads register and release at the same time */
static _Atomic int driver_opens, handles_live, buffers_live, streams_live;

static bool failing(const char *what)
{
	const char *fail = getenv("FAKE_CUFILE_FAIL");

	return fail && !strcmp(fail, what);
}

static CUfileError_t status(int err, int cu_err)
{
	CUfileError_t e = { err, cu_err };

	return e;
}

EXPORT CUfileError_t cuFileDriverOpen(void)
{
	if (failing("driver_open"))
		return status(5001, 0);   /* CU_FILE_DRIVER_NOT_INITIALIZED */
	driver_opens++;
	return status(0, 0);
}

EXPORT CUfileError_t cuFileDriverClose(void)
{
	if (driver_opens == 0)
		return status(5001, 0);
	driver_opens--;
	return status(0, 0);
}

EXPORT CUfileError_t cuFileDriverGetProperties(CUfileDrvProps_t *props)
{
	const char *compat = getenv("FAKE_CUFILE_COMPAT");

	if (driver_opens == 0)
		return status(5001, 0);
	if (failing("properties"))
		return status(5002, 0);   /* CU_FILE_DRIVER_INVALID_PROPS */
	memset(props, 0, sizeof(*props));
	if (!(compat && !strcmp(compat, "1"))) {
		props->nvfs.major_version = 2;
		props->nvfs.minor_version = 17;
	}
	props->nvfs.max_direct_io_size = 16384;
	return status(0, 0);
}

EXPORT CUfileError_t cuFileHandleRegister(void **fh, CUfileDescr_t *descr)
{
	struct fake_handle *h;

	if (driver_opens == 0)
		return status(5001, 0);
	if (failing("handle_register"))
		return status(5020, 0);   /* CU_FILE_DIO_NOT_SET */
	if (descr->type != 1 || descr->handle.fd < 0)
		return status(5022, 0);   /* CU_FILE_INVALID_VALUE */
	h = malloc(sizeof(*h));
	if (!h)
		return status(5030, 0);
	h->fd = descr->handle.fd;
	*fh = h;
	handles_live++;
	return status(0, 0);
}

EXPORT void cuFileHandleDeregister(void *fh)
{
	if (fh) {
		free(fh);
		handles_live--;
	}
}

EXPORT CUfileError_t cuFileBufRegister(const void *buf, size_t length, int flags)
{
	(void)flags;
	if (failing("buf_register"))
		return status(5011, 2);   /* CUDA driver error: out of memory */
	if (!buf || !length)
		return status(5022, 0);
	buffers_live++;
	return status(0, 0);
}

EXPORT CUfileError_t cuFileBufDeregister(const void *buf)
{
	if (!buf || buffers_live == 0)
		return status(5024, 0);   /* CU_FILE_MEMORY_NOT_REGISTERED */
	buffers_live--;
	return status(0, 0);
}

EXPORT ssize_t cuFileRead(void *fh, void *buf, size_t size, off_t file_offset,
			  off_t buf_offset)
{
	struct fake_handle *h = fh;

	if (failing("read"))
		return -5008;             /* CU_FILE_IO_NOT_SUPPORTED */
	if (failing("read_errno")) {
		errno = EIO;
		return -1;
	}
	return pread(h->fd, (char *)buf + buf_offset, size, file_offset);
}

EXPORT ssize_t cuFileWrite(void *fh, const void *buf, size_t size,
			   off_t file_offset, off_t buf_offset)
{
	struct fake_handle *h = fh;

	if (failing("write"))
		return -ENOSPC;           /* a negative errno value */
	if (failing("write_cufile_code"))
		return -5030;             /* CU_FILE_INTERNAL_ERROR */
	return pwrite(h->fd, (const char *)buf + buf_offset, size, file_offset);
}

#ifndef FAKE_CUFILE_NO_ASYNC
/* The stream API: the fake performs the I/O at once and stores the result
 * where the stream would, which synchronising then makes visible. */
EXPORT CUfileError_t cuFileReadAsync(void *fh, void *buf, size_t *size,
				     off_t *file_offset, off_t *buf_offset,
				     ssize_t *bytes_read, void *stream)
{
	(void)stream;
	if (failing("read_async"))
		return status(5011, 700); /* CUDA illegal address */
	*bytes_read = cuFileRead(fh, buf, *size, *file_offset, *buf_offset);
	return status(0, 0);
}

EXPORT CUfileError_t cuFileWriteAsync(void *fh, void *buf, size_t *size,
				      off_t *file_offset, off_t *buf_offset,
				      ssize_t *bytes_written, void *stream)
{
	(void)stream;
	if (failing("write_async"))
		return status(5008, 0);
	*bytes_written = cuFileWrite(fh, buf, *size, *file_offset, *buf_offset);
	return status(0, 0);
}

EXPORT CUfileError_t cuFileStreamRegister(void *stream, unsigned flags)
{
	(void)flags;
	if (failing("stream_register"))
		return status(5022, 0);
	if (!stream)
		return status(5022, 0);
	streams_live++;
	return status(0, 0);
}

EXPORT CUfileError_t cuFileStreamDeregister(void *stream)
{
	if (!stream || streams_live == 0)
		return status(5022, 0);
	streams_live--;
	return status(0, 0);
}
#endif

/* ---- for the tests: what is open ---- */

EXPORT int fake_cufile_driver_opens(void) { return driver_opens; }
EXPORT int fake_cufile_handles(void) { return handles_live; }
EXPORT int fake_cufile_buffers(void) { return buffers_live; }
EXPORT int fake_cufile_streams(void) { return streams_live; }
