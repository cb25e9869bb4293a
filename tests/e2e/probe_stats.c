/* SPDX-License-Identifier: MIT */
/* Probe: makes a known number of RAW calls across threads, fork, vfork, with fd 2 replaced, or through a dlopen'd library, for the library's lines. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cpu_test.h"
#include "probe.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

#define BATCH 8

static long per_thread;

static void calls(long n)
{
	struct timespec ts;

	for (long i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
}

static void *worker(void *arg)
{
	(void)arg;
	calls(per_thread);
	return NULL;
}

static void *lingerer(void *arg)
{
	calls(per_thread);
	/* Still alive when main exits. */
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
	return NULL;
}

/* threads T N: T threads that exit, one still running at exit and main, N RAW calls each. */
static int threads(long t, long n)
{
	pthread_t th[BATCH], last;
	int done = 0;

	per_thread = n;
	for (long i = 0; i < t; i += BATCH) {
		int k = t - i < BATCH ? (int)(t - i) : BATCH;

		for (int j = 0; j < k; j++)
			if (pthread_create(&th[j], NULL, worker, NULL) != 0)
				return 1;
		for (int j = 0; j < k; j++)
			pthread_join(th[j], NULL);
	}
	if (pthread_create(&last, NULL, lingerer, &done) != 0)
		return 1;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		sched_yield();
	calls(n);
	printf("pid=%d\nexpect=%ld\n", (int)getpid(), (t + 2) * n);
	return 0;
}

/* fork N M: N calls in the parent, then a child that makes M and exits through exit(). */
static int forked(long n, long m)
{
	pid_t pid;
	int st;

	calls(n);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		calls(m);
		printf("child=%d\n", (int)getpid());
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	printf("parent=%d\n", (int)getpid());
	return 0;
}

