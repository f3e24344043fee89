/* cufile.c - the `cufile` engine (GPU Direct Storage in gdsio's transfer
 * types) and gds_probe. libcufile and the CUDA runtime (or, failing that,
 * the driver API) are loaded with dlopen on first use (cufile_lib.c), so
 * nothing here needs CUDA at build time. One synchronous I/O per thread, as
 * gdsio issues them. */
#include "io/cufile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "io/cufile_lib.h"
#include "io/engine.h"
#include "util/error.h"

/* ---- probe -------------------------------------------------------------- */

static void probe_cuda(struct gds_env *env)
{
	struct gpu gpu;
	int count = 0, rc;

	if (cufile_gpu_acquire(&gpu, env->why, sizeof(env->why)))
		return;
	rc = gpu.ops->device_count(&gpu, &count);
	if (rc) {
		char text[160];

		describe_gpu(&gpu, rc, text, sizeof(text));
		snprintf(env->why, sizeof(env->why), "%s: %s", gpu.call, text);
		return;
	}
	if (count <= 0) {
		snprintf(env->why, sizeof(env->why), "no CUDA device");
		return;
	}
	env->devices = count;
	env->have_cuda = true;
	if (gpu.ops->device_name(&gpu, 0, env->gpu_model, sizeof(env->gpu_model)))
		env->gpu_model[0] = '\0';
}

static void probe_cufile(struct gds_env *env)
{
	struct cufile_api api;
	union cufile_props props;
	cufile_error e;
	char why[sizeof(env->why)] = "";

	if (cufile_driver_acquire(&api, why, sizeof(why))) {
		if (!env->why[0])
			snprintf(env->why, sizeof(env->why), "%s", why);
		return;
	}
	env->have_cufile = true;
	env->have_async = api.read_async && api.write_async;
	memset(&props, 0, sizeof(props));
	e = api.get_properties(&props);
	/* Without nvidia-fs, cuFile runs its POSIX compatibility mode and
	 * reports the nvfs driver version as 0.0; no proof of nvidia-fs
	 * (properties unreadable) counts as compatibility mode too. */
	env->compat_mode = e.err != 0 ||
		(props.props.nvfs.major_version == 0 &&
		 props.props.nvfs.minor_version == 0);
	cufile_driver_release();
}

void gds_probe(struct gds_env *env)
{
	memset(env, 0, sizeof(*env));
	probe_cuda(env);
	probe_cufile(env);
}

const char *gds_xfer_label(enum gds_xfer x)
{
	switch (x) {
	case GDS_XFER_GPUD: return "GPUD";
	case GDS_XFER_CPUONLY: return "CPUONLY";
	case GDS_XFER_CPU_GPU: return "CPU_GPU";
	case GDS_XFER_GPUD_ASYNC: return "GPUD_ASYNC";
	}
	return "UNKNOWN";
}

/* ---- the engine --------------------------------------------------------- */

struct cufile_state {
	enum gds_xfer xfer;
	int device;
	struct io *queued;            /* prepared, not yet submitted */
	struct io *done;              /* submitted, not yet reaped */
	bool uses_gpu, uses_cufile;
	struct gpu gpu;
	struct cufile_api cufile;
	bool holds_driver;
	cufile_handle handle;
	bool handle_registered;
	cuda_stream stream;
	bool stream_created, stream_registered;
	void **gpu_bufs;              /* one per I/O slot */
	bool *buf_registered;
	unsigned nr_bufs;
	size_t buf_size;
	/* the stream API reads these when the stream runs them */
	size_t async_size;
	off_t async_file_offset, async_buf_offset;
	ssize_t async_bytes;
};

