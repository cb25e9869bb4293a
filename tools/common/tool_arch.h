/* SPDX-License-Identifier: MIT */
/* The key the tools print the CPU's ordered-read feature under; what else they print per CPU is arch.h's (FR_ARCH_*). */
#ifndef FR_TOOL_ARCH_H
#define FR_TOOL_ARCH_H

#include <ctype.h>
#include <stddef.h>

#include "arch/arch.h"

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
