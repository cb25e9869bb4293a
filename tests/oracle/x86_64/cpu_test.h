/* SPDX-License-Identifier: MIT */
/* What the tests know of x86-64: its names, numbers and instructions, for the generic tests to assert against. */
#ifndef FRT_CPU_TEST_H
#define FRT_CPU_TEST_H

/*
 * Every test that needs a fact of the CPU takes it from here (this folder is on the tests'
 * include path for x86-64 builds; tests/oracle/aarch64/cpu_test.h is arm64's). A port writes
 * its own copy; the generic tests name capabilities (FRT_HAS_...), never a CPU.
 */

#include <cpuid.h>

/* The system call instruction with two arguments, bypassing libc (and any interposed syscall()). */
static inline long frt_ksys2(long nr, long a1, long a2)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2) : "rcx", "r11", "memory");
	return ret;
}

/* The kernel's clock_gettime for this build's struct timespec. */
#define FRT_SYS_CLOCK_GETTIME SYS_clock_gettime
/* Whether this process can read the counter at all: every CPU of the architecture can. */
static inline int frt_counter_readable(void)
{
	return 1;
}

/* seccomp_data.arch of this process's system calls (<linux/audit.h>). */
#define FRT_AUDIT_ARCH AUDIT_ARCH_X86_64
/* Sets the return value of the interrupted system call in a signal handler's context (<ucontext.h>). */
#define FRT_UC_SET_RET(uc, v) ((uc)->uc_mcontext.gregs[REG_RAX] = (v))

/* Whether the CPU reads its counter in order (RDTSCP: CPUID 0x80000001, EDX bit 27). */
static inline int frt_cpu_has_ordered(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}

/* The register spy's cases beyond those of every CPU, and which of them FASTRAW_SYSCALL=1 serves (regspy_cpu.h). */
#define FRT_REGSPY_CASE_NAMES
#define FRT_REGSPY_SERVED_NAMES

/* /proc/cpuinfo: the line of flags and the flags of the counter (see test_cpu.c). */
#define FRT_CPUINFO_KEY "flags"
#define FRT_CPUINFO_ORDERED "rdtscp"
#define FRT_CPUINFO_CONSTANT "constant_tsc"
#define FRT_CPUINFO_NONSTOP "nonstop_tsc"
/* 1 where the counter is invariant on every CPU of the architecture (arm64's generic timer). */
#define FRT_COUNTER_ALWAYS_INVARIANT 0
/* The counter reads' names, as fr_counter_name and the debug line print them. */
#define FRT_COUNTER_NAME_ORDERED "rdtscp"
#define FRT_COUNTER_NAME_FENCED "lfence"
#define FRT_COUNTER_NAME_UNORDERED "rdtsc"
/* 1 where FASTRAW_TSC takes x86's names as aliases of the architecture's own (not on x86). */
#define FRT_HAS_X86_ALIASES 0
/* 1 where the fast path's debug line names the read by its instruction (rdtscp, lfence;rdtsc). */
#define FRT_STEPS_BY_COUNTER_NAME 1
/* 1 where the library's path is asserted to take no more steps than the vDSO's (issue 20's goal). */
#define FRT_STEPS_AT_MOST_VDSO 0

/* The vDSO (arch/x86/entry/vdso/vdso.lds.S): functions exported, all under LINUX_2.6. */
#define FRT_VDSO_NAMES "__vdso_clock_gettime", "clock_gettime", "__vdso_gettimeofday", "__vdso_time", "__vdso_getcpu"
/* The vDSO's functions other than clock_gettime, prefixed and as aliases. */
#define FRT_VDSO_OTHERS                                                                                                \
	"__vdso_gettimeofday", "__vdso_time", "__vdso_getcpu", "__vdso_clock_getres", "gettimeofday", "time", "getcpu", \
		"clock_getres"
/* A version that is not the vDSO's: a longer one. */
#define FRT_VDSO_OTHER_VERSION "LINUX_2.6.1"
/* A vDSO function's name (x86-64's prefix), and whether each has an alias without the prefix. */
#define FRT_VDSO_NAME(fn) "__vdso_" fn
#define FRT_HAS_VDSO_ALIASES 1
/* Whether the vDSO exports time and getcpu. */
#define FRT_HAS_VDSO_TIME_GETCPU 1
/* Whether the vDSO has both hash tables (DT_HASH and DT_GNU_HASH): from 3.16 on (test_e2e_lookup.c). */
#define FRT_HAS_VDSO_BOTH_HASHES 1

/* glibc's first symbol version on the architecture (getpid's), and its dynamic loader. */
#define FRT_GLIBC_FIRST_VERSION "GLIBC_2.2.5"
#define FRT_LDSO_PATH "/lib64/ld-linux-x86-64.so.2"

/* The kernel matrix's guests: the serial console's device. */
#define FRT_GUEST_SERIAL "/dev/ttyS0"

