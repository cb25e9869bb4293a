/* SPDX-License-Identifier: MIT */
/* Probe: single-steps one warm CLOCK_MONOTONIC_RAW call, of the vDSO's clock_gettime or of the one the program binds, in a child, and prints how many instructions it executed and of which kinds. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "elfwalk.h"
#include "fastraw.h"
#include "probe.h"
#include "steps_insn.h"

/* Calls before the traced one: the first initialises the library, the rest warm the caches. */
#define WARMUP 8
/* Calls at most, in the child, until the library says it has decided (fastraw_info answers). */
#define WARMUP_MAX 100000
/* Steps from the child's stop to the call, and from the call to its return, at most. */
#define MAX_LEAD 100000L
#define MAX_STEPS 100000L
/* Instruction words kept for the "words=" line; a longer call is counted, not shown. */
#define MAX_WORDS 512
/* Calls traced to their return with one counter read; the fewest steps among them are reported. */
#define GOOD_TRACES 3
/* How long the tracer waits, at most, for a timer tick before it counts. */
#define TICK_WAIT_NS 50000000LL
/* Calls abandoned (a second counter read: the seqcount moved under the slow steps) before one is
   traced to the end anyway. */
#define MAX_TRACES 300

/* What the traced call returned, sent by the child once it runs untraced again. */
struct outcome {
	int ret;
	int decided; /* 1: fastraw_info answered before the traced call; -1: no fastraw_info */
	struct timespec ts;
};

/* One traced call: steps from the call instruction to the return, by kind, and the words seen. */
struct trace {
	long steps, kinds[STEP_KINDS], in_vdso;
	int64_t ns; /* how long the counted steps took */
	uint8_t words[MAX_WORDS][STEP_SHOW_BYTES];
};

struct range {
	uintptr_t lo, hi;
};

/* The call under test, set before the fork: the child calls it, the tracer waits for its entry. */
static e2e_clock_fn target;

/*
 * The call site, kept out of line so that the call is one call instruction to target and the
 * return lands back here; the empty asm after it keeps the compiler from making it a tail call.
 */
static __attribute__((noinline)) int traced_call(struct timespec *ts)
{
	int r = target(CLOCK_MONOTONIC_RAW, ts);

	__asm__ volatile("" : "+r"(r)::"memory");
	return r;
}

/* Warm-up as a preloaded program sees it: until fastraw_info answers (a decision is published), then WARMUP calls. */
static int warm_up(void)
{
	int (*info)(struct fastraw_info *) = (int (*)(struct fastraw_info *))dlsym(RTLD_DEFAULT, "fastraw_info");
	struct timespec ts;
	int decided = info ? 0 : -1;

	for (int i = 0; i < WARMUP_MAX && decided == 0; i++) {
		struct fastraw_info fi = { .size = sizeof(fi) };

		target(CLOCK_MONOTONIC_RAW, &ts);
		decided = info(&fi) == 0;
	}
	for (int i = 0; i < WARMUP; i++)
		target(CLOCK_MONOTONIC_RAW, &ts);
	return decided;
}

static __attribute__((noreturn)) void child(int fd)
{
	struct outcome o = { -1, 0, { -1, -1 } };

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
		_exit(3);
	o.decided = warm_up();
	raise(SIGSTOP);
	o.ret = traced_call(&o.ts);
	_exit(write(fd, &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 4);
}

/* The mapping that holds addr (name NULL), or the one whose name ends in name. */
static int find_map(uintptr_t addr, const char *name, struct range *r)
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

static int in_range(const struct range *r, uintptr_t a)
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

static const char abandoned[] = "abandoned";

static int step(pid_t pid, int *sig)
{
	int st;

	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)*sig) != 0 || waitpid(pid, &st, 0) != pid ||
	    !WIFSTOPPED(st))
		return -1;
	/* Any signal but the step's own trap is the child's: deliver it with the next step. */
	*sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
	return 0;
}

/*
 * Returns just after the kernel's timekeeping update (CLOCK_MONOTONIC_COARSE moves only then),
 * or after TICK_WAIT_NS without one: counting then starts with a whole tick before the next
 * update, the best chance for the call's seqcount window to see none. Only a head start: no
 * count depends on it.
 */
