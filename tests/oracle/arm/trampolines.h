/* SPDX-License-Identifier: MIT */
/* Trampolines for the 32-bit ARM vDSO copy (A32): a branch out of the kernel's code into a C handler and back, all registers kept. */
#ifndef FR_TEST_ATRAMP_H
#define FR_TEST_ATRAMP_H

#include <stdint.h>

#include "../armfam/trampoline_page.h"

/* The handler's frame: r0..r12 at [0..12], lr at [AT_LR], the APSR (NZCV in 31..28) at [AT_PSR]. */
#define AT_LR 13
#define AT_PSR 14

/* One saved register. */
typedef uint32_t at_reg;

/*
 * Writes a trampoline that calls the handler with id and goes on at resume; returns the A32
 * branch that, put at `from`, enters it (within +-32 MiB of it: the same mapping).
 */
uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume);

#endif
