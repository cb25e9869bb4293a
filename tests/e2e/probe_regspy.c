/* SPDX-License-Identifier: MIT */
/* Probe: what a later syscall() interposer (spy_lib.c) sees of each call that passes through libfastraw's syscall(): every register and the stack as the caller left them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "callregs.h"
#include "spy_lib.h"

/* Argument values no libc or kernel path would produce by itself. */
#define A4 0x1111L
#define A5 0x2222L
#define A6 0x3333L
#define STACK7 0x4444L
#define RAX 0x5a5a5a5a5a5a5a03L

static e2e_spy_take_fn spy_take;

/* The system call instruction itself: what the kernel answers, for comparison. */
static long k_syscall3(long nr, long a1, long a2)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2) : "rcx", "r11", "memory");
	return ret;
}

struct spy_case {
	const char *name;
	long nr, a1, a2; /* a2 is ignored when slot */
	int slot;        /* the third argument is a stack slot the fast path may serve */
};

/* What one call looked like on both sides, reported from a child through shared memory. */
struct outcome {
	long ret, err, calls, exact;
};

static int regs_exact(const struct e2e_call *c, const struct e2e_spy_regs *s)
{
	return s->rdi == c->a[0] && s->rsi == c->a[1] && s->rdx == c->p && s->rcx == c->a[3] &&
	       s->r8 == c->a[4] && s->r9 == c->a[5] && s->rax == c->rax && s->stack7 == c->stack7 &&
	       s->rsp == c->rsp - 8;
}

static void one_call(const struct spy_case *k, struct outcome *o)
{
	struct e2e_call c = { .a = { k->nr, k->a1, k->a2, A4, A5, A6 }, .stack7 = STACK7, .rax = RAX, .use_slot = k->slot };
	struct e2e_spy_regs s;

	spy_take(&s);
	errno = 0;
	e2e_call_syscall(&c);
	o->ret = c.ret;
	o->err = errno;
	spy_take(&s);
	o->calls = s.calls;
	o->exact = s.calls == 1 && regs_exact(&c, &s);
	if (s.calls == 1 && !o->exact)
		printf("%s: sent rdi=%#lx rsi=%#lx rdx=%#lx rcx=%#lx r8=%#lx r9=%#lx rax=%#lx 7th=%#lx rsp=%#lx;"
		       " spy saw rdi=%#lx rsi=%#lx rdx=%#lx rcx=%#lx r8=%#lx r9=%#lx rax=%#lx 7th=%#lx rsp=%#lx\n",
		       k->name, c.a[0], c.a[1], c.p, c.a[3], c.a[4], c.a[5], c.rax, c.stack7, c.rsp - 8, s.rdi,
		       s.rsi, s.rdx, s.rcx, s.r8, s.r9, s.rax, s.stack7, s.rsp);
}

/*
 * Each case in a child of its own that has made no syscall() call yet (the first call resolves
 * what libfastraw caches), twice (the second with everything cached), so that a signal cannot
 * hide the cases after it.
 */
static void run_case(const struct spy_case *k, struct outcome *shared)
{
	long want = k->slot ? 0 : k->nr == SYS_getppid ? getpid() : k_syscall3(k->nr, k->a1, k->a2);
	int st, ok = 1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		one_call(k, &shared[0]);
		one_call(k, &shared[1]);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		printf("%s_signal=%d\n%s_calls=-1\n%s_exact=0\n%s_as_kernel=0\n", k->name,
		       pid > 0 && WIFSIGNALED(st) ? WTERMSIG(st) : -1, k->name, k->name, k->name);
		return;
	}
	for (int i = 0; i < 2; i++) {
		const struct outcome *o = &shared[i];

		ok &= want < 0 ? o->ret == -1 && o->err == -want : o->ret == want;
	}
	/* Both calls alike: how many reached the spy, whether exactly, whether answered as the kernel. */
	printf("%s_calls=%ld\n", k->name, shared[0].calls == shared[1].calls ? shared[0].calls : -2);
	printf("%s_exact=%d\n", k->name, (int)(shared[0].exact && shared[1].exact));
	printf("%s_as_kernel=%d\n", k->name, ok);
}

int main(void)
{
	long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *heap = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const long gettime = SYS_clock_gettime, raw = CLOCK_MONOTONIC_RAW;

	if (shared == MAP_FAILED || unmapped == MAP_FAILED || ro == MAP_FAILED || none == MAP_FAILED ||
	    heap == MAP_FAILED || munmap(unmapped, 4096) != 0) {
		perror("mmap");
		return 2;
	}
	spy_take = (e2e_spy_take_fn)dlsym(RTLD_DEFAULT, "e2e_spy_take");
	if (!spy_take) {
		printf("spy=absent\n");
		return 1;
	}
	const struct spy_case cases[] = {
		{ "raw_stack", gettime, raw, 0, 1 },
		{ "raw_null", gettime, raw, 0, 0 },
		{ "raw_unmapped", gettime, raw, (long)(unmapped + 64), 0 },
		{ "raw_read_only", gettime, raw, (long)(ro + 64), 0 },
		{ "raw_prot_none", gettime, raw, (long)(none + 64), 0 },
		{ "raw_other_page", gettime, raw, (long)(heap + 64), 0 },
		{ "monotonic", gettime, CLOCK_MONOTONIC, 0, 1 },
		{ "getppid", SYS_getppid, 0x7777, 0x8888, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], (struct outcome *)shared);
	return 0;
}