static void wait_for_tick(void)
{
	struct timespec c0, c, t0, t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &c0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC_COARSE, &c);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (ts_ns(&c) == ts_ns(&c0) && ts_ns(&t) - ts_ns(&t0) < TICK_WAIT_NS);
}

/* Reads the instruction at pc and counts it as the next step of t; 0, or -1 when it cannot be read. */
static int record(pid_t pid, uintptr_t pc, const struct range *vdso, struct trace *t)
{
	uint8_t b[8];
	int n = peek_code(pid, pc, b);

	if (n == 0)
		return -1;
	t->kinds[step_classify(b, (size_t)n)]++;
	t->in_vdso += in_range(vdso, pc);
	if (t->steps < MAX_WORDS)
		memcpy(t->words[t->steps], b, STEP_SHOW_BYTES);
	t->steps++;
	return 0;
}

/*
 * Steps the child, stopped in raise(), to the entry of target (not counted), waits there for a
 * timer tick, then counts from the call instruction (the step before the entry) until control
 * is back in the probe's own text: the call and everything target executes, its return
 * included. With abandon set, a call about to read the counter a second time is given up.
 */
static const char *trace(pid_t pid, int abandon, struct trace *t)
{
	struct range text, vdso = { 0, 0 };
	uintptr_t entry = (uintptr_t)target, call = 0;
	step_regs regs;
	long lead = 0;
	int sig = 0;
	int64_t t0;

	if (!find_map((uintptr_t)traced_call, NULL, &text))
		return "cannot find the probe's text in /proc/self/maps";
	find_map(0, "[vdso]", &vdso);
	for (;;) {
		if (get_regs(pid, &regs) != 0)
			return "PTRACE_GETREGSET failed";
		if (step_pc(&regs) == entry)
			break;
		call = step_pc(&regs);
		if (++lead > MAX_LEAD)
			return "the call was not reached";
		if (step(pid, &sig) != 0)
			return "PTRACE_SINGLESTEP failed before the call";
	}
	if (!in_range(&text, call))
		return "the step before the entry is not in the probe's text";
	wait_for_tick();
	t0 = e2e_kernel_raw_ns();
	if (record(pid, call, &vdso, t) != 0)
		return "PTRACE_PEEKTEXT failed";
	while (!in_range(&text, step_pc(&regs))) {
		if (record(pid, step_pc(&regs), &vdso, t) != 0)
			return "PTRACE_PEEKTEXT failed";
		if (abandon && t->kinds[STEP_READ] + t->kinds[STEP_READ_ORDERED] > 1)
			return abandoned;
		if (t->steps >= MAX_STEPS)
			return "step limit reached";
		if (step(pid, &sig) != 0 || get_regs(pid, &regs) != 0)
			return "PTRACE_SINGLESTEP failed";
	}
	t->ns = e2e_kernel_raw_ns() - t0;
	return NULL;
}

/* One traced call in a new child: 0, 1 when its answer is wrong, 2 when tracing failed, 3 abandoned. */
static int trace_one(int abandon, struct trace *t, int *decided)
{
	struct outcome o;
	struct timespec a, b;
	const char *why;
	int fd[2], st = 0;
	pid_t pid;

	if (pipe(fd) != 0 || (pid = fork()) < 0) {
		printf("error=pipe or fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0)
		child(fd[1]);
	close(fd[1]);
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
		/* Exit status 3: PTRACE_TRACEME was refused (seccomp, Yama, a sandbox). */
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			printf("skip=ptrace is not allowed here (PTRACE_TRACEME refused)\n");
		else
			printf("error=the child did not stop for tracing (wait status 0x%x)\n", st);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		close(fd[0]);
		return 2;
	}
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	why = trace(pid, abandon, t);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	if (why) {
		if (why != abandoned)
			printf("error=%s (errno %d, %ld steps)\n", why, errno, t->steps);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		close(fd[0]);
		return why == abandoned ? 3 : 2;
	}
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0 || read(fd[0], &o, sizeof(o)) != (ssize_t)sizeof(o)) {
		printf("error=the child did not finish (wait status 0x%x)\n", st);
		close(fd[0]);
		return 2;
	}
	close(fd[0]);
	*decided = o.decided;
	/* A sane RAW value: the call ran between the two kernel reads. */
	if (o.ret != 0 || o.ts.tv_nsec < 0 || o.ts.tv_nsec >= 1000000000L || ts_ns(&o.ts) < ts_ns(&a) ||
	    ts_ns(&o.ts) > ts_ns(&b)) {
		printf("error=the traced call returned %d, %lld.%09ld, not between the kernel's %lld.%09ld and %lld.%09ld\n",
		       o.ret, (long long)o.ts.tv_sec, o.ts.tv_nsec, (long long)a.tv_sec, a.tv_nsec, (long long)b.tv_sec,
		       b.tv_nsec);
		return 1;
	}
	return 0;
}

