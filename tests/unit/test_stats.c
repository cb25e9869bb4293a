/* SPDX-License-Identifier: MIT */
/* Unit tests of FASTRAW_STATS counting (threads, fork, vfork, signals) and of the prefix of the library's lines. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkprobe.h"
#include "run_suite.h"
#include "report/stats.h"
#include "elf/dynsym.h"

/* More than the library has slots: the last threads count in the shared, atomic one. */
#define THREADS 600
#define PER_THREAD 1000
#define BATCH 8

static int fake_raw(struct timespec *ts)
{
	ts->tv_sec = 0;
	ts->tv_nsec = 0;
	return 0;
}

static fr_raw_fn raw;

/* The exit line's text as it is now. */
static const char *text(void)
{
	static struct fr_line l;

	fr_line_init(&l);
	fr_stats_format(&l);
	l.buf[l.len] = '\0';
	return l.buf;
}

static void call_raw(long n)
{
	struct timespec ts;

	for (long i = 0; i < n; i++)
		ck_assert_int_eq(raw(&ts), 0);
}

START_TEST(off_until_started)
{
	fr_stats_pass(CLOCK_MONOTONIC);
	ck_assert_int_eq(fr_hot.stats_on, 0);
	ck_assert_str_eq(text(), "stats: MONOTONIC_RAW fast=0 passthrough=0");
}
END_TEST

START_TEST(counts_per_clock)
{
	raw = fr_stats_start(fake_raw);
	ck_assert_ptr_ne(raw, fake_raw);
	call_raw(5);
	/* One of the five RAW calls passed through; then other clocks, named, unnamed, negative. */
	fr_stats_pass(CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 3; i++)
		fr_stats_pass(CLOCK_MONOTONIC);
	fr_stats_pass(10);
	fr_stats_pass(-2);
	fr_stats_pass(12345);
	ck_assert_str_eq(text(), "stats: MONOTONIC_RAW fast=4 passthrough=1, MONOTONIC passthrough=3, "
				 "clock 10 passthrough=1, other passthrough=2");
}
END_TEST

static void *counter_thread(void *arg)
{
	(void)arg;
	call_raw(PER_THREAD);
	for (int i = 0; i < PER_THREAD / 100; i++)
		fr_stats_pass(CLOCK_REALTIME);
	return NULL;
}

/* Threads that have exited still count, exactly, also those beyond the slots. */
START_TEST(exited_threads_count)
{
	char want[128];

	raw = fr_stats_start(fake_raw);
	for (int t = 0; t < THREADS; t += BATCH) {
		pthread_t th[BATCH];

		for (int i = 0; i < BATCH; i++)
			ck_assert_int_eq(pthread_create(&th[i], NULL, counter_thread, NULL), 0);
		for (int i = 0; i < BATCH; i++)
			ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	}
	call_raw(7);
	snprintf(want, sizeof(want), "stats: MONOTONIC_RAW fast=%d passthrough=0, REALTIME passthrough=%d",
		 THREADS * PER_THREAD + 7, THREADS * (PER_THREAD / 100));
	ck_assert_str_eq(text(), want);
}
END_TEST

/* The line of a fork child counts the child's calls only, its threads' included. */
START_TEST(fork_child_starts_from_zero)
{
	pid_t pid;
	int st;

	/* The child tells itself from its parent by the wiped page (proc/memid.c). */
	if (!PROBE_OR_SKIP(probe_wipeonfork, "fork_child_starts_from_zero", "MADV_WIPEONFORK is not honoured"))
		return;
	raw = fr_stats_start(fake_raw);
	call_raw(5);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pthread_t th;
		int ok;

		call_raw(3);
		ok = pthread_create(&th, NULL, counter_thread, NULL) == 0 && pthread_join(th, NULL) == 0;
		ok = ok && strcmp(text(), "stats: MONOTONIC_RAW fast=1003 passthrough=0, REALTIME passthrough=10") == 0;
		if (!ok)
			fprintf(stderr, "fork child: \"%s\"\n", text());
		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's counts were not its own");
	call_raw(1);
	ck_assert_str_eq(text(), "stats: MONOTONIC_RAW fast=6 passthrough=0");
}
END_TEST

