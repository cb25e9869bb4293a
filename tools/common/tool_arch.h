/* SPDX-License-Identifier: MIT */
/* What the tools print differently per architecture, beyond the FR_ARCH_* words: x86-64's output is kept as it always was. */
#ifndef FR_TOOL_ARCH_H
#define FR_TOOL_ARCH_H

#include <ctype.h>
#include <stddef.h>

#include "arch/arch.h"

#if defined(__x86_64__)
/* fastraw-info prints no rate line on x86-64: its TSC rate is shown by the pvclock and mult/shift lines. */
#define TOOL_SHOW_COUNTER_RATE 0
/* The fenced read as fastraw-bench names it: the fence and the counter read. */
#define TOOL_FENCED_LABEL "lfence+rdtsc"
#define TOOL_FENCED_WHAT "lfence;rdtsc"
/* fastraw-bench has per-vendor goals for its unordered mode (bench_machine.c). */
#define TOOL_UNORDERED_GOAL 1
#else
/* The counter's rate as the CPU states it (arm64: CNTFRQ_EL0) is the one fact of its frequency. */
#define TOOL_SHOW_COUNTER_RATE 1
/* The fenced read's name already names both instructions ("isb+cntvct"). */
#define TOOL_FENCED_LABEL FR_ARCH_COUNTER_NAME_FENCED
#define TOOL_FENCED_WHAT FR_ARCH_COUNTER_NAME_FENCED
/* No measured goal for the unordered mode: its row is a reference. */
#define TOOL_UNORDERED_GOAL 0
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
