/* SPDX-License-Identifier: MIT */
/* Probe: a runtime's CLOCK_MONOTONIC readings, each taken between two kernel reads of that clock in this process. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ksys.h"

/* CLOCK_MONOTONIC as the kernel reads it (the raw system call), in ns. */
static int64_t kernel_mono_ns(void)
{
	struct timespec ts;

	k_clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* One line from fd into buf (without its newline): its length, or -1 at end of file first. */
static long read_line(int fd, char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		char c;
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return n ? (long)n : -1;
		if (c == '\n')
			break;
		if (n + 1 < size)
			buf[n++] = c;
	}
	buf[n] = '\0';
	return (long)n;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The child: NAME=VALUE arguments into its environment (as env(1) takes them), then the runtime. */
static void exec_child(char **argv, int to_child[2], int from_child[2])
{
	dup2(to_child[0], 0);
	dup2(from_child[1], 1);
	close(to_child[0]);
	close(to_child[1]);
	close(from_child[0]);
	close(from_child[1]);
	for (; *argv && strchr(*argv, '='); argv++)
		putenv(*argv);
	execvp(argv[0], argv);
	dprintf(2, "probe_runtime: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Usage: e2e_probe_runtime ROUNDS [NAME=VALUE...] RUNTIME [ARG...]. The runtime (tests/e2e/
 * runtimes/) runs with the NAME=VALUE settings, this probe without them. It first prints one
 * line of its own (its loop's "calls=N backwards=B"), passed on as "loop ..."; then, ROUNDS
 * times, this probe reads the kernel's CLOCK_MONOTONIC, writes one byte to the runtime, reads
 * back its line of clock readings (ns, space-separated) and reads the kernel again. The pipe
 * orders the three: every reading must lie in [before, after], and none below the one before
 * it. Prints "child_pid=", then "rounds= values= outside= backwards= median_ns= widest_ns="
 * (the brackets' widths) and "status=" (the runtime's exit status; 128+N when killed by signal N).
 */
int main(int argc, char **argv)
{
	long rounds, outside = 0, backwards = 0, values = 0, done = 0;
	int to_child[2], from_child[2], status;
	int64_t prev = INT64_MIN, *width;
	char line[512];
	pid_t pid;

	if (argc < 3 || (rounds = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: %s ROUNDS [NAME=VALUE...] RUNTIME [ARG...]\n", argv[0]);
		return 2;
	}
	width = calloc((size_t)rounds, sizeof(*width));
	if (!width) {
		perror("calloc");
		return 1;
	}
	if (pipe(to_child) || pipe(from_child)) {
		perror("pipe");
		return 1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0)
		exec_child(argv + 2, to_child, from_child);
	close(to_child[0]);
	close(from_child[1]);
	printf("child_pid=%ld\n", (long)pid);

	if (read_line(from_child[0], line, sizeof(line)) >= 0)
		printf("loop %s\n", line);
	for (; done < rounds; done++) {
		int64_t before, after;
		char *p, *end;

		before = kernel_mono_ns();
		if (write(to_child[1], "\n", 1) != 1 || read_line(from_child[0], line, sizeof(line)) < 0)
			break;
		after = kernel_mono_ns();
		width[done] = after - before;
		for (p = line;; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			values++;
			if (v < before || v > after) {
				if (outside++ < 5)
					printf("outside: %lld not in [%" PRId64 ", %" PRId64 "]\n", v, before, after);
			}
			if (v < prev)
				backwards++;
			prev = v;
		}
	}
	close(to_child[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	qsort(width, (size_t)done, sizeof(*width), cmp_i64);
	printf("rounds=%ld values=%ld outside=%ld backwards=%ld median_ns=%" PRId64 " widest_ns=%" PRId64 "\n", done,
	       values, outside, backwards, done ? width[done / 2] : 0, done ? width[done - 1] : 0);
	printf("status=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
