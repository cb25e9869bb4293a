/* SPDX-License-Identifier: MIT */
/* The timed loops of fastraw-bench: one per thing measured, run in interleaved rounds. */
#ifndef BENCH_LOOPS_H
#define BENCH_LOOPS_H

#include <stdint.h>
#include <time.h>

typedef int (*bench_clock_fn)(clockid_t clk, struct timespec *ts);

/* The things fastraw-bench can time. All clock_gettime kinds read CLOCK_MONOTONIC_RAW unless named _MONO. */
enum bench_kind {
	BK_UNORDERED,    /* the bare unordered counter read (x86-64: rdtsc, arm64: cntvct) */
	BK_FENCED,       /* the bare fenced read (lfence;rdtsc, isb+cntvct) */
	BK_ORDERED,      /* the bare ordered read (rdtscp, cntvctss): only where the CPU has it */
	BK_VDSO_RAW,     /* the kernel's vDSO clock_gettime (FR_ARCH_VDSO_CLOCK_GETTIME), called directly */
	BK_VDSO_MONO,    /* the same for CLOCK_MONOTONIC: the pass-through's floor */
	BK_LIBC_RAW,     /* libc's own clock_gettime, found in libc's own symbol table so a preload cannot hide it */
	BK_SYSCALL_RAW,  /* the syscall instruction */
	BK_PRELOAD_RAW,  /* clock_gettime through the ordinary symbol: the interposer under LD_PRELOAD */
	BK_LIBC_MONO,    /* libc's own clock_gettime(CLOCK_MONOTONIC) */
	BK_PRELOAD_MONO, /* clock_gettime(CLOCK_MONOTONIC) through the ordinary symbol */
	BK_API_NOW,      /* fastraw_now_ns(), found with dlsym in the preloaded library */
	BK_API_TICKS,    /* fastraw_ticks(), likewise */
	BK_COUNT
};

/* The kernel's vDSO function and libc's own clock_gettime, as bench_init found them. */
extern bench_clock_fn bench_vdso_clock_gettime;
extern bench_clock_fn bench_libc_clock_gettime;

/* The library's public API, when a child finds it with dlsym(RTLD_DEFAULT); NULL otherwise. */
extern int64_t (*bench_api_now)(void);
extern uint64_t (*bench_api_ticks)(void);

/* Finds the functions above and checks that each answers; returns 0, or -1 after printing why. */
int bench_init(void);

/* Whether the CPU has the ordered read (FR_ARCH_ORDERED_FEATURE); BK_ORDERED must not run otherwise (SIGILL). */
int bench_have_ordered(void);

/* A short label for a kind, as printed in tables. */
const char *bench_kind_label(enum bench_kind k);

/* Runs every kinds[i] once, untimed, for a twentieth of iters[i]: lazy binding, start-up, cold caches. */
void bench_warm(const enum bench_kind *kinds, const long *iters, int n);

/* One timed round: ns[i] receives the nanoseconds per call of iters[i] calls of kinds[i], in turn. */
void bench_round(const enum bench_kind *kinds, const long *iters, int n, double *ns);

/* The median of v[0..n-1] (n > 0); v is sorted in place. */
double bench_median(double *v, int n);

/*
 * Runs rounds rounds; each round times every kinds[i] for iters[i] calls, in turn, so that
 * kinds compared with each other see the same machine state. best[i] receives the lowest
 * nanoseconds per call of any round. n is at most BK_COUNT.
 */
void bench_best(const enum bench_kind *kinds, const long *iters, int n, int rounds, double *best);

#endif
