/* SPDX-License-Identifier: MIT */
/* Counts calls per clock id with relaxed atomics, only when asked, and reports them at exit. */
#include "sys/stats.h"

#include <string.h>

#include "sys/clocknames.h"
#include "sys/log.h"

/* Slots 0..11 for the named clock ids, the last for every other id (CPU clocks, invalid ids). */
#define SLOTS 13
#define OTHER (SLOTS - 1)

int fr_stats_on;
static uint64_t raw_calls;
static uint64_t passed[SLOTS];
static fr_raw_fn raw_target;

static int slot(clockid_t clk)
{
	return clk >= 0 && clk < OTHER ? (int)clk : OTHER;
}

void fr_stats_pass(clockid_t clk)
{
	if (__builtin_expect(fr_stats_on, 0))
		__atomic_fetch_add(&passed[slot(clk)], 1, __ATOMIC_RELAXED);
}

/* Every RAW call; those the fast path did not serve are counted again in fr_stats_pass. */
static int raw_counting(struct timespec *ts)
{
	__atomic_fetch_add(&raw_calls, 1, __ATOMIC_RELAXED);
	return raw_target(ts);
}

fr_raw_fn fr_stats_start(fr_raw_fn target)
{
	raw_target = target;
	__atomic_store_n(&fr_stats_on, 1, __ATOMIC_RELEASE);
	return raw_counting;
}

static size_t put(char *buf, size_t len, size_t at, const char *s)
{
	while (*s && at + 1 < len)
		buf[at++] = *s++;
	buf[at < len ? at : len - 1] = '\0';
	return at;
}

static size_t put_u64(char *buf, size_t len, size_t at, uint64_t v)
{
	char digits[21];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n && at + 1 < len)
		buf[at++] = digits[--n];
	buf[at < len ? at : len - 1] = '\0';
	return at;
}

static size_t put_clock(char *buf, size_t len, size_t at, int s)
{
	const char *name = s == OTHER ? "other" : fr_clock_name((clockid_t)s);

	if (name)
		return put(buf, len, at, name);
	at = put(buf, len, at, "clock ");
	return put_u64(buf, len, at, (uint64_t)s);
}

void fr_stats_format(char *buf, size_t len)
{
	uint64_t raw_pass = __atomic_load_n(&passed[CLOCK_MONOTONIC_RAW], __ATOMIC_RELAXED);
	uint64_t raw_all = __atomic_load_n(&raw_calls, __ATOMIC_RELAXED);
	size_t at = put(buf, len, 0, "fastraw: stats: MONOTONIC_RAW fast=");

	/* RAW calls made before counting started can pass through uncounted in raw_calls. */
	at = put_u64(buf, len, at, raw_all > raw_pass ? raw_all - raw_pass : 0);
	at = put(buf, len, at, " passthrough=");
	at = put_u64(buf, len, at, raw_pass);
	for (int s = 0; s < SLOTS; s++) {
		uint64_t n = __atomic_load_n(&passed[s], __ATOMIC_RELAXED);

		if (s == CLOCK_MONOTONIC_RAW || n == 0)
			continue;
		at = put(buf, len, at, ", ");
		at = put_clock(buf, len, at, s);
		at = put(buf, len, at, " passthrough=");
		at = put_u64(buf, len, at, n);
	}
}

static void __attribute__((destructor)) report_at_exit(void)
{
	struct fr_line l;

	if (!__atomic_load_n(&fr_stats_on, __ATOMIC_ACQUIRE))
		return;
	fr_line_init(&l);
	fr_stats_format(l.buf, sizeof(l.buf) - 1);
	l.len = strlen(l.buf);
	fr_line_emit(&l);
}
