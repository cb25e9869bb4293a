/* SPDX-License-Identifier: MIT */
/* A library after libfastraw whose clock_gettime leads back to it: by an IFUNC, as glibc 2.17's librt, or by a plain call. */
#define _GNU_SOURCE
#include <time.h>

/*
 * libc's internal name, which libfastraw exports too: left undefined here, it binds to the first
 * definition in the global scope, libfastraw's when it is preloaded, libc's otherwise.
 */
extern int __clock_gettime(clockid_t clk, struct timespec *ts);

int loop_lib_present(void);

#if defined(FR_LOOP_RAISE)
#include <dlfcn.h>
#include <signal.h>

/* Set by the probe: raise SIGUSR1 inside the next call, whose handler siglongjmps out of it. */
int loop_lib_raise;

/*
 * An ordinary interposer after libfastraw, which leads nowhere back: it passes on to the next
 * clock_gettime and marks REALTIME's answer, so the probe can tell it answered.
 */
int clock_gettime(clockid_t clk, struct timespec *ts)
{
	static int (*next)(clockid_t, struct timespec *);
	int ret;

	if (!next)
		next = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	if (loop_lib_raise) {
		loop_lib_raise = 0;
		raise(SIGUSR1);
	}
	ret = next(clk, ts);
	if (clk == CLOCK_REALTIME)
		ts->tv_nsec = 123456789;
	return ret;
}
#elif defined(FR_LOOP_IFUNC)
typedef int (*clock_fn)(clockid_t clk, struct timespec *ts);

/* glibc 2.17's librt: clock_gettime@GLIBC_2.2.5 is an IFUNC whose resolver answers __clock_gettime. */
__attribute__((used)) static clock_fn resolve_clock_gettime(void)
{
	return __clock_gettime;
}

int clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((ifunc("resolve_clock_gettime")));
#else
/* A library re-exporting libc's name as a wrapper, as librt does where its build has no IFUNC. */
int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return __clock_gettime(clk, ts);
}
#endif

/* Something for the probe to link against, so that the loader keeps this object in its list. */
int loop_lib_present(void)
{
	return 1;
}
