/* SPDX-License-Identifier: MIT */
/* End-to-end tests of FASTRAW_STATS and of the library's output: exact counts across threads, fork and vfork, prefix, stderr hygiene. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *probe(void)
{
	return e2e_need_env("FR_PROBE_STATS");
}

/* The process's stats line, "fastraw[pid] e2e_probe_stats: stats: MONOTONIC_RAW fast=F passthrough=P". */
static int stats_of(const char *err, int pid, unsigned long long *fast, unsigned long long *pass)
{
	char head[96];
	int n = 0;

	snprintf(head, sizeof(head), "fastraw[%d] e2e_probe_stats: stats: MONOTONIC_RAW fast=", pid);
	for (const char *p = err; (p = strstr(p, head)) != NULL; p++) {
		if (p != err && p[-1] != '\n')
			continue;
		ck_assert_int_eq(sscanf(p + strlen(head), "%llu passthrough=%llu", fast, pass), 2);
		n++;
	}
	return n;
}

/* The one stats line of pid: fast + passthrough, the calls it counted. */
static unsigned long long counted(const struct e2e_result *r, const char *key)
{
	unsigned long long fast = 0, pass = 0;
	int pid = (int)e2e_int_value(r->out, key);

	ck_assert_msg(stats_of(r->err, pid, &fast, &pass) == 1, "want one stats line of %s %d, stderr:\n%.*s",
		      key, pid, E2E_SHOWN, r->err);
	return fast + pass;
}

static void run(struct e2e_result *r, const char *const *env, const char *const argv[])
{
	struct e2e_opts o = { .env = env };

	e2e_run(r, &o, argv);
	e2e_assert_ok(r);
}

/* Warning, debug and stats line: each starts "fastraw[PID] PROGRAM: ". */
START_TEST(every_line_prefixed)
{
	struct e2e_result r;
	char prefix[64];
	const char *p;

	run(&r, E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1", "FASTRAW_TSC=bogus"), E2E_ARGV(probe(), "calls", "10"));
	snprintf(prefix, sizeof(prefix), "fastraw[%d] e2e_probe_stats: ", (int)e2e_int_value(r.out, "pid"));
	ck_assert_msg(e2e_count_lines(r.err) == 3 && e2e_count_lines_with(r.err, prefix) == 3,
		      "want 3 lines starting \"%s\", stderr:\n%.*s", prefix, E2E_SHOWN, r.err);
	for (p = r.err; *p; p = strchr(p, '\n') + 1)
		ck_assert_msg(strncmp(p, prefix, strlen(prefix)) == 0, "a line without the prefix: %.*s", E2E_SHOWN, p);
	ck_assert_msg(strstr(r.err, "e2e_probe_stats: warning: FASTRAW_TSC=bogus") &&
			      strstr(r.err, "e2e_probe_stats: kernel=") &&
			      strstr(r.err, "e2e_probe_stats: stats: MONOTONIC_RAW fast="),
		      "stderr:\n%.*s", E2E_SHOWN, r.err);
	ck_assert_uint_eq(counted(&r, "pid"), 10);
	e2e_result_free(&r);
}
END_TEST

/* Exact across 600 threads (more than there are slots), those that exited and one still running. */
START_TEST(threads_counted_exactly)
{
	struct e2e_result r;

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "threads", "600", "1000"));
	ck_assert_uint_eq(counted(&r, "pid"), (unsigned long long)e2e_int_value(r.out, "expect"));
	e2e_result_free(&r);
}
END_TEST

/*
 * Runs the probe's MODE with 3000 calls in the parent and 700 in the child; asserts two lines,
 * each counting its own process's calls. 0 when the probe says it could not set MODE up.
 */
static int own_calls_counted(const char *mode)
{
	struct e2e_result r;

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), mode, "3000", "700"));
	if (strstr(r.out, "filter=none")) {
		e2e_result_free(&r);
		return 0;
	}
	ck_assert_int_eq(e2e_count_lines(r.err), 2);
	ck_assert_uint_eq(counted(&r, "parent"), 3000);
	ck_assert_uint_eq(counted(&r, "child"), 700);
	e2e_result_free(&r);
	return 1;
}

/* Each process's line counts its own calls: the child's line only the child's. */
START_TEST(fork_lines_own_calls)
{
	ck_assert_msg(own_calls_counted("fork"), "fork: the probe said filter=none");
}
END_TEST

