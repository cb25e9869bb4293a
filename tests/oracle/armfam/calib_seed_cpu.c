/* SPDX-License-Identifier: MIT */
/* The calib_seed suite's ARM-family cases (arm64, 32-bit ARM): eligibility in the generic timer's words (no CPUID rates). */
#include <check.h>
#include <string.h>

#include "arch/arch.h"
#include "../../unit/calib_seed_cases.h"

/*
 * The eligibility rule with the ARM family's words: the invariant counter, then the "arch_sys_counter"
 * clocksource as a whole word. Neither ARM port has a cpuinfo flag or boot option that vouches for or
 * distrusts the counter: x86's words change nothing here, nor do the placeholders the port
 * gives (FR_ARCH_CPUINFO_RELIABLE, FR_ARCH_CMDLINE_UNSTABLE), which are never one word.
 */
START_TEST(eligibility_table)
{
	static const char ci_x86[] = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc tsc_reliable nonstop_tsc\n\n";
	static const char ci_arm[] = "processor\t: 0\nBogoMIPS\t: 125.00\nFeatures\t: fp asimd evtstrm ecv\n\n";
	static const char ci_placeholder[] = "processor\t: 0\nflags\t\t: " FR_ARCH_CPUINFO_RELIABLE "\n";
	static const struct elig_case cases[] = {
		{ 0, "arch_sys_counter\n", ci_arm, 0, PAGE_NONE },
		{ 1, "arch_sys_counter\n", NULL, 1, PAGE_NONE },
		{ 1, "arch_sys_counter \n", ci_arm, 1, PAGE_NONE },
		{ 1, "kvm-clock arch_sys_counter", NULL, 1, PAGE_NONE },
		{ 1, "\tarch_sys_counter\t", NULL, 1, PAGE_NONE },
		{ 1, "arch_sys_counterx", NULL, 0, PAGE_NONE },
		{ 1, "xarch_sys_counter", NULL, 0, PAGE_NONE },
		{ 1, "arch_sys", NULL, 0, PAGE_NONE },
		{ 1, "", NULL, 0, PAGE_NONE },
		{ 1, NULL, NULL, 0, PAGE_NONE },
		{ 1, "tsc hpet acpi_pm \n", NULL, 0, PAGE_NONE },
		{ 1, "tsc", ci_x86, 0, PAGE_NONE },
		{ 1, NULL, ci_x86, 0, PAGE_NONE },
		{ 1, NULL, ci_arm, 0, PAGE_NONE },
		{ 1, NULL, ci_placeholder, 0, PAGE_NONE },
		/* The kernel's word for the counter stands for the probe's; its trust is still asked for. */
		{ 0, "arch_sys_counter\n", NULL, 1, PAGE_COUNTER },
		{ 0, "kvm-clock\n", NULL, 0, PAGE_COUNTER },
		{ 0, "arch_sys_counter\n", NULL, 0, PAGE_OTHER },
		{ 0, "arch_sys_counter\n", NULL, 0, PAGE_NONE },
	};

	check_cases(cases, sizeof(cases) / sizeof(cases[0]), "not invariant", "arch_sys_counter");
	ck_assert_ptr_nonnull(fr_cal_seed_eligible(NULL, -1, "arch_sys_counter", NULL, NULL));
}
END_TEST

/* No boot option distrusts the generic timer: x86's tsc=unstable, or the placeholder itself, changes nothing. */
START_TEST(eligibility_cmdline)
{
	const struct fr_cpu_features cpu = { .ordered_read = 0, .invariant_counter = 1 };
	static const char *const cmdlines[] = { "console=ttyAMA0 tsc=unstable quiet\n", "tsc=unstable",
						FR_ARCH_CMDLINE_UNSTABLE, "clocksource=arch_sys_counter\n" };

	for (size_t i = 0; i < sizeof(cmdlines) / sizeof(cmdlines[0]); i++) {
		ck_assert_ptr_null(fr_cal_seed_eligible(&cpu, -1, "arch_sys_counter\n", NULL, cmdlines[i]));
		ck_assert_ptr_nonnull(fr_cal_seed_eligible(&cpu, -1, "kvm-clock\n", NULL, cmdlines[i]));
	}
}
END_TEST

void calib_seed_cpu_eligibility(TCase *tc)
{
	tcase_add_test(tc, eligibility_table);
	tcase_add_test(tc, eligibility_cmdline);
}

void calib_seed_cpu_tcases(Suite *s)
{
	(void)s;
}
