/* SPDX-License-Identifier: MIT */
/* Probe linked against libfastraw (no preload needed): the public API against the kernel's raw syscall. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fastraw.h"
#include "probe.h"

/* What the API answered before any constructor ran (from the executable's preinit array). */
static int64_t pre_now, pre_conv, pre_k0, pre_k1;
static int pre_info;
/* fastraw_clock_gettime there: MONOTONIC between two kernel reads, and a NULL timespec's errno. */
static int pre_clock_in, pre_clock_null_errno;
/* Whether the preinit array ran at all: musl runs none. */
static int pre_ran;

static void preinit(int argc, char **argv, char **envp)
{
	struct timespec a, b;
	struct fastraw_info in = { .size = sizeof(in) };
	uint64_t t;

	(void)envp;
	/* libc has not set environ yet here: the library cannot see FASTRAW_* this early. */
	if (argc > 2 && strcmp(argv[2], "nopre") == 0)
		return;
	pre_ran = 1;
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	pre_now = fastraw_now_ns();
	t = fastraw_ticks();
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	pre_conv = fastraw_ticks_to_ns(t);
	pre_info = fastraw_info(&in);
	pre_k0 = ts_ns(&a);
	pre_k1 = ts_ns(&b);
	{
		struct timespec m = { -1, -1 };
		int saved = errno, ret;

		k_clock_gettime(CLOCK_MONOTONIC, &a);
		errno = 4321;
		ret = fastraw_clock_gettime(CLOCK_MONOTONIC, &m);
		k_clock_gettime(CLOCK_MONOTONIC, &b);
		pre_clock_in = ret == 0 && errno == 4321 && ts_ns(&a) <= ts_ns(&m) && ts_ns(&m) <= ts_ns(&b);
		errno = 0;
		pre_clock_null_errno = fastraw_clock_gettime(CLOCK_MONOTONIC, NULL) == -1 ? errno : 0;
		errno = saved;
	}
}
__attribute__((section(".preinit_array"), used)) static void (*const preinit_fn)(int, char **, char **) = preinit;

