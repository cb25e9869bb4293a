/* SPDX-License-Identifier: MIT */
/* Finds, in a vDSO image's .text, the instructions the oracle replaces with traps: counter reads, fallback system calls, carry loops. */
#ifndef FR_TEST_VSITES_H
#define FR_TEST_VSITES_H

#include <stddef.h>
#include <stdint.h>

#include "arch/insn.h"

#define VS_MAX_SITES 16

/* One counter read: where its trap goes (the rdtsc or rdtscp itself) and how long that instruction is. */
struct vs_read {
	size_t at;  /* offset in the image */
	uint8_t len; /* 2 (rdtsc) or 3 (rdtscp) */
	uint8_t kind; /* enum fr_x86_read (arch/x86_64/insn.h: the slot forms) */
};

/* A "do { v -= 1e9; n++; } while (v > 999999999)" loop: its trap applies the closed form. */
struct vs_carry {
	size_t at, resume; /* offsets in the image */
	int val_reg, cnt_reg; /* x86 register numbers; the counter is a 32-bit register */
	uint8_t orig[2];      /* its first two bytes, where the trap goes */
};

struct vsites {
	int n_read, n_syscall, n_carry;
	struct vs_read read[VS_MAX_SITES];
	size_t syscall_at[VS_MAX_SITES]; /* the syscall instruction of "mov $SYS_clock_gettime,%eax; syscall" */
	struct vs_carry carry[VS_MAX_SITES];
	unsigned unmatched; /* 0f 31 / 0f 01 f9 byte pairs in .text not inside a recognised slot */
};

/* Fills s from the image; NULL, or why the image cannot be analysed (no .text, no counter read...). */
const char *vsites_find(const uint8_t *img, size_t size, struct vsites *s);

/* FR_X86_READ_NAMES' name of the reads' kind; for a set of kinds "mixed". */
const char *vsites_counter_name(const struct vsites *s);

#endif
