/* refuse_move_ext.c - an LD_PRELOAD shim for tests: ioctl() answers
 * EXT4_IOC_MOVE_EXT with EPERM, as a kernel or sandbox that does not offer
 * online defragmentation does; every other request goes to libc's ioctl.
 * Built by tests/cli/test_engines.sh: cc -shared -fPIC ... -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>

#define MOVE_EXT_REQ 0xc028660fUL /* _IOWR('f', 15, struct move_extent) */

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == MOVE_EXT_REQ) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}