static void cufile_cleanup(struct engine *e)
{
	struct cufile_state *st = e->priv;

	if (!st)
		return;
	if (st->uses_gpu)
		st->gpu.ops->use_device(&st->gpu, st->device);
	for (unsigned i = 0; i < st->nr_bufs; i++) {
		if (st->buf_registered && st->buf_registered[i])
			st->cufile.buf_deregister(st->gpu_bufs[i]);
		if (st->gpu_bufs[i])
			st->gpu.ops->free(&st->gpu, st->gpu_bufs[i]);
	}
	if (st->stream_registered && st->cufile.stream_deregister)
		st->cufile.stream_deregister(st->stream);
	if (st->stream_created)
		st->gpu.ops->stream_destroy(&st->gpu, st->stream);
	if (st->handle_registered)
		st->cufile.handle_deregister(st->handle);
	if (st->holds_driver)
		cufile_driver_release();
	if (st->uses_gpu)
		st->gpu.ops->unuse_device(&st->gpu);
	free(st->gpu_bufs);
	free(st->buf_registered);
	free(st);
	e->priv = NULL;
}

static int init_fail(struct engine *e)
{
	cufile_cleanup(e);
	return -1;
}

/* A gpu op failed with rc; st->gpu.call names the call. */
static int gpu_fail(struct cufile_state *st, int rc)
{
	char text[160];

	describe_gpu(&st->gpu, rc, text, sizeof(text));
	return err_set("cufile: %s: %s", st->gpu.call, text);
}

static int cufile_fail(const char *call, cufile_error e)
{
	char text[200];

	cufile_describe_error(e, text, sizeof(text));
	return err_set("cufile: %s: %s", call, text);
}

/* Checks that this machine can run the GPU type asked for. */
static int check_gpu_available(const struct job_spec *spec, enum gds_xfer xfer)
{
	struct gds_env env;

	gds_probe(&env);
	if (!env.have_cuda || (xfer != GDS_XFER_CPU_GPU && !env.have_cufile))
		return err_set("cufile: gds_transfer=%d (%s) needs a GPU path: %s",
			       (int)xfer, gds_xfer_label(xfer), env.why);
	if (spec->gpu_device >= (unsigned)env.devices)
		return err_set("cufile: gpu_dev_id=%u, but there %s %d CUDA device%s",
			       spec->gpu_device, env.devices == 1 ? "is" : "are",
			       env.devices, env.devices == 1 ? "" : "s");
	if (xfer == GDS_XFER_GPUD_ASYNC && !env.have_async)
		return err_set("cufile: gds_transfer=5 (GPUD_ASYNC): this libcufile "
			       "has no stream API (cuFileReadAsync, CUDA 12.2+)");
	return 0;
}

/* GPU buffers, one per slot, filled from the runner's host buffers so that
 * writes carry the same incompressible data as the other engines. */
static int setup_gpu_buffers(struct engine *e, struct cufile_state *st)
{
	int rc;

	st->gpu_bufs = calloc(e->nr_ios, sizeof(*st->gpu_bufs));
	st->buf_registered = calloc(e->nr_ios, sizeof(*st->buf_registered));
	if (!st->gpu_bufs || !st->buf_registered)
		return err_set("cufile: out of memory");
	st->nr_bufs = e->nr_ios;
	st->buf_size = e->buf_size;
	for (unsigned i = 0; i < e->nr_ios; i++) {
		rc = st->gpu.ops->alloc(&st->gpu, &st->gpu_bufs[i], st->buf_size);
		if (rc) {
			st->gpu_bufs[i] = NULL;
			return gpu_fail(st, rc);
		}
		rc = st->gpu.ops->copy_to_gpu(&st->gpu, st->gpu_bufs[i],
					      e->ios[i].buf, st->buf_size);
		if (rc)
			return gpu_fail(st, rc);
		if (st->uses_cufile) {
			cufile_error ce = st->cufile.buf_register(st->gpu_bufs[i],
								  st->buf_size, 0);

			if (ce.err)
				return cufile_fail("cuFileBufRegister", ce);
			st->buf_registered[i] = true;
		}
	}
	return 0;
}

