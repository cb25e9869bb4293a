/* SPDX-License-Identifier: MIT */
/* What the ARM family's oracle reroutes in a vDSO image, as the CPU's finder (tests/oracle/<cpu>/sites.c) fills it. */
#ifndef FR_TEST_AVSITES_H
#define FR_TEST_AVSITES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vdso_elf.h"

/* Included by the CPU's sites.h once it has defined struct as_read and struct as_carry. */
struct asites {
	int n_read, n_live, n_syscall, n_carry;
	struct as_read read[AS_MAX_SITES];
	size_t syscall_at[AS_MAX_SITES]; /* the svc #0 of each clock_gettime fallback */
	struct as_carry carry[AS_MAX_SITES];
	unsigned ss;     /* live reads of arm64's self-synchronising CNTVCTSS_EL0 (ECV); never on 32-bit ARM */
	size_t text_end; /* end of .text: trampolines may not go below it */
};

/* Fills s from the image; NULL, or why the image cannot be analysed. */
const char *asites_find(const uint8_t *img, size_t size, struct asites *s);

/* Empties s and finds the image's .text, [*lo, *hi), for the finder to walk; NULL, or why not. */
static inline const char *asites_begin(const uint8_t *img, size_t size, struct asites *s, size_t *lo, size_t *hi)
{
	memset(s, 0, sizeof(*s));
	if (avelf_text(img, size, lo, hi) != 0)
		return "no .text section header in the vDSO image";
	s->text_end = *hi;
	return NULL;
}

/*
 * The finder's verdict once the text is read: NULL where every kind of site was found, else why
 * not (the CPU's own words for a missing counter read or system call).
 */
static inline const char *asites_verdict(const struct asites *s, const char *no_read, const char *no_syscall)
{
	if (s->n_live == 0)
		return no_read;
	if (s->n_syscall == 0)
		return no_syscall;
	return s->n_carry ? NULL : "no seconds-carry loop recognised in the vDSO text (huge results would take seconds each)";
}

/* The counter the live reads read ("mixed" where they differ), or "none". */
const char *asites_counter_name(const struct asites *s);

#endif
