/* SPDX-License-Identifier: MIT */
/* Probe: syscall(FRT_SYS_CLOCK_GETTIME, ...) and every other syscall() through the interposer, and clock_getres(RAW). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "callregs.h"
#include "probe.h"

static long fails;

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			printf("fail: line %d: %s (errno %d)\n", __LINE__, #cond, errno); \
			fails++;                                                     \
		}                                                                    \
	} while (0)

/* A six-argument call: a file mapped at a page offset (r10 flags, r8 fd, r9 offset) matches pread. */
static void six_arguments(void)
{
	char want[64];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	long p;

	CHECK(fd >= 0);
#ifdef SYS_mmap
	p = syscall(SYS_mmap, 0L, 4096L, (long)PROT_READ, (long)MAP_PRIVATE, (long)fd, 4096L);
#else
	/* 32-bit ABIs without the old mmap (arm EABI): mmap2 counts the offset in 4096-byte units. */
	p = syscall(SYS_mmap2, 0L, 4096L, (long)PROT_READ, (long)MAP_PRIVATE, (long)fd, 1L);
#endif
	/* A 32-bit address may have its top bit set: only -1 is the error. */
	CHECK(p != -1 && p != 0);
	CHECK(pread(fd, want, sizeof(want), 4096) == (ssize_t)sizeof(want));
	if (p != -1 && p != 0) {
		CHECK(memcmp((const void *)p, want, sizeof(want)) == 0);
		CHECK(syscall(SYS_munmap, p, 4096L) == 0);
	}
	close(fd);
}

static void errors_and_values(void)
{
	struct timespec ts;

	errno = 0;
	CHECK(syscall(SYS_getpid) == getpid() && errno == 0);
	CHECK(syscall(SYS_close, -1L) == -1 && errno == EBADF);
	CHECK(syscall(100000L) == -1 && errno == ENOSYS);
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, (long)CLOCK_MONOTONIC_RAW, NULL) == -1 && errno == EFAULT);
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, (long)CLOCK_MONOTONIC, NULL) == -1 && errno == EFAULT);
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, 12345L, &ts) == -1 && errno == EINVAL);
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, -1L, &ts) == -1 && errno == EINVAL);
	/* The kernel reads the id as an int: the upper half of the register is ignored. */
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, (long)((1ULL << 32) | CLOCK_MONOTONIC_RAW), &ts) == 0);
	errno = 1234;
	CHECK(syscall(FRT_SYS_CLOCK_GETTIME, (long)CLOCK_MONOTONIC_RAW, &ts) == 0 && errno == 1234);
}

/* The kernel's clock_getres for this program's struct timespec (as FRT_SYS_CLOCK_GETTIME is for clock_gettime). */
#ifdef SYS_clock_getres_time64
#define SYS_GETRES (sizeof(time_t) > sizeof(long) ? SYS_clock_getres_time64 : SYS_clock_getres)
#else
#define SYS_GETRES SYS_clock_getres
#endif

/* clock_getres(RAW) as libc answers it, against the kernel's own answer. */
static void getres(void)
{
	struct timespec lib = { -1, -1 }, sys = { -2, -2 };
	long r = syscall(SYS_GETRES, (long)CLOCK_MONOTONIC_RAW, &sys);

	CHECK(clock_getres(CLOCK_MONOTONIC_RAW, &lib) == 0);
	CHECK(r == 0);
	printf("getres_lib=%lld\ngetres_sys=%lld\n", (long long)ts_ns(&lib), (long long)ts_ns(&sys));
	CHECK(lib.tv_sec == sys.tv_sec && lib.tv_nsec == sys.tv_nsec);
}

int main(int argc, char **argv)
{
	static const clockid_t clocks[] = { CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME };
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct e2e_tally raw = { 0 }, other = { 0 };

	/* clock_gettime through syscall(), the timespec in the stack slot FASTRAW_SYSCALL=1 serves
	   in-process: every run takes the same path. */
	for (long i = 0; i < n; i++)
		e2e_bracket(&raw, e2e_syscall_clock, CLOCK_MONOTONIC_RAW);
	for (long i = 0; i < 4000; i++)
		e2e_bracket(&other, e2e_syscall_clock, clocks[1 + i % 3]);
	e2e_tally_print("", &raw);
	e2e_tally_print("other_", &other);
	six_arguments();
	errors_and_values();
	getres();
	printf("served=%s\n", e2e_served_by("syscall"));
	printf("fails=%ld\n", fails);
	return fails ? 1 : 0;
}
