/* SPDX-License-Identifier: MIT */
/* What the files that instantiate readers share: the counter reads by name (ctr_##mode), the pairing. */
#ifndef FR_COUNTERS_H
#define FR_COUNTERS_H

#include <stdint.h>

#include "arch/arch.h"
#include "kdata/kdata.h"

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

/* Which counter read is the unordered one, for FR_ARCH_READERS's ctr argument. */
#define FR_UNORDERED_unordered 1
#define FR_UNORDERED_fenced 0
#define FR_UNORDERED_ordered 0

/* The index of a counter read in the readers' tables, for FR_ARCH_READERS's ctr argument. */
#define FR_CTR_INDEX_ordered FR_CTR_ORDERED
#define FR_CTR_INDEX_fenced FR_CTR_FENCED
#define FR_CTR_INDEX_unordered FR_CTR_UNORDERED

/* The readers bake in their rules' field shift (max_cycles from 6.10): any other pairing is refused. */
#define FR_PAIRING(raw, now, rules_, fs_, ctr) || (lay->rules == (rules_) && lay->field_shift == (fs_))
static inline int fr_pairing_ok(const struct fr_layout *lay)
{
	return 0 FR_ARCH_READERS(FR_PAIRING);
}

#endif