/*
 * The same where the kernel cannot zero the counts in a fork child (before 4.14: a filter makes
 * madvise(MADV_WIPEONFORK) fail as it does there): the fork handler the library registered with
 * libc does, and the child's line counts only its own calls, not the parent's too.
 */
START_TEST(fork_lines_own_calls_without_wipeonfork)
{
	if (!own_calls_counted("nowipe"))
		printf("fork_lines_own_calls_without_wipeonfork: skipped, no seccomp filter can be installed here\n");
}
END_TEST

/* A vfork child never runs destructors and shares its parent's counts: one line with both. */
START_TEST(vfork_counted_in_parent)
{
	struct e2e_result r;

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "vfork", "3000", "700"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	ck_assert_uint_eq(counted(&r, "pid"), 3700);
	e2e_result_free(&r);
}
END_TEST

/* Calibrated mode's warm-up calls are answered by the kernel: passthrough, not fast. */
START_TEST(calibrated_warmup_is_passthrough)
{
	struct e2e_result r;
	unsigned long long fast = 0, pass = 0;

	run(&r, E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1", "FASTRAW_SOURCE=calibrated"),
	    E2E_ARGV(probe(), "calls", "1000"));
	ck_assert_msg(strstr(r.err, " calibrated: seed "), "not in calibrated mode, stderr:\n%.*s", E2E_SHOWN, r.err);
	ck_assert_int_eq(stats_of(r.err, (int)e2e_int_value(r.out, "pid"), &fast, &pass), 1);
	/* The first call at least comes before the estimate is ready. */
	ck_assert_msg(pass >= 1 && fast + pass == 1000, "fast=%llu passthrough=%llu", fast, pass);
	e2e_result_free(&r);
}
END_TEST

/* A scratch data file for the probe; data_file_untouched reads it back and removes it. */
static int data_file(char path[static 32])
{
	int fd;

	strcpy(path, "/tmp/fastraw-e2e-stats-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* The file holds only the probe's "data\n", and the library wrote nothing on stderr either. */
static void data_file_untouched(int fd, const char *path, const struct e2e_result *r)
{
	char data[1024];
	ssize_t n = read(fd, data, sizeof(data) - 1);

	close(fd);
	unlink(path);
	ck_assert_int_ge(n, 0);
	data[n] = '\0';
	ck_assert_str_eq(data, "data\n");
	ck_assert_str_eq(r->err, "");
}

/* fd 2 closed and reopened as a data file: the exit line does not land in the data. */
START_TEST(reused_fd2_untouched)
{
	char path[32];
	struct e2e_result r;
	int fd = data_file(path);

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "datafile", path, "100"));
	data_file_untouched(fd, path, &r);
	e2e_result_free(&r);
}
END_TEST

/* The settings that make the library print at start (a warning, the debug line) and at exit. */
#define LOUD E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1", "FASTRAW_TSC=bogus")

static void run_unloaded(struct e2e_result *r, const char *const argv[])
{
	struct e2e_opts o = { .env = LOUD, .no_preload = 1 };

	e2e_run(r, &o, argv);
	e2e_assert_ok(r);
}

/*
 * The library dlopen'd after the program put a data file on fd 2: it cannot know the stderr the
 * process started with, and writes none of its lines (warning, debug, exit) into the data.
 */
START_TEST(dlopened_after_data_file_untouched)
{
	char path[32];
	struct e2e_result r;
	int fd = data_file(path);

	run_unloaded(&r, E2E_ARGV(probe(), "dlopen", e2e_need_env("FASTRAW_LIB"), "100", path));
	data_file_untouched(fd, path, &r);
	e2e_result_free(&r);
}
END_TEST

/* Nor into a pipe on fd 2 (a program's data channel as likely as a log): a dlopen'd copy is quiet. */
START_TEST(dlopened_pipe_quiet)
{
	struct e2e_result r;

	run_unloaded(&r, E2E_ARGV(probe(), "dlopen", e2e_need_env("FASTRAW_LIB"), "100"));
	ck_assert_str_eq(r.err, "");
	e2e_result_free(&r);
}
END_TEST

