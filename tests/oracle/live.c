/* SPDX-License-Identifier: MIT */
/* The oracle on the live pages: settled snapshots of the data page through the copied vDSO and ours, and how the page moved. */
#include "live.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vvar_entry.h"
#include "arch/arch.h"
#include "ksys.h"
#include "live_cpu.h" /* the CPU's half, in oracle/<cpu>/ */

/* Counter values per snapshot: enough to meet RAW and every served clock twice. */
#define PER_SNAPSHOT 12

const char *olive_open(void)
{
	int fatal;
	const char *why = LIVE_OPEN(&fatal);

	if (why)
		return why;
	if (LIVE_UNUSABLE()) {
		LIVE_CLOSE();
		return LIVE_UNUSABLE_WHY;
	}
	LIVE_CARRY_SHORTCUT(1);
	return NULL;
}

void olive_close(void)
{
	LIVE_CLOSE();
}

/* One base of entry e: seconds and shifted nanoseconds. */
struct base {
	uint64_t sec, nsec;
};

static struct base base_of(uint8_t *e, unsigned clk)
{
	const uint8_t *b = oe_clock_base(e, LIVE_KD.lay, clk);

	return (struct base){ oe_get64(b), oe_get64(b + 8) };
}

/* a - b in nanoseconds, the nanoseconds shifted left by shift. */
static int64_t base_diff_ns(struct base a, struct base b, uint32_t shift)
{
	return ((int64_t)a.sec - (int64_t)b.sec) * 1000000000LL + (int64_t)(a.nsec - b.nsec) / (int64_t)(1ULL << shift);
}

static int64_t raw_now_ns(void)
{
	struct timespec ts;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts_ns(&ts);
}

/* How the snapshot just taken moved against the previous one (first: no previous). */
static void note_moves(struct olive_counts *c, int first, int64_t *rt_off)
{
	uint8_t *h = oe_entry(LIVE_COPY.vvar, LIVE_KD.lay, 0, 0), *r = oe_entry(LIVE_COPY.vvar, LIVE_KD.lay, 0, 1);
	uint32_t fs = LIVE_KD.lay->field_shift, mult = oe_get32(h + FR_OFF_MULT + fs), shift = oe_get32(h + FR_OFF_SHIFT + fs);
	static uint32_t last_mult, last_raw_mult;
	uint32_t raw_mult = oe_get32(r + FR_OFF_MULT + fs);
	struct base rt = base_of(h, CLOCK_REALTIME), tai = base_of(h, CLOCK_TAI);
	int64_t off = base_diff_ns(rt, base_of(h, CLOCK_MONOTONIC), shift);
	int64_t tai_off = (int64_t)(tai.sec - rt.sec);

	if (first) {
		c->mult_first = c->mult_min = c->mult_max = mult;
		c->tai_first = tai_off;
		c->tai_seen[0] = tai_off;
		c->n_tai_seen = 1;
	} else {
		c->mult_changes += mult != last_mult;
		c->raw_mult_changes += raw_mult != last_raw_mult;
		c->rt_steps_fwd += off - *rt_off > 500000000LL;
		c->rt_steps_back += off - *rt_off < -500000000LL;
		c->tai_changes += tai_off != c->tai_last;
		if (tai_off != c->tai_last && c->n_tai_seen < 4)
			c->tai_seen[c->n_tai_seen++] = tai_off;
	}
	c->mult_min = mult < c->mult_min ? mult : c->mult_min;
	c->mult_max = mult > c->mult_max ? mult : c->mult_max;
	c->tai_last = tai_off;
	last_mult = mult;
	last_raw_mult = raw_mult;
	*rt_off = off;
}

int olive_run(const char *name, int64_t ns, struct olive_counts *c)
{
	live_tally t;
	int64_t end = raw_now_ns() + ns, rt_off = 0;
	int ok;

	memset(c, 0, sizeof(*c));
	orng_seed(31);
	LIVE_BEGIN(&t, name);
	while (raw_now_ns() < end) {
		uint64_t now;

		if (LIVE_REFRESH() != 0)
			continue;
		note_moves(c, c->snapshots == 0, &rt_off);
		c->snapshots++;
		/* The counter now and a little later: what a reader of this snapshot would meet. */
		now = fr_arch_counter_unordered();
		LIVE_ONE(&t, now);
		for (int i = 1; i < PER_SNAPSHOT; i++)
			LIVE_ONE(&t, now + orng_below(1ULL << 24));
	}
	ok = LIVE_END(&t);
	c->compared = t.n + t.s_n;
	c->differences = t.diff + t.mismatch + t.bad_call + t.s_diff + t.s_mismatch + t.s_bad;
	printf("oracle: %-44s live: snapshots=%u compared=%u differences=%u mult %u..%u (first %u) changes=%u "
	       "raw-mult-changes=%u realtime-steps fwd=%u back=%u tai-offset %lld..%lld changes=%u\n",
	       name, c->snapshots, c->compared, c->differences, c->mult_min, c->mult_max, c->mult_first,
	       c->mult_changes, c->raw_mult_changes, c->rt_steps_fwd, c->rt_steps_back, (long long)c->tai_first,
	       (long long)c->tai_last, c->tai_changes);
	fflush(stdout);
	return ok && c->snapshots > 0;
}
