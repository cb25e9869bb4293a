/* SPDX-License-Identifier: MIT */
/* The timed loops of fastraw-bench, and the clocks they are timed with. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/clockfn.h"
#include "bench/bench_loops.h"
#include "interpose/tools.h"
#include "arch/arch.h"
#include "common/tool_arch.h"
#include "elf/dynsym.h"
#include "elf/vdso_elf.h"

bench_clock_fn bench_vdso_clock_gettime;
bench_clock_fn bench_libc_clock_gettime;
int64_t (*bench_api_now)(void);
uint64_t (*bench_api_ticks)(void);

/*
 * Every loop adds what it read into a sum that ends up here, so the compiler must keep
 * every call; the counter reads are volatile asm and could not be dropped anyway.
 */
static volatile uint64_t bench_sink;

static int have_ordered = -1;

int bench_have_ordered(void)
{
	if (have_ordered < 0) {
		struct fr_cpu_features f = { 0 };

		fr_tool_cpu_probe(&f);
		have_ordered = f.ordered_read != 0;
	}
	return have_ordered;
}

/*
 * The stopwatch: this thread's CPU time, from the kernel. On a shared machine wall time would
 * also count the slices other processes held the CPU, a whole multiple of the cost per call
 * when one of them shares the core; CPU time leaves only what the loop itself used.
 */
static int64_t now_ns(void)
{
	struct timespec ts;

	fr_sys_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int bench_init(void)
{
	const void *base = fr_vdso_base();
	struct timespec ts;

	if (base)
		bench_vdso_clock_gettime = (bench_clock_fn)fr_vdso_sym(base, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION);
	/* From libc's own symbol table: the interposer answers dlsym and dlvsym for this name. */
	bench_libc_clock_gettime = (bench_clock_fn)fr_libc_sym(FR_CLOCK_GETTIME_NAME, "GLIBC_2.17");
	if (!bench_libc_clock_gettime)
		bench_libc_clock_gettime = (bench_clock_fn)fr_libc_sym(FR_CLOCK_GETTIME_NAME, NULL);
	if (!bench_libc_clock_gettime) {
		fprintf(stderr, "fastraw-bench: cannot find libc's own clock_gettime\n");
		return -1;
	}
	if (bench_libc_clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0) {
		perror("fastraw-bench: libc clock_gettime(CLOCK_MONOTONIC_RAW)");
		return -1;
	}
	if (bench_vdso_clock_gettime && bench_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0) {
		fprintf(stderr, "fastraw-bench: the vDSO's clock_gettime(CLOCK_MONOTONIC_RAW) failed\n");
		return -1;
	}
	if (fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0) {
		fprintf(stderr, "fastraw-bench: the clock_gettime system call failed\n");
		return -1;
	}
	return 0;
}

const char *bench_kind_label(enum bench_kind k)
{
	static const char *const labels[BK_COUNT] = {
		[BK_UNORDERED] = FR_ARCH_COUNTER_NAME_UNORDERED,
		[BK_FENCED] = TOOL_FENCED_LABEL,
		[BK_ORDERED] = FR_ARCH_COUNTER_NAME_ORDERED,
		[BK_VDSO_RAW] = "vDSO " FR_ARCH_VDSO_CLOCK_GETTIME "(RAW)",
		[BK_VDSO_MONO] = "vDSO " FR_ARCH_VDSO_CLOCK_GETTIME "(MONOTONIC)",
		[BK_LIBC_RAW] = "libc clock_gettime(RAW)",
		[BK_SYSCALL_RAW] = "syscall clock_gettime(RAW)",
		[BK_PRELOAD_RAW] = "preload clock_gettime(RAW)",
		[BK_LIBC_MONO] = "libc clock_gettime(MONOTONIC)",
		[BK_PRELOAD_MONO] = "preload clock_gettime(MONOTONIC)",
		[BK_API_NOW] = "fastraw_now_ns()",
		[BK_API_TICKS] = "fastraw_ticks()",
	};

	return (unsigned)k < BK_COUNT ? labels[k] : "?";
}

/* The loops are not inlined, so each kind runs in the same kind of code around it. */
static __attribute__((noinline)) uint64_t loop_unordered(long n)
{
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += fr_arch_counter_unordered();
	return sum;
}

static __attribute__((noinline)) uint64_t loop_fenced(long n)
{
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += fr_arch_counter_fenced();
	return sum;
}

static __attribute__((noinline)) uint64_t loop_ordered(long n)
{
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += fr_arch_counter_ordered();
	return sum;
}

static __attribute__((noinline)) uint64_t loop_fn(bench_clock_fn fn, clockid_t clk, long n)
{
	struct timespec ts;
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		fn(clk, &ts);
		sum += (uint64_t)ts.tv_nsec;
	}
	return sum;
}

