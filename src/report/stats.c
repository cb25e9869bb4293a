/* SPDX-License-Identifier: MIT */
/* Counts calls per thread in slots of a static array, only when asked, and reports their sum at exit. */
#include "report/stats.h"

#include <sys/mman.h>

#include "arch/arch.h"
#include "report/clocknames.h"
#include "report/errfd.h"
#include "base/once.h"
#include "base/pages.h"
#include "base/sys.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18 /* Linux 4.14 */
#endif

#define CLOCKS FR_STATS_CLOCKS
#define OTHER (CLOCKS - 1)

/*
 * Whole pages, so that a fork child can have them zeroed by the kernel (MADV_WIPEONFORK). The
 * last slot is shared, with atomic increments, by every thread that found no free slot; slots
 * are never reused, since the counts of a thread that exited must still be reported.
 */
#define SLOTS 512
#define SHARED (SLOTS - 1)
#define SLOTS_SIZE (SLOTS * sizeof(struct fr_stats_slot))
_Static_assert(SLOTS_SIZE % 4096 == 0, "the slots fill whole pages");
FR_PAGE_BUFFER(slot_space, SLOTS_SIZE);
#define slots ((struct fr_stats_slot *)fr_page_up(slot_space))

/*
 * The counting's own words, apart from the table of base/once.h: raw_target is read on every
 * counted RAW call, by one load as the hot path's words are.
 */
static struct {
	unsigned claimed; /* slots handed out; outside the wiped pages, so a fork child hands out new ones */
	int started;      /* fr_stats_start's one-time set-up done */
	fr_raw_fn raw_target;
	int (*atfork_reg)(void (*child)(void)); /* fr_stats_atfork_via's function; NULL: fork children cannot be helped */
} st;

/* The model repeated: GCC 12 took the general-dynamic model for the definition despite the header's. */
__thread struct fr_stats_slot *fr_stats_mine __attribute__((tls_model(FR_TLS_MODEL)));

/*
 * The first counted call of a thread takes the next slot, without a lock. A signal handler that
 * takes one between the two steps below leaves one slot unused, but no count is lost.
 */
static struct fr_stats_slot *claim(void)
{
	unsigned i = __atomic_load_n(&st.claimed, __ATOMIC_RELAXED);

	if (i >= SHARED)
		return NULL;
	i = __atomic_fetch_add(&st.claimed, 1, __ATOMIC_RELAXED);
	if (i >= SHARED)
		return NULL;
	fr_stats_mine = &slots[i];
	return fr_stats_mine;
}

void fr_stats_pass_first(clockid_t clk)
{
	struct fr_stats_slot *s = claim();
	int c = fr_stats_clock_index(clk);

	if (s)
		fr_stats_bump(&s->pass[c]);
	else
		__atomic_fetch_add(&slots[SHARED].pass[c], 1, __ATOMIC_RELAXED);
}

void fr_stats_served_first(clockid_t clk)
{
	struct fr_stats_slot *s = claim();
	int c = fr_stats_clock_index(clk);

	if (s)
		fr_stats_bump(&s->fast[c]);
	else
		__atomic_fetch_add(&slots[SHARED].fast[c], 1, __ATOMIC_RELAXED);
}

void fr_stats_pass(clockid_t clk)
{
	if (FR_UNLIKELY(fr_hot.stats_on))
		fr_stats_pass_on(clk);
}

static __attribute__((noinline)) int raw_counting_first(struct timespec *ts)
{
	struct fr_stats_slot *s = claim();

	if (s)
		fr_stats_bump(&s->raw);
	else
		__atomic_fetch_add(&slots[SHARED].raw, 1, __ATOMIC_RELAXED);
	return st.raw_target(ts);
}

/* Every RAW call; those the fast path did not serve are counted again in fr_stats_pass. */
static int raw_counting(struct timespec *ts)
{
	struct fr_stats_slot *s = fr_stats_mine;

	if (FR_UNLIKELY(s == NULL))
		return raw_counting_first(ts);
	fr_stats_bump(&s->raw);
	return st.raw_target(ts);
}

