/* SPDX-License-Identifier: MIT */
/* The seq-bump writer both oracles run against their copies: one update lands at the counter read. */
#include "seq_writer.h"
#include "vvar_entry.h"
#include "rng.h"

static uint8_t *seq_entry, *seq_entry2;
static uint64_t seq_last[2];
static uint32_t seq_base;

void oseq_arm(uint8_t *entry, uint32_t base)
{
	seq_entry = entry;
	seq_entry2 = NULL;
	seq_base = base;
}

void oseq_arm_also(uint8_t *entry2)
{
	seq_entry2 = entry2;
}

uint64_t oseq_next(uint64_t before)
{
	seq_last[0] = before;
	seq_last[1] = before + orng_below(1ULL << 30);
	return seq_last[1];
}

static void before_one(uint8_t *e)
{
	oe_put32(e + FR_OFF_SEQ, seq_base);
	oe_put64(e + FR_OFF_CYCLE_LAST, seq_last[0]);
}

static void update_one(uint8_t *e)
{
	oe_put64(e + FR_OFF_CYCLE_LAST, seq_last[1]);
	oe_put32(e + FR_OFF_SEQ, seq_base + 2);
}

void oseq_before(void)
{
	before_one(seq_entry);
	if (seq_entry2)
		before_one(seq_entry2);
}

void oseq_on_read(unsigned n)
{
	if (n == 0) {
		update_one(seq_entry);
		if (seq_entry2)
			update_one(seq_entry2);
	}
}
