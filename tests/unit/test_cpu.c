/* SPDX-License-Identifier: MIT */
/* Unit tests of the CPU hooks: the counter reads, the feature probe against /proc/cpuinfo's feature words, the mode names. */
#define _GNU_SOURCE
#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_suite.h"
#include "cpu_test.h"
#include "exact/fastpath.h"
#include "arch/arch.h"
#include "startup/decide.h"

/*
 * The /proc/cpuinfo line listing the CPU's features: "flags" on x86, "Features" on arm64 (where
 * qemu-user shows the host's file, which has no such line: then -1, and nothing is cross-checked).
 */
#define CPUINFO_KEY FRT_CPUINFO_KEY

/* Whether the first CPUINFO_KEY line of /proc/cpuinfo lists flag as a whole word; -1 without one. */
static int cpuinfo_flag(const char *flag)
{
	static char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL;

		if (strncmp(line, CPUINFO_KEY, strlen(CPUINFO_KEY)) != 0 || !strchr(line, ':'))
			continue;
		found = 0;
		for (char *w = strtok_r(strchr(line, ':') + 1, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			if (strcmp(w, flag) == 0)
				found = 1;
		break;
	}
	fclose(f);
	return found;
}

START_TEST(probe_matches_cpuinfo)
{
	struct fr_cpu_features f, insn;
	/* arm64: the kernel lists "ecv" (HWCAP2_ECV) when CNTVCTSS_EL0 exists; the generic timer is always invariant. */
	const char *constant_flag = FRT_CPUINFO_CONSTANT, *nonstop_flag = FRT_CPUINFO_NONSTOP;
	int ordered = cpuinfo_flag(FRT_CPUINFO_ORDERED), constant = constant_flag ? cpuinfo_flag(constant_flag) : 1;
	int nonstop = nonstop_flag ? cpuinfo_flag(nonstop_flag) : 1;

	memset(&f, 0xa5, sizeof(f));
	memset(&insn, 0x5a, sizeof(insn));
	fr_cpu_probe_default(&f);
	/* glibc's saved copy of the leaves (when there is one) says what the instruction says. */
	fr_arch_cpu_probe_insn(&insn);
	ck_assert_int_eq(f.ordered_read, insn.ordered_read);
	ck_assert_int_eq(f.invariant_counter, insn.invariant_counter);
	ck_assert(f.ordered_read == 0 || f.ordered_read == 1);
	ck_assert(f.invariant_counter == 0 || f.invariant_counter == 1);
#if FRT_COUNTER_ALWAYS_INVARIANT
	ck_assert_int_eq(f.invariant_counter, 1);
#endif
	if (ordered < 0) {
		printf("SKIP: probe_matches_cpuinfo: no \"" CPUINFO_KEY "\" line in /proc/cpuinfo; probe not cross-checked\n");
		return;
	}
	/*
	 * x86: the kernel sets rdtscp from CPUID 0x80000001 EDX 27, and constant+nonstop from
	 * 0x80000007 EDX 8. arm64: "ecv" from ID_AA64MMFR0_EL1.ECV, what HWCAP2_ECV reports.
	 */
	ck_assert_int_eq(f.ordered_read, ordered);
	ck_assert_int_eq(f.invariant_counter, constant && nonstop);
	/* The library's replaceable probe starts as the real one. */
	ck_assert_ptr_eq(fr_cpu_probe, fr_cpu_probe_default);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(fr_counter_name(FR_CTR_ORDERED), FRT_COUNTER_NAME_ORDERED);
	ck_assert_str_eq(fr_counter_name(FR_CTR_FENCED), FRT_COUNTER_NAME_FENCED);
	ck_assert_str_eq(fr_counter_name(FR_CTR_UNORDERED), FRT_COUNTER_NAME_UNORDERED);
	ck_assert_str_eq(fr_counter_name((enum fr_counter_mode)7), "?");
}
END_TEST

/* Pins the thread to the CPU it runs on: TSCs of different CPUs need not agree (tsc=unstable guests). */
static void pin(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	ck_assert_int_ge(cpu, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

START_TEST(monotonic_in_a_thread)
{
	/* _i: 0 the fenced read, 1 the unordered one. The ordered read is never called here unless the CPU has it. */
	static const enum fr_counter_mode modes[] = { FR_CTR_FENCED, FR_CTR_UNORDERED };
	fr_counter_fn f = fr_counter_for(modes[_i]);
	uint64_t first, prev, now;
	int back = 0;

	ck_assert_ptr_nonnull(f);
	if (!frt_counter_readable()) {
		printf("SKIP: monotonic_in_a_thread: the counter is not readable in this process (SIGILL)\n");
		return;
	}
	pin();
	first = prev = f();
	for (int n = 0; n < 200000; n++) {
		now = f();
		if (now < prev)
			back++;
		prev = now;
	}
	ck_assert_msg(back == 0, "%s went backwards %d times", fr_counter_name(modes[_i]), back);
	ck_assert_uint_gt(prev, first);
}
END_TEST

START_TEST(ordered_only_when_present)
{
	struct fr_cpu_features feat;
	fr_counter_fn f = fr_counter_for(FR_CTR_ORDERED);

	/* Distinct reads for distinct modes, without calling the ordered one. */
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_ne(f, fr_counter_for(FR_CTR_FENCED));
	ck_assert_ptr_ne(f, fr_counter_for(FR_CTR_UNORDERED));
	ck_assert_ptr_ne(fr_counter_for(FR_CTR_FENCED), fr_counter_for(FR_CTR_UNORDERED));
	fr_cpu_probe_default(&feat);
	if (!feat.ordered_read) {
		fprintf(stderr, "cpu: this CPU has no " FR_ARCH_ORDERED_FEATURE "; its read is not executed\n");
		return;
	}
	pin();
	uint64_t a = f(), b = f();

	ck_assert_uint_ge(b, a);
}
END_TEST

static Suite *cpu_suite(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("cpu");

	tcase_add_test(tc, probe_matches_cpuinfo);
	tcase_add_test(tc, names);
	tcase_add_loop_test(tc, monotonic_in_a_thread, 0, 2);
	tcase_add_test(tc, ordered_only_when_present);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(cpu_suite());
}
