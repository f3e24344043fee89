/* test_cufile.c - the cufile engine and gds_probe against the fake
 * libcufile, CUDA runtime and CUDA driver in tests/fake (loaded with dlopen from the
 * test binary's fake/ directory): probing, registration, reads and writes
 * with their data checked, every error path and its message, and the
 * gds_transfer / gpu_dev_id options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/cufile.h"
#include "io/engine.h"
#include "util/error.h"
#include "job/job_spec.h"
#include "job/options.h"
#include "helpers/tmpdir.h"

#define BUF_SIZE (64 * 1024)
#define FILE_SIZE (1024 * 1024)

static char fake_dir[PATH_MAX + 16];
static char cufile_path[PATH_MAX + 64], cufile_noasync_path[PATH_MAX + 64];
static char cudart_path[PATH_MAX + 64], cuda_driver_path[PATH_MAX + 64];
static const char *gpu_lib;   /* the fake CUDA library the engine uses */

static void fill(void *buf, size_t len, unsigned seed)
{
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 31 + seed * 7 + (i >> 8));
}

/* A test-only function of a fake library that the engine has loaded. */
static void *fake_symbol(const char *path, const char *name)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	void *p;

	if (!handle)
		return NULL;
	p = dlsym(handle, name);
	dlclose(handle);
	return p;
}

static int fake_count(const char *path, const char *name)
{
	int (*fn)(void);
	void *p = fake_symbol(path, name);

	if (!p)
		return 0;   /* not loaded: nothing open */
	memcpy(&fn, &p, sizeof(p));
	return fn();
}

static void *gpu_allocation(int index)
{
	void *(*fn)(int);
	void *p = fake_symbol(gpu_lib, "fake_cuda_allocation");

	assert_non_null(p);
	memcpy(&fn, &p, sizeof(p));
	return fn(index);
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' does not contain '%s'", text, part);
}

static void assert_all_released(void)
{
	assert_int_equal(fake_count(cufile_path, "fake_cufile_driver_opens"), 0);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_handles"), 0);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_buffers"), 0);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_streams"), 0);
	assert_int_equal(fake_count(cudart_path, "fake_cuda_live_allocations"), 0);
	assert_int_equal(fake_count(cudart_path, "fake_cuda_live_streams"), 0);
	assert_int_equal(fake_count(cuda_driver_path, "fake_cuda_live_allocations"), 0);
	assert_int_equal(fake_count(cuda_driver_path, "fake_cuda_live_streams"), 0);
	assert_int_equal(fake_count(cuda_driver_path, "fake_cuda_live_contexts"), 0);
}

static int reset_env(void **state)
{
	(void)state;
	unsetenv("FAKE_CUFILE_FAIL");
	unsetenv("FAKE_CUFILE_COMPAT");
	unsetenv("FAKE_CUDA_FAIL");
	unsetenv("FAKE_CUDA_DEVICES");
	setenv("DRIVEBENCH_CUFILE_LIB", cufile_path, 1);
	setenv("DRIVEBENCH_CUDART_LIB", cudart_path, 1);
	/* no system libcuda.so.1 behind the runtime's back */
	setenv("DRIVEBENCH_CUDA_LIB", "/nonexistent/libcuda.so.1", 1);
	gpu_lib = cudart_path;
	err_clear();
	return 0;
}

/* ---- an engine on a scratch file ---- */

struct harness {
	struct engine engine;
	struct io io;
	void *buf;
	struct job_spec spec;
	int fd;
};

static void harness_open(struct harness *h, int xfer)
{
	void *data;

	memset(h, 0, sizeof(*h));
	job_spec_defaults(&h->spec);
	strcpy(h->spec.ioengine, "cufile");
	h->spec.direct = true;
	h->spec.gds_transfer = xfer;
	h->fd = tmp_unlinked_fd();
	assert_true(h->fd >= 0);
	assert_int_equal(posix_memalign(&data, 4096, FILE_SIZE), 0);
	fill(data, FILE_SIZE, 1);
	assert_int_equal(pwrite(h->fd, data, FILE_SIZE, 0), FILE_SIZE);
	free(data);
	assert_int_equal(posix_memalign(&h->buf, 4096, BUF_SIZE), 0);
	fill(h->buf, BUF_SIZE, 2);
	h->io.buf = h->buf;
	h->engine.ops = &engine_cufile;
	h->engine.fd = h->fd;
	h->engine.depth = 1;
	h->engine.ios = &h->io;
	h->engine.nr_ios = 1;
	h->engine.buf_size = BUF_SIZE;
}

