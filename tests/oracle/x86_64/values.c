/* SPDX-License-Identifier: MIT */
/* Value generators of the oracle regimes: synthetic clocks, TSC values of each kind, and their classification. */
#include "values.h"

#include <stdio.h>

#include "math/rawmath.h"

struct orun_clock ogen_base_clock(void)
{
	struct orun_clock c = {
		.cycle_last = (1ULL << 50) + orng_below(1ULL << 40),
		.max_cycles = 1ULL << 40,
		.mult = 8004479,
		.shift = 24,
		.sec = orng_below(1ULL << 32),
	};

	c.nsec = orng_below(FR_NSEC_PER_SEC) << c.shift;
	return c;
}

struct orun_clock ogen_random_clock(void)
{
	struct orun_clock c = {
		.cycle_last = orng_mag(64),
		.max_cycles = orng_mag(64),
		.mult = (uint32_t)(1 + orng_below(0xffffffffULL)),
		.shift = (uint32_t)orng_below(32),
		.sec = orng_rand(),
	};

	c.nsec = orng_below(2) ? orng_rand() : orng_below(FR_NSEC_PER_SEC) << c.shift;
	return c;
}

uint64_t ogen_tsc_kind(const struct orun_clock *c, unsigned kind)
{
	switch (kind % 6) {
	case 0:
		return c->cycle_last + orng_below(c->max_cycles) + 1;
	case 1:
		return c->cycle_last - 1 - orng_mag(50);
	case 2:
		return c->cycle_last + c->max_cycles + 1 + orng_mag(62);
	case 3:
		return orng_rand() | (1ULL << 63);
	case 4:
		return orng_below(1ULL << 44);
	default:
		return orng_rand();
	}
}

void ogen_offset(uint64_t *sec, uint64_t *nsec)
{
	*sec = orng_below(2) ? orng_mag(40) : -orng_mag(40);
	*nsec = orng_below(8) ? orng_below(FR_NSEC_PER_SEC) : orng_rand();
}

uint64_t ogen_tsc_at_kvmclock(uint64_t kc)
{
	struct orun_pv p;
	uint64_t scaled;

	orun_get_pv(&p);
	if (kc < p.system_time || !p.mul)
		return p.tsc_timestamp;
	scaled = (uint64_t)(((unsigned __int128)(kc - p.system_time) << 32) / p.mul);
	return p.tsc_timestamp + (p.shift < 0 ? scaled << -p.shift : scaled >> p.shift);
}

void ogen_classify(struct ogen_classes *cl, unsigned page, uint64_t tsc)
{
	struct orun_pv p;
	struct orun_clock c;
	struct fr_pvclock_vals v;
	uint64_t kc, d;

	orun_get_pv(&p);
	orun_get_clock(page, &c);
	v = (struct fr_pvclock_vals){ p.tsc_timestamp, p.system_time, p.mul, p.shift };
	if (fr_pvclock_cycles(&v, tsc, &kc) != FR_OK) {
		cl->n[OGEN_BELOW_TIMESTAMP]++;
		return;
	}
	d = (kc & FR_S64_MAX) - c.cycle_last;
	if (d <= c.max_cycles)
		cl->n[OGEN_NORMAL]++;
	else
		cl->n[d & FR_BIT62 ? OGEN_BELOW_LAST : OGEN_OVER_MAX]++;
}

void ogen_print_classes(const char *name, const struct ogen_classes *cl)
{
	printf("oracle: %-44s values by kvmclock - cycle_last: normal=%u negative=%u over-max_cycles=%u "
	       "tsc<tsc_timestamp=%u\n", name, cl->n[OGEN_NORMAL], cl->n[OGEN_BELOW_LAST], cl->n[OGEN_OVER_MAX],
	       cl->n[OGEN_BELOW_TIMESTAMP]);
	fflush(stdout);
}

struct ogen_around ogen_around_last(void)
{
	struct orun_clock c;
	struct orun_pv p;
	uint64_t at;
	struct ogen_around a;

	orun_get_clock(0, &c);
	orun_get_pv(&p);
	at = ogen_tsc_at_kvmclock(c.cycle_last);
	a.lo = at - p.tsc_timestamp > (1ULL << 40) ? at - (1ULL << 40) : p.tsc_timestamp;
	a.span = at - a.lo + (1ULL << 43);
	return a;
}

void ogen_one_pv(struct orun_tally *t, struct ogen_classes *cl, unsigned page, uint64_t tsc)
{
	ogen_classify(cl, page, tsc);
	orun_one(t, tsc);
}
