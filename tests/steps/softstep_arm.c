/* SPDX-License-Identifier: MIT */
/* Steps a traced 32-bit ARM task without PTRACE_SINGLESTEP (its kernel has none: EIO), with breakpoints where the code can go next, as a debugger does on this CPU. */
#define _GNU_SOURCE
#include "softstep_arm.h"

#include "stepper.h"

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>

/* The breakpoints the kernel's ptrace turns into SIGTRAP (arch/arm/kernel/ptrace.c's undef hooks). */
#define BKPT_ARM 0xe7f001f0u
#define BKPT_THUMB 0xde01u
/* CPSR's Thumb bit, and the IT state's bits: IT[1:0] at 26:25, IT[7:2] at 15:10. */
#define CPSR_T (1u << 5)

static void add(struct step_succ *s, uint32_t addr, int thumb)
{
	addr &= thumb ? ~1u : ~3u;
	for (int i = 0; i < s->count; i++)
		if (s->n[i].addr == addr)
			return;
	if (s->count < STEP_SUCC_MAX)
		s->n[s->count++] = (struct step_next){ addr, thumb };
}

/* An interworking branch to a register's or memory's value: bit 0 says Thumb. */
static void add_bx(struct step_succ *s, uint32_t v)
{
	add(s, v, (int)(v & 1));
}

/* The 4 bytes at addr in the child, in w; 0, or -1 (errno set). */
static int peek_ptrace(pid_t pid, uint32_t addr, uint32_t *w)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)addr, NULL);
	if (errno)
		return -1;
	*w = (uint32_t)v;
	return 0;
}

int (*step_soft_peek)(pid_t pid, uint32_t addr, uint32_t *w) = peek_ptrace;

static int peek(pid_t pid, uint32_t addr, uint32_t *w)
{
	return step_soft_peek(pid, addr, w);
}

/* The halfword at addr, read from the word at addr or, at the end of a mapping, the one before. */
static int peek_half(pid_t pid, uint32_t addr, uint32_t *h)
{
	uint32_t w;

	if (peek(pid, addr, &w) == 0) {
		*h = w & 0xffffu;
		return 0;
	}
	if (peek(pid, addr - 2, &w) != 0)
		return -1;
	*h = w >> 16;
	return 0;
}

static uint32_t sext(uint32_t v, int bits)
{
	uint32_t m = 1u << (bits - 1);

	return (v ^ m) - m;
}

static int popcount16(uint32_t v)
{
	return __builtin_popcount(v & 0xffffu);
}

/* A register's value as the instruction at pc reads it (r15: the pc plus 4 in Thumb, 8 in A32). */
static uint32_t reg(const step_regs *r, unsigned n, int thumb)
{
	return n == 15 ? (uint32_t)r->uregs[15] + (thumb ? 4u : 8u) : (uint32_t)r->uregs[n];
}

/* The length of the Thumb instruction whose first halfword is h: 2 or 4. */
static uint32_t t_len(uint32_t h)
{
	return (h >> 11) >= 0x1d ? 4 : 2;
}

/* The IT block's instructions still to come after the current one (0 outside a block). */
static int it_left(uint32_t cpsr)
{
	uint32_t it = ((cpsr >> 25) & 3u) | ((cpsr >> 8) & 0xfcu);

	return (it & 0xfu) ? 3 - __builtin_ctz(it & 0xfu) : 0;
}

/*
 * A Thumb instruction (first halfword h1, second h2) that writes the pc: adds its target, 1 when
 * it is such an instruction and was decoded, 0 when it does not write the pc, -1 when it does in
 * a way not decoded here (the step then fails, never guesses).
 */
