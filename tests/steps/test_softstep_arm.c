/* SPDX-License-Identifier: MIT */
/* Unit tests of 32-bit ARM's software-step decoding: each branch's successors and each straight run, on code assembled by arm-linux-gnueabihf-as, read from a fake memory. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "run_suite.h"
#include "softstep_arm.h"
#include "stepper.h"

/* Where the fake memory puts the code and the stack, and what the task's CPSR says. */
#define CODE 0x10000u
#define STACK 0x20000u
#define THUMB 0x20u
#define ARM 0u

/*
 * `as` output of this, Thumb from 0x00, A32 from 0x48 (offsets in the comments):
 *   beq.n t1 (0x00); b.n t2 (0x02); t1: cbz r0, t2 (0x04); bl t3 (0x06); blx a0 (0x0a);
 *   b.w t3 (0x0e); bne.w t0 (0x12); t2: pop {r4, pc} (0x16); ldr.w pc, [sp], #4 (0x18);
 *   ldmia.w sp!, {r4-r11, pc} (0x1c); mov pc, r3 (0x20); add pc, r0 (0x22); it eq (0x24);
 *   addeq r0, #1 (0x26); ite ne (0x28); movne r1, r2 (0x2a); addeq.w r1, r1, #300 (0x2c);
 *   nop (0x30); tbb [pc, r0] (0x32), its table 2, 4 (0x36); t3: adds r0, r0, r1 (0x3a);
 *   ldr r2, [r3, #4] (0x3c); mul.w r0, r1, r0 (0x3e); bx lr (0x42); nop (0x44);
 *   a0: b a1 (0x48); bl a1 (0x4c); blx t3 (0x50); bx r3 (0x54); pop {r4, pc} (0x58);
 *   ldr pc, [sp], #4 (0x5c); mov pc, lr (0x60); add pc, pc, r0 (0x64); a1: add r0, r0, r1
 *   (0x68); moveq r1, r2 (0x6c); bxne lr (0x70).
 */
static const uint8_t code[] = {
	0x00, 0xd0, 0x08, 0xe0, 0x38, 0xb1, 0x00, 0xf0, 0x18, 0xf8, 0x00, 0xf0, 0x1e, 0xe8, 0x00, 0xf0, 0x14, 0xb8,
	0x7f, 0xf4, 0xf5, 0xaf, 0x10, 0xbd, 0x5d, 0xf8, 0x04, 0xfb, 0xbd, 0xe8, 0xf0, 0x8f, 0x9f, 0x46, 0x87, 0x44,
	0x08, 0xbf, 0x01, 0x30, 0x14, 0xbf, 0x11, 0x46, 0x01, 0xf5, 0x96, 0x71, 0xc0, 0x46, 0xdf, 0xe8, 0x00, 0xf0,
	0x02, 0x04, 0x00, 0x00, 0x40, 0x18, 0x5a, 0x68, 0x01, 0xfb, 0x00, 0xf0, 0x70, 0x47, 0xc0, 0x46, 0x00, 0x00,
	0x06, 0x00, 0x00, 0xea, 0x05, 0x00, 0x00, 0xeb, 0xf8, 0xff, 0xff, 0xfb, 0x13, 0xff, 0x2f, 0xe1, 0x10, 0x80,
	0xbd, 0xe8, 0x04, 0xf0, 0x9d, 0xe4, 0x0e, 0xf0, 0xa0, 0xe1, 0x00, 0xf0, 0x8f, 0xe0, 0x01, 0x00, 0x80, 0xe0,
	0x02, 0x10, 0xa0, 0x01, 0x1e, 0xff, 0x2f, 0x11,
};

static uint32_t stack[16];

/* The fake memory: the code at CODE, the stack at STACK, nothing else (4 bytes or none). */
static int fake_peek(pid_t pid, uint32_t addr, uint32_t *w)
{
	(void)pid;
	if (addr >= CODE && addr - CODE + 4 <= sizeof(code)) {
		memcpy(w, code + (addr - CODE), 4);
		return 0;
	}
	if (addr >= STACK && addr - STACK + 4 <= sizeof(stack) && (addr & 3) == 0) {
		*w = stack[(addr - STACK) / 4];
		return 0;
	}
	return -1;
}

