/* SPDX-License-Identifier: MIT */
/* The test side of the end-to-end suite: runs probes under LD_PRELOAD and checks what they print. */
#ifndef FR_E2E_HARNESS_H
#define FR_E2E_HARNESS_H

#include <check.h>

#include "run_suite.h"
#include <stdint.h>

#include "arch/arch.h"
/* The CPU's facts (FRT_NO_RAW_DATA, FRT_FIRST_DATA_RELEASE). */
#include "cpu_test.h"

/* What one run of a probe produced. */
struct e2e_result {
	int status; /* wait status, as waitpid reports it */
	char *out;  /* captured stdout, NUL-terminated */
	char *err;  /* captured stderr, NUL-terminated: only the library writes there */
};

/* How to run a probe. */
struct e2e_opts {
	const char *const *env; /* extra NAME=VALUE strings, NULL-terminated, or NULL */
	int no_preload;         /* nonzero: leave LD_PRELOAD unset */
	long timens_mono_sec;   /* nonzero: run in a new time namespace with this monotonic offset */
};

/* Check refuses messages longer than a few kilobytes: show at most this much of an output. */
#define E2E_SHOWN 1200

/* Runs argv[0] with the inherited environment minus LD_PRELOAD and FASTRAW_*, plus
   LD_PRELOAD=$FASTRAW_LIB and opts->env. Fails the current Check test on setup errors. */
void e2e_run(struct e2e_result *r, const struct e2e_opts *opts, const char *const argv[]);
void e2e_result_free(struct e2e_result *r);

/* Asserts that the probe exited with status 0, showing its output otherwise. */
void e2e_assert_ok(const struct e2e_result *r);
/* Asserts that the library wrote nothing to stderr. */
void e2e_assert_quiet(const struct e2e_result *r);
/* Asserts the probe's "served=" line names the library in FASTRAW_LIB. */
void e2e_assert_served(const struct e2e_result *r, const char *key);

/* The value of an environment variable the test needs; fails the test when unset. */
const char *e2e_need_env(const char *name);

int e2e_count_lines(const char *s);
int e2e_count_lines_with(const char *s, const char *needle);

/* The library's lines start "fastraw[PID] PROGRAM: ", PROGRAM the last part of argv[0] with ':'
   escaped: the text after that prefix when line has it (line may run on past a newline), else NULL. */
const char *e2e_lib_text(const char *line);
/* The first line in s that the library printed whose text starts with start, or NULL. */
const char *e2e_lib_line(const char *s, const char *start);
/*
 * The FASTRAW_STATS counts of clock name ("MONOTONIC", "MONOTONIC_RAW") on the library's stats
 * line in err: *fast (0 when the line gives none) and *pass; both 0 when the clock is left out
 * (no call reached it). Fails the test when there is no stats line.
 */
void e2e_stats_of(const char *err, const char *name, long long *fast, long long *pass);
/* e2e_stats_of's *fast: the calls of clock name the library served in-process. */
long long e2e_fast_of(const char *err, const char *name);
/* How many lines in s the library printed whose text starts with start ("warning: "). */
int e2e_count_lib_lines(const char *s, const char *start);
/* The integer in the first line "key=<n>" of s; fails the test when there is none. */
int64_t e2e_int_value(const char *s, const char *key);
/* Each "key=<n>" of want (NULL-ended, as E2E_ARGV makes it) is what e2e_int_value(s, key) gives. */
void e2e_assert_values(const char *s, const char *const *want);

/* The kernel's CLOCK_MONOTONIC_RAW now, in nanoseconds. */
int64_t e2e_kernel_raw_ns(void);
/* How far a time namespace made by e2e_run with timens_mono_sec moves the monotonic clocks from
   where the caller sees them. Offsets are relative to the host, not to the caller's namespace:
   a caller already inside one (the kernel matrix runs the suites so) sees a smaller shift. */
int64_t e2e_timens_shift_ns(long mono_sec);

/*
 * FASTRAW_TSC's names for the three counter reads, as the library prints them (src/arch/<cpu>/
 * counter.h): x86-64's rdtscp, lfence and rdtsc, arm64's cntvctss, isb+cntvct and cntvct.
 * String literals, so that E2E_TSC(E2E_FENCED) is one too.
 */
#define E2E_ORDERED FR_ARCH_COUNTER_NAME_ORDERED
#define E2E_FENCED FR_ARCH_COUNTER_NAME_FENCED
#define E2E_UNORDERED FR_ARCH_COUNTER_NAME_UNORDERED
#define E2E_TSC(name) "FASTRAW_TSC=" name

/* Whether the CPU has the ordered read (E2E_ORDERED): RDTSCP on x86-64, FEAT_ECV on arm64. */
int e2e_cpu_has_ordered(void);
/* The counter the library picks without FASTRAW_TSC: E2E_ORDERED where the CPU has it, else E2E_FENCED. */
const char *e2e_default_counter(void);

/* Asserts that err holds exactly one FASTRAW_DEBUG line naming this kernel, an era that covers
   it (or one marked "(assumed: ...)"; FR_E2E_ERA's where set), this clocksource, the given counter (NULL: the default) and ending in "active".
   Where calibrated mode is expected (e2e_expect_calibrated) the line instead says era=none
   clock=unknown (no RAW data to read) and " counter=<counter> calibrated: seed ". */
void e2e_assert_debug_active(const char *err, const char *counter);

/* Asserts that err holds exactly one FASTRAW_DEBUG line naming this kernel, an era that covers
   it, this clocksource, any counter, and "passthrough: " with a reason that contains reason. */
void e2e_assert_debug_passthrough(const char *err, const char *reason);

/* Whether the machine is expected to pass every RAW call through: FR_E2E_EXPECT is "passthrough"
   (a clocksource the vDSO cannot read), not unset, empty, "active" or "calibrated". Any other
   value fails the test. */
int e2e_expect_passthrough(void);

/*
 * Whether the kernel is older than the first release whose RAW data the library reads on this
 * CPU (FRT_FIRST_DATA_RELEASE: 5.3 on x86-64, 5.10 on arm64, 5.5 on 32-bit ARM): the library's
 * era is "none" there.
 */
int e2e_kernel_before_data(void);
/* The library's pass-through reason there (FRT_NO_RAW_DATA, the CPU's words). */
#define E2E_NO_RAW_DATA FRT_NO_RAW_DATA

/* Whether the library is expected to serve RAW in calibrated mode by default (FR_E2E_EXPECT is
   "calibrated": a kernel before 5.3, no RAW data, a counter calibrated mode may use). */
int e2e_expect_calibrated(void);

/* e2e_assert_debug_active, or, where pass-through is expected, e2e_assert_debug_passthrough
   with the reason "clock mode none" (E2E_NO_RAW_DATA before 5.3). */
void e2e_assert_debug(const char *err, const char *counter);

/* A test case with a timeout long enough for a million kernel calls. */
TCase *e2e_tcase(Suite *s, const char *name);

#define E2E_ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define E2E_ENV(...) ((const char *const[]){ __VA_ARGS__, NULL })

#endif