static int setup_cufile(struct engine *e, struct cufile_state *st)
{
	struct cufile_descr descr;
	char why[256] = "";
	cufile_error ce;

	if (cufile_driver_acquire(&st->cufile, why, sizeof(why)))
		return err_set("cufile: %s", why);
	st->holds_driver = true;
	memset(&descr, 0, sizeof(descr));
	descr.type = CUFILE_HANDLE_TYPE_OPAQUE_FD;
	descr.handle.fd = e->fd;
	ce = st->cufile.handle_register(&st->handle, &descr);
	if (ce.err)
		return cufile_fail("cuFileHandleRegister", ce);
	st->handle_registered = true;
	if (st->xfer == GDS_XFER_GPUD_ASYNC) {
		int rc;

		if (!st->gpu.ops->has_streams(&st->gpu))
			return err_set("cufile: the %s has no stream API",
				       st->gpu.ops->library);
		rc = st->gpu.ops->stream_create(&st->gpu, &st->stream);
		if (rc)
			return gpu_fail(st, rc);
		st->stream_created = true;
		if (st->cufile.stream_register) {
			ce = st->cufile.stream_register(st->stream, 0);
			if (ce.err)
				return cufile_fail("cuFileStreamRegister", ce);
			st->stream_registered = true;
		}
	}
	return 0;
}

static int cufile_init(struct engine *e, const struct job_spec *spec)
{
	struct cufile_state *st;
	char why[256] = "";
	int rc;

	if (job_spec_trims(spec))
		return err_set("cufile: trims are not supported (cuFile has no "
			       "discard); use ioengine=io_uring, libaio or psync");
	if (!gds_xfer_valid(spec->gds_transfer))
		return err_set("cufile: gds_transfer=%d is not a gdsio transfer "
			       "type (0 GPUD, 1 CPUONLY, 2 CPU_GPU, 5 GPUD_ASYNC)",
			       spec->gds_transfer);
	if (e->depth != 1)
		return err_set("cufile: iodepth must be 1 (gds issues one synchronous "
			       "I/O per thread, as gdsio; use numjobs for more)");
	if (!spec->direct)
		return err_set("cufile: needs direct=1 (O_DIRECT), as gdsio");
	if (e->fd < 0)
		return err_set("cufile: no file descriptor");
	if (e->nr_ios == 0 || !e->ios || e->buf_size == 0)
		return err_set("cufile: no I/O buffers");
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("cufile: out of memory");
	e->priv = st;
	st->xfer = (enum gds_xfer)spec->gds_transfer;
	st->device = (int)spec->gpu_device;
	if (st->xfer == GDS_XFER_CPUONLY)
		return 0;
	if (check_gpu_available(spec, st->xfer))
		return init_fail(e);
	if (cufile_gpu_acquire(&st->gpu, why, sizeof(why))) {
		err_set("cufile: %s", why);
		return init_fail(e);
	}
	st->uses_gpu = true;
	rc = st->gpu.ops->use_device(&st->gpu, st->device);
	if (rc) {
		gpu_fail(st, rc);
		return init_fail(e);
	}
	st->uses_cufile = st->xfer == GDS_XFER_GPUD || st->xfer == GDS_XFER_GPUD_ASYNC;
	if (st->uses_cufile && setup_cufile(e, st))
		return init_fail(e);
	if (setup_gpu_buffers(e, st))
		return init_fail(e);
	return 0;
}

static int cufile_prep(struct engine *e, struct io *io)
{
	struct cufile_state *st = e->priv;

	if (st->queued || st->done)
		return err_set("cufile: queue full (1 I/O)");
	if (io->len > st->buf_size && st->xfer != GDS_XFER_CPUONLY)
		return err_set("cufile: I/O of %u bytes exceeds the %zu-byte GPU buffer",
			       io->len, st->buf_size);
	st->queued = io;
	return 0;
}

/* cuFileRead/Write's return: bytes, -1 with errno, -errno, or -code for a
 * cuFile error (above 5000), which ends the job with its name. */