static int t_target(pid_t pid, const step_regs *r, uint32_t pc, uint32_t h1, uint32_t h2, struct step_succ *s)
{
	uint32_t w;

	if (t_len(h1) == 2) {
		if ((h1 & 0xf000u) == 0xd000u && ((h1 >> 8) & 0xfu) < 0xeu) /* b<c> */
			add(s, pc + 4 + sext((h1 & 0xffu) << 1, 9), 1);
		else if ((h1 & 0xf800u) == 0xe000u) /* b */
			add(s, pc + 4 + sext((h1 & 0x7ffu) << 1, 12), 1);
		else if ((h1 & 0xf500u) == 0xb100u) /* cbz, cbnz */
			add(s, pc + 4 + (((h1 >> 9) & 1u) << 6 | ((h1 >> 3) & 0x1fu) << 1), 1);
		else if ((h1 & 0xff00u) == 0x4700u) /* bx, blx (register) */
			add_bx(s, reg(r, (h1 >> 3) & 0xfu, 1));
		else if ((h1 & 0xff00u) == 0xbd00u) { /* pop {..., pc} */
			if (peek(pid, (uint32_t)r->uregs[13] + 4u * (uint32_t)popcount16(h1 & 0xffu), &w) != 0)
				return -1;
			add_bx(s, w);
		} else if ((h1 & 0xff87u) == 0x4687u) /* mov pc, Rm */
			add(s, reg(r, (h1 >> 3) & 0xfu, 1), 1);
		else if ((h1 & 0xff87u) == 0x4487u) /* add pc, Rm */
			return -1;
		else
			return 0;
		return 1;
	}
	if ((h1 & 0xf800u) == 0xf000u && (h2 & 0x8000u)) {
		uint32_t S = (h1 >> 10) & 1u, j1 = (h2 >> 13) & 1u, j2 = (h2 >> 11) & 1u, off;

		switch (h2 & 0x5000u) {
		case 0x0000u: /* b<c>.w, or the control instructions where cond is 111x */
			if (((h1 >> 6) & 0xeu) == 0xeu)
				return (h1 & 0xffe0u) == 0xf3c0u ? -1 : 0; /* bxj, eret-like: not here */
			off = S << 20 | j2 << 19 | j1 << 18 | (h1 & 0x3fu) << 12 | (h2 & 0x7ffu) << 1;
			add(s, pc + 4 + sext(off, 21), 1);
			return 1;
		default:
			off = S << 24 | (!(j1 ^ S)) << 23 | (!(j2 ^ S)) << 22 | (h1 & 0x3ffu) << 12 | (h2 & 0x7ffu) << 1;
			if ((h2 & 0x5000u) == 0x4000u) /* blx (immediate): to A32, from the word-aligned pc */
				add(s, ((pc + 4) & ~3u) + sext(off, 25), 0);
			else /* b.w, bl */
				add(s, pc + 4 + sext(off, 25), 1);
			return 1;
		}
	}
	if ((h1 & 0xff50u) == 0xf850u && (h2 >> 12) == 0xfu) { /* ldr.w pc, [...] */
		uint32_t rn = h1 & 0xfu, base = reg(r, rn, 1), addr;

		if (rn == 15)
			addr = (base & ~3u) + ((h1 & 0x80u) ? (h2 & 0xfffu) : -(h2 & 0xfffu));
		else if (h1 & 0x80u)
			addr = base + (h2 & 0xfffu);
		else if (h2 & 0x800u) {
			uint32_t imm = h2 & 0xffu;
			uint32_t idx = (h2 & 0x200u) ? base + imm : base - imm;

			addr = (h2 & 0x400u) ? idx : base;
		} else if ((h2 & 0xfc0u) == 0)
			addr = base + (reg(r, h2 & 0xfu, 1) << ((h2 >> 4) & 3u));
		else
			return -1;
		if (peek(pid, addr, &w) != 0)
			return -1;
		add_bx(s, w);
		return 1;
	}
	if (((h1 & 0xffd0u) == 0xe890u || (h1 & 0xffd0u) == 0xe910u) && (h2 & 0x8000u)) { /* ldm.w, pop.w with pc */
		uint32_t base = reg(r, h1 & 0xfu, 1);
		uint32_t addr = (h1 & 0x0100u) ? base - 4 : base + 4u * (uint32_t)(popcount16(h2) - 1);

		if (peek(pid, addr, &w) != 0)
			return -1;
		add_bx(s, w);
		return 1;
	}
	if ((h1 & 0xfff0u) == 0xe8d0u && (h2 & 0xffe0u) == 0xf000u) { /* tbb, tbh */
		uint32_t base = reg(r, h1 & 0xfu, 1), idx = reg(r, h2 & 0xfu, 1), addr, v;

		addr = (h2 & 0x10u) ? base + 2 * idx : base + idx;
		if (peek_half(pid, addr, &v) != 0)
			return -1;
		v = (h2 & 0x10u) ? v : (v & 0xffu);
		add(s, pc + 4 + 2 * v, 1);
		return 1;
	}
	/* Any other 32-bit instruction naming the pc as its destination is not decoded. */
	return 0;
}

