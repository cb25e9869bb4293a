/* SPDX-License-Identifier: MIT */
/* Probe: the process's first CLOCK_MONOTONIC_RAW read where it can hurt: after clearenv or putenv, jumped out of, during a fork, on a small stack. */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "callregs.h"
#include "probe.h"

/* The library's fastraw_info, when it is there (the probe is never linked with it). */
struct info {
	size_t size;
	int active;
	const char *kernel, *era, *clock_mode, *counter, *reason, *source, *era_note;
};

static int info(struct info *i)
{
	int (*f)(struct info *) = (int (*)(struct info *))dlsym(RTLD_DEFAULT, "fastraw_info");

	memset(i, 0, sizeof(*i));
	i->size = sizeof(*i);
	return f ? f(i) : -2;
}

static void show_info(const char *prefix)
{
	struct info i;
	int rc = info(&i);

	printf("%sinfo_rc=%d\n", prefix, rc);
	if (rc == 0)
		printf("%sactive=%d\n%sreason=%s\n%ssource=%s\n", prefix, i.active, prefix, i.reason, prefix, i.source);
}

static int raw_ok(void)
{
	struct timespec ts;
	int64_t lo = e2e_kernel_raw_ns(), t, hi;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		return 0;
	t = ts_ns(&ts);
	hi = e2e_kernel_raw_ns();
	return lo <= t && t <= hi;
}

/*
 * syscall()'s RAW calls, SYS_CALLS of them: 1 when every one answered 0. Each timespec lies in
 * the slot syscall()'s fast path serves whatever the stack's offset in its page (callregs.h): a
 * local here misses it in the runs where a page boundary falls between it and the return
 * address, every call then the kernel's.
 */
#define SYS_CALLS 1000

static int sys_ok(void)
{
	struct timespec ts;

	for (int i = 0; i < SYS_CALLS; i++)
		if (e2e_syscall_clock(CLOCK_MONOTONIC_RAW, &ts) != 0)
			return 0;
	return 1;
}

/*
 * clearenv, putenv: the program changes its environment before its first RAW read, and before
 * its first syscall(), whose RAW calls come first.
 */
static int env_case(const char *how)
{
	/* A daemon's scrub: clear everything, then set what its children need. */
	if (strcmp(how, "clearenv") == 0) {
		if (clearenv() != 0 || setenv("PATH", "/usr/bin:/bin", 1) != 0)
			return 2;
	} else if (putenv("FASTRAW_SOURCE=calibrated") != 0 || putenv("FASTRAW_DEBUG=1") != 0 ||
		 putenv("FASTRAW_DISABLE=1") != 0 || putenv("FASTRAW_SYSCALL=1") != 0)
		return 2;
	printf("sys_ok=%d\n", sys_ok());
	printf("raw_ok=%d\n", raw_ok());
	show_info("");
	return 0;
}

/*
 * jump: SIGALRM's handler siglongjmps out of the first RAW read, wherever the timer lands in it.
 * One child per delay, each a fresh process whose first read it is (the parent never reads RAW);
 * each child then reads again from main's frame and asks fastraw_info.
 */
static sigjmp_buf back;
static volatile sig_atomic_t in_read;

static void on_alarm(int sig)
{
	(void)sig;
	if (in_read)
		siglongjmp(back, 1);
}

static __attribute__((noinline)) void first_read(void)
{
	struct timespec ts;

	in_read = 1;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	in_read = 0;
}

static int jump_child(long delay_ns)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec it = { .it_value = { 0, delay_ns } };
	timer_t t;
	volatile int jumped = 0;

	signal(SIGALRM, on_alarm);
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
		return 2;
	if (!sigsetjmp(back, 1)) {
		timer_settime(t, 0, &it, NULL);
		first_read();
	} else {
		jumped = 1;
	}
	in_read = 0;
	timer_delete(t);
	/* A later read, from higher up than the one jumped out of, and the library's own report. */
	if (!raw_ok())
		return 3;
	if (info(&(struct info){ 0 }) != 0)
		return 4 + jumped;
	return jumped ? 10 : 0;
}