static int harness_init(struct harness *h)
{
	return h->engine.ops->init(&h->engine, &h->spec);
}

static void harness_close(struct harness *h)
{
	if (h->engine.priv)
		h->engine.ops->cleanup(&h->engine);
	assert_null(h->engine.priv);
	close(h->fd);
	free(h->buf);
}

/* One I/O through prep/submit/reap; returns submit's -1 or io.result. */
static int run_io(struct harness *h, int dir, uint64_t offset, uint32_t len)
{
	struct io *done[4];

	h->io.dir = (uint8_t)dir;
	h->io.offset = offset;
	h->io.len = len;
	h->io.result = 12345;
	assert_int_equal(h->engine.ops->prep(&h->engine, &h->io), 0);
	if (h->engine.ops->submit(&h->engine) < 0)
		return INT_MIN;
	assert_int_equal(h->engine.ops->reap(&h->engine, done, 1, 4), 1);
	assert_ptr_equal(done[0], &h->io);
	assert_int_equal(h->engine.ops->reap(&h->engine, done, 0, 4), 0);
	return h->io.result;
}

static void assert_file_holds(struct harness *h, uint64_t offset,
			      const void *expect, size_t len)
{
	void *got = malloc(len);

	assert_non_null(got);
	assert_int_equal(pread(h->fd, got, len, (off_t)offset), (ssize_t)len);
	assert_memory_equal(got, expect, len);
	free(got);
}

static void put_pattern(struct harness *h, uint64_t offset, unsigned seed,
			void *copy)
{
	fill(copy, BUF_SIZE, seed);
	assert_int_equal(pwrite(h->fd, copy, BUF_SIZE, (off_t)offset), BUF_SIZE);
}

/* ---- labels, options ---- */

static void test_labels(void **state)
{
	(void)state;
	assert_string_equal(gds_xfer_label(GDS_XFER_GPUD), "GPUD");
	assert_string_equal(gds_xfer_label(GDS_XFER_CPUONLY), "CPUONLY");
	assert_string_equal(gds_xfer_label(GDS_XFER_CPU_GPU), "CPU_GPU");
	assert_string_equal(gds_xfer_label(GDS_XFER_GPUD_ASYNC), "GPUD_ASYNC");
	assert_string_equal(gds_xfer_label((enum gds_xfer)3), "UNKNOWN");
	assert_true(gds_xfer_valid(0) && gds_xfer_valid(1) && gds_xfer_valid(2) &&
		    gds_xfer_valid(5));
	assert_false(gds_xfer_valid(3) || gds_xfer_valid(4) || gds_xfer_valid(-1) ||
		     gds_xfer_valid(6));
	assert_ptr_equal(engine_find("cufile"), &engine_cufile);
	assert_true(engine_needs_fd(&engine_cufile));
}

static void test_options(void **state)
{
	struct job_spec spec;

	(void)state;
	job_spec_defaults(&spec);
	assert_int_equal(spec.gds_transfer, GDS_XFER_CPUONLY);
	assert_int_equal(spec.gpu_device, 0);
	assert_int_equal(job_option_set(&spec, "gds_transfer", "5"), 0);
	assert_int_equal(spec.gds_transfer, GDS_XFER_GPUD_ASYNC);
	assert_int_equal(job_option_set(&spec, "gds_transfer", "0"), 0);
	assert_int_equal(spec.gds_transfer, GDS_XFER_GPUD);
	assert_int_equal(job_option_set(&spec, "gds_transfer", "3"), -1);
	assert_contains(err_msg(), "option 'gds_transfer': bad transfer type '3'");
	assert_int_equal(job_option_set(&spec, "gds_transfer", "gpu"), -1);
	assert_contains(err_msg(), "option 'gds_transfer'");
	assert_int_equal(job_option_set(&spec, "gds_transfer", NULL), -1);
	assert_int_equal(spec.gds_transfer, GDS_XFER_GPUD);
	assert_int_equal(job_option_set(&spec, "gpu_dev_id", "3"), 0);
	assert_int_equal(spec.gpu_device, 3);
	assert_int_equal(job_option_set(&spec, "gpu_dev_id", "-1"), -1);
	assert_contains(err_msg(), "option 'gpu_dev_id'");
	assert_int_equal(job_option_set(&spec, "gpu_dev_id", "5000"), -1);
	assert_contains(err_msg(), "option 'gpu_dev_id': 5000 is too large, the range is 0..1023");
}

