/* SPDX-License-Identifier: MIT */
/* Finds, in a 32-bit ARM vDSO image (A32 code), what the oracle reroutes: counter reads, clock_gettime system calls, carry loops. */
#include "sites.h"

#include <string.h>
#include <sys/syscall.h>

#include "../armfam/vdso_elf.h"

/*
 * A32 encodings (Arm ARM), condition "always" (0xe) but for the loop's bcc. A Thumb-2 vDSO (a
 * kernel built with THUMB2_KERNEL) has none of them: the finder says so rather than guess.
 */
#define A32_MRRC_CNTVCT 0xec500f1eu  /* MRRC p15, 1, Rt, Rt2, c14: Rt in 15..12, Rt2 in 19..16 */
#define A32_MRRC_MASK 0xfff00fffu
#define A32_SVC0 0xef000000u
#define A32_MOVW(rd, imm) (0xe3000000u | ((uint32_t)(imm) >> 12) << 16 | (uint32_t)(rd) << 12 | ((uint32_t)(imm) & 0xfffu))
#define A32_RN(i) (((i) >> 16) & 15u)
#define A32_RD(i) (((i) >> 12) & 15u)
#define A32_RM(i) ((i) & 15u)
/* Data-processing (register, no shift) and (immediate) forms, Rn/Rd/Rm or Rn/Rd/imm12 cleared. */
#define A32_ADDS_REG 0xe0900000u
#define A32_SBCS_REG 0xe0d00000u
#define A32_ADD_IMM1 0xe2800001u
#define A32_SBC_IMM0 0xe2c00000u
#define A32_CMP_REG 0xe1500000u
#define A32_MOV_REG 0xe1a00000u
#define A32_BCC_BACK7 0x3afffff7u /* bcc to the instruction 7 words before it */

/* Whether w is "mov Rd, Rm" (no shift), and its registers. */
static int is_mov(uint32_t w, unsigned *rd, unsigned *rm)
{
	if ((w & 0xffff0ff0u) != A32_MOV_REG)
		return 0;
	*rd = A32_RD(w);
	*rm = A32_RM(w);
	return 1;
}

/* The carry loop at t[i] (struct as_carry's shape); 1 when it matches. */
static int match_carry(const uint8_t *t, size_t i, size_t end, struct as_carry *c)
{
	uint32_t w[8];
	unsigned d1, m1, d2, m2;

	if (i + 32 > end)
		return 0;
	for (int k = 0; k < 8; k++)
		w[k] = avelf_word(t, i + 4 * (size_t)k);
	if ((w[0] & 0xfff00ff0u) != A32_ADDS_REG || (w[1] & 0xfff00fffu) != A32_ADD_IMM1 ||
	    A32_RN(w[1]) != A32_RD(w[1]) || (w[2] & 0xfff00fffu) != A32_SBC_IMM0 || (w[3] & 0xfff0fff0u) != A32_CMP_REG ||
	    A32_RM(w[3]) != A32_RD(w[0]) || !is_mov(w[4], &d1, &m1) || !is_mov(w[5], &d2, &m2) ||
	    (w[6] & 0xfff00ff0u) != A32_SBCS_REG || w[7] != A32_BCC_BACK7)
		return 0;
	c->lo = (uint8_t)A32_RN(w[0]);
	c->lo2 = (uint8_t)A32_RD(w[0]);
	c->k = (uint8_t)A32_RM(w[0]);
	c->c = (uint8_t)A32_RD(w[1]);
	c->hi = (uint8_t)A32_RN(w[2]);
	c->hi2 = (uint8_t)A32_RD(w[2]);
	c->m = (uint8_t)A32_RN(w[3]);
	c->z = (uint8_t)A32_RN(w[6]);
	c->t = (uint8_t)A32_RD(w[6]);
	/* The two moves put the next values back: Hi <- Hi' and Lo <- Lo', in either order; sbcs reads Hi. */
	if (!((d1 == c->hi && m1 == c->hi2 && d2 == c->lo && m2 == c->lo2) ||
	      (d1 == c->lo && m1 == c->lo2 && d2 == c->hi && m2 == c->hi2)) ||
	    A32_RM(w[6]) != c->hi || c->lo == c->hi || c->c == c->lo || c->c == c->hi)
		return 0;
	c->at = i;
	c->resume = i + 32;
	c->orig = w[0];
	return 1;
}

/* Whether the svc at i follows "movw r7, #nr" with nr a clock_gettime system call (the 32- or 64-bit time_t one). */
static int is_gettime_svc(const uint8_t *t, size_t i, size_t lo)
{
	uint32_t prev;

	if (avelf_word(t, i) != A32_SVC0 || i < lo + 4)
		return 0;
	prev = avelf_word(t, i - 4);
	return prev == A32_MOVW(7, SYS_clock_gettime) || prev == A32_MOVW(7, SYS_clock_gettime64);
}

/* Records the site at offset i of the text [lo, hi), if one is there; NULL, or why the image cannot be analysed. */
static const char *note_site(const uint8_t *t, size_t i, size_t lo, size_t hi, struct asites *s)
{
	uint32_t w = avelf_word(t, i);
	struct as_carry c;

	/* A site left out would run natively in the copy: more than the room is a failure, not a skip. */
	if ((w & A32_MRRC_MASK) == A32_MRRC_CNTVCT) {
		if (s->n_read == AS_MAX_SITES)
			return "more counter reads in the vDSO text than the oracle has room for";
		s->read[s->n_read++] = (struct as_read){ .at = i, .lo = (uint8_t)A32_RD(w), .hi = (uint8_t)A32_RN(w), .live = 1 };
		s->n_live++;
	} else if (is_gettime_svc(t, i, lo)) {
		if (s->n_syscall == AS_MAX_SITES)
			return "more fallback system calls in the vDSO text than the oracle has room for";
		s->syscall_at[s->n_syscall++] = i;
	} else if (match_carry(t, i, hi, &c)) {
		if (s->n_carry == AS_MAX_SITES)
			return "more carry loops in the vDSO text than the oracle has room for";
		s->carry[s->n_carry++] = c;
	}
	return NULL;
}

const char *asites_find(const uint8_t *t, size_t size, struct asites *s)
{
	size_t lo, hi;
	const char *why = asites_begin(t, size, s, &lo, &hi);

	for (size_t i = lo; !why && i + 4 <= hi; i += 4)
		why = note_site(t, i, lo, hi, s);
	if (why)
		return why;
	return asites_verdict(s,
			      "no counter read (A32 mrrc p15, 1, Rt, Rt2, c14) recognised in the vDSO text: "
			      "a Thumb-2 vDSO (THUMB2_KERNEL) is not analysed",
			      "no clock_gettime fallback system call (movw r7, #263 or #403; svc #0) found in the vDSO text");
}

const char *asites_counter_name(const struct asites *s)
{
	return s->n_live ? "cntvct" : "none";
}