static int jump_case(int children)
{
	int jumped = 0, stuck = 0, other = 0;

	for (int c = 0; c < children; c++) {
		int st;
		pid_t pid = fork();

		if (pid == 0)
			_exit(jump_child(1000 + (long)c * 250));
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 2;
		jumped += WEXITSTATUS(st) == 10 || WEXITSTATUS(st) == 5;
		stuck += WEXITSTATUS(st) == 4 || WEXITSTATUS(st) == 5;
		other += WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 10 && WEXITSTATUS(st) != 4 && WEXITSTATUS(st) != 5;
	}
	printf("children=%d\njumped=%d\nstuck=%d\nother=%d\n", children, jumped, stuck, other);
	return 0;
}

/*
 * fork: one thread makes the first RAW read while the main thread forks, again and again until
 * that read is over, each round in a fresh process; every child reads RAW and asks fastraw_info.
 */
static volatile int reader_done;

static void *reader(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	reader_done = 1;
	return NULL;
}

static int fork_round(void)
{
	pid_t kids[64];
	int n = 0, bad = 0, st;
	pthread_t th;

	if (pthread_create(&th, NULL, reader, NULL) != 0)
		return 2;
	while (n < 64 && (n == 0 || !reader_done)) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(raw_ok() && raw_ok() && info(&(struct info){ 0 }) == 0 ? 0 : 4);
		if (pid < 0)
			return 2;
		kids[n++] = pid;
	}
	pthread_join(th, NULL);
	for (int i = 0; i < n; i++) {
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st))
			return 2;
		if (WEXITSTATUS(st) == 4)
			bad = 4;
		else if (WEXITSTATUS(st) != 0)
			return 2;
	}
	return bad;
}

/*
 * forkin: SIGALRM's handler forks inside the first RAW read, wherever the timer lands in it (one
 * process per delay); the child, whose thread is inside the read only in its parent, reads RAW
 * and asks fastraw_info.
 */
static volatile int fork_child_status = -1;

static void on_alarm_fork(int sig)
{
	pid_t pid;
	int st;

	(void)sig;
	if (!in_read)
		return;
	pid = fork();
	if (pid == 0)
		_exit(raw_ok() && raw_ok() && info(&(struct info){ 0 }) == 0 ? 0 : 4);
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		fork_child_status = WEXITSTATUS(st);
	else
		fork_child_status = 2;
}

static int forkin_child(long delay_ns)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec it = { .it_value = { 0, delay_ns } };
	timer_t t;

	signal(SIGALRM, on_alarm_fork);
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
		return 2;
	timer_settime(t, 0, &it, NULL);
	first_read();
	timer_delete(t);
	return fork_child_status < 0 ? 0 : fork_child_status == 0 ? 10 : fork_child_status;
}

static int forkin_case(int children)
{
	int forked = 0, stuck = 0, other = 0;

	for (int c = 0; c < children; c++) {
		int st, code;
		pid_t pid = fork();

		if (pid == 0)
			_exit(forkin_child(1000 + (long)c * 250));
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 2;
		code = WEXITSTATUS(st);
		forked += code == 10 || code == 4;
		stuck += code == 4;
		other += code != 0 && code != 10 && code != 4;
	}
	printf("children=%d\nforked=%d\nstuck=%d\nother=%d\n", children, forked, stuck, other);
	return 0;
}

static int fork_case(int rounds)
{
	int stuck = 0, other = 0;

	for (int r = 0; r < rounds; r++) {
		int st, code;
		pid_t pid = fork();

		if (pid == 0)
			_exit(fork_round());
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 2;
		code = WEXITSTATUS(st);
		stuck += code == 4;
		other += code != 0 && code != 4;
	}
	printf("rounds=%d\nstuck=%d\nother=%d\n", rounds, stuck, other);
	return 0;
}

