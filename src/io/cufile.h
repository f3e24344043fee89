/* cufile.h - GPU Direct Storage through NVIDIA's cuFile API, loaded with
 * dlopen at run time (libcufile.so.0 and the CUDA runtime libcudart.so.13 /
 * .12, or the driver libcuda.so.1), so drivebench builds and runs with no
 * CUDA installed. The `cufile` engine serves jobs with ioengine=cufile in
 * gdsio's transfer types; gds_probe says what this machine can do. */
#ifndef DRIVEBENCH_CUFILE_H
#define DRIVEBENCH_CUFILE_H

#include <stdbool.h>

#include "job/gds_transfer.h"

struct gds_env {
	bool have_cufile;         /* libcufile loaded and the driver opened */
	bool have_cuda;           /* a CUDA runtime/driver with a device */
	bool have_async;          /* cuFileReadAsync/WriteAsync present */
	bool compat_mode;         /* cuFile without nvidia-fs: POSIX underneath */
	int devices;
	char gpu_model[128];      /* "" when unknown */
	char why[256];            /* why a GPU path is unavailable ("" when it is) */
};

/* Loads the libraries (paths may be overridden by $DRIVEBENCH_CUFILE_LIB,
 * $DRIVEBENCH_CUDART_LIB and $DRIVEBENCH_CUDA_LIB (the driver, tried only when
 * no runtime loads), which the tests use for their fakes) and fills env.
 * Never fails: what is missing is described in env->why. */
void gds_probe(struct gds_env *env);
/* gdsio's XferType label: "GPUD", "CPUONLY", "CPU_GPU", "GPUD_ASYNC". */
const char *gds_xfer_label(enum gds_xfer x);

#endif
