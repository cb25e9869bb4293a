/* SPDX-License-Identifier: MIT */
/* The three counter reads as functions, for the readers' instances to take by name (ctr_##mode). */
#ifndef FR_COUNTERS_H
#define FR_COUNTERS_H

#include <stdint.h>

#include "arch/arch.h"

/* Static: each file that instantiates readers inlines its own. */
static inline uint64_t ctr_unordered(void)
{
	return fr_arch_counter_unordered();
}

static inline uint64_t ctr_fenced(void)
{
	return fr_arch_counter_fenced();
}

static inline uint64_t ctr_ordered(void)
{
	return fr_arch_counter_ordered();
}

#endif
