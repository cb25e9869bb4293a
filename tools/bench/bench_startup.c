/* SPDX-License-Identifier: MIT */
/* Measures the start of /bin/true with no preload, an empty preload and libfastraw, one process at a time. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench_env.h"
#include "bench/bench_loops.h"
#include "bench/bench_startup.h"

/*
 * Runs the program once with env, its stderr (when err_fd >= 0) on err_fd and its stdout on
 * /dev/null. Returns the wait status, or -1; *cpu_us (when not NULL) receives the CPU time the
 * child used, user and system: exec, the dynamic loader, the preload's constructor, exit. CPU
 * time rather than wall time, so that other processes on a shared machine do not count, and
 * because that is what a build starting thousands of processes pays. *faults (when not NULL)
 * receives its minor page faults, each a few microseconds of that time.
 */
static int run_once(const char *program, char **env, int err_fd, double *cpu_us, double *faults)
{
	char *argv[] = { (char *)program, NULL };
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int st = -1, rc;

	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	if (err_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	rc = posix_spawn(&pid, program, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0 || wait4(pid, &st, 0, &ru) < 0)
		return -1;
	if (cpu_us)
		*cpu_us = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
			  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	if (faults)
		*faults = (double)ru.ru_minflt;
	return st;
}

/* Whether lib loads into the program: with FASTRAW_DEBUG=1 its start-up line appears on stderr. */
static int fastraw_loads(const char *program, const char *lib)
{
	static const char *const debug[] = { "FASTRAW_DEBUG=1", NULL };
	char **env = bench_env(lib, debug);
	char buf[512];
	ssize_t len;
	int fd[2], st;

	if (!env || pipe2(fd, O_CLOEXEC) != 0)
		return 0;
	st = run_once(program, env, fd[1], NULL, NULL);
	close(fd[1]);
	len = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	free(env);
	buf[len > 0 ? len : 0] = '\0';
	return st == 0 && strstr(buf, "fastraw[") != NULL && strstr(buf, " kernel=") != NULL;
}

int bench_startup_init(struct bench_startup *s, const char *lib, const char *empty, int cap)
{
	memset(s, 0, sizeof(*s));
	s->program = access("/bin/true", X_OK) == 0 ? "/bin/true" : "/usr/bin/true";
	if (access(s->program, X_OK) != 0) {
		fprintf(stderr, "fastraw-bench: start-up: no /bin/true or /usr/bin/true to start\n");
		return -1;
	}
	s->have_empty = empty && access(empty, R_OK) == 0;
	s->env[SU_NONE] = bench_env(NULL, NULL);
	s->env[SU_EMPTY] = bench_env(s->have_empty ? empty : NULL, NULL);
	s->env[SU_FASTRAW] = bench_env(lib, NULL);
	s->cap = cap;
	for (int k = 0; k < SU_COUNT; k++) {
		s->us[k] = calloc((size_t)cap, sizeof(double));
		s->faults[k] = calloc((size_t)cap, sizeof(double));
		if (!s->env[k] || !s->us[k] || !s->faults[k]) {
			fprintf(stderr, "fastraw-bench: start-up: out of memory\n");
			return -1;
		}
	}
	if (run_once(s->program, s->env[SU_NONE], -1, NULL, NULL) != 0) {
		fprintf(stderr, "fastraw-bench: start-up: %s does not run\n", s->program);
		return -1;
	}
	if (s->have_empty && run_once(s->program, s->env[SU_EMPTY], -1, NULL, NULL) != 0) {
		fprintf(stderr, "fastraw-bench: start-up: %s does not run with LD_PRELOAD=%s\n", s->program, empty);
		return -1;
	}
	if (!fastraw_loads(s->program, lib)) {
		fprintf(stderr, "fastraw-bench: start-up: %s does not load %s (statically linked?)\n", s->program, lib);
		return -1;
	}
	return 0;
}

void bench_startup_batch(struct bench_startup *s, int k)
{
	for (int j = 0; j < k; j++)
		for (int i = 0; i < SU_COUNT; i++) {
			/* Rotated, so that no kind always follows the same one (a warm page cache, say). */
			enum bench_startup_kind kind = (enum bench_startup_kind)((i + j) % SU_COUNT);
			double us, faults;

			if ((kind == SU_EMPTY && !s->have_empty) || s->n[kind] >= s->cap)
				continue;
			if (run_once(s->program, s->env[kind], -1, &us, &faults) == 0) {
				s->faults[kind][s->n[kind]] = faults;
				s->us[kind][s->n[kind]++] = us;
			}
		}
}

double bench_startup_median(struct bench_startup *s, enum bench_startup_kind k)
{
	return s->n[k] > 0 ? bench_median(s->us[k], s->n[k]) : -1;
}

double bench_startup_median_faults(struct bench_startup *s, enum bench_startup_kind k)
{
	return s->n[k] > 0 ? bench_median(s->faults[k], s->n[k]) : -1;
}
