/* SPDX-License-Identifier: MIT */
/* A simulated writer for the oracles: the entry's seq moves by 2 (and cycle_last with it) at the first counter read. */
#ifndef FR_ORACLE_OSEQ_H
#define FR_ORACLE_OSEQ_H

#include <stdint.h>

/* Aim the writer at entry, whose seq reads base before the update. */
void oseq_arm(uint8_t *entry, uint32_t base);
/* Also move entry2 (the CS_HRES_COARSE entry beside RAW's, whose seq reads base too) with it; NULL: only one. */
void oseq_arm_also(uint8_t *entry2);
/* One call's cycle_last before the update; returns the random one after it (before + [0, 2^30)). */
uint64_t oseq_next(uint64_t before);
/* The copy's hooks: restore the old entry before a call, publish the update at its first counter read. */
void oseq_before(void);
void oseq_on_read(unsigned n);

#endif