/* ---- gds_probe ---- */

static void test_probe_true_gds(void **state)
{
	struct gds_env env;

	(void)state;
	gds_probe(&env);
	assert_true(env.have_cuda);
	assert_true(env.have_cufile);
	assert_true(env.have_async);
	assert_false(env.compat_mode);
	assert_int_equal(env.devices, 1);
	assert_string_equal(env.gpu_model, "Fake GPU 80GB");
	assert_string_equal(env.why, "");
	assert_all_released();
}

static void test_probe_compat_mode(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("FAKE_CUFILE_COMPAT", "1", 1);
	gds_probe(&env);
	assert_true(env.have_cufile);
	assert_true(env.compat_mode);
	assert_string_equal(env.why, "");
	/* properties that cannot be read prove no nvidia-fs either */
	unsetenv("FAKE_CUFILE_COMPAT");
	setenv("FAKE_CUFILE_FAIL", "properties", 1);
	gds_probe(&env);
	assert_true(env.have_cufile);
	assert_true(env.compat_mode);
	assert_all_released();
}

static void test_probe_no_cuda_runtime(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("DRIVEBENCH_CUDART_LIB", "/nonexistent/libcudart.so.12", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_int_equal(env.devices, 0);
	assert_string_equal(env.gpu_model, "");
	assert_contains(env.why, "CUDA runtime not found");
	assert_contains(env.why, "/nonexistent/libcudart.so.12");
}

static void test_probe_no_cufile(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("DRIVEBENCH_CUFILE_LIB", "/nonexistent/libcufile.so.0", 1);
	gds_probe(&env);
	assert_true(env.have_cuda);
	assert_false(env.have_cufile);
	assert_false(env.have_async);
	assert_contains(env.why, "libcufile not found");
	assert_contains(env.why, "/nonexistent/libcufile.so.0");
}

static void test_probe_wrong_library(void **state)
{
	struct gds_env env;

	(void)state;
	/* a loadable library without cuFile's symbols */
	setenv("DRIVEBENCH_CUFILE_LIB", cudart_path, 1);
	gds_probe(&env);
	assert_false(env.have_cufile);
	assert_contains(env.why, "has no cuFileDriverOpen");
}

static void test_probe_no_device(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_string_equal(env.why, "no CUDA device");
	setenv("FAKE_CUDA_DEVICES", "1", 1);
	setenv("FAKE_CUDA_FAIL", "count", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_string_equal(env.why,
			    "cudaGetDeviceCount: CUDA error 999 (unknown error)");
}

static void test_probe_driver_open_fails(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("FAKE_CUFILE_FAIL", "driver_open", 1);
	gds_probe(&env);
	assert_true(env.have_cuda);
	assert_false(env.have_cufile);
	assert_string_equal(env.why, "cuFileDriverOpen: CU_FILE_DRIVER_NOT_INITIALIZED "
			    "(nvidia-fs driver is not loaded)");
}

static void test_probe_without_stream_api(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("DRIVEBENCH_CUFILE_LIB", cufile_noasync_path, 1);
	gds_probe(&env);
	assert_true(env.have_cufile);
	assert_false(env.have_async);
}

/* ---- the engine: data ---- */

static void test_cpuonly_without_libraries(void **state)
{
	struct harness h;
	void *expect = malloc(BUF_SIZE);

	(void)state;
	assert_non_null(expect);
	setenv("DRIVEBENCH_CUFILE_LIB", "/nonexistent/libcufile.so.0", 1);
	setenv("DRIVEBENCH_CUDART_LIB", "/nonexistent/libcudart.so.12", 1);
	harness_open(&h, GDS_XFER_CPUONLY);
	assert_int_equal(harness_init(&h), 0);
	assert_int_equal(run_io(&h, DIR_WRITE, 2 * BUF_SIZE, BUF_SIZE), BUF_SIZE);
	assert_file_holds(&h, 2 * BUF_SIZE, h.buf, BUF_SIZE);
	put_pattern(&h, 4 * BUF_SIZE, 9, expect);
	assert_int_equal(run_io(&h, DIR_READ, 4 * BUF_SIZE, BUF_SIZE), BUF_SIZE);
	assert_memory_equal(h.buf, expect, BUF_SIZE);
	/* a read past the end is short, as pread's */
	assert_int_equal(run_io(&h, DIR_READ, FILE_SIZE - 4096, BUF_SIZE), 4096);
	harness_close(&h);
	free(expect);
}

static void check_gpu_path(int xfer)
{
	struct harness h;
	void *host_copy = malloc(BUF_SIZE), *expect = malloc(BUF_SIZE);
	bool cufile = xfer != GDS_XFER_CPU_GPU;

	assert_non_null(host_copy);
	assert_non_null(expect);
	harness_open(&h, xfer);
	memcpy(host_copy, h.buf, BUF_SIZE);
	assert_int_equal(harness_init(&h), 0);
	/* registered while the engine lives */
	assert_int_equal(fake_count(gpu_lib, "fake_cuda_live_allocations"), 1);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_driver_opens"), cufile);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_handles"), cufile);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_buffers"), cufile);
	assert_int_equal(fake_count(cufile_path, "fake_cufile_streams"),
			 xfer == GDS_XFER_GPUD_ASYNC);
	assert_int_equal(fake_count(gpu_lib, "fake_cuda_live_streams"),
			 xfer == GDS_XFER_GPUD_ASYNC);
	assert_int_equal(fake_count(cuda_driver_path, "fake_cuda_live_contexts"),
			 gpu_lib == cuda_driver_path);

	/* the GPU buffer starts with the runner's data, so a write carries it */
	assert_memory_equal(gpu_allocation(0), host_copy, BUF_SIZE);
	assert_int_equal(run_io(&h, DIR_WRITE, 3 * BUF_SIZE, BUF_SIZE), BUF_SIZE);
	assert_file_holds(&h, 3 * BUF_SIZE, host_copy, BUF_SIZE);

	/* a write sends what is in GPU memory */
	fill(gpu_allocation(0), BUF_SIZE, 21);
	fill(expect, BUF_SIZE, 21);
	assert_int_equal(run_io(&h, DIR_WRITE, 5 * BUF_SIZE, BUF_SIZE), BUF_SIZE);
	assert_file_holds(&h, 5 * BUF_SIZE, expect, BUF_SIZE);

	/* a read lands in GPU memory */
	put_pattern(&h, 7 * BUF_SIZE, 33, expect);
	memcpy(host_copy, h.buf, BUF_SIZE);
	assert_int_equal(run_io(&h, DIR_READ, 7 * BUF_SIZE, BUF_SIZE), BUF_SIZE);
	assert_memory_equal(gpu_allocation(0), expect, BUF_SIZE);
	if (xfer == GDS_XFER_CPU_GPU)   /* through the host buffer */
		assert_memory_equal(h.buf, expect, BUF_SIZE);
	else                            /* straight to the GPU */
		assert_memory_equal(h.buf, host_copy, BUF_SIZE);
	/* part of a buffer */
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), 4096);
	harness_close(&h);
	assert_all_released();
	free(host_copy);
	free(expect);
}

