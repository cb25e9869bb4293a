/* SPDX-License-Identifier: MIT */
/* The calib_seed suite's x86-64 cases: eligibility in x86's words, the rates decoded from CPUID. */
#include <check.h>
#include <cpuid.h>
#include <string.h>

#include "arch/x86_64/cpu.h"
#include "../../unit/calib_seed_cases.h"

/* The eligibility rule with x86's words: the "tsc" clocksource, tsc_reliable, tsc=unstable, CPUID's invariant bit. */
START_TEST(eligibility_table)
{
	static const char ci_reliable[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: X\n"
					  "flags\t\t: fpu tsc msr constant_tsc tsc_reliable nonstop_tsc\n"
					  "bugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: fpu tsc msr\n\n";
	static const char ci_plain[] = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc\n\n";
	static const char ci_second_only[] = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc\n\n"
					     "processor\t: 1\nflags\t\t: fpu tsc tsc_reliable\n\n";
	static const char ci_second_no_blank[] = "processor\t: 0\nflags\t\t: fpu tsc\n"
						 "processor\t: 1\nflags\t\t: fpu tsc_reliable\n";
	static const char ci_first_no_flags[] = "processor\t: 0\nvendor_id\t: GenuineIntel\n\n"
						"processor\t: 1\nflags\t\t: tsc_reliable\n";
	static const char ci_first_no_flags_no_blank[] = "processor\t: 0\nvendor_id\t: GenuineIntel\n"
							 "processor\t: 1\nflags\t\t: tsc_reliable\n";
	static const char ci_suffixes[] = "processor\t: 0\nflags\t\t: fpu tsc_reliable_x xtsc_reliable "
					  "tsc_reliablex tsc-reliable\n";
	static const char ci_vmx[] = "processor\t: 0\nvmx flags\t: tsc_reliable\nflags\t\t: fpu tsc\n";
	static const char ci_model[] = "processor\t: 0\nmodel name\t: tsc_reliable\nflags\t\t: fpu\n";
	static const char ci_no_newline[] = "processor\t: 0\nflags\t\t: fpu tsc_reliable";
	static const char ci_leading_blank[] = "\n\nprocessor\t: 0\nflags\t\t:\ttsc_reliable\tfpu\n";
	static const struct elig_case cases[] = {
		{ 0, "tsc hpet acpi_pm \n", ci_reliable, 0, PAGE_NONE },
		{ 1, "tsc hpet acpi_pm \n", NULL, 1, PAGE_NONE },
		{ 1, "kvm-clock tsc hpet", NULL, 1, PAGE_NONE },
		{ 1, "hpet tsc\n", NULL, 1, PAGE_NONE },
		{ 1, "\ttsc\t", NULL, 1, PAGE_NONE },
		{ 1, "tsc-early hpet acpi_pm \n", NULL, 0, PAGE_NONE },
		{ 1, "tsc-early", ci_plain, 0, PAGE_NONE },
		{ 1, "xtsc tscx tsc_reliable", NULL, 0, PAGE_NONE },
		{ 1, "", NULL, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_reliable, 1, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_plain, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_second_only, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_second_no_blank, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_first_no_flags, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_first_no_flags_no_blank, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_suffixes, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_vmx, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_model, 0, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_no_newline, 1, PAGE_NONE },
		{ 1, "kvm-clock \n", ci_leading_blank, 1, PAGE_NONE },
		{ 1, NULL, ci_reliable, 1, PAGE_NONE },
		{ 1, NULL, NULL, 0, PAGE_NONE },
		{ 1, NULL, ci_plain, 0, PAGE_NONE },
		{ 0, NULL, NULL, 0, PAGE_NONE },
		/*
		 * The kernel's verdict (a pre-5.3 gtod page in clock mode TSC) stands for the CPU's
		 * invariant bit: QEMU's -cpu max under a 4.19 kernel that keeps tsc. The kernel's trust
		 * is still asked for; a page in another mode, or none, leaves the CPU's word alone.
		 */
		{ 0, "tsc hpet acpi_pm \n", NULL, 1, PAGE_COUNTER },
		{ 0, "tsc", ci_plain, 1, PAGE_COUNTER },
		{ 0, NULL, ci_reliable, 1, PAGE_COUNTER },
		{ 0, "hpet acpi_pm \n", ci_plain, 0, PAGE_COUNTER },
		{ 0, NULL, NULL, 0, PAGE_COUNTER },
		{ 0, "hpet acpi_pm \n", NULL, 0, PAGE_OTHER },
		{ 0, "tsc hpet acpi_pm \n", ci_reliable, 0, PAGE_OTHER },
		{ 0, "tsc hpet acpi_pm \n", ci_reliable, 0, PAGE_NONE },
		{ 1, "tsc hpet acpi_pm \n", NULL, 1, PAGE_OTHER },
		{ 1, "hpet acpi_pm \n", ci_plain, 0, PAGE_OTHER },
		{ 1, "tsc hpet", NULL, 1, PAGE_COUNTER },
	};

	check_cases(cases, sizeof(cases) / sizeof(cases[0]), "0x80000007", "does not trust the TSC");
	ck_assert_ptr_nonnull(fr_cal_seed_eligible(NULL, -1, "tsc", ci_reliable, NULL));
}
END_TEST

/* tsc=unstable on the command line (this project's own VMs boot so): the tsc_reliable flag,
   which the hypervisor sets, does not count then; a registered tsc clocksource still does. */
START_TEST(eligibility_cmdline)
{
	static const char ci[] = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc tsc_reliable nonstop_tsc\n\n";
	const struct fr_cpu_features cpu = { .ordered_read = 0, .invariant_counter = 1 };
	const char *why;

	ck_assert_ptr_null(fr_cal_seed_eligible(&cpu, -1, "kvm-clock \n", ci, "console=ttyS0 tsc=reliable quiet\n"));
	why = fr_cal_seed_eligible(&cpu, -1, "kvm-clock \n", ci, "clocksource=kvm-clock tsc=reliable tsc=unstable quiet\n");
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "tsc=unstable"), "%s", why);
	ck_assert_ptr_nonnull(fr_cal_seed_eligible(&cpu, -1, "kvm-clock \n", ci, "tsc=unstable"));
	/* Not the word: a longer option or a value of another. */
	ck_assert_ptr_null(fr_cal_seed_eligible(&cpu, -1, "kvm-clock \n", ci, "tsc=unstablex foo=tsc=unstable"));
	ck_assert_ptr_null(fr_cal_seed_eligible(&cpu, -1, "tsc kvm-clock", NULL, "tsc=unstable"));
}
END_TEST