/* With a terminal on fd 2, where a person reads, a dlopen'd copy writes every line. */
START_TEST(dlopened_terminal_gets_lines)
{
	struct e2e_result r;

	run_unloaded(&r, E2E_ARGV(probe(), "dlopen-tty", e2e_need_env("FASTRAW_LIB"), "100"));
	if (strstr(r.out, "tty=none\n")) {
		printf("dlopened_terminal_gets_lines: skipped, no pseudo-terminal here\n");
		e2e_result_free(&r);
		return;
	}
	ck_assert_msg(e2e_count_lib_lines(r.out, "warning: FASTRAW_TSC=bogus") == 1 &&
			      e2e_count_lib_lines(r.out, "kernel=") == 1 &&
			      e2e_count_lib_lines(r.out, "stats: MONOTONIC_RAW fast=") == 1,
		      "want a warning, a debug and a stats line on the terminal, got:\n%.*s", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

/* stderr a pipe whose reader has gone: no SIGPIPE, the exit status is the program's own. */
START_TEST(dead_pipe_keeps_exit_status)
{
	struct e2e_result r;

	run(&r, E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DEBUG=1"), E2E_ARGV(probe(), "deadpipe", "100"));
	ck_assert_msg(strstr(r.out, "child=exit:0\n"), "stdout:\n%.*s", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

/* The process's one line on stderr, starting with want (the prefix and the start of the stats line). */
static void assert_one_line(const struct e2e_result *r, const char *want)
{
	ck_assert_msg(e2e_count_lines(r->err) == 1 && strncmp(r->err, want, strlen(want)) == 0,
		      "want \"%s...\", stderr:\n%.*s", want, E2E_SHOWN, r->err);
}

/* Control characters and ':' in argv[0] are escaped in the prefix. */
START_TEST(program_name_escaped)
{
	struct e2e_result r;
	char want[96];

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "argv0", "/a/b:c\n\x1b[2Jd", "5"));
	snprintf(want, sizeof(want), "fastraw[%d] b\\x3ac\\n\\x1b[2Jd: stats: MONOTONIC_RAW fast=",
		 (int)e2e_int_value(r.out, "pid"));
	assert_one_line(&r, want);
	e2e_result_free(&r);
}
END_TEST

/*
 * PROGRAM is read where the program's own code and libc read argv[0]: a name the program gives
 * program_invocation_name (its copy of the variable, where it has one), and bytes it writes over
 * argv[0] in place, show in the exit line.
 */
START_TEST(program_name_as_the_program_left_it)
{
	struct e2e_result r;
	char want[96];

	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "renamed", "/x/renamed-probe", "5"));
	snprintf(want, sizeof(want), "fastraw[%d] renamed-probe: stats: MONOTONIC_RAW fast=", (int)e2e_int_value(r.out, "pid"));
	assert_one_line(&r, want);
	e2e_result_free(&r);
	run(&r, E2E_ENV("FASTRAW_STATS=1"), E2E_ARGV(probe(), "overwritten", "5"));
	snprintf(want, sizeof(want), "fastraw[%d] zz", (int)e2e_int_value(r.out, "pid"));
	assert_one_line(&r, want);
	ck_assert_msg(strstr(r.err, "zze_probe_stats: stats: MONOTONIC_RAW fast="), "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

static Suite *e2e_stats_suite(void)
{
	Suite *s = suite_create("e2e_stats");
	TCase *tc = e2e_tcase(s, "stats");

	tcase_add_test(tc, every_line_prefixed);
	tcase_add_test(tc, threads_counted_exactly);
	tcase_add_test(tc, fork_lines_own_calls);
	tcase_add_test(tc, fork_lines_own_calls_without_wipeonfork);
	tcase_add_test(tc, vfork_counted_in_parent);
	tcase_add_test(tc, calibrated_warmup_is_passthrough);
	tcase_add_test(tc, reused_fd2_untouched);
	tcase_add_test(tc, dlopened_after_data_file_untouched);
	tcase_add_test(tc, dlopened_pipe_quiet);
	tcase_add_test(tc, dlopened_terminal_gets_lines);
	tcase_add_test(tc, dead_pipe_keeps_exit_status);
	tcase_add_test(tc, program_name_escaped);
	tcase_add_test(tc, program_name_as_the_program_left_it);
	return s;
}

int main(void)
{
	return fr_run_suite(e2e_stats_suite());
}
