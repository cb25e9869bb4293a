/* SPDX-License-Identifier: MIT */
/* Unit tests of calib_seed.c: eligibility, CPUID rates, mult conversions. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "run_suite.h"
#include "calib/calib_seed.h"
#if defined(__x86_64__)
#include <cpuid.h>

#include "arch/x86_64/cpu.h"
#endif

#define TWO32 4294967296.0L

/* The eligibility rule with x86's words: the "tsc" clocksource, tsc_reliable, tsc=unstable, CPUID's invariant bit. */
/* One eligibility case: the CPU's invariance, the clocksources, /proc/cpuinfo, the verdict. */
struct elig_case {
	int invariant;
	const char *cs, *ci;
	int eligible;
	int page; /* the kernel's data page (pre-5.3 gtod): PAGE_NONE (none or unread), PAGE_COUNTER, PAGE_OTHER */
};

/* What a case's page says, as fr_cal_seed_eligible's kernel_counter (-1, 1, 0). */
enum { PAGE_NONE, PAGE_COUNTER, PAGE_OTHER };
static const int kernel_counter_of[] = { [PAGE_NONE] = -1, [PAGE_COUNTER] = 1, [PAGE_OTHER] = 0 };

/*
 * Each case's verdict, and for a refusal that the reason names the failing half of the rule:
 * "not invariant" and not_invariant_word for the counter, untrusted_word for the kernel's trust.
 */
static void check_cases(const struct elig_case *cases, size_t n, const char *not_invariant_word,
			const char *untrusted_word)
{
	for (size_t i = 0; i < n; i++) {
		struct fr_cpu_features cpu = { .ordered_read = 1, .invariant_counter = cases[i].invariant };
		const char *why = fr_cal_seed_eligible(&cpu, kernel_counter_of[cases[i].page], cases[i].cs, cases[i].ci, NULL);

		if (cases[i].eligible) {
			ck_assert_msg(why == NULL, "case %zu: not eligible: %s", i, why);
			continue;
		}
		ck_assert_msg(why != NULL, "case %zu: eligible, should not be", i);
		if (!cases[i].invariant && cases[i].page != PAGE_COUNTER) {
			ck_assert_msg(strstr(why, "not invariant") && strstr(why, not_invariant_word), "case %zu: %s",
				      i, why);
			/* A page that names another clock is the kernel's refusal: the reason says so. */
			ck_assert_msg(!strstr(why, "data page") == (cases[i].page == PAGE_NONE), "case %zu: %s", i, why);
		} else
			ck_assert_msg(strstr(why, untrusted_word), "case %zu: %s", i, why);
	}
}

#if defined(__x86_64__)
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

#else
/*
 * The eligibility rule with arm64's words: the invariant counter, then the "arch_sys_counter"
 * clocksource as a whole word. arm64 has no cpuinfo flag or boot option that vouches for or
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

/* No boot option distrusts the counter on arm64: x86's tsc=unstable, or the placeholder itself, changes nothing. */
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
#endif

/* round(2^32 * 1e9 / hz), in long double: the reference for every CPUID-derived mult. */
static uint64_t ref_mult_hz(long double hz)
{
	return (uint64_t)llroundl(TWO32 * 1e9L / hz);
}

/* The rates x86-64 decodes from CPUID (arch/x86_64/cpu.c), through the generic rule. */
#if defined(__x86_64__)
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
#endif

/* The generic rule over any architecture's candidates: the first usable rate, in order. */
START_TEST(rates_in_order)
{
	struct fr_arch_rates rates = { 3, { { 1, 1ull << 40, "too slow" }, { 25000000, 0, "no denominator" },
					    { 24000000, 1, "counter frequency" } } };
	struct fr_cal_seed s = { .mult = 12345, .source = "junk", .kmult = 7, .kshift = 7 };

	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "counter frequency");
	ck_assert_msg(s.mult == ref_mult_hz(24000000.0L), "mult %llu", (unsigned long long)s.mult);
	rates.n = 2;
	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "none");
	ck_assert_uint_eq(s.mult, 0);
	rates.n = 0;
	fr_cal_seed_from_rates(&rates, &s);
	ck_assert_str_eq(s.source, "none");
}
END_TEST

#if defined(__x86_64__)
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
#endif