static void test_gpud(void **state)
{
	(void)state;
	check_gpu_path(GDS_XFER_GPUD);
}

static void test_cpu_gpu(void **state)
{
	(void)state;
	check_gpu_path(GDS_XFER_CPU_GPU);
}

static void test_gpud_async(void **state)
{
	(void)state;
	check_gpu_path(GDS_XFER_GPUD_ASYNC);
}

static void test_cpu_gpu_without_cufile(void **state)
{
	struct harness h;

	(void)state;
	setenv("DRIVEBENCH_CUFILE_LIB", "/nonexistent/libcufile.so.0", 1);
	harness_open(&h, GDS_XFER_CPU_GPU);
	assert_int_equal(harness_init(&h), 0);
	assert_int_equal(run_io(&h, DIR_READ, 0, BUF_SIZE), BUF_SIZE);
	harness_close(&h);
	assert_all_released();
}

static void test_queue_full(void **state)
{
	struct harness h;
	struct io other = { 0 };

	(void)state;
	harness_open(&h, GDS_XFER_GPUD);
	assert_int_equal(harness_init(&h), 0);
	h.io.len = 4096;
	other.len = 4096;
	other.buf = h.buf;
	assert_int_equal(engine_cufile.prep(&h.engine, &h.io), 0);
	assert_int_equal(engine_cufile.prep(&h.engine, &other), -1);
	assert_string_equal(err_msg(), "cufile: queue full (1 I/O)");
	assert_int_equal(engine_cufile.submit(&h.engine), 1);
	assert_int_equal(engine_cufile.submit(&h.engine), 0);
	/* not reaped yet: still full */
	assert_int_equal(engine_cufile.prep(&h.engine, &other), -1);
	h.io.len = 4096;
	harness_close(&h);
	assert_all_released();
}

