/* SPDX-License-Identifier: MIT */
/* Oracle regimes 1-3: the kernel's pvclock reader (live or synthetic kvm-clock snapshot) against ours. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>

#include "math/rawmath.h"
#include "values.h"
#include "regimes.h"
#include "compare.h"
#include "arch/arch.h"

/* The copy is open and has a pvclock reader (the baseline pages are in pvclock mode). */
static int pv_ready(const char *regime)
{
	struct orun_pv p;

	if (!oracle_ready(regime))
		return 0;
	orun_reset_pages();
	orun_get_pv(&p);
	return oracle_has_reader(regime, "pvclock (CONFIG_PARAVIRT_CLOCK off)", p.tsc_timestamp + 1000);
}

START_TEST(regime1_pvclock_snapshot)
{
	struct orun_tally t;
	struct ogen_classes cl = { { 0 } };
	struct ogen_around ar;
	struct orun_pv p;
	int ok = 1;

	if (!pv_ready("1 (pvclock snapshot)"))
		return;
	printf("oracle: regime 1 uses %s pvclock snapshot\n", orun_pv_live ? "the live" : "a synthetic kvm-clock");
	orng_seed(1);
	orun_get_pv(&p);
	ar = ogen_around_last();
	/* Here the kernel's carry loop runs natively: results stay within hours. */
	vcopy_set_carry_shortcut(&orun_vc, 0);
	orun_begin(&t, "1a pvclock tsc in [tsc_timestamp, +2^40)", ORUN_COMPUTE);
	ogen_one_pv(&t, &cl, 0, p.tsc_timestamp);
	for (int i = 0; i < ORUN_N; i++)
		ogen_one_pv(&t, &cl, 0, p.tsc_timestamp + orng_below(1ULL << 40));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "1b pvclock tsc = now + [0, 2^33)", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t now = fr_arch_counter_unordered();

		ogen_one_pv(&t, &cl, 0, (now > p.tsc_timestamp ? now : p.tsc_timestamp) + orng_below(1ULL << 33));
	}
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "1c pvclock tsc around cycle_last's", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		ogen_one_pv(&t, &cl, 0, ar.lo + orng_below(ar.span));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	/* Before 6.10 there is no max_cycles: every value past cycle_last is "normal". */
	ok &= cl.n[OGEN_NORMAL] > 0 && (cl.n[OGEN_OVER_MAX] > 0 || orun_kd.lay->rules != FR_RULES_6_10);
	ck_assert_msg(ok, "regime 1: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

/* Regime 2d: the hypervisor updates the pvclock page (version + 2, new system_time) at the first read. */
static struct orun_pv bump_from, bump_to;

static void pv_before(void)
{
	orun_set_pv(&bump_from);
}

static void pv_on_read(unsigned n)
{
	if (n == 0) {
		orun_set_pv(&bump_to);
		*(volatile uint32_t *)(orun_vc.vclock + FR_PV_VERSION) += 2;
	}
}

START_TEST(regime2_pvclock_huge)
{
	struct orun_tally t;
	struct ogen_classes cl = { { 0 } };
	struct orun_pv p, q;
	struct orun_clock c, real;
	int ok = 1;

	if (!pv_ready("2 (pvclock, huge deltas, updates)"))
		return;
	orng_seed(2);
	orun_get_pv(&p);
	orun_get_clock(0, &real);
	vcopy_set_carry_shortcut(&orun_vc, 1);
	orun_begin(&t, "2a pvclock kvmclock - cycle_last > 2^43", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		ogen_one_pv(&t, &cl, 0, ogen_tsc_at_kvmclock(real.cycle_last) + (1ULL << 43) + orng_mag(62));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	ok &= cl.n[OGEN_OVER_MAX] == t.n || orun_kd.lay->rules != FR_RULES_6_10;
	cl = (struct ogen_classes){ { 0 } };
	orun_begin(&t, "2b pvclock tsc in [tsc_timestamp, 2^63)", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++)
		ogen_one_pv(&t, &cl, 0, p.tsc_timestamp + orng_below((1ULL << 63) - p.tsc_timestamp));
	ok &= orun_end(&t);
	ogen_print_classes(t.name, &cl);
	orun_begin(&t, "2c pvclock random mul/shift/base, any delta", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		q = p;
		q.mul = (uint32_t)orng_rand();
		q.shift = (int8_t)((int)orng_below(17) - 8);
		q.system_time = orng_mag(63);
		q.tsc_timestamp = orng_rand();
		orun_set_pv(&q);
		c = i % 2 ? real : ogen_random_clock();
		c.cycle_last = q.system_time + orng_mag(62) - orng_mag(62);
		orun_set_clock(0, FR_MODE_PVCLOCK, &c);
		orun_one(&t, q.tsc_timestamp + orng_mag(63));
	}
	ok &= orun_end(&t);
	orun_reset_pages();
	/* Both read the page again after the version moved: the second counter value, the new page. */
	orun_begin(&t, "2d pvclock version bumped at the counter read", ORUN_COMPUTE);
	t.reads = 2;
	orun_set_hooks(pv_before, pv_on_read);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t tsc = p.tsc_timestamp + (1ULL << 20) + orng_below(1ULL << 36);

		bump_from = bump_to = p;
		bump_to.system_time = p.system_time + orng_below(1ULL << 30);
		bump_to.tsc_timestamp = p.tsc_timestamp + orng_below(1ULL << 20);
		orun_one2(&t, tsc, tsc + orng_below(1ULL << 32));
	}
	orun_set_hooks(NULL, NULL);
	ok &= orun_end(&t);
	orun_reset_pages();
	ck_assert_msg(ok, "regime 2: the kernel's vDSO and ours disagree (see the lines above)");
}
END_TEST

START_TEST(regime3_pvclock_below_timestamp)
{
	struct orun_tally t;
	struct orun_pv p;
	uint64_t near;
	int ok = 1;

	if (!pv_ready("3 (pvclock, tsc below tsc_timestamp)"))
		return;
	orng_seed(3);
	orun_get_pv(&p);
	near = p.tsc_timestamp < (1ULL << 40) ? p.tsc_timestamp : 1ULL << 40;
	vcopy_set_carry_shortcut(&orun_vc, 1);
	/* Mainline wraps here, some vendor kernels clamp: ours must leave every one to the vDSO. */
	orun_begin(&t, "3a pvclock tsc in [ts - 2^40, ts)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, p.tsc_timestamp - 1 - orng_below(near));
	ok &= orun_end(&t);
	orun_begin(&t, "3b pvclock tsc in [0, ts)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, orng_below(p.tsc_timestamp));
	ok &= orun_end(&t);
	orun_begin(&t, "3c pvclock tsc - ts in [2^63, 2^64)", ORUN_PASS);
	for (int i = 0; i < ORUN_N; i++)
		orun_one(&t, p.tsc_timestamp + (1ULL << 63) + orng_below(1ULL << 63));
	ok &= orun_end(&t);
	ck_assert_msg(ok, "regime 3: ours did not pass every value below tsc_timestamp to the vDSO");
}
END_TEST

void oracle_add_pvclock(TCase *tc)
{
	tcase_add_test(tc, regime1_pvclock_snapshot);
	tcase_add_test(tc, regime2_pvclock_huge);
	tcase_add_test(tc, regime3_pvclock_below_timestamp);
}
