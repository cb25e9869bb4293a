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
 * On a 32-bit CPU glibc has two clock_gettime entries, and the kernel's vDSO two functions: the
 * 32-bit-time ones (clock_gettime, __clock_gettime, __vdso_clock_gettime) and the 64-bit-time
 * ones (__clock_gettime64 since glibc 2.34, __vdso_clock_gettime64 since Linux 5.5). Which one a
 * program's clock_gettime is depends on its time_t: with -D_TIME_BITS=64 (the arm build, Debian
 * trixie's armhf packages; glibc then defines __USE_TIME_BITS64) it is __clock_gettime64, else
 * the 32-bit one (Debian bullseye's). E2E_TIME64 says which; E2E_CLOCK_GETTIME names it. A
 * probe calls an entry of the other width through e2e_as_entry32 or e2e_as_entry64, which hand
 * it its own timespec and widen or narrow the answer: a process may hold objects of both kinds.
 * On a 64-bit CPU there is one width, and both are the function itself.
 */
/* Newer glibc defines __USE_TIME_BITS64 on 64-bit ABIs too, where there is one entry. */
#if defined(__USE_TIME_BITS64) && __SIZEOF_LONG__ == 4
#define E2E_TIME64 1
#define E2E_CLOCK_GETTIME "__clock_gettime64"
#else
#define E2E_TIME64 0
#define E2E_CLOCK_GETTIME "clock_gettime"
#endif

/* The two widths' timespecs (the kernel's old_timespec32 and __kernel_timespec). */
struct e2e_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};
struct e2e_timespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/* The entry of the other width e2e_other_width calls, one at a time. */
static inline void **e2e_other_slot(void)
{
	static void *slot;

	return &slot;
}

/* The other width's entry, called with its own timespec, its answer copied; its return value unchanged. */
static inline int e2e_other_width(clockid_t clk, struct timespec *ts)
{
	void *fn = *e2e_other_slot();
	int rc;

	if (E2E_TIME64) {
		struct e2e_timespec32 t;

		rc = ((int (*)(clockid_t, struct e2e_timespec32 *))fn)(clk, ts ? &t : NULL);
		if (rc == 0 && ts) {
			ts->tv_sec = t.tv_sec;
			ts->tv_nsec = t.tv_nsec;
		}
	} else {
		struct e2e_timespec64 t;

		rc = ((int (*)(clockid_t, struct e2e_timespec64 *))fn)(clk, ts ? &t : NULL);
		if (rc == 0 && ts) {
			ts->tv_sec = (time_t)t.tv_sec;
			ts->tv_nsec = (long)t.tv_nsec;
		}
	}
	return rc;
}

/* How to call p, a 32-bit-time entry (clock_gettime, __clock_gettime, __vdso_clock_gettime). */
static inline e2e_clock_fn e2e_as_entry32(void *p)
{
	if (sizeof(long) == 8 || !E2E_TIME64 || !p)
		return (e2e_clock_fn)p;
	*e2e_other_slot() = p;
	return e2e_other_width;
}

/* How to call p, a 64-bit-time entry (__clock_gettime64, __vdso_clock_gettime64, every entry of a 64-bit CPU). */
static inline e2e_clock_fn e2e_as_entry64(void *p)
{
	if (sizeof(long) == 8 || E2E_TIME64 || !p)
		return (e2e_clock_fn)p;
	*e2e_other_slot() = p;
	return e2e_other_width;
}

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
