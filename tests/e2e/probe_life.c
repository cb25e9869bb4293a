/* SPDX-License-Identifier: MIT */
/* Probe: CLOCK_MONOTONIC_RAW stays inside the kernel bracket across fork, in signal handlers and under racing first calls. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

#define RAW CLOCK_MONOTONIC_RAW
#define FORK_SAMPLES 100000
#define FORK_STORM 50
#define SIGNAL_MAIN_SAMPLES 300000
#define RACE_THREADS 8
#define RACE_SAMPLES 2000

static int loop(const char *name, uint64_t n)
{
	struct e2e_tally t = { 0 };
	char prefix[64];

	for (uint64_t i = 0; i < n; i++)
		e2e_bracket(&t, clock_gettime, RAW);
	snprintf(prefix, sizeof(prefix), "%s_", name);
	e2e_tally_print(prefix, &t);
	return t.violations == 0 ? 0 : 1;
}

/* Runs loop() in a child and reports whether the child exited with 0. */
static int in_child(const char *name, uint64_t n)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int r = loop(name, n);

		fflush(stdout);
		_exit(r);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("%s: child failed (wait status 0x%x)\n", name, st);
		return 1;
	}
	return 0;
}

static atomic_int stop;

static void *spin_reader(void *arg)
{
	struct e2e_tally *t = arg;

	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		e2e_bracket(t, clock_gettime, RAW);
	return NULL;
}

static int do_fork(void)
{
	struct e2e_tally spin = { 0 };
	pthread_t tid;
	int bad = 0;

	/* A child forked before this process made any call of its own. */
	bad |= in_child("before_first_call", FORK_SAMPLES);
	bad |= loop("parent", FORK_SAMPLES);
	bad |= in_child("after_first_call", FORK_SAMPLES);
	/* Forks while another thread is inside clock_gettime: nothing may be left held in the child. */
	if (pthread_create(&tid, NULL, spin_reader, &spin) != 0)
		return 1;
	for (int i = 0; i < FORK_STORM && !bad; i++)
		bad |= in_child("storm", 100);
	atomic_store(&stop, 1);
	pthread_join(tid, NULL);
	e2e_tally_print("spinner_", &spin);
	return bad || spin.violations ? 1 : 0;
}

static struct e2e_tally sig_tally;
static sem_t usr1_handled;

static void on_signal(int sig)
{
	int saved = errno;

	e2e_bracket(&sig_tally, clock_gettime, RAW);
	if (sig == SIGUSR1)
		sem_post(&usr1_handled);
	errno = saved;
}

/* Sends SIGUSR1 to the main thread, one at a time, each after the previous one was handled and
   a pause that lets the main thread run on: signals land all over its loop but never starve it. */
static void *signaller(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;
	const struct timespec pause = { 0, 10000 };

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		pthread_kill(main_thread, SIGUSR1);
		while (sem_wait(&usr1_handled) != 0)
			;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	/* Handlers do not nest: each one owns sig_tally while it runs. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
}

static int do_signal(void)
{
	struct itimerval every = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct e2e_tally main_tally = { 0 };
	pthread_t self = pthread_self(), tid;
	sigset_t block, old;

	sem_init(&usr1_handled, 0, 0);
	install();
	/* Only the main thread takes the signals, so that sig_tally has one writer. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (pthread_create(&tid, NULL, signaller, &self) != 0)
		return 1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	setitimer(ITIMER_REAL, &every, NULL);
	for (int i = 0; i < SIGNAL_MAIN_SAMPLES; i++)
		e2e_bracket(&main_tally, clock_gettime, RAW);
	setitimer(ITIMER_REAL, &off, NULL);
	/* The signals still pending reach this thread, also while it waits in pthread_join. */
	atomic_store(&stop, 1);
	pthread_join(tid, NULL);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	e2e_tally_print("main_", &main_tally);
	e2e_tally_print("handler_", &sig_tally);
	return main_tally.violations || sig_tally.violations ? 1 : 0;
}

/* The process's first call of clock_gettime happens inside a signal handler. */
static int do_sigfirst(void)
{
	install();
	raise(SIGUSR1);
	e2e_tally_print("handler_", &sig_tally);
	if (sig_tally.samples != 1 || sig_tally.violations)
		return 1;
	return loop("after", FORK_SAMPLES);
}

struct racer {
	pthread_t tid;
	struct e2e_tally t;
};

static atomic_int go;

static void *race(void *arg)
{
	struct racer *r = arg;

	while (!atomic_load_explicit(&go, memory_order_acquire))
		sched_yield();
	for (int i = 0; i < RACE_SAMPLES; i++)
		e2e_bracket(&r->t, clock_gettime, RAW);
	return NULL;
}

/* Every thread's first call races with the others': lazy set-up must give all of them right answers. */
static int do_threads(void)
{
	static struct racer r[RACE_THREADS];
	struct e2e_tally sum = { 0 };

	for (int i = 0; i < RACE_THREADS; i++)
		if (pthread_create(&r[i].tid, NULL, race, &r[i]) != 0)
			return 1;
	atomic_store_explicit(&go, 1, memory_order_release);
	for (int i = 0; i < RACE_THREADS; i++) {
		pthread_join(r[i].tid, NULL);
		e2e_tally_add(&sum, &r[i].t);
	}
	e2e_tally_print("", &sum);
	return sum.violations || sum.samples != RACE_THREADS * RACE_SAMPLES ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int r;

	if (strcmp(mode, "fork") == 0)
		r = do_fork();
	else if (strcmp(mode, "signal") == 0)
		r = do_signal();
	else if (strcmp(mode, "sigfirst") == 0)
		r = do_sigfirst();
	else if (strcmp(mode, "threads") == 0)
		r = do_threads();
	else {
		printf("usage: %s fork|signal|sigfirst|threads\n", argv[0]);
		return 2;
	}
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	return r;
}
