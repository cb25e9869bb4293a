/* SPDX-License-Identifier: MIT */
/* Child processes that time one round at a time on the parent's word, and the loop they serve it with. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench_pool.h"

int bench_member_start(struct bench_member *m, char *const argv[], char **env,
		       void (*hello)(const char *line, void *arg), void *arg, int *status)
{
	int in[2], out[2];
	char line[512];

	m->pid = -1;
	m->to = m->from = NULL;
	*status = -1;
	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	fflush(NULL);
	m->pid = fork();
	if (m->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->to = fdopen(in[1], "w");
	m->from = fdopen(out[0], "r");
	if (m->pid < 0 || !m->to || !m->from) {
		bench_member_stop(m);
		return -1;
	}
	while (fgets(line, sizeof(line), m->from)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "ready") == 0)
			return 0;
		if (hello)
			hello(line, arg);
	}
	*status = bench_member_stop(m);
	return -1;
}

int bench_member_round(struct bench_member *m, double *ns, int n)
{
	char line[1024], *p = line, *end;

	if (!m->to || fputs("round\n", m->to) == EOF || fflush(m->to) != 0 || !fgets(line, sizeof(line), m->from))
		return -1;
	for (int i = 0; i < n; i++) {
		ns[i] = strtod(p, &end);
		if (end == p)
			return -1;
		p = end;
	}
	return 0;
}

int bench_member_stop(struct bench_member *m)
{
	int st = -1;

	if (m->to) {
		/* The child may be gone already: a failed write only means that. */
		fputs("quit\n", m->to);
		fclose(m->to);
		m->to = NULL;
	}
	if (m->from) {
		fclose(m->from);
		m->from = NULL;
	}
	if (m->pid > 0 && waitpid(m->pid, &st, 0) < 0)
		st = -1;
	m->pid = -1;
	return st;
}

int bench_serve(const enum bench_kind *kinds, const long *iters, int n)
{
	char cmd[32];
	double ns[BK_COUNT];

	bench_warm(kinds, iters, n);
	if (printf("ready\n") < 0 || fflush(stdout) != 0)
		return 1;
	while (fgets(cmd, sizeof(cmd), stdin)) {
		if (strcmp(cmd, "quit\n") == 0)
			return 0;
		if (strcmp(cmd, "round\n") != 0)
			return 1;
		bench_round(kinds, iters, n, ns);
		for (int i = 0; i < n; i++)
			printf("%s%.4f", i ? " " : "", ns[i]);
		if (printf("\n") < 0 || fflush(stdout) != 0)
			return 1;
	}
	return 0;
}
