/* SPDX-License-Identifier: MIT */
/* The counter modes' names, from the ones the architecture folder gives each read. */
#include "arch/arch.h"

const char *const fr_counter_names[FR_CTR_MODES] = {
	[FR_CTR_ORDERED] = FR_ARCH_COUNTER_NAME_ORDERED,
	[FR_CTR_FENCED] = FR_ARCH_COUNTER_NAME_FENCED,
	[FR_CTR_UNORDERED] = FR_ARCH_COUNTER_NAME_UNORDERED,
};

const char *fr_counter_name(enum fr_counter_mode mode)
{
	return (unsigned)mode < FR_CTR_MODES ? fr_counter_names[mode] : "?";
}
