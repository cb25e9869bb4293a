/* SPDX-License-Identifier: MIT */
/* What fork and vfork really do in this process (qemu-user differs from the kernel), for tests that need the kernel's behaviour. */
#ifndef FR_TEST_FORKPROBE_H
#define FR_TEST_FORKPROBE_H

#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

/*
 * Whether a page marked MADV_WIPEONFORK reads as zeros in a forked child, as the kernel makes it
 * from 4.14 on. qemu-user accepts the advice and ignores it; a kernel before 4.14 refuses it
 * (then the library asks kcmp instead, and this says yes: nothing here is missing).
 */
static inline int probe_wipeonfork(void)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	int *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int st = -1, wiped;
	pid_t pid;

	if (p == MAP_FAILED)
		return 0;
	if (madvise(p, len, MADV_WIPEONFORK) != 0) {
		munmap(p, len);
		return 1;
	}
	*p = 42;
	pid = fork();
	if (pid == 0)
		_exit(*p == 0 ? 0 : 1);
	wiped = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	munmap(p, len);
	return wiped;
}

/* Whether a vfork child shares this process's memory (qemu-user runs vfork as fork): its write shows here. */
static inline int probe_vfork_shares(void)
{
	static volatile int seen;
	int st;
	pid_t pid;

	seen = 0;
	pid = vfork();
	if (pid == 0) {
		seen = 1;
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && seen;
}

/* probe() as a test's precondition: 1 when present, else 0 and a SKIP line naming the test and what is missing. */
#define PROBE_OR_SKIP(probe, test, missing)                                              \
	((probe)() ? 1 : (printf("SKIP: %s: %s in this process\n", (test), (missing)), 0))

#endif
