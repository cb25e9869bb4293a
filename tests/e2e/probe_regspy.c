/* SPDX-License-Identifier: MIT */
/* Probe: what a later syscall() interposer (spy_lib.c) sees of each call that passes through libfastraw's syscall(): every register and the stack as the caller left them; on arm64 also the stack-page rule of FASTRAW_SYSCALL=1 at its edges. */
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
#include "ksys.h"
#include "spy_lib.h"

/* Argument values no libc or kernel path would produce by itself. */
#define A4 0x1111L
#define A5 0x2222L
#define A6 0x3333L
#define STACK7 0x4444L
#define RAX 0x5a5a5a5a5a5a5a03L
#define X7 0x6666L
#define X8 0x5a5a5a5a5a5a5a08L
/* A top-byte tag (arm64's top-byte-ignore): the same address to the CPU, another to the kernel. */
#define TAG (0x5aUL << 56)

static e2e_spy_take_fn spy_take;

struct spy_case {
	const char *name;
	long nr, a1, a2; /* a2 is ignored when slot */
	int slot;        /* the third argument is a stack slot the fast path may serve */
	long sp_off, slot_off; /* arm64: where sp and the slot lie (callregs.h); 0: the defaults */
	unsigned long tag;     /* arm64: the slot's address tag */
};

/* What one call looked like on both sides, reported from a child through shared memory. */
struct outcome {
	long ret, err, calls, exact, kept;
};

/* fill, regs_exact, show and kept: the CPU's registers, tests/oracle/<cpu>/regspy_cpu.h. */
#include "regspy_cpu.h"

static void one_call(const struct spy_case *k, struct outcome *o)
{
	struct e2e_call c;
	struct e2e_spy_regs s;

	fill(&c, k);
	spy_take(&s);
	errno = 0;
	e2e_call_syscall(&c);
	o->ret = c.ret;
	o->err = errno;
	spy_take(&s);
	o->calls = s.calls;
	o->exact = s.calls == 1 && regs_exact(&c, &s);
	o->kept = kept(&c);
	if (s.calls == 1 && !o->exact)
		show(k->name, &c, &s);
}

/*
 * Each case in a child of its own that has made no syscall() call yet (the first call resolves
 * what libfastraw caches), twice (the second with everything cached), so that a signal cannot
 * hide the cases after it.
 */
static void run_case(const struct spy_case *k, struct outcome *shared)
{
	struct timespec here;
	/* A slot is a stack address: the kernel's answer for one, tagged as the slot is, is this one's. */
	long want = k->slot ? k_syscall2(k->nr, k->a1, (long)((unsigned long)&here | k->tag))
		    : k->nr == SYS_getppid ? getpid()
					   : k_syscall2(k->nr, k->a1, k->a2);
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
		printf("%s_signal=%d\n%s_calls=-1\n%s_exact=0\n%s_as_kernel=0\n%s_kept=0\n", k->name,
		       pid > 0 && WIFSIGNALED(st) ? WTERMSIG(st) : -1, k->name, k->name, k->name, k->name);
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
	printf("%s_kept=%d\n", k->name, (int)(shared[0].kept && shared[1].kept));
}

int main(void)
{
	long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *heap = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const long gettime = FRT_SYS_CLOCK_GETTIME, raw = CLOCK_MONOTONIC_RAW;

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
	/*
	 * arm64's rule (src/arch/aarch64/syscall_stub.S): RAW is served for p >= sp with p + 16 at
	 * most the end of the 4 KiB block holding sp - 16. The edges: the slot at sp, at the block's
	 * last 16 bytes (sp low and high in the block), 8 bytes past it, 16 below sp, at sp when sp
	 * starts a block (sp - 16 lies in the block below, which ends at sp), at sp tagged.
	 */
	const struct spy_case cases[] = {
		{ .name = "raw_stack", .nr = gettime, .a1 = raw, .slot = 1 },
		FRT_REGSPY_CASES
		{ .name = "raw_null", .nr = gettime, .a1 = raw, .slot = 0 },
		{ .name = "raw_unmapped", .nr = gettime, .a1 = raw, .a2 = (long)(unmapped + 64), .slot = 0 },
		{ .name = "raw_read_only", .nr = gettime, .a1 = raw, .a2 = (long)(ro + 64), .slot = 0 },
		{ .name = "raw_prot_none", .nr = gettime, .a1 = raw, .a2 = (long)(none + 64), .slot = 0 },
		{ .name = "raw_other_page", .nr = gettime, .a1 = raw, .a2 = (long)(heap + 64), .slot = 0 },
		{ .name = "monotonic", .nr = gettime, .a1 = CLOCK_MONOTONIC, .slot = 1 },
		{ .name = "getppid", .nr = SYS_getppid, .a1 = 0x7777, .a2 = 0x8888, .slot = 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], (struct outcome *)shared);
	return 0;
}