/* A vfork child shares its parent's memory and slot: its calls show in the parent's line. */
START_TEST(vfork_child_counts_in_parent)
{
	pid_t pid;
	int st;

	if (!PROBE_OR_SKIP(probe_vfork_shares, "vfork_child_counts_in_parent", "vfork does not share memory"))
		return;
	raw = fr_stats_start(fake_raw);
	call_raw(5);
	pid = vfork();
	if (pid == 0) {
		struct timespec ts;

		for (int i = 0; i < 3; i++)
			raw(&ts);
		fr_stats_pass(CLOCK_MONOTONIC);
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_str_eq(text(), "stats: MONOTONIC_RAW fast=8 passthrough=0, MONOTONIC passthrough=1");
}
END_TEST

static volatile sig_atomic_t in_handler;

static void on_alarm(int sig)
{
	struct timespec ts;

	(void)sig;
	raw(&ts);
	fr_stats_pass(CLOCK_MONOTONIC);
	in_handler++;
}

/* Counts made by a signal handler on the counting thread are never lost. */
START_TEST(signal_handler_counts_kept)
{
	struct itimerval every = { { 0, 20 }, { 0, 20 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	long calls = 0;
	char want[160];

	raw = fr_stats_start(fake_raw);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
	while (in_handler < 2000) {
		struct timespec ts;

		raw(&ts);
		fr_stats_pass(CLOCK_MONOTONIC);
		calls++;
	}
	ck_assert_int_eq(setitimer(ITIMER_REAL, &off, NULL), 0);
	snprintf(want, sizeof(want), "stats: MONOTONIC_RAW fast=%ld passthrough=0, MONOTONIC passthrough=%ld",
		 calls + in_handler, calls + in_handler);
	ck_assert_str_eq(text(), want);
}
END_TEST

/* Every line the library prints starts "fastraw[PID] PROGRAM: ". */
START_TEST(line_prefix)
{
	struct fr_line l;
	char want[64];

	fr_line_start(&l);
	l.buf[l.len] = '\0';
	snprintf(want, sizeof(want), "fastraw[%d] test_stats: ", (int)getpid());
	ck_assert_str_eq(l.buf, want);
}
END_TEST

/* The program's name cannot end the prefix early, forge a line or drive a terminal. */
START_TEST(program_name_escaped)
{
	struct fr_line l;
	char want[128];

	program_invocation_name = "/some/dir/a:b\n\x1b[2Jc";
	fr_line_start(&l);
	l.buf[l.len] = '\0';
	snprintf(want, sizeof(want), "fastraw[%d] a\\x3ab\\n\\x1b[2Jc: ", (int)getpid());
	ck_assert_str_eq(l.buf, want);
	program_invocation_name = "/x/0123456789012345678901234567890123456789012345678901234567890123456789";
	fr_line_start(&l);
	l.buf[l.len] = '\0';
	ck_assert_msg(strstr(l.buf, "] 0123456789012345678901234567890123456789012345678901234567890123...: "),
		      "a long name is cut: %s", l.buf);
}
END_TEST

/* A line written to a pipe whose reader has gone raises no SIGPIPE; a pending one stays pending. */
START_TEST(dead_pipe_no_sigpipe)
{
	struct fr_line l;
	sigset_t pipe_only, pending, mask;
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_ge(dup2(fd[1], 2), 0);
	close(fd[0]);
	close(fd[1]);
	errno = 1234;
	fr_line_start(&l);
	fr_line_add(&l, "into the void");
	fr_line_emit(&l); /* the default action of SIGPIPE would end this test here */
	ck_assert_int_eq(errno, 1234);
	ck_assert_int_eq(sigpending(&pending), 0);
	ck_assert(!sigismember(&pending, SIGPIPE));
	/* Blocked and already pending: still pending after, and the mask is as it was. */
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &pipe_only, NULL), 0);
	ck_assert_int_eq(raise(SIGPIPE), 0);
	fr_line_emit(&l);
	ck_assert_int_eq(sigpending(&pending), 0);
	ck_assert(sigismember(&pending, SIGPIPE));
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, NULL, &mask), 0);
	ck_assert(sigismember(&mask, SIGPIPE));
}
END_TEST

/*
 * What the library's start-up hands this layer (startup/runtime.c): where PROGRAM is read, and
 * how a fork handler is registered where the slots cannot be wiped (in an executable's .bss next
 * to its file-backed data, as under clang, MADV_WIPEONFORK is refused).
 */
static void startup_hooks(void)
{
	fr_line_program_from(fr_program_name);
	fr_stats_atfork_via(fr_libc_atfork_child);
}

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, startup_hooks, NULL);
	tcase_add_test(tc, off_until_started);
	tcase_add_test(tc, counts_per_clock);
	tcase_add_test(tc, exited_threads_count);
	tcase_add_test(tc, fork_child_starts_from_zero);
	tcase_add_test(tc, vfork_child_counts_in_parent);
	tcase_add_test(tc, signal_handler_counts_kept);
	tcase_add_test(tc, line_prefix);
	tcase_add_test(tc, program_name_escaped);
	tcase_add_test(tc, dead_pipe_no_sigpipe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(stats_suite());
}