/*
 * The two outcomes of the kernel's verdict where the CPU is silent (no invariant bit), with the
 * words the debug line shows: eligible where the gtod page says TSC; refused where it names
 * another clock, the reason naming both the CPU and the page; the CPU's reason alone without a page.
 */
START_TEST(eligibility_kernel_verdict)
{
	const struct fr_cpu_features cpu = { .ordered_read = 1, .invariant_counter = 0 };
	const char *why;

	ck_assert_ptr_null(fr_cal_seed_eligible(&cpu, 1, "tsc hpet acpi_pm \n", NULL, "clocksource=tsc tsc=reliable"));
	ck_assert_ptr_null(fr_cal_seed_eligible(NULL, 1, "tsc hpet acpi_pm \n", NULL, NULL));
	why = fr_cal_seed_eligible(&cpu, 0, "hpet acpi_pm \n", NULL, NULL);
	ck_assert_str_eq(why, "the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8) and the kernel's data "
			      "page does not say clock mode tsc (its clocksource is another)");
	why = fr_cal_seed_eligible(&cpu, -1, "tsc hpet acpi_pm \n", NULL, NULL);
	ck_assert_str_eq(why, "the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8)");
	/* A kernel that keeps tsc still needs its trust: a page in mode TSC with no "tsc" listed is refused. */
	why = fr_cal_seed_eligible(&cpu, 1, "hpet acpi_pm \n", NULL, "tsc=unstable");
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "tsc=unstable"), "%s", why);
}
END_TEST

