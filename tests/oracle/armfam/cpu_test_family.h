/* SPDX-License-Identifier: MIT */
/* What the tests know of every ARM-family CPU (arm64, 32-bit ARM): the generic timer's names and the facts both ports share. */
#ifndef FRT_CPU_TEST_FAMILY_H
#define FRT_CPU_TEST_FAMILY_H

/*
 * Included by tests/oracle/aarch64/cpu_test.h and tests/oracle/arm/cpu_test.h, which add what
 * differs: the system call, the vDSO's names, glibc's, the eras' releases.
 */

/* The register spy's cases beyond those of every CPU (the stack-block rule's edges, regspy_cpu.h, and
   the port's own, FRT_REGSPY_PORT_CASES), and which of them FASTRAW_SYSCALL=1 serves. */
#define FRT_REGSPY_CASE_NAMES                                                                              \
	"raw_block_end", "raw_low_sp_block_end", "raw_high_sp", "raw_past_block_end", "raw_next_block",        \
		"raw_below_sp", "raw_sp_block_start", FRT_REGSPY_PORT_CASES
#define FRT_REGSPY_SERVED_NAMES "raw_block_end", "raw_low_sp_block_end", "raw_high_sp",

/* /proc/cpuinfo: the line of features and the counter's ("ecv": HWCAP2_ECV, CNTVCTSS_EL0 exists). */
#define FRT_CPUINFO_KEY "Features"
#define FRT_CPUINFO_ORDERED "ecv"
#define FRT_CPUINFO_CONSTANT NULL
#define FRT_CPUINFO_NONSTOP NULL
/* 1 where the counter is invariant on every CPU of the architecture: the generic timer is. */
#define FRT_COUNTER_ALWAYS_INVARIANT 1
/* The counter reads' names, as fr_counter_name and the debug line print them. */
#define FRT_COUNTER_NAME_ORDERED "cntvctss"
#define FRT_COUNTER_NAME_FENCED "isb+cntvct"
#define FRT_COUNTER_NAME_UNORDERED "cntvct"
/* 1 where FASTRAW_TSC takes x86's names as aliases of the architecture's own. */
#define FRT_HAS_X86_ALIASES 1
/* 1 where the fast path's debug line names the read by its instruction (x86's rdtscp, lfence;rdtsc). */
#define FRT_STEPS_BY_COUNTER_NAME 0

/* Neither vDSO exports an alias without its prefix. */
#define FRT_HAS_VDSO_ALIASES 0
/* Whether the vDSO exports time and getcpu. */
#define FRT_HAS_VDSO_TIME_GETCPU 0
/* Whether every kernel's vDSO has both hash tables: DT_HASH, DT_GNU_HASH or both by version. */
#define FRT_HAS_VDSO_BOTH_HASHES 0

/* The kernel matrix's guests: the serial console's device. */
#define FRT_GUEST_SERIAL "/dev/ttyAMA0"

/* The unit tests' kernel eras (tests/unit/synth.h, synth_eras.c here): their number. */
#define FRT_N_ERAS 3
/* startup/locate.c words its reason for x86 ("before 5.3"): not asserted here. */
/* #undef FRT_ERAS_OLD_WHY */
/* The note locate.c gives a release before the first era (NULL: only its frame is checked). */
#define FRT_RELEASE_BEFORE_FIRST_NOTE NULL
/* Code and fr_arch_code_masks_counter's answer: the generic eras share one rule, so never a mask. */
#define FRT_CODE_MASK_CASES { { 0x1f, 0x20, 0x03, 0xd5 }, 4, 0 }, { { 0x48, 0x0f, 0xba, 0xf0, 0x3f }, 5, 0 }

#endif
