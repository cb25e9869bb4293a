/* SPDX-License-Identifier: MIT */
/* The page the ARM family's trampolines are written to, one 4-byte instruction word at a time. */
#ifndef FR_TEST_ATPAGE_H
#define FR_TEST_ATPAGE_H

#include <stddef.h>
#include <stdint.h>

/* What a trampoline stands for: the high byte of its id; the low byte is the site's index. */
enum { AT_READ = 1, AT_SYSCALL = 2, AT_CARRY = 3 };

/* The trampolines' page being written, and the address of the C handler they call. */
struct at_writer {
	uint8_t *page;
	size_t size, used;
	uintptr_t handler;
	int full; /* a word did not fit: the page is unusable */
};

void at_begin(struct at_writer *w, uint8_t *page, size_t size, uintptr_t handler);
/* Appends one instruction word (or literal). */
void at_emit(struct at_writer *w, uint32_t word);

#endif
