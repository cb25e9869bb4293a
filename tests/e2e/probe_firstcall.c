/* SPDX-License-Identifier: MIT */
/* Probe: the first call of each async-signal-safe export made where the loader's lock may be held: in a child forked from a threaded parent, in a handler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child or a handler calls first: each one resolves a different next definition. */
static void first_call(int which)
{
	struct timespec ts;

	switch (which) {
	case 0: clock_gettime(CLOCK_MONOTONIC, &ts); break;
	case 1: clock_gettime(CLOCK_REALTIME, &ts); break;
	case 2: syscall(SYS_getpid); break;
	case 3: getauxval(AT_PAGESZ); break;
	default: clock_gettime(CLOCK_MONOTONIC_RAW, &ts); break;
	}
}

#define KINDS 5

static char plugin[PATH_MAX];
static volatile int stop;

/* Takes the loader's lock over and over: dlopen and dlclose of a library not loaded otherwise. */
static void *opener(void *arg)
{
	(void)arg;
	while (!stop) {
		void *h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);

		if (h)
			dlclose(h);
	}
	return NULL;
}

static int none(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)info;
	(void)size;
	(void)arg;
	return 0;
}

static void *iterator(void *arg)
{
	(void)arg;
	while (!stop)
		dl_iterate_phdr(none, NULL);
	return NULL;
}

/* A child that hangs is killed by its alarm: counted, never waited for longer than that. */
static int hung(pid_t p)
{
	int st;

	if (p < 0 || waitpid(p, &st, 0) != p)
		return 1;
	return WIFSIGNALED(st) || WEXITSTATUS(st) != 0;
}

static int forked(int runs)
{
	pthread_t a, b;
	int bad = 0;

	pthread_create(&a, NULL, opener, NULL);
	pthread_create(&b, NULL, iterator, NULL);
	for (int i = 0; i < runs; i++) {
		pid_t p = fork();

		if (p == 0) {
			alarm(2);
			first_call(i % KINDS);
			_exit(0);
		}
		bad += hung(p);
	}
	stop = 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return bad;
}

static int kind;

static void handler(int sig)
{
	(void)sig;
	first_call(kind);
	stop = 1;
}

/* In a fresh process each time: a handler's first call interrupts a thread inside dl_iterate_phdr. */
static int signalled(int runs)
{
	int bad = 0;

	for (int i = 0; i < runs; i++) {
		pid_t p = fork();

		if (p == 0) {
			struct timespec d = { 0, 100000 + (i % 97) * 1000 };
			pthread_t t;

			alarm(2);
			kind = i % KINDS;
			signal(SIGUSR1, handler);
			pthread_create(&t, NULL, iterator, NULL);
			nanosleep(&d, NULL);
			pthread_kill(t, SIGUSR1);
			pthread_join(t, NULL);
			_exit(0);
		}
		bad += hung(p);
	}
	return bad;
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 50;
	char self[PATH_MAX];

	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(plugin, sizeof(plugin), "%s/libe2e_ctor.so", dirname(self));
	if (argc > 1 && strcmp(argv[1], "signal") == 0)
		printf("hung=%d\nruns=%d\n", signalled(runs), runs);
	else
		printf("hung=%d\nruns=%d\n", forked(runs), runs);
	return 0;
}