static void test_io_larger_than_gpu_buffer(void **state)
{
	struct harness h;

	(void)state;
	harness_open(&h, GDS_XFER_GPUD);
	assert_int_equal(harness_init(&h), 0);
	h.io.len = BUF_SIZE * 2;
	assert_int_equal(engine_cufile.prep(&h.engine, &h.io), -1);
	assert_string_equal(err_msg(), "cufile: I/O of 131072 bytes exceeds the "
			    "65536-byte GPU buffer");
	harness_close(&h);
}

/* ---- the engine: init errors ---- */

static void expect_init_error(int xfer, const char *message)
{
	struct harness h;

	harness_open(&h, xfer);
	err_clear();
	assert_int_equal(harness_init(&h), -1);
	assert_null(h.engine.priv);
	assert_contains(err_msg(), message);
	harness_close(&h);
	assert_all_released();
}

static void test_init_checks(void **state)
{
	struct harness h;

	(void)state;
	harness_open(&h, GDS_XFER_CPUONLY);
	h.engine.depth = 2;
	assert_int_equal(harness_init(&h), -1);
	assert_contains(err_msg(), "cufile: iodepth must be 1");
	h.engine.depth = 1;
	h.spec.direct = false;
	assert_int_equal(harness_init(&h), -1);
	assert_string_equal(err_msg(), "cufile: needs direct=1 (O_DIRECT), as gdsio");
	h.spec.direct = true;
	h.spec.gds_transfer = 3;
	assert_int_equal(harness_init(&h), -1);
	assert_contains(err_msg(), "cufile: gds_transfer=3 is not a gdsio transfer type");
	h.spec.gds_transfer = GDS_XFER_CPUONLY;
	h.engine.fd = -1;
	assert_int_equal(harness_init(&h), -1);
	assert_string_equal(err_msg(), "cufile: no file descriptor");
	h.engine.fd = h.fd;
	assert_null(h.engine.priv);
	harness_close(&h);
}

static void test_init_no_gpu_path(void **state)
{
	(void)state;
	setenv("DRIVEBENCH_CUDART_LIB", "/nonexistent/libcudart.so.12", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: gds_transfer=0 (GPUD) needs a GPU "
			  "path: CUDA runtime not found");
	expect_init_error(GDS_XFER_CPU_GPU, "cufile: gds_transfer=2 (CPU_GPU) needs a "
			  "GPU path: CUDA runtime not found");
	reset_env(NULL);
	setenv("DRIVEBENCH_CUFILE_LIB", "/nonexistent/libcufile.so.0", 1);
	expect_init_error(GDS_XFER_GPUD_ASYNC, "cufile: gds_transfer=5 (GPUD_ASYNC) "
			  "needs a GPU path: libcufile not found");
	reset_env(NULL);
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	expect_init_error(GDS_XFER_GPUD, "needs a GPU path: no CUDA device");
	reset_env(NULL);
	setenv("FAKE_CUFILE_FAIL", "driver_open", 1);
	expect_init_error(GDS_XFER_GPUD, "needs a GPU path: cuFileDriverOpen: "
			  "CU_FILE_DRIVER_NOT_INITIALIZED");
}

static void test_init_gpu_dev_id(void **state)
{
	struct harness h;

	(void)state;
	harness_open(&h, GDS_XFER_GPUD);
	h.spec.gpu_device = 1;
	assert_int_equal(harness_init(&h), -1);
	assert_string_equal(err_msg(), "cufile: gpu_dev_id=1, but there is 1 CUDA device");
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	assert_int_equal(harness_init(&h), 0);
	harness_close(&h);
	assert_all_released();
}

