/* SPDX-License-Identifier: MIT */
/* The register-spy probe's x86-64 half: how a call is filled, what the spy must have seen, how both are shown (included once, by tests/e2e/probe_regspy.c). */
#ifndef FRT_REGSPY_CPU_H
#define FRT_REGSPY_CPU_H

static void fill(struct e2e_call *c, const struct spy_case *k)
{
	*c = (struct e2e_call){ .a = { k->nr, k->a1, k->a2, A4, A5, A6 }, .stack7 = STACK7, .rax = RAX,
				.use_slot = k->slot };
}

static int regs_exact(const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	return s->rdi == c->a[0] && s->rsi == c->a[1] && s->rdx == c->p && s->rcx == c->a[3] &&
	       s->r8 == c->a[4] && s->r9 == c->a[5] && s->rax == c->rax && s->stack7 == c->stack7 &&
	       s->rsp == c->rsp - 8;
}

static void show(const char *name, const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	printf("%s: sent rdi=%#lx rsi=%#lx rdx=%#lx rcx=%#lx r8=%#lx r9=%#lx rax=%#lx 7th=%#lx rsp=%#lx;"
	       " spy saw rdi=%#lx rsi=%#lx rdx=%#lx rcx=%#lx r8=%#lx r9=%#lx rax=%#lx 7th=%#lx rsp=%#lx\n",
	       name, c->a[0], c->a[1], c->p, c->a[3], c->a[4], c->a[5], c->rax, c->stack7, c->rsp - 8, s->rdi,
	       s->rsi, s->rdx, s->rcx, s->r8, s->r9, s->rax, s->stack7, s->rsp);
}

/* The callee-saved registers: not watched on x86-64. */
static int kept(const struct e2e_call *c)
{
	(void)c;
	return 1;
}

/* No cases beyond those of every CPU. */
#define FRT_REGSPY_CASES

#endif
