/* SPDX-License-Identifier: MIT */
/* The seq-bump writer both oracles run against their copies: one update lands at the counter read. */
#include "seq_writer.h"
#include "vvar_entry.h"
#include "rng.h"

static uint8_t *seq_entry;
static uint64_t seq_last[2];
static uint32_t seq_base;

void oseq_arm(uint8_t *entry, uint32_t base)
{
	seq_entry = entry;
	seq_base = base;
}

uint64_t oseq_next(uint64_t before)
{
	seq_last[0] = before;
	seq_last[1] = before + orng_below(1ULL << 30);
	return seq_last[1];
}

void oseq_before(void)
{
	oe_put32(seq_entry + FR_OFF_SEQ, seq_base);
	oe_put64(seq_entry + FR_OFF_CYCLE_LAST, seq_last[0]);
}

void oseq_on_read(unsigned n)
{
	if (n == 0) {
		oe_put64(seq_entry + FR_OFF_CYCLE_LAST, seq_last[1]);
		oe_put32(seq_entry + FR_OFF_SEQ, seq_base + 2);
	}
}