START_TEST(mult_from_khz)
{
	static const uint64_t khz[] = { 1, 3, 999, 19200, 1000000, 2096006, 2112000, 3000000, 3579545,
					4294967295ULL, 1000000000000ULL };

	for (size_t i = 0; i < sizeof(khz) / sizeof(khz[0]); i++) {
		uint64_t m = fr_cal_seed_mult_from_khz(khz[i]);
		unsigned __int128 scaled = (unsigned __int128)m * khz[i], target = (unsigned __int128)1000000 << 32;
		unsigned __int128 err = scaled > target ? scaled - target : target - scaled;

		ck_assert_msg(m == (uint64_t)llroundl(1e6L * TWO32 / khz[i]), "%llu kHz: %llu",
			      (unsigned long long)khz[i], (unsigned long long)m);
		/* Rounded to nearest: |m * khz - 1e6 * 2^32| <= khz / 2. */
		ck_assert_msg(err <= khz[i] / 2, "%llu kHz not rounded to nearest", (unsigned long long)khz[i]);
	}
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(1000000), 1ULL << 32);
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(0), 0);
	/* So fast that a tick rounds to 0 ns in 32.32: unknown, not a wrong rate. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_khz(UINT64_MAX), 0);
}
END_TEST

START_TEST(mult_from_shift)
{
	static const uint32_t mults[] = { 0, 1, 3, 8004479, 1u << 23, 0x80000000u, 0xffffffffu };
	static const uint32_t shifts[] = { 0, 1, 8, 22, 23, 24, 31, 32, 33, 40, 63, 64, 65, 200, 0xffffffffu };

	for (size_t i = 0; i < sizeof(mults) / sizeof(mults[0]); i++)
		for (size_t j = 0; j < sizeof(shifts) / sizeof(shifts[0]); j++) {
			long long e = 32 - (long long)shifts[j];
			long double want = floorl(ldexpl(mults[i], (int)(e < -100 ? -100 : e)));
			uint64_t got = fr_cal_seed_mult_from_shift(mults[i], shifts[j]);

			ck_assert_msg((long double)got == want, "mult %u shift %u: %llu, want %.0Lf", mults[i],
				      shifts[j], (unsigned long long)got, want);
		}
}
END_TEST

START_TEST(mult_from_pvclock)
{
	static const uint32_t muls[] = { 0, 1, 0x80000000u, 0xf446a645u, 0xf4462c11u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(muls) / sizeof(muls[0]); i++)
		for (int sh = -128; sh <= 127; sh++) {
			/* Exact in long double (a 32-bit value times a power of two); beyond 64 bits: 0. */
			long double want = floorl(ldexpl(muls[i], sh));
			uint64_t got = fr_cal_seed_mult_from_pvclock(muls[i], (int8_t)sh);

			if (want >= TWO32 * TWO32)
				want = 0;
			ck_assert_msg((long double)got == want, "mul %#x shift %d: %llu, want %.0Lf", muls[i], sh,
				      (unsigned long long)got, want);
		}
}
END_TEST

static void expect_ppm(uint64_t got, uint64_t ref, const char *what)
{
	long double rel = fabsl(((long double)got - (long double)ref) / (long double)ref);

	ck_assert_msg(ref != 0 && rel <= 1e-6L, "%s: %llu vs %llu (%.3Lf ppm)", what, (unsigned long long)got,
		      (unsigned long long)ref, rel * 1e6L);
}

START_TEST(shift_and_pvclock_agree_with_khz)
{
	static const struct {
		uint64_t khz;
		uint32_t shift;
	} cs[] = { { 2096006, 24 }, { 2096006, 31 }, { 3000000, 22 }, { 3000000, 31 }, { 19200, 24 },
		   { 1000000, 23 }, { 4700000, 23 } };

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		/* A kernel-style mult: round((1e9 << shift) / hz), which must fit 32 bits. */
		uint64_t hz = cs[i].khz * 1000;
		uint64_t mult = (uint64_t)(((unsigned __int128)1000000000 << cs[i].shift) + hz / 2) / hz;

		ck_assert_uint_lt(mult, 1ULL << 32);
		expect_ppm(fr_cal_seed_mult_from_shift((uint32_t)mult, cs[i].shift), fr_cal_seed_mult_from_khz(cs[i].khz),
			   "clocksource mult/shift");
	}
	/* kvm-clock's 1 GHz (mult 2^23, shift 23) is exactly 1 ns per tick. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_shift(1u << 23, 23), fr_cal_seed_mult_from_khz(1000000));
	/* The synthetic TSC mode of docs/kernel-data.md §1.3: 8004479/24 is 2095978.514 kHz. */
	expect_ppm(fr_cal_seed_mult_from_shift(8004479, 24), fr_cal_seed_mult_from_khz(2095979), "8004479/24");
	/* This project's VMs: pvclock mul 0xf4462c11, shift -1 is 2096.006 MHz (docs/tools.md). */
	expect_ppm(fr_cal_seed_mult_from_pvclock(0xf4462c11u, -1), fr_cal_seed_mult_from_khz(2096006), "pvclock");
	/* The pvclock page of docs/kernel-data.md §1.2: 0xf446a645, -1 is 2095.990 MHz. */
	expect_ppm(fr_cal_seed_mult_from_pvclock(0xf446a645u, -1), fr_cal_seed_mult_from_khz(2095990), "pvclock §1.2");
	/* A slow TSC: mul 0.5 scaled by 2^2 is 2 ns per tick, 500 MHz. */
	ck_assert_uint_eq(fr_cal_seed_mult_from_pvclock(0x80000000u, 2), fr_cal_seed_mult_from_khz(500000));
}
END_TEST

static Suite *calib_seed_suite(void)
{
	Suite *s = suite_create("calib_seed");
	TCase *tc;

	tc = tcase_create("eligible");
	tcase_add_test(tc, eligibility_table);
	tcase_add_test(tc, eligibility_cmdline);
#if defined(__x86_64__)
	tcase_add_test(tc, eligibility_kernel_verdict);
#endif
	suite_add_tcase(s, tc);

	tc = tcase_create("rates");
	tcase_add_test(tc, rates_in_order);
	suite_add_tcase(s, tc);

#if defined(__x86_64__)
	tc = tcase_create("cpuid");
	tcase_add_test(tc, cpuid_leaf15);
	tcase_add_test(tc, cpuid_fallbacks);
	tcase_add_test(tc, cpuid_real_read);
	suite_add_tcase(s, tc);
#endif

	tc = tcase_create("mult");
	tcase_add_test(tc, mult_from_khz);
	tcase_add_test(tc, mult_from_shift);
	tcase_add_test(tc, mult_from_pvclock);
	tcase_add_test(tc, shift_and_pvclock_agree_with_khz);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_seed_suite());
}
