/* SPDX-License-Identifier: MIT */
/* Probe: single-steps one warm CLOCK_MONOTONIC_RAW call, of the vDSO's clock_gettime or of the one the program binds, in a child, and prints how many instructions it executed and of which kinds. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "elfwalk.h"
#include "fastraw.h"
#include "probe.h"
#include "stepper.h"
#include "warm.h"

/* Calls traced to their return; the fewest steps among them are reported. */
#define GOOD_TRACES 3
/* Calls traced at most: a call given up at its second counter read (stepper.h) is not counted. */
#define MAX_TRACES 1500

/* The call under test, set before the fork: the child calls it, the tracer waits for its entry. */
static e2e_clock_fn target;
/* The probe's own text, where traced_call makes the call and the callee returns to. */
static struct step_range text;

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

static __attribute__((noreturn)) void child(int fd)
{
	struct step_outcome o = { -1, 0, { -1, -1 } };

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
		_exit(3);
	o.decided = step_warm_up(target);
	raise(SIGSTOP);
	o.ret = traced_call(&o.ts);
	_exit(write(fd, &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 4);
}

/* One traced call in a new child: 0, 1 when its answer is wrong, 2 when tracing failed, 3 abandoned. */
static int trace_one(struct step_trace *t, int *decided)
{
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
		step_kill(pid, fd[0]);
		return 2;
	}
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	why = step_call(pid, (uintptr_t)target, &text, t);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	if (why) {
		if (why != step_abandoned)
			printf("error=%s (errno %d, %ld steps)\n", why, errno, t->steps);
		step_kill(pid, fd[0]);
		return why == step_abandoned ? 3 : 2;
	}
	return step_finish(pid, fd[0], &a, &b, decided);
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

/*
 * Usage: e2e_probe_steps vdso|bound. "vdso" traces the vDSO's own clock_gettime, called through a
 * pointer; "bound" the clock_gettime the program binds (libfastraw's under LD_PRELOAD), called
 * the same way, so that both counts hold the same call and return. Calls that read the counter
 * twice are given up (stepper.h); of GOOD_TRACES calls that read it once the fewest steps are
 * reported.
 */
int main(int argc, char **argv)
{
	static struct step_trace best, cur;
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
	if (!step_find_map((uintptr_t)traced_call, NULL, &text)) {
		printf("error=cannot find the probe's text in /proc/self/maps\n");
		return 2;
	}
	step_stay_on_this_cpu();
	while (good < GOOD_TRACES && traces < MAX_TRACES) {
		memset(&cur, 0, sizeof(cur));
		traces++;
		ret = trace_one(&cur, &decided);
		if (ret == 3)
			continue;
		if (ret)
			return ret;
		if (good++ == 0 || cur.steps < best.steps)
			best = cur;
	}
	if (good == 0) {
		/* Steps too slow for any round to fit between two timer ticks: nothing to count here. */
		printf("skip=no traced call read the counter only once in %d tries: timer ticks land in every seqcount window at %lld ns a step\n",
		       traces, (long long)(cur.ns / (cur.steps ? cur.steps : 1)));
		return 2;
	}
	{
		Dl_info di;

		printf("served=%s\n", dladdr((void *)target, &di) && di.dli_fname ? di.dli_fname : "?");
	}
	step_print(&best);
	printf("traces=%d\ngood=%d\nstep_ns=%lld\ndecided=%d\n", traces, good,
	       (long long)(best.ns / (best.steps ? best.steps : 1)), decided);
	return 0;
}
