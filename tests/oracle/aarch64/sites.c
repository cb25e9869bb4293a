/* SPDX-License-Identifier: MIT */
/* Finds, in an arm64 vDSO image, what the oracle reroutes: counter reads, clock_gettime system calls, carry loops. */
#include "sites.h"

#include "../armfam/vdso_elf.h"

#include <string.h>
#include <sys/syscall.h>

/* A64 encodings (Arm ARM): MRS Xt, <sysreg>, with the system register fields fixed. */
#define A64_MRS_CNTVCT 0xd53be040u   /* op0 3, op1 3, CRn 14, CRm 0, op2 2 */
#define A64_MRS_CNTVCTSS 0xd53be0c0u /* op0 3, op1 3, CRn 14, CRm 0, op2 6 */
#define A64_SVC0 0xd4000001u
#define A64_MOVZ_X8(imm) (0xd2800008u | (uint32_t)(imm) << 5)
#define A64_RD(i) ((i) & 31u)
#define A64_RN(i) (((i) >> 5) & 31u)
#define A64_RM(i) (((i) >> 16) & 31u)

/* The carry loop at t[i] (struct as_carry's shape); 1 when it matches. */
static int match_carry(const uint8_t *t, size_t i, size_t end, struct as_carry *c)
{
	uint32_t a, inc, cmp, bhi;
	unsigned v;

	if (i + 16 > end)
		return 0;
	a = avelf_word(t, i), inc = avelf_word(t, i + 4), cmp = avelf_word(t, i + 8), bhi = avelf_word(t, i + 12);
	/* ADD/SUB (shifted register), 64-bit, no shift, Rd == Rn. */
	if ((a & 0xbfe0fc00u) != 0x8b000000u || A64_RD(a) != A64_RN(a))
		return 0;
	v = A64_RD(a);
	/* ADD Wc, Wc, #1 */
	if ((inc & 0xfffffc00u) != 0x11000400u || A64_RD(inc) != A64_RN(inc) || A64_RD(inc) == v)
		return 0;
	/* SUBS XZR, Xv, Xm (cmp), no shift */
	if ((cmp & 0xffe0fc1fu) != 0xeb00001fu || A64_RN(cmp) != v)
		return 0;
	/* B.HI back to i: imm19 = -3, cond 8 */
	if (bhi != 0x54ffffa8u)
		return 0;
	c->at = i;
	c->resume = i + 16;
	c->v = (uint8_t)v;
	c->c = (uint8_t)A64_RD(inc);
	c->m = (uint8_t)A64_RM(cmp);
	c->k = (uint8_t)A64_RM(a);
	c->sub = (a >> 30) & 1;
	c->orig = a;
	return 1;
}

const char *asites_find(const uint8_t *t, size_t size, struct asites *s)
{
	size_t lo, hi;
	const char *why = asites_begin(t, size, s, &lo, &hi);

	if (why)
		return why;
	for (size_t i = lo; i + 4 <= hi; i += 4) {
		uint32_t w = avelf_word(t, i);
		struct as_carry c;

		if ((w & ~31u) == A64_MRS_CNTVCT || (w & ~31u) == A64_MRS_CNTVCTSS) {
			struct as_read *r = &s->read[s->n_read];
			uint32_t next = i + 8 <= hi ? avelf_word(t, i + 4) : 0;

			if (s->n_read == AS_MAX_SITES)
				return "more counter reads in the vDSO text than the oracle has room for";
			r->at = i;
			r->reg = (uint8_t)A64_RD(w);
			r->ss = (w & ~31u) == A64_MRS_CNTVCTSS;
			/* EOR Xd, Xn, Xn (shifted register) with Xn the read's register. */
			r->live = (next & 0xffe0fc00u) == 0xca000000u && A64_RN(next) == r->reg && A64_RM(next) == r->reg;
			s->n_live += r->live;
			s->ss += r->live && r->ss;
			s->n_read++;
		}
		if (w == A64_SVC0 && i >= lo + 4 && avelf_word(t, i - 4) == A64_MOVZ_X8(SYS_clock_gettime) &&
		    s->n_syscall < AS_MAX_SITES)
			s->syscall_at[s->n_syscall++] = i;
		if (s->n_carry < AS_MAX_SITES && match_carry(t, i, hi, &c))
			s->carry[s->n_carry++] = c;
	}
	return asites_verdict(s,
			      "no counter read (mrs cntvct_el0 or cntvctss_el0 followed by its ordering dependency) "
			      "recognised in the vDSO text",
			      "no clock_gettime fallback system call (mov x8, #113; svc #0) found in the vDSO text");
}

const char *asites_counter_name(const struct asites *s)
{
	if (s->n_live == 0)
		return "none";
	if (s->ss == 0)
		return "cntvct_el0";
	return s->ss == (unsigned)s->n_live ? "cntvctss_el0" : "mixed";
}
