/* SPDX-License-Identifier: MIT */
/* What the tests know of arm64: its names, numbers and instructions, for the generic tests to assert against. */
#ifndef FRT_CPU_TEST_H
#define FRT_CPU_TEST_H

/*
 * Every test that needs a fact of the CPU takes it from here (this folder is on the tests'
 * include path for arm64 builds; tests/oracle/x86_64/cpu_test.h is x86-64's). A port writes
 * its own copy; the generic tests name capabilities (FRT_HAS_...), never a CPU.
 */

#include <sys/auxv.h>

#include "../armfam/cpu_test_family.h"

/* The system call instruction with two arguments, bypassing libc (and any interposed syscall()). */
static inline long frt_ksys2(long nr, long a1, long a2)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a1;
	register long x1 __asm__("x1") = a2;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	return x0;
}

/* The kernel's clock_gettime for this build's struct timespec. */
#define FRT_SYS_CLOCK_GETTIME SYS_clock_gettime
/* Whether this process can read the counter at all: every CPU of the architecture can. */
static inline int frt_counter_readable(void)
{
	return 1;
}

/* seccomp_data.arch of this process's system calls (<linux/audit.h>). */
#define FRT_AUDIT_ARCH AUDIT_ARCH_AARCH64
/* Sets the return value of the interrupted system call in a signal handler's context (<ucontext.h>). */
#define FRT_UC_SET_RET(uc, v) ((uc)->uc_mcontext.regs[0] = (unsigned long long)(v))

/* Whether the CPU reads its counter in order: FEAT_ECV (CNTVCTSS_EL0), AT_HWCAP2 bit 19 (HWCAP2_ECV). */
static inline int frt_cpu_has_ordered(void)
{
	return (getauxval(AT_HWCAP2) & (1ul << 19)) != 0;
}

/* 1 where the library's path is asserted to take no more steps than the vDSO's (issue 20's goal). */
#define FRT_STEPS_AT_MOST_VDSO 1

/* The vDSO (arch/arm64/kernel/vdso/vdso.lds.S): functions exported, all under LINUX_2.6.39. */
#define FRT_VDSO_NAMES "__kernel_clock_gettime", "__kernel_gettimeofday", "__kernel_clock_getres", "__kernel_rt_sigreturn"
/* The vDSO's functions other than clock_gettime. */
#define FRT_VDSO_OTHERS "__kernel_gettimeofday", "__kernel_clock_getres", "__kernel_rt_sigreturn"
/* A version that is not the vDSO's: a prefix of LINUX_2.6.39. */
#define FRT_VDSO_OTHER_VERSION "LINUX_2.6"
/* A vDSO function's name (arm64's prefix); arm64 exports no alias without it. */
#define FRT_VDSO_NAME(fn) "__kernel_" fn

/* glibc's first symbol version on the architecture (getpid's), and its dynamic loader. */
#define FRT_GLIBC_FIRST_VERSION "GLIBC_2.17"
#define FRT_LDSO_PATH "/lib/ld-linux-aarch64.so.1"

/*
 * The first release whose kernel data the library reads (5.10), as major * 1000 + minor, and
 * the words its pass-through reason has before it (e2e's E2E_NO_RAW_DATA).
 */
#define FRT_FIRST_DATA_RELEASE 5010
#define FRT_NO_RAW_DATA "arm64 kernel before 5.10: its data-page layout is not one this build knows"
/* 1 where an era before time namespaces is known. */
#define FRT_HAS_ERA_BEFORE_NAMESPACES 0
/* The register spy's cases of this port alone: a tagged pointer (TBI), regspy_cpu.h. */
#define FRT_REGSPY_PORT_CASES "raw_tagged",
/* A release before the first era (the note locate.c gives it: cpu_test_family.h). */
#define FRT_RELEASE_BEFORE_FIRST "5.4.0-arm64"

/* Kernel releases and the era each takes: 6.17+ to 7.3 (7.2 and 7.3 measured), 6.15-6.16, 5.10-6.14 (6.1 and 6.12 measured). */
#define FRT_RELEASE_ERAS                                                                                    \
	{ "7.3", "6.17+" }, { "7.2.13+deb14-cloud-arm64", "6.17+" }, { "6.19.2-arch1-1", "6.17+" },           \
		{ "6.17.0", "6.17+" }, { "6.16.9", "6.15-6.16" }, { "6.15.0", "6.15-6.16" },                   \
		{ "6.14.11", "5.10-6.14" }, { "6.12.48+deb13-arm64", "5.10-6.14" },                            \
		{ "6.1.0-28-arm64", "5.10-6.14" }, { "5.15.0", "5.10-6.14" }, { "5.10.0", "5.10-6.14" }
/* Before 5.10: no layout (the arm64 vDSO numbered its modes otherwise, and none was measured). */
#define FRT_RELEASES_BEFORE { "5.9.16", "5.10" }, { "5.4.0", "5.10" }, { "4.19.0", "5.10" }
/* A release (major.minor) taken as older than every era by number alone; NULL where none is asserted. */
#define FRT_RELEASE_OLD_KIND "5.9"
/* fr_mode_name: VDSO_CLOCKMODE_ARCHTIMER 1 and _NOCOMPAT 2; 3 is no arm64 mode. */
#define FRT_MODE_NAMES                                                                                      \
	{ FR_MODE_COUNTER, "archtimer" }, { FR_MODE_COUNTER_ALT, "archtimer_nocompat" }, { 3, "unknown" },     \
		{ -1, "unknown" }

#endif