/* The API through a pointer from dlsym, as a program that does not link the library calls it. */
static __attribute__((noinline)) uint64_t loop_api_now(long n)
{
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += (uint64_t)bench_api_now();
	return sum;
}

static __attribute__((noinline)) uint64_t loop_api_ticks(long n)
{
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += bench_api_ticks();
	return sum;
}

static __attribute__((noinline)) uint64_t loop_syscall(long n)
{
	struct timespec ts;
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		sum += (uint64_t)ts.tv_nsec;
	}
	return sum;
}

/* A direct call of the ordinary symbol, as an application makes it: under LD_PRELOAD it binds to the interposer. */
static __attribute__((noinline)) uint64_t loop_symbol(clockid_t clk, long n)
{
	struct timespec ts;
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		clock_gettime(clk, &ts);
		sum += (uint64_t)ts.tv_nsec;
	}
	return sum;
}

static uint64_t run_loop(enum bench_kind k, long n)
{
	switch (k) {
	case BK_UNORDERED:
		return loop_unordered(n);
	case BK_FENCED:
		return loop_fenced(n);
	case BK_ORDERED:
		return bench_have_ordered() ? loop_ordered(n) : 0;
	case BK_VDSO_RAW:
		return bench_vdso_clock_gettime ? loop_fn(bench_vdso_clock_gettime, CLOCK_MONOTONIC_RAW, n) : 0;
	case BK_VDSO_MONO:
		return bench_vdso_clock_gettime ? loop_fn(bench_vdso_clock_gettime, CLOCK_MONOTONIC, n) : 0;
	case BK_LIBC_RAW:
		return loop_fn(bench_libc_clock_gettime, CLOCK_MONOTONIC_RAW, n);
	case BK_SYSCALL_RAW:
		return loop_syscall(n);
	case BK_PRELOAD_RAW:
		return loop_symbol(CLOCK_MONOTONIC_RAW, n);
	case BK_LIBC_MONO:
		return loop_fn(bench_libc_clock_gettime, CLOCK_MONOTONIC, n);
	case BK_PRELOAD_MONO:
		return loop_symbol(CLOCK_MONOTONIC, n);
	case BK_API_NOW:
		return bench_api_now ? loop_api_now(n) : 0;
	case BK_API_TICKS:
		return bench_api_ticks ? loop_api_ticks(n) : 0;
	case BK_COUNT:
		break;
	}
	return 0;
}

void bench_warm(const enum bench_kind *kinds, const long *iters, int n)
{
	for (int i = 0; i < n; i++)
		bench_sink += run_loop(kinds[i], iters[i] / 20 + 1);
}

void bench_round(const enum bench_kind *kinds, const long *iters, int n, double *ns)
{
	for (int i = 0; i < n; i++) {
		int64_t t0 = now_ns();

		bench_sink += run_loop(kinds[i], iters[i]);
		ns[i] = (double)(now_ns() - t0) / (double)iters[i];
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_best(const enum bench_kind *kinds, const long *iters, int n, int rounds, double *best)
{
	double ns[BK_COUNT];

	bench_warm(kinds, iters, n);
	for (int i = 0; i < n; i++)
		best[i] = -1;
	for (int r = 0; r < rounds; r++) {
		bench_round(kinds, iters, n, ns);
		for (int i = 0; i < n; i++)
			if (best[i] < 0 || ns[i] < best[i])
				best[i] = ns[i];
	}
}
