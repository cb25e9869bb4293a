/* SPDX-License-Identifier: MIT */
/* Probe: a coroutine abandoned by siglongjmp out of an interposer after libfastraw, its stack then unmapped; later calls from another coroutine still work. */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "probe.h"

extern int loop_lib_raise;

#define STACK (64 * 1024)

static sigjmp_buf back;
static ucontext_t main_ctx, co_ctx;
static int answered;

static void on_usr1(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

/* MONOTONIC through the interposer, which raises SIGUSR1 inside the call when told to. */
static void body(void)
{
	struct timespec ts = { 0, 0 };

	loop_lib_raise = 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	answered = 1;
}

/* Later calls from a second coroutine, on a stack below the first one's. */
static void body_after(void)
{
	struct timespec ts = { 0, 0 };

	answered = 0;
	for (int i = 0; i < 3; i++)
		answered += clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && ts.tv_sec + ts.tv_nsec > 0;
	answered += clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_nsec == 123456789;
}

static void *stack_new(void)
{
	void *p = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int run_on(void *stack, void (*fn)(void))
{
	if (getcontext(&co_ctx) != 0)
		return -1;
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = STACK;
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, fn, 0);
	return swapcontext(&main_ctx, &co_ctx);
}

int main(void)
{
	void *first = stack_new(), *second;

	signal(SIGUSR1, on_usr1);
	if (!first)
		return 2;
	/* The first coroutine never finishes: the handler jumps out of its call, back onto main's stack. */
	if (!sigsetjmp(back, 1))
		run_on(first, body);
	printf("abandoned=%d\n", !answered);
	/* Mapped while the first is still there, so below it (and not on its pages). */
	second = stack_new();
	if (!second || munmap(first, STACK) != 0)
		return 3;
	run_on(second, body_after);
	printf("later_calls=%d\n", answered);
	return 0;
}