static void test_init_library_failures(void **state)
{
	(void)state;
	setenv("FAKE_CUFILE_FAIL", "handle_register", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cuFileHandleRegister: "
			  "CU_FILE_DIO_NOT_SET (file not opened with O_DIRECT)");
	setenv("FAKE_CUFILE_FAIL", "buf_register", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cuFileBufRegister: "
			  "CU_FILE_CUDA_DRIVER_ERROR (CUDA driver API error), CUDA error 2");
	setenv("FAKE_CUFILE_FAIL", "stream_register", 1);
	expect_init_error(GDS_XFER_GPUD_ASYNC, "cufile: cuFileStreamRegister: "
			  "CU_FILE_INVALID_VALUE (invalid arguments)");
	reset_env(NULL);
	setenv("FAKE_CUDA_FAIL", "malloc", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cudaMalloc: CUDA error 2 (out of memory)");
	expect_init_error(GDS_XFER_CPU_GPU, "cufile: cudaMalloc: CUDA error 2 (out of memory)");
	setenv("FAKE_CUDA_FAIL", "set_device", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cudaSetDevice: CUDA error 101 "
			  "(invalid device ordinal)");
	setenv("FAKE_CUDA_FAIL", "stream", 1);
	expect_init_error(GDS_XFER_GPUD_ASYNC, "cufile: cudaStreamCreate: CUDA error 999");
	setenv("FAKE_CUDA_FAIL", "memcpy", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cudaMemcpy: CUDA error 700");
	reset_env(NULL);
	setenv("DRIVEBENCH_CUFILE_LIB", cufile_noasync_path, 1);
	expect_init_error(GDS_XFER_GPUD_ASYNC, "cufile: gds_transfer=5 (GPUD_ASYNC): "
			  "this libcufile has no stream API");
}

/* ---- the engine: I/O errors ---- */

/* Starts an engine, then makes the fakes fail as fail_var=fail_value. */
static void start_failing(struct harness *h, int xfer, const char *fail_var,
			  const char *fail_value)
{
	harness_open(h, xfer);
	assert_int_equal(harness_init(h), 0);
	setenv(fail_var, fail_value, 1);
	err_clear();
}

static void test_io_errors(void **state)
{
	struct harness h;

	(void)state;
	/* a cuFile code ends the job with its name */
	start_failing(&h, GDS_XFER_GPUD, "FAKE_CUFILE_FAIL", "read");
	assert_int_equal(run_io(&h, DIR_READ, 8192, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cuFileRead at offset 8192: "
			    "CU_FILE_IO_NOT_SUPPORTED (GPUDirect Storage not "
			    "supported on this file)");
	harness_close(&h);
	reset_env(NULL);
	start_failing(&h, GDS_XFER_GPUD, "FAKE_CUFILE_FAIL", "write_cufile_code");
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cuFileWrite at offset 0: "
			    "CU_FILE_INTERNAL_ERROR (internal error)");
	harness_close(&h);
	reset_env(NULL);
	/* errno, either way it comes back, is the I/O's result */
	start_failing(&h, GDS_XFER_GPUD, "FAKE_CUFILE_FAIL", "read_errno");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), -EIO);
	harness_close(&h);
	reset_env(NULL);
	start_failing(&h, GDS_XFER_GPUD, "FAKE_CUFILE_FAIL", "write");
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), -ENOSPC);
	harness_close(&h);
	reset_env(NULL);
	start_failing(&h, GDS_XFER_GPUD_ASYNC, "FAKE_CUFILE_FAIL", "read_errno");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), -EIO);
	harness_close(&h);
	reset_env(NULL);
	/* the stream API's status, and its synchronisation */
	start_failing(&h, GDS_XFER_GPUD_ASYNC, "FAKE_CUFILE_FAIL", "read_async");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cuFileReadAsync: CU_FILE_CUDA_DRIVER_ERROR "
			    "(CUDA driver API error), CUDA error 700");
	harness_close(&h);
	reset_env(NULL);
	start_failing(&h, GDS_XFER_GPUD_ASYNC, "FAKE_CUFILE_FAIL", "write_async");
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), INT_MIN);
	assert_contains(err_msg(), "cufile: cuFileWriteAsync: CU_FILE_IO_NOT_SUPPORTED");
	harness_close(&h);
	reset_env(NULL);
	start_failing(&h, GDS_XFER_GPUD_ASYNC, "FAKE_CUDA_FAIL", "sync");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cudaStreamSynchronize: CUDA error 700 "
			    "(an illegal memory access was encountered)");
	harness_close(&h);
	reset_env(NULL);
	/* CPU_GPU: the copy either way */
	start_failing(&h, GDS_XFER_CPU_GPU, "FAKE_CUDA_FAIL", "memcpy");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), INT_MIN);
	assert_contains(err_msg(), "cufile: cudaMemcpy: CUDA error 700");
	err_clear();
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), INT_MIN);
	assert_contains(err_msg(), "cufile: cudaMemcpy: CUDA error 700");
	harness_close(&h);
	reset_env(NULL);
	/* a POSIX error in CPU_GPU and CPUONLY is the I/O's result */
	harness_open(&h, GDS_XFER_CPU_GPU);
	assert_int_equal(harness_init(&h), 0);
	h.engine.fd = 1000000;   /* not open */
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), -EBADF);
	harness_close(&h);
	harness_open(&h, GDS_XFER_CPUONLY);
	assert_int_equal(harness_init(&h), 0);
	h.engine.fd = 1000000;
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), -EBADF);
	harness_close(&h);
	assert_all_released();
}