/*
 * The first release whose kernel data the library reads (5.3), as major * 1000 + minor, and
 * the words its pass-through reason has before it (e2e's E2E_NO_RAW_DATA).
 */
#define FRT_FIRST_DATA_RELEASE 5003
#define FRT_NO_RAW_DATA "kernel before 5.3 exports no CLOCK_MONOTONIC_RAW data"
/* The unit tests' kernel eras (tests/unit/synth.h, synth_eras.c here): their number. */
#define FRT_N_ERAS 8
/* 1 where an era before time namespaces (5.3-5.5) is known. */
#define FRT_HAS_ERA_BEFORE_NAMESPACES 1
/* What startup/locate.c says of a release before the first era. */
#define FRT_ERAS_OLD_WHY "kernel before 5.3 exports no CLOCK_MONOTONIC_RAW data"
/* A release before the first era and the note locate.c gives it (NULL: only its frame is checked). */
#define FRT_RELEASE_BEFORE_FIRST "4.18.0-553.el8_10.x86_64"
#define FRT_RELEASE_BEFORE_FIRST_NOTE "assumed: release 4.18 says no RAW data (before 5.3); page and vDSO agree"

/*
 * Code and whether fr_arch_code_masks_counter finds an S64_MAX mask in it: the counter masks of
 * Debian's 6.12 and 7.3 vDSOs (btr $63 of rdx, of rax), the constant loaded into rax and r9,
 * and what is no such mask: 6.10's bit-62 test (bt $62, rdx), btr of bit 62, btr $63 of a 32-bit
 * register (no REX.W), the all-ones constant, a btr cut off at the end, and 5.10's sign test of
 * the counter (test rax, rax; js).
 */
#define FRT_CODE_MASK_CASES                                                                               \
	{ { 0x0f, 0x31, 0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09, 0xc2, 0x48, 0x0f, 0xba, 0xf2, 0x3f }, 14, 1 },    \
		{ { 0x90, 0x48, 0x0f, 0xba, 0xf0, 0x3f, 0xc3 }, 7, 1 },                                      \
		{ { 0x48, 0xb8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, 10, 1 },                  \
		{ { 0x49, 0xb9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x4c, 0x21, 0xc8 }, 13, 1 }, \
		{ { 0x48, 0x0f, 0xba, 0xe2, 0x3e, 0x72, 0x10 }, 7, 0 },                                      \
		{ { 0x48, 0x0f, 0xba, 0xf2, 0x3e }, 5, 0 }, { { 0x0f, 0xba, 0xf0, 0x3f, 0x90 }, 5, 0 },      \
		{ { 0x48, 0xb8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 10, 0 },                  \
		{ { 0x90, 0x48, 0x0f, 0xba, 0xf0 }, 5, 0 }, { { 0x48, 0x85, 0xc0, 0x78, 0x62 }, 5, 0 }

/* Kernel releases and the era each takes (6.19-7.3: the 6.17 layout, 7.2.13 and 7.3-rc7 measured). */
#define FRT_RELEASE_ERAS                                                                                    \
	{ "7.3", "6.17+" }, { "7.3-cloud-amd64", "6.17+" }, { "7.3.0-rc7", "6.17+" },                         \
		{ "7.2.13+deb14-cloud-amd64", "6.17+" }, { "7.1.4", "6.17+" }, { "7.0.0", "6.17+" },           \
		{ "6.19.2-arch1-1", "6.17+" }, { "6.18.0-rc1+", "6.17+" }, { "6.18.44-fc-v782", "6.17+" },     \
		{ "6.17.0", "6.17+" }, { "6.16.9", "6.15-6.16" }, { "6.15.0", "6.15-6.16" },                   \
		{ "6.14.11", "6.13-6.14" }, { "6.13.1", "6.13-6.14" }, { "6.12.5", "6.10-6.12" },               \
		{ "6.10", "6.10-6.12" }, { "6.9.12", "6.5-6.9" }, { "6.5.0-rc1", "6.5-6.9" },                   \
		{ "6.4.16", "5.7-6.4" }, { "6.1.0-28-amd64", "5.7-6.4" }, { "5.7.0", "5.7-6.4" },              \
		{ "5.6.19", "5.6" }, { "5.5.0", "5.3-5.5" }, { "5.3.0", "5.3-5.5" }
/* Releases before the first era, and the name of that era. */
#define FRT_RELEASES_BEFORE { "5.2.21", "5.3" }, { "4.19.0", "5.3" }, { "3.10.0-1160.el7.x86_64", "5.3" }
/* A release (major.minor) taken as older than every era by number alone; NULL where none is asserted. */
#define FRT_RELEASE_OLD_KIND NULL
/* fr_mode_name: each clock mode's name, then numbers that are no mode. */
#define FRT_MODE_NAMES { FR_MODE_COUNTER, "tsc" }, { FR_MODE_PVCLOCK, "pvclock" }, { FR_MODE_HVCLOCK, "hvclock" }, { 4, "unknown" }

#endif