/* The rates x86-64 decodes from CPUID (arch/x86_64/cpu.c), through the generic rule. */
static void expect_seed(const struct fr_cpuid_rate *c, const char *source, uint64_t mult)
{
	struct fr_cal_seed s = { .mult = 12345, .source = "junk", .kmult = 7, .kshift = 7 };
	struct fr_arch_rates rates;

	if (c)
		fr_arch_rates_from_cpuid(c, &rates);
	fr_cal_seed_from_rates(c ? &rates : NULL, &s);
	ck_assert_str_eq(s.source, source);
	/* A CPU's rate is no kernel mult/shift. */
	ck_assert_uint_eq(s.kmult, 0);
	ck_assert_uint_eq(s.kshift, 0);
	ck_assert_msg(s.mult == mult, "%s: mult %llu, want %llu", source, (unsigned long long)s.mult,
		      (unsigned long long)mult);
}

START_TEST(cpuid_leaf15)
{
	/* A 24 MHz crystal at 2100/24: 2.1 GHz; 0x16 and the hypervisor leaf are ignored. */
	struct fr_cpuid_rate c = { .max_leaf = 0x16, .l15_eax = 24, .l15_ebx = 2100, .l15_ecx = 24000000,
				   .l16_eax = 2000, .hv_max_leaf = 0x40000010, .hv_tsc_khz = 1999999 };

	expect_seed(&c, "cpuid 0x15", ref_mult_hz(2100000000.0L));
	/* 24 MHz at 176/2 = 2.112 GHz; a 19.2 MHz crystal (Goldmont) at 100/1 = 1.92 GHz; 25 MHz at 168/2. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x15, .l15_eax = 2, .l15_ebx = 176, .l15_ecx = 24000000 };
	expect_seed(&c, "cpuid 0x15", ref_mult_hz(2112000000.0L));
	c = (struct fr_cpuid_rate){ .max_leaf = 0x1b, .l15_eax = 1, .l15_ebx = 100, .l15_ecx = 19200000 };
	expect_seed(&c, "cpuid 0x15", ref_mult_hz(1920000000.0L));
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l15_eax = 2, .l15_ebx = 168, .l15_ecx = 25000000 };
	expect_seed(&c, "cpuid 0x15", ref_mult_hz(2100000000.0L));
	/* A ratio that does not reduce: 3 / 7 of 38.4 MHz. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x15, .l15_eax = 7, .l15_ebx = 3, .l15_ecx = 38400000 };
	expect_seed(&c, "cpuid 0x15", ref_mult_hz(38400000.0L * 3 / 7));
}
END_TEST

START_TEST(cpuid_fallbacks)
{
	struct fr_cpuid_rate c;

	/* Crystal not enumerated (Skylake client: ECX 0): the hypervisor leaf, then 0x16. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l15_eax = 2, .l15_ebx = 216, .l16_eax = 2600,
				    .hv_max_leaf = 0x40000010, .hv_tsc_khz = 2096006 };
	expect_seed(&c, "hypervisor 0x40000010", ref_mult_hz(2096006000.0L));
	c.hv_max_leaf = 0x4000000f; /* the timing leaf is beyond the hypervisor's range */
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(2600000000.0L));
	c.hv_max_leaf = 0x40000010;
	c.hv_tsc_khz = 0;
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(2600000000.0L));
	/* 0x15 with a zero denominator or numerator is no rate. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l15_ebx = 216, .l15_ecx = 24000000, .l16_eax = 3000 };
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(3000000000.0L));
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l15_eax = 2, .l15_ecx = 24000000, .l16_eax = 3000 };
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(3000000000.0L));
	/* Leaf 0x16's reserved upper bits are not part of the MHz. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l16_eax = 0xabcd0000u | 3000 };
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(3000000000.0L));
	/* Values of leaves beyond max_leaf are not used (Intel repeats the last leaf there). */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x14, .l15_eax = 2, .l15_ebx = 176, .l15_ecx = 24000000,
				    .l16_eax = 2100 };
	expect_seed(&c, "none", 0);
	c.max_leaf = 0x15;
	expect_seed(&c, "cpuid 0x15", ref_mult_hz(2112000000.0L));
	c = (struct fr_cpuid_rate){ .max_leaf = 0x15, .l16_eax = 2100 };
	expect_seed(&c, "none", 0);
	/* A ratio too slow for a 64-bit mult (under 0.24 Hz) falls through. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0x16, .l15_eax = 0xffffffffu, .l15_ebx = 1, .l15_ecx = 1,
				    .l16_eax = 1000 };
	expect_seed(&c, "cpuid 0x16", ref_mult_hz(1000000000.0L));
	/* Hypervisor leaf only (this project's kind of VM when the hypervisor offers it). */
	c = (struct fr_cpuid_rate){ .max_leaf = 0xd, .hv_max_leaf = 0x40000010, .hv_tsc_khz = 2096006 };
	expect_seed(&c, "hypervisor 0x40000010", ref_mult_hz(2096006000.0L));
	/* Nothing at all. */
	c = (struct fr_cpuid_rate){ .max_leaf = 0xd, .hv_max_leaf = 0x40000000 };
	expect_seed(&c, "none", 0);
	expect_seed(NULL, "none", 0);
}
END_TEST

