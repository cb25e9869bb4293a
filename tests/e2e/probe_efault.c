/* SPDX-License-Identifier: MIT */
/* Probe: syscall(SYS_clock_gettime) against the system call instruction, for every clock id and bad pointers, and whether it reaches the kernel. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_test.h"
#include "callregs.h"
#include "ksys.h"
#include "seccomp_one.h"

/* What the seccomp filter answers for clock_gettime: an errno no real clock_gettime gives. */
#define MARKER_ERRNO EHWPOISON

/* The system call instruction with the id in a full register, as syscall() passes it on. */
static long k_call(long clk, long p)
{
	return k_syscall2(FRT_SYS_CLOCK_GETTIME, clk, p);
}

/* The seccomp_data.arch value of this process's system calls. */

struct target {
	const char *name;
	long p;
};

/* Maps n adjacent pages, each with its protection from prot[] (-1: unmapped again, a hole). */
static char *pages(const int *prot, int n)
{
	char *b = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		if (prot[i] < 0)
			munmap(b + i * 4096, 4096);
		else
			mprotect(b + i * 4096, 4096, prot[i]);
	}
	return b;
}

static int make_targets(struct target *t)
{
	static const int rw_hole[] = { PROT_READ | PROT_WRITE, -1 };
	static const int rw_ro[] = { PROT_READ | PROT_WRITE, PROT_READ };
	static const int ro[] = { PROT_READ }, none[] = { PROT_NONE };
	char *a = pages(rw_hole, 2), *b = pages(rw_ro, 2), *r = pages(ro, 1), *z = pages(none, 1);
	int n = 0;

	t[n++] = (struct target){ "valid", (long)(a + 64) };
	t[n++] = (struct target){ "valid_unaligned", (long)(a + 3) };
	t[n++] = (struct target){ "valid_page_end", (long)(a + 4096 - 16) };
	t[n++] = (struct target){ "null", 0 };
	t[n++] = (struct target){ "0x1", 1 };
	t[n++] = (struct target){ "0xff8", 0xff8 };
	t[n++] = (struct target){ "read_only", (long)(r + 64) };
	t[n++] = (struct target){ "prot_none", (long)(z + 64) };
	t[n++] = (struct target){ "kernel", (long)0xffffffff81000000UL };
	t[n++] = (struct target){ "vsyscall", (long)0xffffffffff600000UL };
	/* The address space's edges: a 32-bit process has none past 4 GiB, but a page at its top the kernel owns. */
	if (sizeof(long) == 8) {
		t[n++] = (struct target){ "non_canonical", (long)0x0000800000000000ULL };
		t[n++] = (struct target){ "user_end", (long)(0x7ffffffff000ULL - 8) };
	} else {
		t[n++] = (struct target){ "top_page", (long)0xffff0000UL };
		t[n++] = (struct target){ "space_end", (long)0xfffffff8UL };
	}
	t[n++] = (struct target){ "straddle_unmapped", (long)(a + 4096 - 8) };
	t[n++] = (struct target){ "straddle_read_only", (long)(b + 4096 - 8) };
	t[n++] = (struct target){ "unmapped", (long)(a + 4096 + 64) };
	t[n++] = (struct target){ "unmapped_page_start", (long)(a + 4096) };
	return n;
}

/*
 * Each case in its own child, so a signal cannot hide the cases after it; the child reports
 * through shared memory. Returns 0 when syscall() answered as the kernel did.
 */
static int one_case(long clk, const struct target *t, long *shared)
{
	long want = k_call(clk, t->p);
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		long r;

		errno = 0;
		r = syscall(FRT_SYS_CLOCK_GETTIME, clk, t->p);
		shared[0] = r;
		shared[1] = errno;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st)) {
		printf("bad: clk=%ld ptr=%s kernel=%ld signal=%d\n", clk, t->name, want, WTERMSIG(st));
		return 1;
	}
	if ((want == 0 && shared[0] == 0) || (want < 0 && shared[0] == -1 && shared[1] == -want))
		return 0;
	printf("bad: clk=%ld ptr=%s kernel=%ld syscall=%ld errno=%ld\n", clk, t->name, want, shared[0], shared[1]);
	return 1;
}

/* Every clock id, the invalid ones and the CPU-time ids of this process and thread included. */
static const long clocks[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1, -2, -6, -8, 12, 16, 1000, INT_MAX,
			       INT_MIN, (long)((1ULL << 32) | 4), (long)((1ULL << 32) | 1), (long)0xffffffff00000004ULL };

static void matrix(void)
{
	struct target t[20];
	long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int n = make_targets(t), cases = 0, bad = 0;

	if (shared == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		for (int i = 0; i < n; i++) {
			cases++;
			bad += one_case(clocks[c], &t[i], shared) != 0;
		}
	}
	printf("matrix_cases=%d\nmatrix_bad=%d\n", cases, bad);
}

/* From here on every clock_gettime system call fails with MARKER_ERRNO; nothing else changes. */
static int install_marker_filter(void)
{
	return e2e_seccomp_one(FRT_SYS_CLOCK_GETTIME, SECCOMP_RET_ERRNO | MARKER_ERRNO);
}

int main(void)
{
	int other = 0, other_n = 0, raw_kernel;
	struct timespec ts;

	matrix();
	/* Initialises the library (its first call may read the kernel's clock) before the filter.
	   RAW through a stack slot: the pointer FASTRAW_SYSCALL=1 serves in-process. */
	e2e_syscall_clock(CLOCK_MONOTONIC_RAW, &ts);
	if (install_marker_filter() != 0) {
		printf("filter=failed errno=%d\n", errno);
		return 1;
	}
	for (long clk = 0; clk <= 11; clk++) {
		if (clk == CLOCK_MONOTONIC_RAW)
			continue;
		other_n++;
		errno = 0;
		other += syscall(FRT_SYS_CLOCK_GETTIME, clk, &ts) == -1 && errno == MARKER_ERRNO;
	}
	errno = 0;
	raw_kernel = e2e_syscall_clock(CLOCK_MONOTONIC_RAW, &ts) == -1 && errno == MARKER_ERRNO;
	printf("other_ids=%d\nother_reached_kernel=%d\nraw_reached_kernel=%d\n", other_n, other, raw_kernel);
	return 0;
}