static step_regs regs_at(uint32_t off, uint32_t cpsr)
{
	step_regs r;

	memset(&r, 0, sizeof(r));
	r.uregs[13] = STACK;
	r.uregs[15] = CODE + off;
	r.uregs[16] = cpsr;
	return r;
}

/* The successors of the instruction at r's pc, which must be decoded. */
static struct step_succ succ_of(const step_regs *r)
{
	struct step_succ s;
	const char *why;

	step_soft_peek = fake_peek;
	why = step_soft_successors(0, r, &s);
	ck_assert_msg(why == NULL, "pc 0x%lx: %s", (unsigned long)r->uregs[15], why ? why : "");
	return s;
}

/* s holds addr in the given state. */
static void expect_next(const struct step_succ *s, uint32_t addr, int thumb)
{
	for (int i = 0; i < s->count; i++)
		if (s->n[i].addr == addr) {
			ck_assert_msg(s->n[i].thumb == thumb, "0x%x: want %s", addr, thumb ? "Thumb" : "A32");
			return;
		}
	ck_assert_msg(0, "0x%x is not among the %d successors (first 0x%x)", addr, s->count, s->n[0].addr);
}

/* The instruction at off has exactly the n successors want, offsets in the code, all Thumb. */
static void expect_only(uint32_t off, uint32_t cpsr, int n, const uint32_t *want)
{
	step_regs r = regs_at(off, cpsr);
	struct step_succ s = succ_of(&r);

	ck_assert_msg(s.count == n, "0x%x: %d successors, want %d", off, s.count, n);
	for (int i = 0; i < n; i++)
		expect_next(&s, CODE + want[i], 1);
}

START_TEST(thumb_branches)
{
	step_regs r;
	struct step_succ s;

	/* beq.n: both ways. */
	expect_only(0x00, THUMB, 2, (const uint32_t[]){ 0x02, 0x04 });
	r = regs_at(0x02, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x16, 1);
	r = regs_at(0x04, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x16, 1), expect_next(&s, CODE + 0x06, 1);
	r = regs_at(0x06, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x3a, 1);
	/* blx (immediate) goes to A32, from the word-aligned pc. */
	r = regs_at(0x0a, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x48, 0);
	r = regs_at(0x0e, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x3a, 1);
	/* bne.w backwards (T3's sign). */
	r = regs_at(0x12, THUMB), s = succ_of(&r), expect_next(&s, CODE + 0x00, 1), expect_next(&s, CODE + 0x16, 1);
}
END_TEST

START_TEST(thumb_indirect)
{
	step_regs r = regs_at(0x16, THUMB);
	struct step_succ s;

	/* pop {r4, pc}: the second word; bit 0 of what is loaded says Thumb. */
	stack[0] = 0x1111, stack[1] = 0x4000 | 1;
	s = succ_of(&r), expect_next(&s, 0x4000, 1);
	r = regs_at(0x18, THUMB), stack[0] = 0x5000;
	s = succ_of(&r), expect_next(&s, 0x5000, 0);
	/* ldmia.w sp!, {r4-r11, pc}: the ninth word. */
	r = regs_at(0x1c, THUMB), stack[8] = 0x6001;
	s = succ_of(&r), expect_next(&s, 0x6000, 1);
	/* mov pc, r3 stays in Thumb. */
	r = regs_at(0x20, THUMB), r.uregs[3] = 0x7000;
	s = succ_of(&r), expect_next(&s, 0x7000, 1);
	/* tbb [pc, r0]: the table's byte r0, doubled, from the pc + 4. */
	r = regs_at(0x32, THUMB), r.uregs[0] = 0;
	s = succ_of(&r), expect_next(&s, CODE + 0x3a, 1);
	r.uregs[0] = 1;
	s = succ_of(&r), expect_next(&s, CODE + 0x3e, 1);
	/* bx lr. */
	r = regs_at(0x42, THUMB), r.uregs[14] = 0x8001;
	s = succ_of(&r), expect_next(&s, 0x8000, 1);
}
END_TEST

