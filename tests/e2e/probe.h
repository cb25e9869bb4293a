/* SPDX-License-Identifier: MIT */
/* What the probe programs share: a clock read bracketed by two kernel reads, and where a symbol is served from. */
#ifndef FR_E2E_PROBE_H
#define FR_E2E_PROBE_H

#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <elf.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "ksys.h"

typedef int (*e2e_clock_fn)(clockid_t clk, struct timespec *ts);

/*
 * 1 in a 32-bit program built with a 64-bit time_t (-D_TIME_BITS=64, as Debian trixie's armhf
 * packages are; glibc 2.34+ then defines __USE_TIME_BITS64): its clock_gettime is glibc's
 * __clock_gettime64, and the 32-bit entries (clock_gettime, __clock_gettime) take a timespec
 * it does not have. E2E_CLOCK_GETTIME names the entry such a program calls.
 */
#ifdef __USE_TIME_BITS64
#define E2E_TIME64 1
#define E2E_CLOCK_GETTIME "__clock_gettime64"

/* The 32-bit entries' timespec (the kernel's old_timespec32). */
struct e2e_timespec32 {
	long tv_sec;
	long tv_nsec;
};
typedef int (*e2e_clock32_fn)(clockid_t clk, struct e2e_timespec32 *ts);

/* The 32-bit entry e2e_entry32 calls, one at a time. */
static inline e2e_clock32_fn *e2e_entry32_slot(void)
{
	static e2e_clock32_fn slot;

	return &slot;
}

/* The 32-bit entry called as a program with a 32-bit time_t calls it (a process may hold
   objects of both kinds), its answer widened; its return value unchanged. */
static inline int e2e_entry32(clockid_t clk, struct timespec *ts)
{
	struct e2e_timespec32 t;
	int rc = (*e2e_entry32_slot())(clk, ts ? &t : NULL);

	if (rc == 0 && ts) {
		ts->tv_sec = t.tv_sec;
		ts->tv_nsec = t.tv_nsec;
	}
	return rc;
}

/* How to call p, a 32-bit entry (clock_gettime, __clock_gettime, the vDSO's
   __vdso_clock_gettime): through e2e_entry32 here, p itself with a 32-bit time_t. */
static inline e2e_clock_fn e2e_as_entry32(void *p)
{
	*e2e_entry32_slot() = (e2e_clock32_fn)p;
	return p ? e2e_entry32 : NULL;
}
#else
#define E2E_TIME64 0
#define E2E_CLOCK_GETTIME "clock_gettime"

static inline e2e_clock_fn e2e_as_entry32(void *p)
{
	return (e2e_clock_fn)p;
}
#endif

/* CLOCK_MONOTONIC_RAW as the kernel reads it (the raw system call), in ns. */
static inline int64_t e2e_kernel_raw_ns(void)
{
	struct timespec ts;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts_ns(&ts);
}

