/* SPDX-License-Identifier: MIT */
/* Unit tests of start-up's claim: once per process, taken over in a fork child by process id, and quietly without getpid. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "cpu_test.h"
#include "run_suite.h"
#include "startup/claim.h"

/* Check runs every test in a child of its own: each starts with the claim free, by process id. */

/* What fr_claim answers in a fork child: its exit status, or -1. */
static int claim_in_child(void)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fr_claim());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

START_TEST(claimed_once_per_process)
{
	ck_assert_int_eq(fr_claim(), 1);
	ck_assert_int_eq(fr_claim(), 0);
	ck_assert_int_eq(fr_claim(), 0);
}
END_TEST

/* The parent's claim is an orphan in the child, whose initialiser would otherwise wait for ever. */
START_TEST(fork_child_takes_a_claim_over)
{
	ck_assert_int_eq(fr_claim(), 1);
	ck_assert_int_eq(claim_in_child(), 1);
	ck_assert_int_eq(fr_claim(), 0);
}
END_TEST

/*
 * Quietly: once per process, and a fork child of the claimer gives way (its calls go to the real
 * vDSO): the claim holds no identity to tell an orphan by.
 */
START_TEST(quiet_claim_once_and_not_taken_over)
{
	ck_assert_int_eq(fr_claim_quietly(), 1);
	ck_assert_int_eq(claim_in_child(), 1);
	ck_assert_int_eq(fr_claim(), 1);
	ck_assert_int_eq(fr_claim(), 0);
	ck_assert_int_eq(claim_in_child(), 0);
}
END_TEST

/* Going quiet after someone claimed by process id would free a held claim: refused. */
START_TEST(not_quiet_after_a_claim)
{
	ck_assert_int_eq(fr_claim(), 1);
	ck_assert_int_eq(fr_claim_quietly(), 0);
	ck_assert_int_eq(fr_claim(), 0);
}
END_TEST

/* System calls the filter below trapped: each answered ENOSYS, as a sandbox's handler might. */
static volatile sig_atomic_t trapped;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	trapped++;
	FRT_UC_SET_RET((ucontext_t *)ctx, -ENOSYS);
}

/* A filter that traps getpid and allows everything else. */
static int trap_getpid(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FRT_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(f) / sizeof(f[0])), f };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * A start-up that waits for the first RAW read may claim after the program installed a seccomp
 * filter: quietly, the claim asks the kernel nothing. The control: by process id, the same
 * filter traps the claim's getpid.
 */
START_TEST(quiet_claim_makes_no_system_call)
{
	int quiet = _i == 1;

	if (quiet)
		ck_assert_int_eq(fr_claim_quietly(), 1);
	if (trap_getpid() != 0) {
		printf("quiet_claim_makes_no_system_call: SKIP: no seccomp filter here (errno %d)\n", errno);
		return;
	}
	ck_assert_int_eq(fr_claim(), 1);
	if (quiet)
		ck_assert_int_eq(trapped, 0);
	else
		ck_assert_int_gt(trapped, 0);
}
END_TEST

static Suite *claim_suite(void)
{
	Suite *s = suite_create("claim");
	TCase *tc = tcase_create("claim");

	tcase_add_test(tc, claimed_once_per_process);
	tcase_add_test(tc, fork_child_takes_a_claim_over);
	tcase_add_test(tc, quiet_claim_once_and_not_taken_over);
	tcase_add_test(tc, not_quiet_after_a_claim);
	tcase_add_loop_test(tc, quiet_claim_makes_no_system_call, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(claim_suite());
}