/*
 * altstack: the first RAW read in a handler on an alternate stack that leaves 1 KiB beyond what a
 * handler reading the vDSO's clock needs there (the kernel's signal frame included: MINSIGSTKSZ
 * and more on CPUs with large vector state). Each use is measured on a painted 64 KiB stack.
 */
#define PAINT 0xa5
#define BIG (64 * 1024)

static volatile int handler_ok;

static void on_usr1_mono(int sig)
{
	struct timespec ts;

	(void)sig;
	handler_ok = clock_gettime(CLOCK_MONOTONIC, &ts) == 0;
}

static void on_usr1_raw(int sig)
{
	(void)sig;
	handler_ok = raw_ok();
}

/* Runs handler once on an alternate stack of size bytes (painted first when measuring); the bytes it used, or 0. */
static size_t on_altstack(void (*handler)(int), size_t size, int measure)
{
	/* A guard page right below it, as a thread's stack has: an overflow faults at once. */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *map = mmap(NULL, page + size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *space = map + page;
	stack_t ss = { .ss_sp = space, .ss_size = size };
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };
	size_t low = 0;

	if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) != 0)
		return 0;
	memset(space, PAINT, size);
	handler_ok = 0;
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		return 0;
	raise(SIGUSR1);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	while (measure && low < size && space[low] == PAINT)
		low++;
	/* Left mapped: freeing an alternate stack is the program's business, and this one is small. */
	return size - low;
}

static int altstack_case(void)
{
	/* Twice: the first call may bind clock_gettime lazily, whose resolver saves vector state there. */
	size_t vdso_use = (on_altstack(on_usr1_mono, BIG, 1), on_altstack(on_usr1_mono, BIG, 1)), small;
	int st, fds[2];
	pid_t pid;

	if (!vdso_use || !handler_ok || pipe(fds) != 0)
		return 2;
	/* The first read's own use, in a child: the parent's first read is the one on the small stack. */
	pid = fork();
	if (pid == 0) {
		size_t use = on_altstack(on_usr1_raw, BIG, 1);

		_exit(write(fds[1], &use, sizeof(use)) == sizeof(use) && handler_ok ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 2;
	size_t first_use = 0;

	if (read(fds[0], &first_use, sizeof(first_use)) != sizeof(first_use))
		return 2;
	small = (vdso_use + 1024 + 63) & ~(size_t)63;
	printf("vdso_read_use=%zu\nfirst_read_use=%zu\nfirst_read_more=%zd\naltstack_size=%zu\n", vdso_use,
	       first_use, (ssize_t)(first_use - vdso_use), small);
	fflush(stdout);
	on_altstack(on_usr1_raw, small, 0);
	printf("handler_ok=%d\n", handler_ok);
	return 0;
}

/* thread16k: the first RAW read on a thread whose whole stack is 16 KiB. */
static void *small_reader(void *arg)
{
	*(int *)arg = raw_ok();
	return NULL;
}

static int thread_case(void)
{
	pthread_attr_t a;
	pthread_t th;
	int ok = 0;

	if (pthread_attr_init(&a) != 0 || pthread_attr_setstacksize(&a, 16384) != 0 ||
	    pthread_create(&th, &a, small_reader, &ok) != 0)
		return 2;
	pthread_join(th, NULL);
	printf("thread_ok=%d\n", ok);
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "clearenv") == 0 || strcmp(argv[1], "putenv") == 0)
		rc = env_case(argv[1]);
	else if (strcmp(argv[1], "jump") == 0)
		rc = jump_case(argc > 2 ? atoi(argv[2]) : 400);
	else if (strcmp(argv[1], "forkin") == 0)
		rc = forkin_case(argc > 2 ? atoi(argv[2]) : 400);
	else if (strcmp(argv[1], "fork") == 0)
		rc = fork_case(argc > 2 ? atoi(argv[2]) : 200);
	else if (strcmp(argv[1], "altstack") == 0)
		rc = altstack_case();
	else if (strcmp(argv[1], "thread16k") == 0)
		rc = thread_case();
	else
		rc = 2;
	fflush(stdout);
	return rc;
}