/* [*lo, *hi): the [vdso] line of /proc/self/maps; 0, or -1 when there is none. */
static inline int e2e_maps_vdso(uintptr_t *lo, uintptr_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &a, &b) == 2) {
			*lo = a;
			*hi = b;
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

/* How far m lies outside [a, b]; 0 inside. */
static inline int64_t e2e_outside(int64_t a, int64_t m, int64_t b)
{
	return m < a ? a - m : m > b ? m - b : 0;
}

/* A count of bracketed reads; the first bad one is kept so that it can be printed. */
struct e2e_tally {
	uint64_t samples, violations;
	int64_t min_ns, max_ns;
	int bad_ret;
	struct timespec bad[3];
	int64_t slack_ns; /* how far outside the kernel's bracket an answer may lie: 0, exact */
};

/* Reads clk through fn between two kernel reads; returns 1 when the answer lies between them.
   Only arithmetic on *t: safe in a signal handler that owns t. */
static inline int e2e_bracket(struct e2e_tally *t, e2e_clock_fn fn, clockid_t clk)
{
	struct timespec a, m = { -1, -1 }, b;
	long ka, kb;
	int ret, ok;

	ka = k_clock_gettime(clk, &a);
	ret = fn(clk, &m);
	kb = k_clock_gettime(clk, &b);
	ok = ka == 0 && kb == 0 && ret == 0 && m.tv_nsec >= 0 && m.tv_nsec < 1000000000L &&
	     ts_ns(&a) - t->slack_ns <= ts_ns(&m) && ts_ns(&m) <= ts_ns(&b) + t->slack_ns;
	if (t->samples == 0 || ts_ns(&m) < t->min_ns)
		t->min_ns = ts_ns(&m);
	if (t->samples == 0 || ts_ns(&m) > t->max_ns)
		t->max_ns = ts_ns(&m);
	t->samples++;
	if (!ok && t->violations++ == 0) {
		t->bad_ret = ret;
		t->bad[0] = a;
		t->bad[1] = m;
		t->bad[2] = b;
	}
	return ok;
}

static inline void e2e_tally_add(struct e2e_tally *sum, const struct e2e_tally *t)
{
	if (t->samples == 0)
		return;
	if (sum->samples == 0 || t->min_ns < sum->min_ns)
		sum->min_ns = t->min_ns;
	if (sum->samples == 0 || t->max_ns > sum->max_ns)
		sum->max_ns = t->max_ns;
	if (sum->violations == 0 && t->violations) {
		sum->bad_ret = t->bad_ret;
		sum->bad[0] = t->bad[0];
		sum->bad[1] = t->bad[1];
		sum->bad[2] = t->bad[2];
	}
	sum->samples += t->samples;
	sum->violations += t->violations;
}

/* Prints "<prefix>samples=", "<prefix>violations=", ... lines, and the first bad read. */
static inline void e2e_tally_print(const char *prefix, const struct e2e_tally *t)
{
	printf("%ssamples=%" PRIu64 "\n%sviolations=%" PRIu64 "\n", prefix, t->samples, prefix,
	       t->violations);
	printf("%smin_ns=%" PRId64 "\n%smax_ns=%" PRId64 "\n", prefix, t->min_ns, prefix, t->max_ns);
	if (t->violations)
		printf("%sfirst_bad: kernel=%lld.%09ld lib=%lld.%09ld (ret %d) kernel=%lld.%09ld\n",
		       prefix, (long long)t->bad[0].tv_sec, t->bad[0].tv_nsec,
		       (long long)t->bad[1].tv_sec, t->bad[1].tv_nsec, t->bad_ret,
		       (long long)t->bad[2].tv_sec, t->bad[2].tv_nsec);
}

/* The file of the object that the dynamic linker binds sym to, or "?". */
static inline const char *e2e_served_by(const char *sym)
{
	void *p = dlsym(RTLD_DEFAULT, sym);
	Dl_info info;

	if (!p || !dladdr(p, &info) || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

/* The vDSO's address as the kernel gave it (/proc/self/auxv), whatever getauxval says; 0 if unknown. */
static inline unsigned long e2e_kernel_ehdr(void)
{
	unsigned long v[2];
	int fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC);
	unsigned long found = 0;

	if (fd < 0)
		return 0;
	while (read(fd, v, sizeof(v)) == (ssize_t)sizeof(v) && v[0] != AT_NULL)
		if (v[0] == AT_SYSINFO_EHDR)
			found = v[1];
	close(fd);
	return found;
}

/* Every clock FASTRAW_CLOCKS may serve, with the names the library's stats and debug lines give. */
static const struct {
	const char *name;
	clockid_t clk;
} e2e_served_clocks[] = {
	{ "MONOTONIC", CLOCK_MONOTONIC },
	{ "BOOTTIME", CLOCK_BOOTTIME },
	{ "REALTIME", CLOCK_REALTIME },
	{ "TAI", CLOCK_TAI },
	{ "MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
	{ "REALTIME_COARSE", CLOCK_REALTIME_COARSE },
	{ "MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
};
#define E2E_N_SERVED_CLOCKS (sizeof(e2e_served_clocks) / sizeof(e2e_served_clocks[0]))

#endif
