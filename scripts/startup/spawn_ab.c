/* SPDX-License-Identifier: MIT */
/* Times fork + exec + wait of one command under several LD_PRELOAD values, interleaved, and prints each one's cost per process. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Usage: spawn_ab N LABEL=PRELOAD [LABEL=PRELOAD ...] -- COMMAND [ARGS...]
 *
 * An empty PRELOAD runs COMMAND without LD_PRELOAD. Each round runs every variant once, in an
 * order rotated by the round number, so that drift (frequency, another tenant of the machine)
 * falls on every variant alike. One line per variant: median, 10th and 90th percentile and the
 * trimmed mean (the middle 80%) in microseconds, then the medians of the per-round differences
 * against the first variant, which cancel drift better than a difference of medians. The same
 * again for the child's CPU time (user + system, from wait4), which a busy machine disturbs less,
 * and for its minor page faults.
 */

#define MAX_VARIANTS 8

extern char **environ;

struct variant {
	const char *label;
	char **envp;
	double *us;  /* wall time of fork + exec + wait */
	double *cpu; /* the child's user + system CPU time (wait4): blind to waiting for a busy CPU */
	double *flt; /* the child's minor page faults */
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The environment without LD_PRELOAD, plus LD_PRELOAD=preload when preload is not empty. */
static char **make_env(const char *preload)
{
	size_t n = 0, k = 0;
	char **envp;

	while (environ[n])
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (!envp)
		exit(2);
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
			envp[k++] = environ[i];
	}
	if (*preload) {
		if (asprintf(&envp[k], "LD_PRELOAD=%s", preload) < 0)
			exit(2);
		k++;
	}
	envp[k] = NULL;
	return envp;
}

static double run_once(char **argv, char **envp, double *cpu, double *flt)
{
	double t0 = now_us(), t1;
	int status;
	struct rusage ru;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		execve(argv[0], argv, envp);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	t1 = now_us();
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	*flt = (double)ru.ru_minflt;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) {
		fprintf(stderr, "spawn_ab: %s did not run (status 0x%x)\n", argv[0], status);
		exit(2);
	}
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v in place. */
static double pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[(int)(p * (n - 1) + 0.5)];
}

static double trimmed_mean(double *v, int n)
{
	int lo = n / 10, hi = n - n / 10;
	double s = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	for (int i = lo; i < hi; i++)
		s += v[i];
	return s / (hi - lo);
}

enum what { WALL, CPU, FAULTS };

static void report(const char *what, struct variant *var, int nvar, int n, double *tmp, enum what w)
{
	printf("%-6s %-10s %9s %9s %9s %9s %12s\n", what, "variant", "median", "p10", "p90", "tmean", "d_median");
	for (int v = 0; v < nvar; v++) {
		const double *x = w == WALL ? var[v].us : w == CPU ? var[v].cpu : var[v].flt;
		const double *x0 = w == WALL ? var[0].us : w == CPU ? var[0].cpu : var[0].flt;
		double d = 0;

		for (int r = 0; r < n; r++)
			tmp[r] = x[r] - x0[r];
		if (v > 0)
			d = pct(tmp, n, 0.5);
		memcpy(tmp, x, (size_t)n * sizeof(double));
		printf("%-6s %-10s %9.1f %9.1f %9.1f %9.1f %+12.1f\n", what, var[v].label, pct(tmp, n, 0.5),
		       pct(tmp, n, 0.1), pct(tmp, n, 0.9), trimmed_mean(tmp, n), d);
	}
}

int main(int argc, char **argv)
{
	struct variant var[MAX_VARIANTS];
	int n, nvar = 0, i;
	double *tmp;

	if (argc < 5 || (n = atoi(argv[1])) < 10) {
		fprintf(stderr, "usage: spawn_ab N(>=10) LABEL=PRELOAD... -- COMMAND [ARGS...]\n");
		return 2;
	}
	for (i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || nvar == MAX_VARIANTS) {
			fprintf(stderr, "spawn_ab: bad variant %s (LABEL=PRELOAD, at most %d)\n", argv[i],
				MAX_VARIANTS);
			return 2;
		}
		*eq = '\0';
		var[nvar].label = argv[i];
		var[nvar].envp = make_env(eq + 1);
		var[nvar].us = calloc((size_t)n, sizeof(double));
		var[nvar].cpu = calloc((size_t)n, sizeof(double));
		var[nvar].flt = calloc((size_t)n, sizeof(double));
		if (!var[nvar].us || !var[nvar].cpu || !var[nvar].flt)
			return 2;
		nvar++;
	}
	if (i + 1 >= argc || nvar == 0) {
		fprintf(stderr, "spawn_ab: no command after --\n");
		return 2;
	}
	argv += i + 1;
	tmp = calloc((size_t)n, sizeof(double));
	if (!tmp)
		return 2;
	/* One untimed round: the page cache and the dynamic loader's cache are warm for every variant. */
	for (int v = 0; v < nvar; v++)
		run_once(argv, var[v].envp, tmp, tmp + 1);
	for (int r = 0; r < n; r++) {
		for (int k = 0; k < nvar; k++) {
			int v = (r + k) % nvar;

			var[v].us[r] = run_once(argv, var[v].envp, &var[v].cpu[r], &var[v].flt[r]);
		}
	}
	report("wall", var, nvar, n, tmp, WALL);
	report("cpu", var, nvar, n, tmp, CPU);
	report("faults", var, nvar, n, tmp, FAULTS);
	printf("(us per process, %d rounds of fork+exec+wait of %s; wall: fork to reaped, cpu: the child's "
	       "user+system time; faults: its minor page faults (a count, not us); d_median: median of the per-round differences against %s)\n",
	       n, argv[0], var[0].label);
	return 0;
}