/* The vDSO's clock_gettime, from the image the kernel mapped (the auxiliary vector it gave, not getauxval). */
static e2e_clock_fn vdso_clock_gettime(void)
{
	struct elfwalk w;
	const char *why;
	unsigned long base = e2e_kernel_ehdr();
	void *p = NULL;

	if (!base || elfwalk_open((const void *)base, &w, &why) != 0)
		return NULL;
	for (int gnu = 1; gnu >= 0 && !p; gnu--)
		p = elfwalk_sym(&w, gnu, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION);
	return (e2e_clock_fn)p;
}

/* Tracer and child on one CPU: each step is a switch between two tasks, never a wake-up of another CPU. */
static void stay_on_this_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void print_trace(const struct trace *t)
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
	for (long i = 0; i < t->steps && i < MAX_WORDS; i++) {
		for (int j = 0; j < STEP_SHOW_BYTES; j++)
#if defined(__x86_64__)
			printf("%02x", t->words[i][j]);
#else
			/* Little-endian words, shown as the manuals write them. */
			printf("%02x", t->words[i][STEP_SHOW_BYTES - 1 - j]);
#endif
		putchar(i + 1 < t->steps && i + 1 < MAX_WORDS ? ' ' : '\n');
	}
}

/*
 * Usage: e2e_probe_steps vdso|bound. "vdso" traces the vDSO's own clock_gettime, called through a
 * pointer; "bound" the clock_gettime the program binds (libfastraw's under LD_PRELOAD), called
 * the same way, so that both counts hold the same call and return. Single steps let timer ticks
 * into the seqcount windows: a call that reads the counter twice is abandoned and another
 * traced; of GOOD_TRACES calls with one reading the fewest steps are reported (a retry only adds).
 */
int main(int argc, char **argv)
{
	static struct trace best, cur;
	int good = 0, traces = 0, ret = 0, decided = -2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2 || (strcmp(argv[1], "vdso") != 0 && strcmp(argv[1], "bound") != 0)) {
		fprintf(stderr, "usage: %s vdso|bound\n", argv[0]);
		return 2;
	}
	target = strcmp(argv[1], "vdso") == 0 ? vdso_clock_gettime() : clock_gettime;
	if (!target) {
		printf("skip=no vDSO clock_gettime (%s@%s) in this process\n", FR_ARCH_VDSO_CLOCK_GETTIME,
		       FR_ARCH_VDSO_VERSION);
		return 0;
	}
	stay_on_this_cpu();
	while (good < GOOD_TRACES) {
		memset(&cur, 0, sizeof(cur));
		traces++;
		ret = trace_one(traces <= MAX_TRACES, &cur, &decided);
		if (ret == 3)
			continue;
		if (ret)
			break;
		if (good++ == 0 || cur.steps < best.steps)
			best = cur;
		if (traces > MAX_TRACES)
			break;
	}
	if (ret && good == 0)
		return ret;
	{
		Dl_info di;

		printf("served=%s\n", dladdr((void *)target, &di) && di.dli_fname ? di.dli_fname : "?");
	}
	print_trace(&best);
	printf("traces=%d\ngood=%d\nstep_ns=%lld\ndecided=%d\n", traces, good,
	       (long long)(best.ns / (best.steps ? best.steps : 1)), decided);
	return ret;
}
