/* SPDX-License-Identifier: MIT */
/* Probe: makes a known number of RAW calls across threads, fork, vfork, or with fd 2 replaced, for the FASTRAW_STATS line. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	if (strcmp(mode, "vfork") == 0 && argc == 4)
		return vforked(atol(argv[2]), atol(argv[3]));
	if (strcmp(mode, "datafile") == 0 && argc == 4)
		return datafile(argv[2], atol(argv[3]));
	if (strcmp(mode, "deadpipe") == 0 && argc == 3)
		return deadpipe(argv[2]);
	/* argv0 NAME N: this program again, as "calls N" under the name NAME. */
	if (strcmp(mode, "argv0") == 0 && argc == 4) {
		execl("/proc/self/exe", argv[2], "calls", argv[3], (char *)NULL);
		return 127;
	}
	fprintf(stdout, "usage: e2e_probe_stats calls N | threads T N | fork N M | vfork N M | datafile PATH N | "
			"deadpipe N | argv0 NAME N\n");
	return 2;
}
