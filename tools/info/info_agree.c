/* SPDX-License-Identifier: MIT */
/* fastraw-info's agreement test: the kernel's system call <= clock_gettime(RAW) <= the system call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "base/clockfn.h"
#include "info/info.h"

typedef int (*clock_fn)(clockid_t clk, struct timespec *ts);

/*
 * Looked up at run time, not called by name: this process links the library's core statically,
 * and under LD_PRELOAD a second copy, libfastraw.so, defines clock_gettime. dlsym(RTLD_DEFAULT)
 * answers with the definition every other call in the process binds to, and dladdr names it.
 */
static clock_fn target;

void info_agree_resolve(struct info_agree *a)
{
	Dl_info dl;
	const char *base;

	memset(a, 0, sizeof(*a));
	a->object = "?";
	a->measured = "libc";
	target = (clock_fn)dlsym(RTLD_DEFAULT, FR_CLOCK_GETTIME_NAME);
	if (!target)
		target = clock_gettime;
	if (dladdr((void *)target, &dl) && dl.dli_fname)
		a->object = dl.dli_fname;
	base = strrchr(a->object, '/');
	base = base ? base + 1 : a->object;
	a->preloaded = strncmp(base, "libfastraw", 10) == 0;
}

static int ts_le(const struct timespec *x, const struct timespec *y)
{
	return x->tv_sec < y->tv_sec || (x->tv_sec == y->tv_sec && x->tv_nsec <= y->tv_nsec);
}

void info_agree_run(struct info_agree *a, long samples, int fast_path_active)
{
	/*
	 * Which path libfastraw.so takes is its own (hidden) state; it ran the same start-up code
	 * in this process, with the same environment, as fr_init() did for the tool.
	 */
	if (a->preloaded)
		a->measured = fast_path_active ? "libfastraw fast path" : "libfastraw pass-through";
	for (long i = 0; i < samples; i++) {
		struct timespec k0, m, k1;

		if (fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &k0) != 0 || target(CLOCK_MONOTONIC_RAW, &m) != 0 ||
		    fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &k1) != 0) {
			a->failures++;
			continue;
		}
		a->samples++;
		if (!ts_le(&k0, &m) || !ts_le(&m, &k1) || m.tv_nsec < 0 || m.tv_nsec >= 1000000000L)
			a->violations++;
	}
}