/* The same for an A32 instruction w at pc. */
static int a_target(pid_t pid, const step_regs *r, uint32_t pc, uint32_t w, struct step_succ *s)
{
	uint32_t v;

	if ((w >> 28) == 0xfu) {
		if ((w & 0xfe000000u) == 0xfa000000u) { /* blx (immediate): to Thumb */
			add(s, pc + 8 + sext((w & 0xffffffu) << 2, 26) + ((w >> 23) & 2u), 1);
			return 1;
		}
		return 0;
	}
	if ((w & 0x0e000000u) == 0x0a000000u) { /* b, bl */
		add(s, pc + 8 + sext((w & 0xffffffu) << 2, 26), 0);
		return 1;
	}
	if ((w & 0x0fffffd0u) == 0x012fff10u) { /* bx, blx (register) */
		add_bx(s, reg(r, w & 0xfu, 0));
		return 1;
	}
	if ((w & 0x0e108000u) == 0x08108000u) { /* ldm with pc */
		uint32_t base = reg(r, (w >> 16) & 0xfu, 0), n = (uint32_t)popcount16(w);
		uint32_t pre = (w >> 24) & 1u, up = (w >> 23) & 1u;
		/* The pc is the highest register: the last word of the block (ia, ib, da, db). */
		uint32_t addr = up ? base + 4u * (n - 1) + 4u * pre : base - 4u * pre;

		if (peek(pid, addr, &v) != 0)
			return -1;
		add_bx(s, v);
		return 1;
	}
	if ((w & 0x0e50f000u) == 0x0410f000u) { /* ldr pc, [Rn, #imm] */
		uint32_t base = reg(r, (w >> 16) & 0xfu, 0), imm = w & 0xfffu;
		uint32_t idx = (w & (1u << 23)) ? base + imm : base - imm;

		if (peek(pid, (w & (1u << 24)) ? idx : base, &v) != 0)
			return -1;
		add_bx(s, v);
		return 1;
	}
	if ((w & 0x0feffff0u) == 0x01a0f000u) { /* mov pc, Rm */
		add_bx(s, reg(r, w & 0xfu, 0));
		return 1;
	}
	/* Data processing with Rd = pc (not tst, teq, cmp, cmn), or a load of the pc not decoded above. */
	if (((w & 0x0c00f000u) == 0x0000f000u && (w & 0x01900000u) != 0x01100000u) ||
	    (w & 0x0c10f000u) == 0x0410f000u)
		return -1;
	return 0;
}

const char *step_soft_successors(pid_t pid, const step_regs *r, struct step_succ *s)
{
	uint32_t pc = (uint32_t)r->uregs[15], cpsr = (uint32_t)r->uregs[16], h1, h2 = 0, w, at;
	int thumb = (cpsr & CPSR_T) != 0, left, rc;

	s->count = 0;
	if (!thumb) {
		if (peek(pid, pc, &w) != 0)
			return "cannot read the instruction";
		add(s, pc + 4, 0);
		rc = a_target(pid, r, pc, w, s);
	} else {
		if (peek_half(pid, pc, &h1) != 0 || (t_len(h1) == 4 && peek_half(pid, pc + 2, &h2) != 0))
			return "cannot read the instruction";
		/*
		 * In an IT block, or on its it instruction, any of the block's next instructions may be
		 * skipped (condition false): each gets a breakpoint, and so does the one after the block.
		 */
		left = (h1 & 0xff00u) == 0xbf00u && (h1 & 0xfu) ? 4 - __builtin_ctz(h1 & 0xfu) : it_left(cpsr);
		at = pc + t_len(h1);
		add(s, at, 1);
		for (int i = 0; i < left; i++) {
			uint32_t h;

			if (peek_half(pid, at, &h) != 0)
				return "cannot read the IT block";
			at += t_len(h);
			add(s, at, 1);
		}
		rc = t_target(pid, r, pc, h1, h2, s);
	}
	return rc < 0 ? "an instruction writes the pc in a way the software step does not decode" : NULL;
}

/*
 * Whether the instruction at a (the task's state thumb) may end a straight run: it may write the
 * pc, or is an IT instruction, or cannot be read. Its length goes to *len.
 */
static int ends_run(pid_t pid, const step_regs *r, uint32_t a, int thumb, uint32_t *len)
{
	struct step_succ dummy = { .count = 0 };
	uint32_t h1, h2 = 0, w;

	if (!thumb) {
		*len = 4;
		return peek(pid, a, &w) != 0 || a_target(pid, r, a, w, &dummy) != 0;
	}
	if (peek_half(pid, a, &h1) != 0 || (t_len(h1) == 4 && peek_half(pid, a + 2, &h2) != 0))
		return 1;
	*len = t_len(h1);
	return ((h1 & 0xff00u) == 0xbf00u && (h1 & 0xfu)) || t_target(pid, r, a, h1, h2, &dummy) != 0;
}