START_TEST(cpuid_real_read)
{
	struct fr_cpuid_rate r;
	struct fr_arch_rates rates;
	struct fr_cal_seed s;
	unsigned a, b, c, d;

	memset(&r, 0x5a, sizeof(r));
	fr_arch_cpuid_rate_read(&r);
	__cpuid(0, a, b, c, d);
	ck_assert_uint_eq(r.max_leaf, a);
	if (r.max_leaf < 0x15)
		ck_assert_msg(!r.l15_eax && !r.l15_ebx && !r.l15_ecx, "leaf 0x15 read beyond max leaf %#x",
			      r.max_leaf);
	if (r.max_leaf < 0x16)
		ck_assert_msg(!r.l16_eax, "leaf 0x16 read beyond max leaf %#x", r.max_leaf);
	__cpuid(1, a, b, c, d);
	if (!((c >> 31) & 1))
		ck_assert_uint_eq(r.hv_max_leaf, 0);
	ck_assert(r.hv_max_leaf == 0 || (r.hv_max_leaf >= 0x40000000u && r.hv_max_leaf <= 0x4fffffffu));
	if (r.hv_max_leaf < 0x40000010u)
		ck_assert_uint_eq(r.hv_tsc_khz, 0);
	/* Whatever this CPU says, the seed is none or a rate between 10 MHz and 100 GHz. */
	fr_arch_rates_from_cpuid(&r, &rates);
	fr_cal_seed_from_rates(&rates, &s);
	if (s.mult)
		ck_assert_msg(s.mult > (TWO32 / 100) && s.mult < TWO32 * 100, "%s: mult %llu", s.source,
			      (unsigned long long)s.mult);
	else
		ck_assert_str_eq(s.source, "none");
}
END_TEST

void calib_seed_cpu_eligibility(TCase *tc)
{
	tcase_add_test(tc, eligibility_table);
	tcase_add_test(tc, eligibility_cmdline);
	tcase_add_test(tc, eligibility_kernel_verdict);
}

void calib_seed_cpu_tcases(Suite *s)
{
	TCase *tc = tcase_create("cpuid");

	tcase_add_test(tc, cpuid_leaf15);
	tcase_add_test(tc, cpuid_fallbacks);
	tcase_add_test(tc, cpuid_real_read);
	suite_add_tcase(s, tc);
}
