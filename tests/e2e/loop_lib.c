/* SPDX-License-Identifier: MIT */
/* A library after libfastraw whose clock_gettime leads to it: by an IFUNC, as glibc 2.17's librt, or by a plain call of __clock_gettime or of the global clock_gettime. */
#define _GNU_SOURCE
#include <time.h>

/*
 * libc's internal name, which libfastraw exports too: left undefined here, it binds to the first
 * definition in the global scope, libfastraw's when it is preloaded, libc's otherwise.
 */
extern int __clock_gettime(clockid_t clk, struct timespec *ts);

int loop_lib_present(void);
int loop_lib_depth(void);
void loop_lib_global(int (*f)(clockid_t, struct timespec *));

/* How deep this library's own clock_gettime has been inside itself, at most (0: never called). */
static int depth, deepest;

/* Used by the wrapper variants only (the IFUNC and RAISE ones have no body of their own to count). */
__attribute__((unused)) static void enter(void)
{
	if (++depth > deepest)
		deepest = depth;
}

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
#elif defined(FR_LOOP_GLOBAL)
#include <dlfcn.h>

static int (*global)(clockid_t, struct timespec *);

/*
 * A wrapper of the global clock_gettime: libfastraw's passes every clock but RAW back here, so
 * only libfastraw's depth bound ends the calls. Exported as clock_gettime below; its own name is
 * this object's definition, where clock_gettime here would be the global one.
 */
static int global_wrapper(clockid_t clk, struct timespec *ts)
{
	int ret;

	enter();
	ret = global(clk, ts);
	depth--;
	return ret;
}

int clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((alias("global_wrapper")));

/*
 * The global clock_gettime as the program binds it, which the probe hands over (a dlsym of it
 * would be answered as if libfastraw were not there, docs/internals.md): with libfastraw preloaded
 * libfastraw's; without it this very wrapper, which then goes on to the next.
 */
void loop_lib_global(int (*f)(clockid_t, struct timespec *))
{
	global = f == global_wrapper ? (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime") : f;
}
#else
/*
 * A library re-exporting libc's name as a wrapper, as librt does where its build has no IFUNC:
 * __clock_gettime goes on to libc's, never back here, with libfastraw preloaded or not.
 */
int clock_gettime(clockid_t clk, struct timespec *ts)
{
	int ret;

	enter();
	ret = __clock_gettime(clk, ts);
	depth--;
	return ret;
}
#endif

/* Something for the probe to link against, so that the loader keeps this object in its list. */
int loop_lib_present(void)
{
	return 1;
}

int loop_lib_depth(void)
{
	return deepest;
}

#if !defined(FR_LOOP_GLOBAL)
/* Only the wrapper of the global clock_gettime needs it. */
void loop_lib_global(int (*f)(clockid_t, struct timespec *))
{
	(void)f;
}
#endif
