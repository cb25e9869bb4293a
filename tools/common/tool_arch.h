/* SPDX-License-Identifier: MIT */
/* What the tools print per CPU: their own text, chosen by the build's TOOL_ARCH_<cpu>, and the key of the ordered read's feature. */
#ifndef FR_TOOL_ARCH_H
#define FR_TOOL_ARCH_H

#include <ctype.h>
#include <elf.h>
#include <stddef.h>

#include "arch/arch.h"

/*
 * Tool text, not the library's (arch/arch.h holds only what the library asks of a CPU):
 *   TOOL_ARCH_NAME, TOOL_ELF_MACHINE     the architecture as uname and the launcher's messages
 *                                        name it, and the e_machine of its programs
 *   TOOL_ELF_CLASS, TOOL_ELF_BITS        its programs' (and the library's) ELF class, and its
 *                                        width as the launcher's messages say it ("32", "64")
 *   TOOL_FENCED_LABEL, TOOL_FENCED_WHAT  fastraw-bench's label of the fenced read and the
 *                                        instructions it names
 *   TOOL_SHOW_COUNTER_RATE               0 or 1: fastraw-info prints the rate the CPU states
 *   TOOL_UNORDERED_GOAL                  0 or 1: fastraw-bench has per-vendor goals for the
 *                                        unordered read
 * The build defines TOOL_ARCH_<cpu> (FR_ARCH, tools/common/common.cmake, for every target of
 * tools/); a port adds its branch here, and a CPU without one stops the build.
 */
#if defined(TOOL_ARCH_x86_64)
#define TOOL_ARCH_NAME "x86_64"
#define TOOL_ELF_MACHINE EM_X86_64
#define TOOL_ELF_CLASS ELFCLASS64
#define TOOL_ELF_BITS "64"
/*
 * Kept as x86-64's output always was: no rate line in fastraw-info (the pvclock and mult/shift
 * lines show the TSC's rate); fastraw-bench's per-vendor goals for the unordered read.
 */
#define TOOL_FENCED_LABEL "lfence+rdtsc"
#define TOOL_FENCED_WHAT "lfence;rdtsc"
#define TOOL_SHOW_COUNTER_RATE 0
#define TOOL_UNORDERED_GOAL 1
#elif defined(TOOL_ARCH_aarch64)
#define TOOL_ARCH_NAME "aarch64"
#define TOOL_ELF_MACHINE EM_AARCH64
#define TOOL_ELF_CLASS ELFCLASS64
#define TOOL_ELF_BITS "64"
/*
 * The fenced read's name already names both instructions; fastraw-info prints the rate the CPU
 * states (CNTFRQ_EL0, the one fact of its frequency); fastraw-bench has no measured goal for the
 * unordered read (its row is a reference).
 */
#define TOOL_FENCED_LABEL FR_ARCH_COUNTER_NAME_FENCED
#define TOOL_FENCED_WHAT FR_ARCH_COUNTER_NAME_FENCED
#define TOOL_SHOW_COUNTER_RATE 1
#define TOOL_UNORDERED_GOAL 0
#elif defined(TOOL_ARCH_arm)
#define TOOL_ARCH_NAME "arm"
#define TOOL_ELF_MACHINE EM_ARM
#define TOOL_ELF_CLASS ELFCLASS32
#define TOOL_ELF_BITS "32"
/* As arm64: the same read names, CNTFRQ's rate (where HWCAP_EVTSTRM shows the timer), no goal for the unordered read. */
#define TOOL_FENCED_LABEL FR_ARCH_COUNTER_NAME_FENCED
#define TOOL_FENCED_WHAT FR_ARCH_COUNTER_NAME_FENCED
#define TOOL_SHOW_COUNTER_RATE 1
#define TOOL_UNORDERED_GOAL 0
#else
#error "libfastraw: tools/common/tool_arch.h has no text for this architecture"
#endif

/* The key the tools print the ordered read's CPU feature under: FR_ARCH_ORDERED_FEATURE in lower case ("rdtscp", "ecv"). */
static inline const char *tool_feature_key(void)
{
	static char key[32];

	if (!key[0]) {
		size_t i;

		for (i = 0; FR_ARCH_ORDERED_FEATURE[i] && i + 1 < sizeof(key); i++)
			key[i] = (char)tolower((unsigned char)FR_ARCH_ORDERED_FEATURE[i]);
		key[i] = '\0';
	}
	return key;
}

#endif
