/* SPDX-License-Identifier: MIT */
/* Single-steps a traced child through one call (PTRACE_SINGLESTEP, PTRACE_GETREGSET, PTRACE_PEEKTEXT) and counts its instructions by kind. */
#define _GNU_SOURCE
#include "stepper.h"

#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

/* Steps from the child's stop to the call, at most. */
#define MAX_LEAD 100000L
/* How long the tracer waits, at most, for a timer tick before it counts. */
#define TICK_WAIT_NS 50000000LL

const char step_abandoned[] = "abandoned";

/* The mapping that holds addr (name NULL), or the one whose name ends in name. */
int step_find_map(uintptr_t addr, const char *name, struct step_range *r)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		size_t len;

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		len = strlen(line);
		if (name ? (len > strlen(name) && strcmp(line + len - strlen(name), name) == 0) : (lo <= addr && addr < hi)) {
			r->lo = lo;
			r->hi = hi;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int in_range(const struct step_range *r, uintptr_t a)
{
	return r->lo <= a && a < r->hi;
}

static int get_regs(pid_t pid, step_regs *regs)
{
	struct iovec io = { regs, sizeof(*regs) };

	return (int)ptrace(PTRACE_GETREGSET, pid, (void *)(long)NT_PRSTATUS, &io);
}

/*
 * The bytes at pc in the child (PTRACE_PEEKTEXT: one word), at least 1, or 0. A word that would
 * reach past the end of the mapping is read from further back.
 */
static int peek_code(pid_t pid, uintptr_t pc, uint8_t *b)
{
	static const int back[] = { 0, 4, 7 };

	for (unsigned i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKTEXT, pid, (void *)(pc - (uintptr_t)back[i]), NULL);
		if (errno)
			continue;
		memcpy(b, (uint8_t *)&w + back[i], sizeof(w) - (size_t)back[i]);
		return (int)sizeof(w) - back[i];
	}
	return 0;
}

/*
 * One instruction of the child; *sig is the signal to deliver with it, then the one it stopped
 * with. NULL, or why not. A CPU whose kernel has no PTRACE_SINGLESTEP (32-bit ARM) steps in
 * software (STEP_SOFTWARE, its steps_cpu.h), a straight run of instructions at a time: their
 * addresses but the first go to ran (*nran of them), to be counted as steps of their own.
 */
static const char *step(pid_t pid, int *sig, uintptr_t *ran, int *nran)
{
#ifdef STEP_SOFTWARE
	return step_soft(pid, sig, ran, nran);
#else
	int st;

	(void)ran;
	*nran = 0;
	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)*sig) != 0 || waitpid(pid, &st, 0) != pid ||
	    !WIFSTOPPED(st))
		return "PTRACE_SINGLESTEP failed";
	/* Any signal but the step's own trap is the child's: deliver it with the next step. */
	*sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
	return NULL;
#endif
}

void step_wait_for_tick(void)
{
	struct timespec c0, c, t0, t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC_COARSE, &c);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (ts_ns(&c) == ts_ns(&c0) && ts_ns(&t) - ts_ns(&t0) < TICK_WAIT_NS);
}

/*
 * Reads the instruction at pc and counts it as the next step of t: NULL, step_abandoned at its
 * second counter read, or why it cannot be counted.
 */
static const char *record(pid_t pid, uintptr_t pc, const struct step_range *vdso, struct step_trace *t)
{
	uint8_t b[8];
	int n = peek_code(pid, pc, b);

	if (t->steps >= STEP_MAX)
		return "step limit reached";
	if (n == 0)
		return "PTRACE_PEEKTEXT failed";
	memcpy(t->words[t->steps], b, STEP_SHOW_BYTES);
	t->kinds[step_classify(b, (size_t)n)]++;
	t->in_vdso += in_range(vdso, pc);
	t->steps++;
	return t->kinds[STEP_READ] + t->kinds[STEP_READ_ORDERED] > 1 ? step_abandoned : NULL;
}

