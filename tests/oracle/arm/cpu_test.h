/* SPDX-License-Identifier: MIT */
/* What the tests know of 32-bit ARM: its names, numbers and instructions, for the generic tests to assert against. */
#ifndef FRT_CPU_TEST_H
#define FRT_CPU_TEST_H

#include <stdint.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The tests take the CPU's facts from here (this folder is on their include path in 32-bit ARM
 * builds): 32-bit ARM's own below, and the ARM family's, arm64's too, from cpu_test_family.h.
 */
#include "../armfam/cpu_test_family.h"

/* The system call instruction with two arguments, bypassing libc (and any interposed syscall()). */
static inline long frt_ksys2(long nr, long a1, long a2)
{
	register long r0 __asm__("r0") = a1;
	register long r1 __asm__("r1") = a2;
	register long r6 __asm__("r6") = nr;

	/* The number goes in r7, Thumb code's frame pointer: moved there and back inside the asm. */
	__asm__ volatile("mov ip, r7\n\tmov r7, r6\n\tsvc #0\n\tmov r7, ip" : "+r"(r0) : "r"(r1), "r"(r6) : "ip", "memory");
	return r0;
}

/* The kernel's clock_gettime for this build's struct timespec: 64-bit time_t (src/arch/arm/sources.cmake), so clock_gettime64 (Linux 5.1+). */
#define FRT_SYS_CLOCK_GETTIME SYS_clock_gettime64
/*
 * Whether this process can read the counter at all: ARM11 has no generic timer, and qemu-user
 * (where the cross build's suites run) does not give user space CNTVCT; either raises SIGILL.
 * Asked of a child, once, so that the test itself never faults.
 */
static inline int frt_counter_readable(void)
{
	static int known = -1;
	int status = 0;
	pid_t pid;

	if (known >= 0)
		return known;
	pid = fork();
	if (pid == 0) {
		uint32_t lo, hi;

		__asm__ volatile("mrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
		_exit(lo == 0 && hi == 0 ? 1 : 0);
	}
	known = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return known;
}

/* seccomp_data.arch of this process's system calls (<linux/audit.h>). */
#define FRT_AUDIT_ARCH AUDIT_ARCH_ARM
/* Sets the return value of the interrupted system call in a signal handler's context (<ucontext.h>). */
#define FRT_UC_SET_RET(uc, v) ((uc)->uc_mcontext.arm_r0 = (unsigned long)(v))

/* Whether the CPU reads its counter in order: no 32-bit kernel reports FEAT_ECV, so never. */
static inline int frt_cpu_has_ordered(void)
{
	return 0;
}

/* 1 where the library's path is asserted to take no more steps than the vDSO's (issue 20's goal): 70 against 83 in armmp 6.1 and 6.12. */
#define FRT_STEPS_AT_MOST_VDSO 1

/* The register spy's cases of this port alone: none (no address tags on 32-bit ARM). */
#define FRT_REGSPY_PORT_CASES

/* The vDSO (arch/arm/vdso/vdso.lds.S, 5.5+): functions exported, all under LINUX_2.6. */
#define FRT_VDSO_NAMES "__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_clock_getres", "__vdso_clock_gettime64"
/* The vDSO's functions other than clock_gettime. */
#define FRT_VDSO_OTHERS "__vdso_gettimeofday", "__vdso_clock_getres", "__vdso_clock_gettime64"
/* A version that is not the vDSO's: LINUX_2.6 with more after it. */
#define FRT_VDSO_OTHER_VERSION "LINUX_2.6.39"
/* A vDSO function's name (32-bit ARM's prefix); it exports no alias without it. */
#define FRT_VDSO_NAME(fn) "__vdso_" fn

/* glibc's first symbol version on the architecture (getpid's), and its dynamic loader. */
#define FRT_GLIBC_FIRST_VERSION "GLIBC_2.4"
#define FRT_LDSO_PATH "/lib/ld-linux-armhf.so.3"

/*
 * The first release whose kernel data the library reads (5.5, the generic vDSO), as major * 1000
 * + minor, and the words its pass-through reason has before it (e2e's E2E_NO_RAW_DATA): the
 * release's reason (src/arch/arm/eras.h) and the one the vDSO's exports prove
 * (calib/calib_source.h) both start with them.
 */
#define FRT_FIRST_DATA_RELEASE 5005
#define FRT_NO_RAW_DATA "32-bit ARM kernel before 5.5: its vDSO serves no CLOCK_MONOTONIC_RAW"
/* 1 where an era before time namespaces is known (x86's 5.3, whose tests name it): 32-bit ARM has no namespace page in any era. */
#define FRT_HAS_ERA_BEFORE_NAMESPACES 0
/* A release before the first era (the note locate.c gives it: cpu_test_family.h). */
#define FRT_RELEASE_BEFORE_FIRST "5.4.0-armmp"

/* Kernel releases and the era each takes: 6.17+, 6.15-6.16, 5.5-6.14 (by the sources; none measured yet). */
#define FRT_RELEASE_ERAS                                                                                    \
	{ "7.3", "6.17+" }, { "6.17.0", "6.17+" }, { "6.16.9", "6.15-6.16" }, { "6.15.0", "6.15-6.16" },      \
		{ "6.14.11", "5.5-6.14" }, { "6.12.48+deb13-armmp", "5.5-6.14" },                              \
		{ "6.1.0-28-armmp-lpae", "5.5-6.14" }, { "5.10.0", "5.5-6.14" }, { "5.5.0", "5.5-6.14" }
/* Before 5.5: no layout (the 32-bit vDSO served no RAW). */
#define FRT_RELEASES_BEFORE { "5.4.0", "5.5" }, { "4.19.0", "5.5" }, { "4.9.65-rt23", "5.5" }
/* A release (major.minor) taken as older than every era by number alone; NULL where none is asserted. */
#define FRT_RELEASE_OLD_KIND "5.4"
/* fr_mode_name: VDSO_CLOCKMODE_ARCHTIMER 1; 2 and 3 are no 32-bit ARM mode. */
#define FRT_MODE_NAMES { FR_MODE_COUNTER, "archtimer" }, { 2, "unknown" }, { 3, "unknown" }, { -1, "unknown" }

#endif
