/* SPDX-License-Identifier: MIT */
/* Trampolines for the arm64 vDSO copy: a branch out of the kernel's code into a C handler and back, all registers kept. */
#ifndef FR_TEST_ATRAMP_H
#define FR_TEST_ATRAMP_H

#include <stddef.h>
#include <stdint.h>

/* What a trampoline stands for: the high byte of its id; the low byte is the site's index. */
enum { AT_READ = 1, AT_SYSCALL = 2, AT_CARRY = 3 };

/* The handler's frame: x0..x30 at [0..30], NZCV at [AT_NZCV]; written back into the registers. */
#define AT_NZCV 31

/* One saved register. */
typedef uint64_t at_reg;
typedef void (*at_handler)(at_reg *frame, unsigned id);

struct at_writer {
	uint8_t *page;
	size_t size, used;
	at_handler handler;
	int full;
};

void at_begin(struct at_writer *w, uint8_t *page, size_t size, at_handler handler);

/*
 * Writes a trampoline that calls the handler with id and goes on at resume; returns the
 * branch that, put at `from`, enters it (within +-128 MiB of it: the same mapping).
 */
uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume);

#endif
