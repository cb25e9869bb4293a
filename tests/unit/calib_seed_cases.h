/* SPDX-License-Identifier: MIT */
/* What the calib_seed suite shares with its CPU's cases (tests/oracle/<cpu>/calib_seed_cpu.c): the eligibility case, its check, the reference mult. */
#ifndef FR_TEST_CALIB_SEED_CASES_H
#define FR_TEST_CALIB_SEED_CASES_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "calib/calib_seed.h"

#define TWO32 4294967296.0L

/* One eligibility case: the CPU's invariance, the clocksources, /proc/cpuinfo, the verdict. */
struct elig_case {
	int invariant;
	const char *cs, *ci;
	int eligible;
	int page; /* the kernel's data page (pre-5.3 gtod): PAGE_NONE (none or unread), PAGE_COUNTER, PAGE_OTHER */
};

/* What a case's page says, as fr_cal_seed_eligible's kernel_counter (-1, 1, 0). */
enum { PAGE_NONE, PAGE_COUNTER, PAGE_OTHER };

/* Asserts each case's verdict, and that a refusal's reason names the half of the rule that failed. */
void check_cases(const struct elig_case *cases, size_t n, const char *not_invariant_word, const char *untrusted_word);

/* round(2^32 * 1e9 / hz), in long double: the reference for every CPUID-derived mult. */
uint64_t ref_mult_hz(long double hz);

/* The CPU's eligibility cases, added to the "eligible" test case. */
void calib_seed_cpu_eligibility(TCase *tc);

/* The CPU's own test cases of the suite (x86-64: the CPUID rates), added after "rates". */
void calib_seed_cpu_tcases(Suite *s);

#endif
