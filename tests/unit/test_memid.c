/* SPDX-License-Identifier: MIT */
/* Unit tests of the memory owner: forked children own their copy, vfork and CLONE_VM children never own their parent's memory. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkprobe.h"
#include "run_suite.h"
#include "proc/memid.h"

#define STACK_SIZE (64 * 1024)

static char stack[STACK_SIZE] __attribute__((aligned(16)));

/* What a child exits with: 1 when it may write this memory, 0 when not. */
static int child_owns(void *arg)
{
	(void)arg;
	return fr_memid_own(getpid());
}

/* ask_in_child's answer when this process cannot make such a child (qemu-user refuses CLONE_VM without CLONE_THREAD). */
#define UNSUPPORTED (-2)

/* The exit status of a child made the given way that asks whether it owns the memory. */
static int ask_in_child(int how)
{
	int status = -1;
	pid_t pid;

	switch (how) {
	case 0:
		pid = vfork();
		if (pid == 0)
			_exit(child_owns(NULL));
		break;
	case 1:
		pid = clone(child_owns, stack + STACK_SIZE, CLONE_VM | SIGCHLD, NULL);
		if (pid < 0 && errno == EINVAL)
			return UNSUPPORTED;
		break;
	case 2:
		pid = clone(child_owns, stack + STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		break;
	default:
		pid = fork();
		if (pid == 0)
			_exit(child_owns(NULL));
		break;
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

START_TEST(setup_process_owns)
{
	fr_memid_setup();
	ck_assert_int_eq(fr_memid_own(getpid()), 1);
	ck_assert_int_eq(fr_memid_own(getpid()), 1);
}
END_TEST

/* _i: vfork, clone(CLONE_VM), clone(CLONE_VM | CLONE_VFORK). The parent keeps its memory. */
START_TEST(shared_memory_child_never_owns)
{
	fr_memid_setup();
	if (ask_in_child(_i) == UNSUPPORTED) {
		printf("SKIP: shared_memory_child_never_owns(%d): clone(CLONE_VM) refused with EINVAL here\n", _i);
		return;
	}
	ck_assert_int_eq(ask_in_child(_i), 0);
	ck_assert_int_eq(ask_in_child(_i), 0);
	ck_assert_int_eq(fr_memid_own(getpid()), 1);
}
END_TEST

/*
 * A forked child owns its copy, and then is to its own children what its parent was to it:
 * CLONE_VM grandchildren do not own it, forked grandchildren own theirs. The parent is unmoved.
 */
START_TEST(forked_child_owns_its_copy)
{
	int status = -1;
	pid_t pid;

	if (!PROBE_OR_SKIP(probe_wipeonfork, "forked_child_owns_its_copy", "MADV_WIPEONFORK is not honoured"))
		return;
	fr_memid_setup();
	pid = fork();
	if (pid == 0) {
		int ok = fr_memid_own(getpid()) == 1 && fr_memid_own(getpid()) == 1;

		for (int how = 0; how < 3; how++) {
			int r = ask_in_child(how);

			ok = ok && (r == 0 || r == UNSUPPORTED);
		}
		ok = ok && ask_in_child(3) == 1 && fr_memid_own(getpid()) == 1;
		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	ck_assert_int_eq(fr_memid_own(getpid()), 1);
	ck_assert_int_eq(ask_in_child(0), 0);
}
END_TEST

static Suite *memid_suite(void)
{
	Suite *s = suite_create("memid");
	TCase *tc = tcase_create("memid");

	tcase_add_test(tc, setup_process_owns);
	tcase_add_loop_test(tc, shared_memory_child_never_owns, 0, 3);
	tcase_add_test(tc, forked_child_owns_its_copy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(memid_suite());
}
