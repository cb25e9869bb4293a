/* SPDX-License-Identifier: MIT */
/* Probes the CPU, chooses the counter read and checks the fast path against the real vDSO before it is enabled. */
#include "startup/decide.h"

#include "elf/dynsym.h"
#include "exact/clocks.h"

void fr_cpu_probe(struct fr_cpu_features *out)
{
	fr_arch_cpu_probe(out, fr_libc_sym);
}

enum fr_counter_mode fr_choose_counter(const struct fr_env *env, const struct fr_cpu_features *cpu,
				       int *ordered_missing)
{
	enum fr_counter_mode def = cpu->ordered_read ? FR_CTR_ORDERED : FR_CTR_FENCED;

	*ordered_missing = 0;
	if (!env->tsc_set)
		return def;
	if (env->tsc == FR_CTR_ORDERED && !cpu->ordered_read) {
		*ordered_missing = 1;
		return FR_CTR_FENCED;
	}
	return env->tsc;
}

static int ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

/*
 * Rounds of the self-test. A wrong layout or formula misses the vDSO's bracket (tens of ns wide)
 * by far more in its first round, and every round reads the same fields: more rounds add start-up
 * time to every process, not evidence. A few guard against one lucky round (a value read while
 * the kernel was updating the page, which the seqcount should have caught).
 */
#define SELF_TEST_ROUNDS 8

const char *fr_self_test(const struct fr_kdata *kd, fr_counter_fn counter, fr_real_fn real)
{
	int served = 0;

	if (real.call == fr_sys_clock_gettime)
		return "no vDSO to check against";
	for (int i = 0; i < SELF_TEST_ROUNDS; i++) {
		struct timespec a, m, b;

		if (real.call(CLOCK_MONOTONIC_RAW, &a) != 0)
			return "the vDSO's CLOCK_MONOTONIC_RAW failed";
		if (fr_raw_read_with(kd, counter, &m) != FR_OK)
			continue;
		if (real.call(CLOCK_MONOTONIC_RAW, &b) != 0)
			return "the vDSO's CLOCK_MONOTONIC_RAW failed";
		if (!ts_le(&a, &m) || !ts_le(&m, &b) || m.tv_nsec < 0 || m.tv_nsec >= 1000000000L)
			return "self-test against the vDSO failed";
		served++;
	}
	return served ? NULL : "fast path could not serve the self-test (clock mode or pvclock not usable)";
}

/*
 * The same bracket for one served clock: the layout RAW's self-test (or the strict checks)
 * proved places CS_HRES_COARSE beside CS_RAW, but only the vDSO's own answers show that its
 * bases are where this era keeps them. A clock the fast reading passes on is not counted.
 */
static const char *self_test_clock(const struct fr_kdata *kd, fr_counter_fn counter, fr_real_fn real, clockid_t clk)
{
	int served = 0;

	for (int i = 0; i < SELF_TEST_ROUNDS; i++) {
		struct timespec a, m, b;

		if (real.call(clk, &a) != 0)
			return "the vDSO failed a served clock";
		if (fr_clock_read_with(kd, counter, clk, &m) != FR_OK)
			continue;
		if (real.call(clk, &b) != 0)
			return "the vDSO failed a served clock";
		if (!ts_le(&a, &m) || !ts_le(&m, &b) || m.tv_nsec < 0 || m.tv_nsec >= 1000000000L)
			return "a served clock's self-test against the vDSO failed";
		served++;
	}
	return served ? NULL : "a served clock could not be read for its self-test";
}

const char *fr_self_test_clocks(const struct fr_kdata *kd, fr_counter_fn counter, fr_real_fn real, unsigned clocks)
{
	const char *why = NULL;

	if (real.call == fr_sys_clock_gettime)
		return "no vDSO to check the served clocks against";
	for (clockid_t c = 0; c < 32 && !why; c++) {
		if (c != CLOCK_MONOTONIC_RAW && fr_clock_in(clocks & FR_CLOCKS_SERVABLE, c))
			why = self_test_clock(kd, counter, real, c);
	}
	return why;
}
