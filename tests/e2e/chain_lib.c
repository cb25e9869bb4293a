/* SPDX-License-Identifier: MIT */
/* A test interposer, as faketime is one: counts clock_gettime, dlsym, getauxval and syscall, shifts CLOCK_REALTIME, forwards each with RTLD_NEXT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#include "chain_lib.h"

#define EXPORT __attribute__((visibility("default")))

typedef void *(*dlsym_fn)(void *, const char *);
typedef int (*clock_fn)(clockid_t, struct timespec *);
typedef unsigned long (*auxv_fn)(unsigned long);
typedef long (*syscall_fn)(long, ...);

static struct chain_counts counts;
static dlsym_fn real_dlsym;
static clock_fn real_clock;
static auxv_fn real_getauxval;
static syscall_fn real_syscall;

/*
 * The next definitions, looked up the way interposers do: dlvsym (not interposed here) for the
 * real dlsym, then RTLD_NEXT from this object. Idempotent, so any entry may run it first.
 */
static void resolve(void)
{
	if (__atomic_load_n(&real_syscall, __ATOMIC_ACQUIRE))
		return;
	real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!real_dlsym)
		real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	/* The first version of glibcs before 2.34 on the CPUs it started on later (32-bit ARM's 2.4). */
	if (!real_dlsym)
		real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.4");
	/* The next clock_gettime of this object's own time_t (chain_lib.h). */
	real_clock = (clock_fn)real_dlsym(RTLD_NEXT, CHAIN_CLOCK_GETTIME);
	real_getauxval = (auxv_fn)real_dlsym(RTLD_NEXT, "getauxval");
	__atomic_store_n(&real_syscall, (syscall_fn)real_dlsym(RTLD_NEXT, "syscall"), __ATOMIC_RELEASE);
}

static void __attribute__((constructor)) chain_ctor(void)
{
	resolve();
}

static void count(long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

EXPORT int clock_gettime(clockid_t clk, struct timespec *ts)
{
	int ret;

	resolve();
	count(&counts.clock_gettime);
	if (clk == CLOCK_MONOTONIC_RAW)
		count(&counts.clock_raw);
	ret = real_clock(clk, ts);
	if (ret == 0 && clk == CLOCK_REALTIME)
		ts->tv_sec += CHAIN_REALTIME_OFFSET_S;
	return ret;
}

/* Built with CHAIN_NO_DLSYM, the interposer leaves dlsym alone, as faketime does. */
#ifndef CHAIN_NO_DLSYM
EXPORT void *dlsym(void *handle, const char *name)
{
	resolve();
	count(&counts.dlsym);
	return real_dlsym(handle, name);
}
#endif

EXPORT unsigned long getauxval(unsigned long type)
{
	resolve();
	count(&counts.getauxval);
	return real_getauxval(type);
}

EXPORT long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	resolve();
	count(&counts.syscall);
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

EXPORT void e2e_chain_counts(struct chain_counts *out);
EXPORT void e2e_chain_next_clock(void **plain, void **versioned);

/* Both results are stored, so neither call is a tail call: the loader sees this object as the caller. */
void e2e_chain_next_clock(void **plain, void **versioned)
{
	*plain = dlsym(RTLD_NEXT, "clock_gettime");
	*versioned = dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17");
}

void e2e_chain_counts(struct chain_counts *out)
{
	__atomic_load(&counts.clock_gettime, &out->clock_gettime, __ATOMIC_RELAXED);
	__atomic_load(&counts.clock_raw, &out->clock_raw, __ATOMIC_RELAXED);
	__atomic_load(&counts.dlsym, &out->dlsym, __ATOMIC_RELAXED);
	__atomic_load(&counts.getauxval, &out->getauxval, __ATOMIC_RELAXED);
	__atomic_load(&counts.syscall, &out->syscall, __ATOMIC_RELAXED);
}