START_TEST(thumb_it_blocks)
{
	/* it eq: its instruction, or the one after the block when the condition skips it. */
	expect_only(0x24, THUMB, 2, (const uint32_t[]){ 0x26, 0x28 });
	/* ite ne: two instructions (one 32-bit), then the nop. */
	expect_only(0x28, THUMB, 3, (const uint32_t[]){ 0x2a, 0x2c, 0x30 });
	/* movne inside it, the block's first of two (IT state 0x14 after ite ne: ne, mask 0100). */
	expect_only(0x2a, THUMB | (0x5u << 10), 2, (const uint32_t[]){ 0x2c, 0x30 });
}
END_TEST

START_TEST(a32_branches)
{
	step_regs r = regs_at(0x48, ARM);
	struct step_succ s = succ_of(&r);

	expect_next(&s, CODE + 0x68, 0);
	r = regs_at(0x4c, ARM), s = succ_of(&r), expect_next(&s, CODE + 0x68, 0);
	/* blx (immediate) to Thumb. */
	r = regs_at(0x50, ARM), s = succ_of(&r), expect_next(&s, CODE + 0x3a, 1);
	r = regs_at(0x54, ARM), r.uregs[3] = 0x9001, s = succ_of(&r), expect_next(&s, 0x9000, 1);
	stack[0] = 0x1111, stack[1] = 0xa000;
	r = regs_at(0x58, ARM), s = succ_of(&r), expect_next(&s, 0xa000, 0);
	r = regs_at(0x5c, ARM), s = succ_of(&r), expect_next(&s, 0x1110, 1);
	r = regs_at(0x60, ARM), r.uregs[14] = 0xb000, s = succ_of(&r), expect_next(&s, 0xb000, 0);
	/* bxne lr: both ways. */
	r = regs_at(0x70, ARM), r.uregs[14] = 0xc001, s = succ_of(&r);
	expect_next(&s, 0xc000, 1);
	expect_next(&s, CODE + 0x74, 0);
}
END_TEST

/* A pc write it does not decode, or code it cannot read, is refused, never guessed. */
START_TEST(refused)
{
	step_regs r = regs_at(0x22, THUMB);
	struct step_succ s;

	step_soft_peek = fake_peek;
	ck_assert_ptr_nonnull(step_soft_successors(0, &r, &s)); /* add pc, r0 */
	r = regs_at(0x64, ARM);
	ck_assert_ptr_nonnull(step_soft_successors(0, &r, &s)); /* add pc, pc, r0 */
	r = regs_at(0x1000, THUMB);
	ck_assert_ptr_nonnull(step_soft_successors(0, &r, &s));
	/* pop {r4, pc} with the stack unreadable. */
	r = regs_at(0x16, THUMB), r.uregs[13] = 0x30000;
	ck_assert_ptr_nonnull(step_soft_successors(0, &r, &s));
}
END_TEST

START_TEST(straight_runs)
{
	uintptr_t ran[STEP_RUN_MAX];
	step_regs r = regs_at(0x3a, THUMB);
	int n = -1;

	step_soft_peek = fake_peek;
	/* adds, ldr, mul.w, then bx lr ends the run: the two after the first are counted from ran. */
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), CODE + 0x42);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(ran[0], CODE + 0x3c);
	ck_assert_uint_eq(ran[1], CODE + 0x3e);
	/* A32: add, moveq (conditional but no pc), then bxne. */
	r = regs_at(0x68, ARM);
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), CODE + 0x70);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(ran[0], CODE + 0x6c);
	/* A branch, an it, or an instruction inside an IT block is stepped alone. */
	r = regs_at(0x00, THUMB);
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), 0);
	ck_assert_int_eq(n, 0);
	r = regs_at(0x24, THUMB);
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), 0);
	r = regs_at(0x2a, THUMB | (0x5u << 10));
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), 0);
	/* The run before an it stops at it: the nop at 0x30 runs to the tbb. */
	r = regs_at(0x30, THUMB);
	ck_assert_uint_eq(step_soft_run(0, &r, ran, &n), CODE + 0x32);
	ck_assert_int_eq(n, 0);
}
END_TEST

static Suite *softstep_suite(void)
{
	const TTest *const tests[] = { thumb_branches, thumb_indirect, thumb_it_blocks,
				       a32_branches, refused, straight_runs };
	Suite *s = suite_create("softstep_arm");
	TCase *tc = tcase_create("decode");

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(softstep_suite());
}
