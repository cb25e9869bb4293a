/* SPDX-License-Identifier: MIT */
/* The register-spy probe's 32-bit ARM half: how a call is filled, what the spy must have seen, how both are shown (included once, by tests/e2e/probe_regspy.c). */
#ifndef FRT_REGSPY_CPU_H
#define FRT_REGSPY_CPU_H

static void fill(struct e2e_call *c, const struct spy_case *k)
{
	*c = (struct e2e_call){ .a = { k->nr, k->a1, k->a2, A4, A5, A6, STACK7 }, .use_slot = k->slot,
				.sp_off = k->sp_off, .slot_off = k->slot_off };
}

/* bl pushes nothing: the spy sees sp as it was at the call, the stack arguments there, and lr the address after the bl. */
static int regs_exact(const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	return s->r[0] == c->a[0] && s->r[1] == c->a[1] && s->r[2] == c->p && s->r[3] == c->a[3] &&
	       s->stack[0] == c->a[4] && s->stack[1] == c->a[5] && s->stack[2] == c->a[6] && s->sp == c->sp &&
	       s->lr == c->lr;
}

static void show(const char *name, const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	printf("%s: sent r0-r3=%#lx %#lx %#lx %#lx stack=%#lx %#lx %#lx sp=%#lx lr=%#lx;"
	       " spy saw %#lx %#lx %#lx %#lx stack=%#lx %#lx %#lx sp=%#lx lr=%#lx\n",
	       name, c->a[0], c->a[1], c->p, c->a[3], c->a[4], c->a[5], c->a[6], c->sp, c->lr, s->r[0], s->r[1],
	       s->r[2], s->r[3], s->stack[0], s->stack[1], s->stack[2], s->sp, s->lr);
}

/* r4-r10, r11 and sp as the caller left them, whichever way the call went. */
static int kept(const struct e2e_call *c)
{
	return c->kept == 1;
}

/*
 * The cases beyond those of every CPU (the same names as FRT_REGSPY_CASE_NAMES in cpu_test.h):
 * the stack-block rule's edges (src/arch/arm/syscall_stub.S: p >= sp, p + 16 at most the end of
 * the 4 KiB block holding sp - 8). No address tags on 32-bit ARM. The slot below sp lies 64
 * bytes below it, not 16: glibc's arm syscall() saves r4-r7 in the 16 bytes below the caller's
 * sp, where the kernel's answer would land and come back as the caller's r4-r7.
 */
#define FRT_EDGE(n, sp, at) { .name = n, .nr = gettime, .a1 = raw, .slot = 1, .sp_off = sp, .slot_off = at },
#define FRT_REGSPY_CASES                                                                           \
	FRT_EDGE("raw_block_end", 2048, 4096 - 16) FRT_EDGE("raw_low_sp_block_end", 16, 4096 - 16)       \
	FRT_EDGE("raw_high_sp", 4096 - 16, 4096 - 16) FRT_EDGE("raw_past_block_end", 2048, 4096 - 8)     \
	FRT_EDGE("raw_next_block", 2048, 4096) FRT_EDGE("raw_below_sp", 2048, 2048 - 64)                 \
	FRT_EDGE("raw_sp_block_start", 4096, 4096)

#endif