/* vfork N M: N calls in the parent, M in a vfork child that leaves through _exit. */
static int vforked(long n, long m)
{
	pid_t pid;
	int st;

	calls(n);
	pid = vfork();
	if (pid == 0) {
		calls(m);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	printf("pid=%d\n", (int)getpid());
	return 0;
}

/* datafile PATH N: fd 2 closed and reopened as a data file, as a program may do. */
static int datafile(const char *path, long n)
{
	int fd;

	close(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd != 2 || write(2, "data\n", 5) != 5)
		return 1;
	calls(n);
	return 0;
}

/* N RAW calls through the clock_gettime of the library at lib (its entry of the probe's time_t), dlopen'd now; 0 or 1. */
static int dlopened_calls(const char *lib, long n)
{
	int (*cg)(clockid_t, struct timespec *);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	struct timespec ts;

	if (!h || !(cg = (int (*)(clockid_t, struct timespec *))dlsym(h, E2E_CLOCK_GETTIME)))
		return 1;
	for (long i = 0; i < n; i++)
		if (cg(CLOCK_MONOTONIC_RAW, &ts) != 0)
			return 1;
	return 0;
}

/*
 * dlopen LIB N [PATH]: the library loaded after start-up, its RAW called N times; with PATH,
 * fd 2 first closed and reopened as a data file, as a program may do.
 */
static int dlopened(const char *lib, long n, const char *path)
{
	if (path) {
		close(2);
		if (open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 2 || write(2, "data\n", 5) != 5)
			return 1;
	}
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	return dlopened_calls(lib, n);
}

/*
 * dlopen-tty LIB N: "dlopen LIB N" in a child whose fd 2 is a terminal (a pseudo-terminal in
 * raw mode); prints the child's pid, then what reached the terminal. The parent keeps the
 * terminal open and, once the child has exited, writes an end mark into it: everything the
 * child wrote comes before the mark, so reading up to it needs no timeout.
 */
static int dlopened_tty(const char *lib, const char *n)
{
	static const char mark[] = "--end of terminal--\n";
	char buf[4096];
	size_t got = 0;
	struct termios t;
	int master, slave, st;
	const char *name;
	pid_t pid;

	/* No pseudo-terminal to be had (no devpts mounted, as in the kernel matrix's guests): said so. */
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 || !(name = ptsname(master)) ||
	    (slave = open(name, O_RDWR | O_NOCTTY)) < 0 || tcgetattr(slave, &t) != 0) {
		printf("tty=none\n");
		return 0;
	}
	cfmakeraw(&t);
	if (tcsetattr(slave, TCSANOW, &t) != 0)
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(slave, 2);
		close(slave);
		close(master);
		execl("/proc/self/exe", "e2e_probe_stats", "dlopen", lib, n, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	if (write(slave, mark, sizeof(mark) - 1) != (ssize_t)(sizeof(mark) - 1))
		return 1;
	while (got < sizeof(buf) - 1) {
		ssize_t r = read(master, buf + got, sizeof(buf) - 1 - got);

		if (r <= 0)
			return 1;
		got += (size_t)r;
		buf[got] = '\0';
		if (strstr(buf, mark))
			break;
	}
	*strstr(buf, mark) = '\0';
	printf("%s", buf);
	return 0;
}

/*
 * A kernel before 4.14 for this process and what it executes: a seccomp filter that answers
 * madvise(MADV_WIPEONFORK) with EINVAL, as such a kernel does, and allows everything else.
 */
static int refuse_wipeonfork(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FRT_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MADV_WIPEONFORK, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * nowipe N M: "fork N M" run again under refuse_wipeonfork's filter, so that the library starts
 * with the kernel refusing to zero the counts in fork children; prints "filter=none" when no
 * filter can be installed. The filter proves itself first: the same madvise must fail here.
 */
static int nowipe(const char *n, const char *m)
{
	static char page[4096] __attribute__((aligned(4096)));

	if (refuse_wipeonfork() != 0) {
		printf("filter=none\n");
		return 0;
	}
	if (madvise(page, sizeof(page), MADV_WIPEONFORK) == 0 || errno != EINVAL)
		return 1;
	fflush(stdout);
	execl("/proc/self/exe", "e2e_probe_stats", "fork", n, m, (char *)NULL);
	return 127;
}

/* deadpipe N: runs "calls N" with stderr a pipe that nobody reads any more. */
static int deadpipe(const char *n)
{
	int fd[2], st;
	pid_t pid;

	if (pipe(fd) != 0)
		return 1;
	close(fd[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		execl("/proc/self/exe", "e2e_probe_stats", "calls", n, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	if (WIFSIGNALED(st))
		printf("child=signal:%d\n", WTERMSIG(st));
	else
		printf("child=exit:%d\n", WEXITSTATUS(st));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "calls") == 0 && argc == 3) {
		calls(atol(argv[2]));
		printf("pid=%d\n", (int)getpid());
		return 0;
	}
	if (strcmp(mode, "threads") == 0 && argc == 4)
		return threads(atol(argv[2]), atol(argv[3]));
	if (strcmp(mode, "fork") == 0 && argc == 4)
		return forked(atol(argv[2]), atol(argv[3]));
	if (strcmp(mode, "nowipe") == 0 && argc == 4)
		return nowipe(argv[2], argv[3]);
	if (strcmp(mode, "vfork") == 0 && argc == 4)
		return vforked(atol(argv[2]), atol(argv[3]));
	if (strcmp(mode, "datafile") == 0 && argc == 4)
		return datafile(argv[2], atol(argv[3]));
	if (strcmp(mode, "dlopen") == 0 && (argc == 4 || argc == 5))
		return dlopened(argv[2], atol(argv[3]), argc == 5 ? argv[4] : NULL);
	if (strcmp(mode, "dlopen-tty") == 0 && argc == 4)
		return dlopened_tty(argv[2], argv[3]);
	if (strcmp(mode, "deadpipe") == 0 && argc == 3)
		return deadpipe(argv[2]);
	/* renamed NAME N: N calls after the program set program_invocation_name to NAME (error(3) prints it). */
	if (strcmp(mode, "renamed") == 0 && argc == 4) {
		program_invocation_name = argv[2];
		calls(atol(argv[3]));
		printf("pid=%d\n", (int)getpid());
		return 0;
	}
	/* overwritten N: N calls after the program wrote "zz" over the start of argv[0]'s last part. */
	if (strcmp(mode, "overwritten") == 0 && argc == 3) {
		char *last = strrchr(argv[0], '/');

		last = last ? last + 1 : argv[0];
		if (strlen(last) < 2)
			return 1;
		memcpy(last, "zz", 2);
		calls(atol(argv[2]));
		printf("pid=%d\nname=%s\n", (int)getpid(), last);
		return 0;
	}
	/* argv0 NAME N: this program again, as "calls N" under the name NAME. */
	if (strcmp(mode, "argv0") == 0 && argc == 4) {
		execl("/proc/self/exe", argv[2], "calls", argv[3], (char *)NULL);
		return 127;
	}
	fprintf(stdout, "usage: e2e_probe_stats calls N | threads T N | fork N M | nowipe N M | vfork N M | datafile PATH N | "
			"dlopen LIB N [PATH] | dlopen-tty LIB N | deadpipe N | argv0 NAME N | renamed NAME N | overwritten N\n");
	return 2;
}