static int cufile_result(struct io *io, ssize_t ret, int saved_errno,
			 const char *call)
{
	char text[200];

	if (ret >= 0) {
		io->result = (int32_t)ret;
		return 0;
	}
	if (ret == -1) {
		io->result = saved_errno ? -saved_errno : -EIO;
		return 0;
	}
	if (-ret < CUFILE_ERROR_BASE) {
		io->result = (int32_t)ret;
		return 0;
	}
	cufile_describe_code((int)-ret, text, sizeof(text));
	return err_set("cufile: %s at offset %llu: %s", call,
		       (unsigned long long)io->offset, text);
}

static int submit_gpud(struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	ssize_t ret;

	errno = 0;
	if (io->dir == DIR_READ)
		ret = st->cufile.read(st->handle, gpu, io->len, (off_t)io->offset, 0);
	else
		ret = st->cufile.write(st->handle, gpu, io->len, (off_t)io->offset, 0);
	return cufile_result(io, ret, errno, io->dir == DIR_READ ? "cuFileRead" : "cuFileWrite");
}

static int submit_async(struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	const char *call = io->dir == DIR_READ ? "cuFileReadAsync" : "cuFileWriteAsync";
	cufile_error ce;
	int rc;

	st->async_size = io->len;
	st->async_file_offset = (off_t)io->offset;
	st->async_buf_offset = 0;
	st->async_bytes = 0;
	if (io->dir == DIR_READ)
		ce = st->cufile.read_async(st->handle, gpu, &st->async_size,
					   &st->async_file_offset,
					   &st->async_buf_offset,
					   &st->async_bytes, st->stream);
	else
		ce = st->cufile.write_async(st->handle, gpu, &st->async_size,
					    &st->async_file_offset,
					    &st->async_buf_offset,
					    &st->async_bytes, st->stream);
	if (ce.err)
		return cufile_fail(call, ce);
	rc = st->gpu.ops->stream_synchronize(&st->gpu, st->stream);
	if (rc)
		return gpu_fail(st, rc);
	return cufile_result(io, st->async_bytes, 0, call);
}

static int submit_cpu_gpu(struct engine *e, struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	int rc;

	if (io->dir == DIR_WRITE) {
		rc = st->gpu.ops->copy_from_gpu(&st->gpu, io->buf, gpu, io->len);
		if (rc)
			return gpu_fail(st, rc);
		io->result = engine_posix_io(e->fd, io);
		return 0;
	}
	io->result = engine_posix_io(e->fd, io);
	if (io->result > 0) {
		rc = st->gpu.ops->copy_to_gpu(&st->gpu, gpu, io->buf,
					      (size_t)io->result);
		if (rc)
			return gpu_fail(st, rc);
	}
	return 0;
}

static int cufile_submit(struct engine *e)
{
	struct cufile_state *st = e->priv;
	struct io *io = st->queued;
	int rc = 0;

	if (!io)
		return 0;
	st->queued = NULL;
	switch (st->xfer) {
	case GDS_XFER_CPUONLY:
		io->result = engine_posix_io(e->fd, io);
		break;
	case GDS_XFER_CPU_GPU:
		rc = submit_cpu_gpu(e, st, io);
		break;
	case GDS_XFER_GPUD:
		rc = submit_gpud(st, io);
		break;
	case GDS_XFER_GPUD_ASYNC:
		rc = submit_async(st, io);
		break;
	}
	if (rc)
		return -1;
	st->done = io;
	return 1;
}

static int cufile_reap(struct engine *e, struct io **out, unsigned min,
		       unsigned max)
{
	struct cufile_state *st = e->priv;

	(void)min; /* a submitted I/O is already complete */
	if (!st->done || max == 0)
		return 0;
	out[0] = st->done;
	st->done = NULL;
	return 1;
}

const struct engine_ops engine_cufile = {
	.name = "cufile",
	.flags = ENGINE_SYNC   /* GPU buffers, not io->buf: no verify (docs/verify.md) */,
	.init = cufile_init,
	.prep = cufile_prep,
	.submit = cufile_submit,
	.reap = cufile_reap,
	.cleanup = cufile_cleanup,
};