static int now_fn(clockid_t clk, struct timespec *ts)
{
	int64_t ns = fastraw_now_ns();

	(void)clk;
	ts->tv_sec = (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
	return ns < 0 ? -1 : 0;
}

/* A tick read between two kernel reads converts into that window; returns how far outside, 0 if inside. */
static int64_t conv_outside(unsigned sleep_us, int64_t *conv)
{
	struct timespec a, b;
	uint64_t t;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t = fastraw_ticks();
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	if (sleep_us)
		usleep(sleep_us);
	*conv = fastraw_ticks_to_ns(t);
	if (*conv < ts_ns(&a))
		return ts_ns(&a) - *conv;
	return *conv > ts_ns(&b) ? *conv - ts_ns(&b) : 0;
}

static void *thread_main(void *arg)
{
	struct e2e_tally *t = arg;

	for (int i = 0; i < 100000; i++)
		e2e_bracket(t, now_fn, CLOCK_MONOTONIC_RAW);
	return NULL;
}

static volatile sig_atomic_t sig_ok = -1;

static void on_signal(int sig)
{
	struct e2e_tally t = { 0 };
	struct fastraw_info in = { .size = sizeof(in) };
	uint64_t a = fastraw_ticks(), b = fastraw_ticks();

	(void)sig;
	e2e_bracket(&t, now_fn, CLOCK_MONOTONIC_RAW);
	sig_ok = t.violations == 0 && b >= a && fastraw_info(&in) == 0 &&
		 (fastraw_ticks_to_ns(a) > 0 || !in.active);
}

/* fastraw_clock_gettime in the bracket's type, errno checked untouched on success. */
static int clock_api(clockid_t clk, struct timespec *ts)
{
	int ret;

	errno = 4321;
	ret = fastraw_clock_gettime(clk, ts);
	return ret == 0 && errno != 4321 ? -2 : ret;
}

/*
 * Every clock id 0..15 and bad ones through fastraw_clock_gettime, against the kernel's own
 * answer to the same call (the syscall instruction): the same 0 or -1 and errno, NULL answered
 * as the kernel answers it, errno untouched on success, and every answer inside a bracket of
 * two kernel reads of that clock. Prints clock_ids=, clock_rc_wrong=, clock_null_wrong=,
 * clock_samples=, clock_violations= and a line for each wrong id.
 */
static void clock_every_id(long n)
{
	static const int bad[] = { 16, 12345, -1, INT_MAX, INT_MIN };
	struct e2e_tally all = { 0 };
	int ids = 0, rc_wrong = 0, null_wrong = 0;

	for (int i = 0; i < 16 + (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		int clk = i < 16 ? i : bad[i - 16], ret, err, kerr, knull;
		struct timespec ts;
		long kret = syscall(FRT_SYS_CLOCK_GETTIME, (long)clk, &ts);

		kerr = kret ? errno : 0;
		knull = syscall(FRT_SYS_CLOCK_GETTIME, (long)clk, NULL) == -1 ? errno : 0;
		errno = 4321;
		ret = fastraw_clock_gettime(clk, &ts);
		err = errno;
		if (ret != (kret ? -1 : 0) || err != (kret ? kerr : 4321)) {
			printf("clock_wrong=id %d: returned %d errno %d, the kernel %ld errno %d\n", clk, ret, err, kret, kerr);
			rc_wrong++;
		}
		errno = 4321;
		ret = fastraw_clock_gettime(clk, NULL);
		if (ret != -1 || errno != knull) {
			printf("clock_null_wrong=id %d: returned %d errno %d, the kernel errno %d\n", clk, ret, errno, knull);
			null_wrong++;
		}
		ids++;
		if (kret)
			continue;
		for (long k = 0; k < n; k++)
			e2e_bracket(&all, clock_api, clk);
	}
	printf("clock_ids=%d\nclock_rc_wrong=%d\nclock_null_wrong=%d\n", ids, rc_wrong, null_wrong);
	e2e_tally_print("clock_", &all);
}

/* Where a field ends: the library fills exactly the fields that fit whole in size (fastraw.h). */
#define FIELD_END(f) (offsetof(struct fastraw_info, f) + sizeof(((struct fastraw_info *)0)->f))

/*
 * fastraw_info at every size from 0 to past the struct's, each into a buffer of 0x55 bytes:
 * below size and active -1 with nothing written; else 0, size set to the end of the last whole
 * field, those fields equal to a full call's and not one byte written after them. Prints one
 * line per wrong size and the count.
 */
static void info_every_size(const struct fastraw_info *full)
{
	static const size_t ends[] = {
		FIELD_END(active), FIELD_END(kernel), FIELD_END(era), FIELD_END(clock_mode),
		FIELD_END(counter), FIELD_END(reason), FIELD_END(source), FIELD_END(era_note),
	};
	unsigned char buf[sizeof(struct fastraw_info) + 32] __attribute__((aligned(16)));
	int bad = 0;

	for (size_t size = 0; size <= sizeof(struct fastraw_info) + 16; size++) {
		struct fastraw_info *in = (struct fastraw_info *)buf;
		size_t want = 0, from;
		int ret, ok;

		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
			want = size >= ends[i] ? ends[i] : want;
		memset(buf, 0x55, sizeof(buf));
		in->size = size;
		ret = fastraw_info(in);
		if (!want) {
			ok = ret == -1 && in->size == size;
			from = sizeof(in->size);
		} else {
			ok = ret == 0 && in->size == want && in->active == full->active;
			ok &= want < FIELD_END(kernel) || in->kernel == full->kernel;
			ok &= want < FIELD_END(era) || in->era == full->era;
			ok &= want < FIELD_END(clock_mode) || in->clock_mode == full->clock_mode;
			ok &= want < FIELD_END(counter) || in->counter == full->counter;
			ok &= want < FIELD_END(reason) || in->reason == full->reason;
			ok &= want < FIELD_END(source) || in->source == full->source;
			ok &= want < FIELD_END(era_note) || in->era_note == full->era_note;
			from = want;
		}
		for (size_t i = from; i < sizeof(buf); i++)
			ok &= buf[i] == 0x55;
		if (!ok) {
			printf("info_size_wrong=size %zu: returned %d, size %zu (want %zu)\n", size, ret, in->size, want);
			bad++;
		}
	}
	printf("info_sizes_wrong=%d\n", bad);
}

int main(int argc, char **argv)
{
	static const unsigned sleeps_us[] = { 10000, 50000, 200000 };
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct e2e_tally now = { 0 }, th[2] = { { 0 }, { 0 } };
	struct fastraw_info in, small;
	int small_ret;
	int64_t conv = 0, worst = 0, late_worst = 0, unconv = 0;
	pthread_t tid[2];

	memset(&in, 0x55, sizeof(in));
	in.size = sizeof(in);
	printf("info_ret=%d\n", fastraw_info(&in));
	printf("info_full=%d\n", in.size == sizeof(in));
	printf("info_size=%zu\nactive=%d\nera=%s\nclock_mode=%s\ncounter=%s\nreason=%s\nkernel=%s\n", in.size,
	       in.active, in.era, in.clock_mode, in.counter, in.reason, in.kernel);
	/* The last field: "" where the release names the era, else "assumed: ..." (never unfilled). */
	printf("era_note_ok=%d\n", in.era_note != NULL && (in.era_note[0] == '\0' || strncmp(in.era_note, "assumed: ", 9) == 0));
	memset(&small, 0x55, sizeof(small));
	small.size = offsetof(struct fastraw_info, kernel);
	/* Called before the printf: its arguments may be read in any order. */
	small_ret = fastraw_info(&small);
	printf("info_small_ret=%d\ninfo_small_size=%zu\ninfo_small_untouched=%d\n", small_ret, small.size,
	       small.kernel == in.kernel ? 0 : 1);
	/* The whole fields before kernel: size and active (12 bytes with a 64-bit size_t, 8 with a 32-bit one). */
	printf("info_small_want=%zu\n", FIELD_END(active));
	printf("info_null=%d\n", fastraw_info(NULL));
	info_every_size(&in);

	for (long i = 0; i < n; i++)
		e2e_bracket(&now, now_fn, CLOCK_MONOTONIC_RAW);
	e2e_tally_print("now_", &now);
	clock_every_id(n / 20);
	for (int i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, thread_main, &th[i]);
	for (int i = 0; i < 2; i++) {
		pthread_join(tid[i], NULL);
		e2e_tally_add(&now, &th[i]);
	}
	e2e_tally_print("threads_", &now);

	for (long i = 0; i < n / 10; i++) {
		int64_t d = conv_outside(0, &conv);

		unconv += conv == -1;
		worst = d > worst ? d : worst;
	}
	printf("conv_worst_ns=%lld\nconv_failed=%lld\nconv_last=%lld\n", (long long)worst, (long long)unconv,
	       (long long)conv);
	for (size_t i = 0; i < sizeof(sleeps_us) / sizeof(sleeps_us[0]); i++) {
		int64_t d = conv_outside(sleeps_us[i], &conv);

		printf("late_%uus_outside_ns=%lld\n", sleeps_us[i], (long long)d);
		late_worst = d > late_worst ? d : late_worst;
	}
	printf("late_worst_ns=%lld\n", (long long)late_worst);
	printf("ticks_order=%d\n", fastraw_ticks() <= fastraw_ticks());

	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	printf("signal_ok=%d\n", (int)sig_ok);

	if (argc <= 2) {
		printf("pre_info=%d\npre_now_in=%d\n", pre_info, pre_now >= pre_k0 && pre_now <= pre_k1);
		printf("pre_conv_in=%d\n", pre_conv >= pre_k0 && pre_conv <= pre_k1);
		printf("pre_ran=%d\npre_clock_in=%d\npre_clock_null_errno=%d\n", pre_ran, pre_clock_in,
		       pre_clock_null_errno);
	}
	printf("served=%s\n", e2e_served_by("fastraw_now_ns"));
	return 0;
}
