/* SPDX-License-Identifier: MIT */
/* Trampolines for the arm64 vDSO copy: a branch out of the kernel's code into a C handler and back, all registers kept. */
#ifndef FR_TEST_ATRAMP_H
#define FR_TEST_ATRAMP_H

#include <stdint.h>

#include "../armfam/trampoline_page.h"

/* The handler's frame: x0..x30 at [0..30], NZCV at [AT_NZCV]; written back into the registers. */
#define AT_NZCV 31

/* One saved register. */
typedef uint64_t at_reg;

/*
 * Writes a trampoline that calls the handler with id and goes on at resume; returns the
 * branch that, put at `from`, enters it (within +-128 MiB of it: the same mapping).
 */
uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume);

#endif
