/* SPDX-License-Identifier: MIT */
/* Probe: single-steps one CLOCK_MONOTONIC_RAW call in a child and counts the counter reads, fences and system calls it executes (x86-64 code: its registers, int3, its encodings). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/insn.h"
#include "probe.h"
#include "stepper.h"
#include "warm.h"

/* A pass-through after FR_SEQ_TRIES rounds plus the vDSO's own reading stays far below this. */
#define MAX_STEPS 200000L
/* Traced calls abandoned at their second counter read before one is traced to the end anyway
   (an abandoned call costs a few dozen steps). */
#define MAX_TRACES 256

/* Instructions executed, by kind; "lead" steps ran before the probe's own code was reached. */
struct counts {
	long steps, lead, rdtsc, rdtscp, lfence, syscall, vdso;
	int64_t ns; /* how long the trace took */
};

/* Where the traced call ends: the child reaches it right after clock_gettime returns. */
static __attribute__((noinline)) void traced_done(void)
{
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noreturn)) void child(int fd)
{
	struct step_outcome o = { -1, 0, { -1, -1 } };

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
		_exit(3);
	/* The first call initialises the library: that is not the call under test. */
	o.decided = step_warm_up(clock_gettime);
	raise(SIGSTOP);
	/* The tracer lets us run to here: stepping starts right at the call, with no libc code left. */
	__asm__ volatile("int3" ::: "memory");
	o.ret = clock_gettime(CLOCK_MONOTONIC_RAW, &o.ts);
	traced_done();
	_exit(write(fd, &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 4);
}

static int in_range(const struct step_range *r, uintptr_t a)
{
	return r->lo <= a && a < r->hi;
}

/* The executable mappings of this process: the child, forked from it, runs the same code there. */
static struct step_range exec_maps[32];
static int n_exec_maps;

static void find_exec_maps(void)
{
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && n_exec_maps < (int)(sizeof(exec_maps) / sizeof(exec_maps[0])) && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[0] == 'r' && perms[2] == 'x')
			exec_maps[n_exec_maps++] = (struct step_range){ lo, hi };
	}
	if (f)
		fclose(f);
}

/*
 * The first bytes of the instruction at rip (at least 1), or 0. The child is a fork of this
 * process and maps nothing new, so its code is ours at the same address: read in place, that
 * costs no system call per step (a slow step lets timer ticks into the seqcount windows).
 * Elsewhere one word is read from the child, from further back where it would reach past the
 * end of the mapping.
 */
static int peek_code(pid_t pid, uintptr_t rip, uint8_t *b)
{
	static const int back[] = { 0, 5, 7 };

	for (int i = 0; i < n_exec_maps; i++)
		if (in_range(&exec_maps[i], rip)) {
			size_t n = exec_maps[i].hi - rip < 8 ? exec_maps[i].hi - rip : 8;

			memcpy(b, (const void *)rip, n);
			return (int)n;
		}
	for (unsigned i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKTEXT, pid, (void *)(rip - (uintptr_t)back[i]), NULL);
		if (errno)
			continue;
		memcpy(b, (uint8_t *)&w + back[i], 8 - (size_t)back[i]);
		return 8 - back[i];
	}
	return 0;
}

/* Counts the instruction about to run (arch/x86_64/insn.h: the plain encodings only). */
static void classify(struct counts *c, const uint8_t *b, int n)
{
	switch (fr_x86_insn_at(b, n < 0 ? 0 : (size_t)n)) {
	case FR_X86_IS_RDTSC: c->rdtsc++; break;
	case FR_X86_IS_SYSCALL: c->syscall++; break;
	case FR_X86_IS_RDTSCP: c->rdtscp++; break;
	case FR_X86_IS_LFENCE: c->lfence++; break;
	case FR_X86_OTHER: break;
	}
}

static long reads(const struct counts *c)
{
	return c->rdtsc + c->rdtscp;
}

/* trace()'s answer for a call given up at its second counter read. */
static const char abandoned[] = "abandoned";

/*
 * Single-steps the child, stopped just after its int3, until it reaches traced_done. Steps
 * outside the probe's own text before the first one inside it are counted apart, as lead steps
 * (none: the int3 is in the probe's text; kept so that a stop elsewhere could never count libc's
 * code as the call's). From there on every instruction is the traced call's, or one of the few
 * around it in the probe's code. With abandon set, a call about to read the counter a second
 * time is given up (abandoned).
 */
