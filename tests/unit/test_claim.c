/* SPDX-License-Identifier: MIT */
/* Unit tests of start-up's claim: one holder at a time, taken back after a jump, taken over in a fork child, and quietly without getpid. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "cpu_test.h"
#include "run_suite.h"
#include "startup/claim.h"

/* Check runs every test in a child of its own: each starts with the claim free, by process id. */

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

/*
 * Marks as fr_claim compares them, in one array standing for a stack: a holder's, one below it
 * (a call nested in it), one above it (a call after a jump out of it).
 */
static struct fr_claim_mark marks[3];
#define BELOW (&marks[0])
#define HOLDER (&marks[1])
#define ABOVE (&marks[2])

/* What fr_claim answers in a fork child: its exit status, or -1. */
static int claim_in_child(struct fr_claim_mark *m)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fr_claim(m));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void *claim_thread(void *arg)
{
	static struct fr_claim_mark own;

	(void)arg;
	return (void *)(intptr_t)fr_claim(&own);
}

/* What fr_claim answers on another thread. */
static int claim_in_thread(void)
{
	pthread_t th;
	void *ret;

	ck_assert_int_eq(pthread_create(&th, NULL, claim_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(th, &ret), 0);
	return (int)(intptr_t)ret;
}

/* Another thread, and a call nested below the holder's live mark, give way. */
START_TEST(one_holder_at_a_time)
{
	ck_assert_int_eq(fr_claim(HOLDER), 1);
	ck_assert_int_eq(claim_in_thread(), 0);
	ck_assert_int_eq(fr_claim(BELOW), 0);
	ck_assert_int_eq(fr_claim(BELOW), 0);
}
END_TEST

/*
 * After a jump out of the holder: a call at or above its mark takes the claim back, and so does
 * one below it once the mark was written over (the later call's frames reuse that memory).
 */
START_TEST(taken_back_after_a_jump)
{
	ck_assert_int_eq(fr_claim(HOLDER), 1);
	ck_assert_int_eq(fr_claim(HOLDER), 1);
	ck_assert_int_eq(fr_claim(ABOVE), 1);
	ck_assert_int_eq(fr_claim(BELOW), 0);
	ABOVE->check = 0;
	ck_assert_int_eq(fr_claim(BELOW), 1);
	ck_assert_int_eq(claim_in_thread(), 0);
}
END_TEST

/* A handler on the alternate signal stack may be nested in the holder wherever that stack lies: it gives way. */
static volatile int in_handler = -1;

static void on_usr1(int sig)
{
	(void)sig;
	in_handler = fr_claim(ABOVE);
}

START_TEST(nested_on_the_alternate_stack_gives_way)
{
	static char space[1 << 16];
	stack_t ss = { .ss_sp = space, .ss_size = sizeof(space) };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	ck_assert_int_eq(sigaltstack(&ss, NULL), 0);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	ck_assert_int_eq(fr_claim(HOLDER), 1);
	raise(SIGUSR1);
	ck_assert_int_eq(in_handler, 0);
}
END_TEST

/* The claim of another thread of the parent is an orphan in a fork child, which takes it over. */
START_TEST(fork_child_takes_a_claim_over)
{
	ck_assert_int_eq(claim_in_thread(), 1);
	ck_assert_int_eq(claim_in_child(BELOW), 1);
	ck_assert_int_eq(fr_claim(ABOVE), 0);
}
END_TEST

/* Whether this kernel wipes a page in a fork child (Linux 4.14 and later). */
static int kernel_wipes(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok = p != MAP_FAILED && madvise(p, (size_t)page, MADV_WIPEONFORK) == 0;

	if (p != MAP_FAILED)
		munmap(p, (size_t)page);
	return ok;
}

/*
 * Quietly: one holder at a time, and a fork child of a process whose other thread holds the
 * claim starts over where the kernel wipes the claim's page, else gives way (its calls go to
 * the real vDSO): the claim holds no process id to tell an orphan by.
 */
START_TEST(quiet_claim_once_and_wiped_in_a_child)
{
	ck_assert_int_eq(fr_claim_quietly(), 1);
	ck_assert_int_eq(claim_in_child(HOLDER), 1);
	ck_assert_int_eq(claim_in_thread(), 1);
	ck_assert_int_eq(fr_claim(ABOVE), 0);
	ck_assert_int_eq(claim_in_child(ABOVE), kernel_wipes());
}
END_TEST

/* Going quiet after someone claimed by process id would free a held claim: refused. */
START_TEST(not_quiet_after_a_claim)
{
	ck_assert_int_eq(claim_in_thread(), 1);
	ck_assert_int_eq(fr_claim_quietly(), 0);
	ck_assert_int_eq(fr_claim(HOLDER), 0);
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
	ck_assert_int_eq(fr_claim(HOLDER), 1);
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

	tcase_add_test(tc, one_holder_at_a_time);
	tcase_add_test(tc, taken_back_after_a_jump);
	tcase_add_test(tc, nested_on_the_alternate_stack_gives_way);
	tcase_add_test(tc, fork_child_takes_a_claim_over);
	tcase_add_test(tc, quiet_claim_once_and_wiped_in_a_child);
	tcase_add_test(tc, not_quiet_after_a_claim);
	tcase_add_loop_test(tc, quiet_claim_makes_no_system_call, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(claim_suite());
}
