/* SPDX-License-Identifier: MIT */
/* Trampolines for the 32-bit ARM vDSO copy (A32): a branch out of the kernel's code into a C handler and back, all registers kept. */
#ifndef FR_TEST_ATRAMP_H
#define FR_TEST_ATRAMP_H

#include <stddef.h>
#include <stdint.h>

/* What a trampoline stands for: the high byte of its id; the low byte is the site's index. */
enum { AT_READ = 1, AT_SYSCALL = 2, AT_CARRY = 3 };

/* The handler's frame: r0..r12 at [0..12], lr at [AT_LR], the APSR (NZCV in 31..28) at [AT_PSR]. */
#define AT_LR 13
#define AT_PSR 14

/* One saved register. */
typedef uint32_t at_reg;
typedef void (*at_handler)(at_reg *frame, unsigned id);

struct at_writer {
	uint8_t *page;
	size_t size, used;
	at_handler handler;
	int full;
};

void at_begin(struct at_writer *w, uint8_t *page, size_t size, at_handler handler);

/*
 * Writes a trampoline that calls the handler with id and goes on at resume; returns the A32
 * branch that, put at `from`, enters it (within +-32 MiB of it: the same mapping).
 */
uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume);

#endif