/* Where the kernel cannot wipe the slots in a fork child (before 4.14), the child does. */
static void forget_parent_counts(void)
{
	__builtin_memset(slots, 0, SLOTS_SIZE);
}

void fr_stats_atfork_via(int (*reg)(void (*child)(void)))
{
	__atomic_store_n(&st.atfork_reg, reg, __ATOMIC_RELEASE);
}

fr_raw_fn fr_stats_start(fr_raw_fn target)
{
	st.raw_target = target;
	if (FR_CLAIM(&st.started, 0, 1)) {
		int (*reg)(void (*)(void)) = __atomic_load_n(&st.atfork_reg, __ATOMIC_ACQUIRE);

		if (fr_sys_madvise(slots, SLOTS_SIZE, MADV_WIPEONFORK) != 0 && reg)
			reg(forget_parent_counts);
	}
	__atomic_store_n(&fr_hot.stats_on, 1, __ATOMIC_RELEASE);
	return raw_counting;
}

/* The counts of every slot handed out (of threads alive or gone) and of the shared one. */
static void sum(struct fr_stats_slot *total)
{
	unsigned n = __atomic_load_n(&st.claimed, __ATOMIC_RELAXED);

	__builtin_memset(total, 0, sizeof(*total));
	if (n > SHARED)
		n = SHARED;
	for (unsigned i = 0; i <= n; i++) {
		const struct fr_stats_slot *s = &slots[i == n ? SHARED : i];

		total->raw += __atomic_load_n(&s->raw, __ATOMIC_RELAXED);
		for (int c = 0; c < CLOCKS; c++) {
			total->pass[c] += __atomic_load_n(&s->pass[c], __ATOMIC_RELAXED);
			total->fast[c] += __atomic_load_n(&s->fast[c], __ATOMIC_RELAXED);
		}
	}
}

static void add_clock(struct fr_line *l, int c)
{
	const char *name = c == OTHER ? "other" : fr_clock_name((clockid_t)c);

	if (name) {
		fr_line_add(l, name);
		return;
	}
	fr_line_add(l, "clock ");
	fr_line_add_uint(l, (unsigned long)c);
}

void fr_stats_format(struct fr_line *l)
{
	struct fr_stats_slot t;
	uint64_t raw_pass;

	sum(&t);
	raw_pass = t.pass[CLOCK_MONOTONIC_RAW];
	fr_line_add(l, "stats: MONOTONIC_RAW fast=");
	/* RAW calls made before counting started can pass through without being counted in raw. */
	fr_line_add_uint(l, t.raw > raw_pass ? t.raw - raw_pass : 0);
	fr_line_add(l, " passthrough=");
	fr_line_add_uint(l, raw_pass);
	for (int c = 0; c < CLOCKS; c++) {
		if (c == CLOCK_MONOTONIC_RAW || (t.pass[c] == 0 && t.fast[c] == 0))
			continue;
		fr_line_add(l, ", ");
		add_clock(l, c);
		/* Only a served clock (FASTRAW_CLOCKS) has fast calls: the default line stays as it was. */
		if (t.fast[c]) {
			fr_line_add(l, " fast=");
			fr_line_add_uint(l, t.fast[c]);
		}
		fr_line_add(l, " passthrough=");
		fr_line_add_uint(l, t.pass[c]);
	}
}

static void __attribute__((destructor)) report_at_exit(void)
{
	struct fr_line l;

	/* Only to the stderr noted at start-up (report/errfd.h): never into a file put on fd 2 since. */
	if (!__atomic_load_n(&fr_hot.stats_on, __ATOMIC_ACQUIRE) || !fr_errfd_unchanged())
		return;
	fr_line_start(&l);
	fr_stats_format(&l);
	fr_line_emit(&l);
}