uint32_t step_soft_run(pid_t pid, const step_regs *r, uintptr_t *ran, int *nran)
{
	uint32_t pc = (uint32_t)r->uregs[15], cpsr = (uint32_t)r->uregs[16], a = pc, len = 0;
	int thumb = (cpsr & CPSR_T) != 0;

	*nran = 0;
	if ((thumb && it_left(cpsr)) || ends_run(pid, r, a, thumb, &len))
		return 0;
	for (a += len; *nran < STEP_RUN_MAX && !ends_run(pid, r, a, thumb, &len); a += len)
		ran[(*nran)++] = a;
	return a;
}

/* A planted breakpoint: where, and the word it replaced there. */
struct planted {
	uint32_t at, word;
};

/* Writes the breakpoint for n into the child; the replaced word goes to p. */
static int plant(pid_t pid, const struct step_next *n, struct planted *p)
{
	uint32_t w, at = n->addr;

	if (n->thumb) {
		if (peek(pid, at, &w) == 0)
			p->word = w, w = (w & 0xffff0000u) | BKPT_THUMB;
		else if (at -= 2, peek(pid, at, &w) == 0)
			p->word = w, w = (w & 0xffffu) | BKPT_THUMB << 16;
		else
			return -1;
	} else {
		if (peek(pid, at, &w) != 0)
			return -1;
		p->word = w, w = BKPT_ARM;
	}
	p->at = at;
	return ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)at, (void *)(uintptr_t)w) == 0 ? 0 : -1;
}

/* Puts back what plant replaced, the last planted first (breakpoints may share a word). */
static int unplant(pid_t pid, const struct planted *p, int n)
{
	int rc = 0;

	while (n-- > 0)
		if (ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)p[n].at, (void *)(uintptr_t)p[n].word) != 0)
			rc = -1;
	return rc;
}

const char *step_soft(pid_t pid, int *sig, uintptr_t *ran, int *nran)
{
	struct iovec io;
	struct planted p[STEP_SUCC_MAX];
	struct step_succ s;
	step_regs r;
	const char *why;
	int n = 0, st = 0, landed = 0;
	uint32_t w = 0, start;

	io = (struct iovec){ &r, sizeof(r) };
	if (ptrace(PTRACE_GETREGSET, pid, (void *)(long)NT_PRSTATUS, &io) != 0)
		return "PTRACE_GETREGSET failed";
	/* A straight run is one breakpoint at its end; a branch gets one on each of its successors. */
	s.n[0].addr = step_soft_run(pid, &r, ran, nran);
	s.n[0].thumb = (r.uregs[16] & CPSR_T) != 0;
	s.count = 1;
	if (!s.n[0].addr && (why = step_soft_successors(pid, &r, &s)))
		return why;
	start = (uint32_t)r.uregs[15];
	peek(pid, start, &w);
	for (; n < s.count; n++)
		if (plant(pid, &s.n[n], &p[n]) != 0) {
			unplant(pid, p, n);
			return "cannot write a breakpoint (PTRACE_POKEDATA)";
		}
	if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)*sig) != 0 || waitpid(pid, &st, 0) != pid ||
	    !WIFSTOPPED(st)) {
		static char lost[200];

		/* Where it ran off, to find the instruction the decoding got wrong. */
		snprintf(lost, sizeof(lost),
			 "the child did not stop at a breakpoint after 0x%08lx (%s %08x, cpsr 0x%08lx, next 0x%08x%s; "
			 "wait status 0x%x)",
			 (unsigned long)r.uregs[15], r.uregs[16] & CPSR_T ? "Thumb" : "A32", w, (unsigned long)r.uregs[16],
			 s.n[s.count - 1].addr, s.count > 1 ? " and more" : "", st);
		return lost;
	}
	if (unplant(pid, p, n) != 0)
		return "cannot put the code back (PTRACE_POKEDATA)";
	*sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
	io = (struct iovec){ &r, sizeof(r) };
	if (ptrace(PTRACE_GETREGSET, pid, (void *)(long)NT_PRSTATUS, &io) != 0)
		return "PTRACE_GETREGSET failed";
	for (int i = 0; i < s.count; i++)
		landed |= (uint32_t)r.uregs[15] == s.n[i].addr;
	/* Another signal stopped it before the instruction: nothing ran, the next step delivers it. */
	if (*sig && (uint32_t)r.uregs[15] == start) {
		*nran = 0;
		return NULL;
	}
	return landed ? NULL : "the step left the instruction's decoded successors";
}