static const char *trace(pid_t pid, int abandon, struct counts *c)
{
	struct step_range text, vdso = { 0, 0 };
	uintptr_t done = (uintptr_t)traced_done;
	int counting = 0, sig = 0, st;

	if (!step_find_map(done, NULL, &text))
		return "cannot find the probe's text in /proc/self/maps";
	step_find_map(0, "[vdso]", &vdso);
	for (;;) {
		struct user_regs_struct regs;
		uint8_t b[8];
		int n;

		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
			return "PTRACE_GETREGS failed";
		if (regs.rip == done)
			return NULL;
		counting |= in_range(&text, regs.rip);
		if (!counting) {
			c->lead++;
		} else {
			n = peek_code(pid, regs.rip, b);
			if (n == 0)
				return "PTRACE_PEEKTEXT failed";
			classify(c, b, n);
			c->vdso += in_range(&vdso, regs.rip);
			c->steps++;
			if (abandon && reads(c) > 1)
				return abandoned;
		}
		if (c->steps + c->lead >= MAX_STEPS)
			return "step limit reached";
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)sig) != 0)
			return "PTRACE_SINGLESTEP failed";
		if (waitpid(pid, &st, 0) != pid)
			return "waitpid failed";
		if (!WIFSTOPPED(st))
			return "the child ended while traced";
		/* Any signal but the step's own trap is the child's: deliver it. */
		sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
	}
}

/* One traced call in a new child: 0, 1 when its answer is wrong, 2 when tracing failed, 3 abandoned. */
static int trace_one(int abandon, struct counts *c, int *decided)
{
	struct timespec a, b;
	const char *why;
	int fd[2], st = 0;
	pid_t pid;

	if (pipe(fd) != 0) {
		printf("error=pipe: %s\n", strerror(errno));
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		printf("error=fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0)
		child(fd[1]);
	close(fd[1]);
	/* The child stops in raise(), then, let go, at its int3 (SIGTRAP, not passed on to it). */
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP ||
	    ptrace(PTRACE_CONT, pid, NULL, NULL) != 0 || waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    WSTOPSIG(st) != SIGTRAP) {
		/* Exit status 3: PTRACE_TRACEME was refused (seccomp, Yama). */
		printf("error=the child did not stop for tracing (wait status 0x%x)\n", st);
		step_kill(pid, fd[0]);
		return 2;
	}
	step_wait_for_tick();
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	why = trace(pid, abandon, c);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	if (why) {
		if (why != abandoned)
			printf("error=%s (errno %d, %ld steps)\n", why, errno, c->steps + c->lead);
		step_kill(pid, fd[0]);
		return why == abandoned ? 3 : 2;
	}
	c->ns = ts_ns(&b) - ts_ns(&a);
	return step_finish(pid, fd[0], &a, &b, decided);
}

/*
 * Single-stepping makes the call last far longer than it does untraced, so a timer tick can
 * update the kernel's data inside a seqcount window, and the call reads again (the library gives
 * up after FR_SEQ_TRIES rounds and passes the call through; the vDSO's own loop has no bound).
 * Those rounds are the tracer's doing, not the path's. So steps are made cheap (one CPU, code
 * read in place), each trace starts just after a tick, and a call about to read the counter a
 * second time is abandoned and a new one traced, up to MAX_TRACES times, however slow each step
 * is: no deadline decides. Only if none got through with one reading is one call traced to the
 * end, rounds and all, and reported. Every call traced to the end has its answer checked.
 */
int main(void)
{
	struct counts c;
	int traces, ret, decided = -2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	step_stay_on_this_cpu();
	find_exec_maps();
	for (traces = 1;; traces++) {
		memset(&c, 0, sizeof(c));
		ret = trace_one(traces <= MAX_TRACES, &c, &decided);
		if (ret != 3)
			break;
	}
	if (ret)
		return ret;
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	printf("steps=%ld\nrdtsc=%ld\nrdtscp=%ld\nlfence=%ld\nsyscall=%ld\nvdso_steps=%ld\n", c.steps, c.rdtsc,
	       c.rdtscp, c.lfence, c.syscall, c.vdso);
	printf("lead_steps=%ld\ntraces=%d\nstep_ns=%lld\ndecided=%d\n", c.lead, traces,
	       (long long)(c.ns / (c.steps + c.lead + 1)), decided);
	return 0;
}