/* ---- the CUDA driver API when no runtime loads ---- */

static void use_driver(void)
{
	setenv("DRIVEBENCH_CUDART_LIB", "/nonexistent/libcudart.so.12", 1);
	setenv("DRIVEBENCH_CUDA_LIB", cuda_driver_path, 1);
	gpu_lib = cuda_driver_path;
}

static void test_driver_probe(void **state)
{
	struct gds_env env;

	(void)state;
	use_driver();
	gds_probe(&env);
	assert_true(env.have_cuda);
	assert_true(env.have_cufile);
	assert_int_equal(env.devices, 1);
	assert_string_equal(env.gpu_model, "Fake Driver GPU 141GB");
	assert_string_equal(env.why, "");
	setenv("FAKE_CUDA_DEVICES", "3", 1);
	gds_probe(&env);
	assert_int_equal(env.devices, 3);
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_string_equal(env.why, "no CUDA device");
	unsetenv("FAKE_CUDA_DEVICES");
	setenv("FAKE_CUDA_FAIL", "count", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_string_equal(env.why, "cuDeviceGetCount: CUDA driver error 999 "
			    "(unknown error)");
	assert_all_released();
	/* the runtime stays preferred when both load */
	reset_env(NULL);
	setenv("DRIVEBENCH_CUDA_LIB", cuda_driver_path, 1);
	gds_probe(&env);
	assert_string_equal(env.gpu_model, "Fake GPU 80GB");
}

static void test_driver_init_fails(void **state)
{
	char other_path[PATH_MAX + 80];
	struct gds_env env;

	(void)state;
	use_driver();
	/* the same library by another name, so that it is loaded afresh and
	 * cuInit runs again */
	snprintf(other_path, sizeof(other_path), "%s/./libcuda.so.1", fake_dir);
	setenv("DRIVEBENCH_CUDA_LIB", other_path, 1);
	setenv("FAKE_CUDA_FAIL", "init", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_contains(env.why, "CUDA runtime not found");
	assert_contains(env.why, "cuInit: CUDA driver error 100 (no CUDA-capable "
			"device is detected)");
	expect_init_error(GDS_XFER_CPU_GPU, "needs a GPU path: CUDA runtime not "
			  "found");
}

static void test_driver_wrong_library(void **state)
{
	struct gds_env env;

	(void)state;
	use_driver();
	setenv("DRIVEBENCH_CUDA_LIB", cufile_path, 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_contains(env.why, "has no cuInit");
}

static void test_driver_gpud(void **state)
{
	(void)state;
	use_driver();
	check_gpu_path(GDS_XFER_GPUD);
}

static void test_driver_cpu_gpu(void **state)
{
	(void)state;
	use_driver();
	check_gpu_path(GDS_XFER_CPU_GPU);
}

static void test_driver_gpud_async(void **state)
{
	(void)state;
	use_driver();
	check_gpu_path(GDS_XFER_GPUD_ASYNC);
}

static void test_driver_failures(void **state)
{
	struct harness h;

	(void)state;
	use_driver();
	setenv("FAKE_CUDA_FAIL", "malloc", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cuMemAlloc: CUDA driver error 2 "
			  "(out of memory)");
	setenv("FAKE_CUDA_FAIL", "ctx", 1);
	expect_init_error(GDS_XFER_CPU_GPU, "cufile: cuDevicePrimaryCtxRetain: CUDA "
			  "driver error 201 (invalid device context)");
	setenv("FAKE_CUDA_FAIL", "memcpy", 1);
	expect_init_error(GDS_XFER_GPUD, "cufile: cuMemcpyHtoD: CUDA driver error "
			  "700 (an illegal memory access was encountered)");
	setenv("FAKE_CUDA_FAIL", "stream", 1);
	expect_init_error(GDS_XFER_GPUD_ASYNC, "cufile: cuStreamCreate: CUDA driver "
			  "error 999 (unknown error)");
	unsetenv("FAKE_CUDA_FAIL");
	harness_open(&h, GDS_XFER_GPUD);
	h.spec.gpu_device = 1;
	assert_int_equal(harness_init(&h), -1);
	assert_string_equal(err_msg(), "cufile: gpu_dev_id=1, but there is 1 CUDA device");
	harness_close(&h);
	/* during I/O */
	start_failing(&h, GDS_XFER_CPU_GPU, "FAKE_CUDA_FAIL", "memcpy");
	assert_int_equal(run_io(&h, DIR_WRITE, 0, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cuMemcpyDtoH: CUDA driver error 700 "
			    "(an illegal memory access was encountered)");
	err_clear();
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), INT_MIN);
	assert_contains(err_msg(), "cufile: cuMemcpyHtoD: CUDA driver error 700");
	harness_close(&h);
	unsetenv("FAKE_CUDA_FAIL");
	start_failing(&h, GDS_XFER_GPUD_ASYNC, "FAKE_CUDA_FAIL", "sync");
	assert_int_equal(run_io(&h, DIR_READ, 0, 4096), INT_MIN);
	assert_string_equal(err_msg(), "cufile: cuStreamSynchronize: CUDA driver "
			    "error 700 (an illegal memory access was encountered)");
	harness_close(&h);
	assert_all_released();
}

static void test_no_runtime_no_driver(void **state)
{
	struct gds_env env;

	(void)state;
	setenv("DRIVEBENCH_CUDART_LIB", "/nonexistent/libcudart.so.12", 1);
	setenv("DRIVEBENCH_CUDA_LIB", "/nonexistent/libcuda.so.1", 1);
	gds_probe(&env);
	assert_false(env.have_cuda);
	assert_contains(env.why, "CUDA runtime not found: /nonexistent/libcudart.so.12");
	assert_contains(env.why, "; CUDA driver not found: /nonexistent/libcuda.so.1");
	expect_init_error(GDS_XFER_GPUD, "CUDA driver not found");
}

#define TEST(f) cmocka_unit_test_setup(f, reset_env)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_labels),
		TEST(test_options),
		TEST(test_probe_true_gds),
		TEST(test_probe_compat_mode),
		TEST(test_probe_no_cuda_runtime),
		TEST(test_probe_no_cufile),
		TEST(test_probe_wrong_library),
		TEST(test_probe_no_device),
		TEST(test_probe_driver_open_fails),
		TEST(test_probe_without_stream_api),
		TEST(test_cpuonly_without_libraries),
		TEST(test_gpud),
		TEST(test_cpu_gpu),
		TEST(test_gpud_async),
		TEST(test_cpu_gpu_without_cufile),
		TEST(test_queue_full),
		TEST(test_io_larger_than_gpu_buffer),
		TEST(test_init_checks),
		TEST(test_init_no_gpu_path),
		TEST(test_init_gpu_dev_id),
		TEST(test_init_library_failures),
		TEST(test_io_errors),
		TEST(test_driver_probe),
		TEST(test_driver_init_fails),
		TEST(test_driver_wrong_library),
		TEST(test_driver_gpud),
		TEST(test_driver_cpu_gpu),
		TEST(test_driver_gpud_async),
		TEST(test_driver_failures),
		TEST(test_no_runtime_no_driver),
	};
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 1;
	*slash = '\0';
	snprintf(fake_dir, sizeof(fake_dir), "%s/fake", exe);
	snprintf(cufile_path, sizeof(cufile_path), "%s/libcufile.so.0", fake_dir);
	snprintf(cufile_noasync_path, sizeof(cufile_noasync_path),
		 "%s/libcufile-noasync.so.0", fake_dir);
	snprintf(cudart_path, sizeof(cudart_path), "%s/libcudart.so.12", fake_dir);
	snprintf(cuda_driver_path, sizeof(cuda_driver_path), "%s/libcuda.so.1", fake_dir);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