const char *step_call(pid_t pid, uintptr_t entry, const struct step_range *text, struct step_trace *t)
{
	static uintptr_t ran[STEP_RUN_MAX];
	struct step_range vdso = { 0, 0 };
	uintptr_t call = 0;
	const char *why;
	step_regs regs;
	long lead = 0;
	int sig = 0, nran = 0;
	int64_t t0;

	step_find_map(0, "[vdso]", &vdso);
#ifdef STEP_FN_PC
	entry = STEP_FN_PC(entry);
#endif
	for (;;) {
		if (get_regs(pid, &regs) != 0)
			return "PTRACE_GETREGSET failed";
		if (step_pc(&regs) == entry)
			break;
		call = step_pc(&regs);
		if (++lead > MAX_LEAD)
			return "the call was not reached";
		if ((why = step(pid, &sig, ran, &nran)))
			return why;
	}
	/* The call instruction: a branch, so never inside a run (nran is 0 after it). */
	if (!in_range(text, call) || nran != 0)
		return "the step before the entry is not in the caller's text";
	step_wait_for_tick();
	t0 = e2e_kernel_raw_ns();
	why = record(pid, call, &vdso, t);
	while (!why && !in_range(text, step_pc(&regs))) {
		why = record(pid, step_pc(&regs), &vdso, t);
		if (!why)
			why = step(pid, &sig, ran, &nran);
		for (int i = 0; !why && i < nran; i++)
			why = record(pid, ran[i], &vdso, t);
		if (!why && get_regs(pid, &regs) != 0)
			why = "PTRACE_GETREGSET failed";
	}
	t->ns = e2e_kernel_raw_ns() - t0;
	return why;
}

void step_print(const struct step_trace *t)
{
	static const char *const keys[STEP_KINDS] = STEP_KEYS, *const names[STEP_KINDS] = STEP_NAMES;

	printf("steps=%ld\n", t->steps);
	for (int k = STEP_OTHER + 1; k < STEP_KINDS; k++)
		printf("%s=%ld\n", keys[k], t->kinds[k]);
	printf("vdso_steps=%ld\n", t->in_vdso);
	printf("kinds: reads=%s ordered_reads=%s fences=%s syscalls=%s\n", names[STEP_READ],
	       names[STEP_READ_ORDERED], names[STEP_FENCE], names[STEP_SYSCALL]);
	/* Word 0 is the call instruction. */
	printf("words=");
	for (long i = 0; i < t->steps; i++) {
		for (int j = 0; j < STEP_SHOW_BYTES; j++)
			printf("%02x", t->words[i][STEP_SHOW_WORD ? STEP_SHOW_BYTES - 1 - j : j]);
		putchar(i + 1 < t->steps ? ' ' : '\n');
	}
}

void step_stay_on_this_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void step_kill(pid_t pid, int fd)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd);
}

int step_finish(pid_t pid, int fd, const struct timespec *a, const struct timespec *b, int *decided)
{
	struct step_outcome o;
	int st = 0;

	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0 || read(fd, &o, sizeof(o)) != (ssize_t)sizeof(o)) {
		printf("error=the child did not finish (wait status 0x%x)\n", st);
		close(fd);
		return 2;
	}
	close(fd);
	*decided = o.decided;
	/* A sane RAW value: the call ran between the two kernel reads. */
	if (o.ret != 0 || o.ts.tv_nsec < 0 || o.ts.tv_nsec >= 1000000000L || ts_ns(&o.ts) < ts_ns(a) ||
	    ts_ns(&o.ts) > ts_ns(b)) {
		printf("error=the traced call returned %d, %lld.%09ld, not between the kernel's %lld.%09ld and %lld.%09ld\n",
		       o.ret, (long long)o.ts.tv_sec, o.ts.tv_nsec, (long long)a->tv_sec, a->tv_nsec, (long long)b->tv_sec,
		       b->tv_nsec);
		return 1;
	}
	return 0;
}
