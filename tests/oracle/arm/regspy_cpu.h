/* SPDX-License-Identifier: MIT */
/* The register-spy probe's arm64 half: how a call is filled, what the spy must have seen, how both are shown (included once, by tests/e2e/probe_regspy.c). */
#ifndef FRT_REGSPY_CPU_H
#define FRT_REGSPY_CPU_H

static void fill(struct e2e_call *c, const struct spy_case *k)
{
	*c = (struct e2e_call){ .a = { k->nr, k->a1, k->a2, A4, A5, A6, STACK7 }, .x7 = X7, .x8 = X8,
				.use_slot = k->slot, .sp_off = k->sp_off, .slot_off = k->slot_off, .tag = k->tag };
}

/* bl pushes nothing: the spy sees sp as it was at the call, and x30 the address after the bl. */
static int regs_exact(const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	return s->x[0] == c->a[0] && s->x[1] == c->a[1] && s->x[2] == c->p && s->x[3] == c->a[3] &&
	       s->x[4] == c->a[4] && s->x[5] == c->a[5] && s->x[6] == c->a[6] && s->x[7] == c->x7 &&
	       s->x[8] == c->x8 && s->sp == c->sp && s->lr == c->lr;
}

static void show(const char *name, const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	printf("%s: sent x0-x8=%#lx %#lx %#lx %#lx %#lx %#lx %#lx %#lx %#lx sp=%#lx x30=%#lx;"
	       " spy saw %#lx %#lx %#lx %#lx %#lx %#lx %#lx %#lx %#lx sp=%#lx x30=%#lx\n",
	       name, c->a[0], c->a[1], c->p, c->a[3], c->a[4], c->a[5], c->a[6], c->x7, c->x8, c->sp, c->lr,
	       s->x[0], s->x[1], s->x[2], s->x[3], s->x[4], s->x[5], s->x[6], s->x[7], s->x[8], s->sp, s->lr);
}

/* x19-x28, x29 and sp as the caller left them, whichever way the call went. */
static int kept(const struct e2e_call *c)
{
	return c->kept == 1;
}

/* The cases beyond those of every CPU (the same names as FRT_REGSPY_CASE_NAMES in cpu_test.h). */
#define FRT_REGSPY_CASES \
		{ .name = "raw_block_end", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 2048, .slot_off = 4096 - 16 }, \
		{ .name = "raw_low_sp_block_end", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 16, .slot_off = 4096 - 16 }, \
		{ .name = "raw_high_sp", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 4096 - 16, .slot_off = 4096 - 16 }, \
		{ .name = "raw_past_block_end", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 2048, .slot_off = 4096 - 8 }, \
		{ .name = "raw_next_block", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 2048, .slot_off = 4096 }, \
		{ .name = "raw_below_sp", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 2048, .slot_off = 2048 - 16 }, \
		{ .name = "raw_sp_block_start", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 4096, .slot_off = 4096 }, \
		{ .name = "raw_tagged", .nr = gettime, .a1 = raw, .slot = 1, .sp_off = 2048, .slot_off = 2048, .tag = TAG },

#endif
