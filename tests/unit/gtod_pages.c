/* SPDX-License-Identifier: MIT */
/* Synthetic pre-5.3 gtod pages of each layout, filled as the kernel's update_vsyscall leaves them. */
#include "gtod_pages.h"

#include <stddef.h>
#include <string.h>

/*
 * Kernel-mirroring copies of struct vsyscall_gtod_data (arch/x86/include/asm/vgtod.h), written
 * from the field types so that the compiler, not a table, places the fields; the static asserts
 * tie them to docs/kernel-data.md §2.1-2.3 and §2.8.
 */
/*
 * 3.10's fields after the seqcount (upstream 3.10.25). The kernel declares them flat in
 * vsyscall_gtod_data; this struct starts with the 8-aligned clock, so nesting it after either
 * seqcount places every field where the flat struct does (the asserts below check it).
 */
struct k3_10_fields {
	struct {
		int32_t vclock_mode;
		uint64_t cycle_last, mask;
		uint32_t mult, shift;
	} clock;
	int64_t wall_time_sec;
	uint64_t wall_time_snsec, monotonic_time_snsec;
	int64_t monotonic_time_sec;
	struct {
		int32_t tz_minuteswest, tz_dsttime;
	} sys_tz;
	struct {
		int64_t sec, nsec;
	} wall_time_coarse, monotonic_time_coarse;
};

struct k3_10_gtod { /* upstream 3.10.25 */
	uint32_t seq; /* seqcount_t without lockdep */
	struct k3_10_fields f;
};

/*
 * 3.10 under CONFIG_DEBUG_LOCK_ALLOC (a RHEL 7 debug kernel): seqcount_t holds a lockdep_map
 * (key, class_cache[2], name) after its sequence, 40 bytes in all; the rest is 3.10's.
 */
struct k3_10_debug_gtod {
	struct {
		uint32_t sequence;
		struct {
			uint64_t key, class_cache[2], name;
		} dep_map;
	} seq;
	struct k3_10_fields f;
};

struct k4_x_gtod { /* 3.16-4.19 */
	uint32_t seq;
	int32_t vclock_mode;
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
	uint64_t wall_time_snsec;
	int64_t wall_time_sec, monotonic_time_sec;
	uint64_t monotonic_time_snsec;
	int64_t wall_time_coarse_sec, wall_time_coarse_nsec, monotonic_time_coarse_sec, monotonic_time_coarse_nsec;
	int32_t tz_minuteswest, tz_dsttime;
};

struct k4_20_gtod { /* 4.20-5.2 */
	uint32_t seq;
	int32_t vclock_mode;
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
	struct {
		uint64_t sec, nsec;
	} basetime[12]; /* by clock id: REALTIME 0, MONOTONIC 1, REALTIME_COARSE 5, MONOTONIC_COARSE 6, TAI 11 */
	int32_t tz_minuteswest, tz_dsttime;
};

_Static_assert(offsetof(struct k3_10_gtod, f.clock.vclock_mode) == 8, "3.10 vclock_mode");
_Static_assert(offsetof(struct k3_10_gtod, f.clock.cycle_last) == 16, "3.10 cycle_last");
_Static_assert(offsetof(struct k3_10_gtod, f.clock.mask) == 24, "3.10 mask");
_Static_assert(offsetof(struct k3_10_gtod, f.clock.mult) == 32, "3.10 mult");
_Static_assert(offsetof(struct k3_10_gtod, f.clock.shift) == 36, "3.10 shift");
_Static_assert(offsetof(struct k3_10_gtod, f.wall_time_sec) == 40 &&
		       offsetof(struct k3_10_gtod, f.wall_time_snsec) == 48 &&
		       offsetof(struct k3_10_gtod, f.wall_time_coarse.sec) == 80 &&
		       offsetof(struct k3_10_gtod, f.wall_time_coarse.nsec) == 88 && sizeof(struct k3_10_gtod) == 112,
	       "3.10 time fields");
_Static_assert(sizeof(((struct k3_10_debug_gtod *)0)->seq) == 40 &&
		       offsetof(struct k3_10_debug_gtod, f.clock.vclock_mode) == 40 &&
		       offsetof(struct k3_10_debug_gtod, f.clock.cycle_last) == 48 &&
		       offsetof(struct k3_10_debug_gtod, f.clock.mask) == 56 &&
		       offsetof(struct k3_10_debug_gtod, f.clock.mult) == 64 &&
		       offsetof(struct k3_10_debug_gtod, f.clock.shift) == 68 &&
		       offsetof(struct k3_10_debug_gtod, f.wall_time_sec) == 72 &&
		       offsetof(struct k3_10_debug_gtod, f.wall_time_snsec) == 80 &&
		       offsetof(struct k3_10_debug_gtod, f.wall_time_coarse.sec) == 112 &&
		       offsetof(struct k3_10_debug_gtod, f.wall_time_coarse.nsec) == 120 &&
		       sizeof(struct k3_10_debug_gtod) == 144,
	       "3.10 debug layout");
_Static_assert(offsetof(struct k4_x_gtod, vclock_mode) == 4 && offsetof(struct k4_x_gtod, cycle_last) == 8 &&
		       offsetof(struct k4_x_gtod, mask) == 16 && offsetof(struct k4_x_gtod, mult) == 24 &&
		       offsetof(struct k4_x_gtod, shift) == 28 && offsetof(struct k4_x_gtod, wall_time_snsec) == 32 &&
		       offsetof(struct k4_x_gtod, wall_time_sec) == 40 && offsetof(struct k4_x_gtod, wall_time_coarse_sec) == 64 &&
		       offsetof(struct k4_x_gtod, wall_time_coarse_nsec) == 72 && sizeof(struct k4_x_gtod) == 104,
	       "4.x layout");
_Static_assert(offsetof(struct k4_20_gtod, vclock_mode) == 4 && offsetof(struct k4_20_gtod, cycle_last) == 8 &&
		       offsetof(struct k4_20_gtod, mask) == 16 && offsetof(struct k4_20_gtod, mult) == 24 &&
		       offsetof(struct k4_20_gtod, shift) == 28 && offsetof(struct k4_20_gtod, basetime) == 32 &&
		       offsetof(struct k4_20_gtod, basetime[5]) == 112 && offsetof(struct k4_20_gtod, tz_minuteswest) == 224,
	       "4.20 layout");

const struct gtime gtod_time_now = { 1700000000, 123456789, -1699995758, 987654321 };

/* Copies v's clock fields into c, a struct of any era: they are named alike (3.10 nests them in .clock). */
#define SET_CLOCK(c, v)                                  \
	do {                                             \
		(c).vclock_mode = (int32_t)(v)->mode;    \
		(c).cycle_last = (v)->cycle_last;        \
		(c).mask = (v)->mask;                    \
		(c).mult = (v)->mult;                    \
		(c).shift = (v)->shift;                  \
	} while (0)

/* The values an update writes, from the timekeeper's, as every era computes them. */
struct gvals {
	int64_t sec, mono_sec, coarse_mono_sec;
	uint64_t snsec, mono_snsec, coarse_nsec, coarse_mono_nsec;
};

static struct gvals values(const struct gtime *t, uint32_t shift)
{
	struct gvals g;
	unsigned s = shift < 64 ? shift : 0; /* an implausible shift is rejected before any time field counts */
	uint64_t sec_shifted = s < 34 ? 1000000000ULL << s : ~0ULL;

	g.sec = t->sec;
	g.snsec = (uint64_t)t->nsec << s;
	g.mono_sec = t->sec + t->wtm_sec;
	g.mono_snsec = g.snsec + ((uint64_t)t->wtm_nsec << s);
	while (g.mono_snsec >= sec_shifted) {
		g.mono_snsec -= sec_shifted;
		g.mono_sec++;
	}
	g.coarse_nsec = g.snsec >> s;
	g.coarse_mono_sec = t->sec + t->wtm_sec;
	g.coarse_mono_nsec = g.coarse_nsec + t->wtm_nsec;
	while (g.coarse_mono_nsec >= 1000000000ULL) {
		g.coarse_mono_nsec -= 1000000000ULL;
		g.coarse_mono_sec++;
	}
	return g;
}

/* 3.10's fields after the seqcount, with or without lockdep. */
static void fill_3_10(struct k3_10_fields *f, const struct gv *v, const struct gvals *x)
{
	SET_CLOCK(f->clock, v);
	f->wall_time_sec = x->sec;
	f->wall_time_snsec = x->snsec;
	f->monotonic_time_snsec = x->mono_snsec;
	f->monotonic_time_sec = x->mono_sec;
	f->wall_time_coarse.sec = x->sec;
	f->wall_time_coarse.nsec = (int64_t)x->coarse_nsec;
	f->monotonic_time_coarse.sec = x->coarse_mono_sec;
	f->monotonic_time_coarse.nsec = (int64_t)x->coarse_mono_nsec;
}

void gtod_build_at(uint8_t *pg, enum fr_gtod_era shape, const struct gv *v, const struct gtime *t)
{
	struct gvals x = values(t, v->shift);

	memset(pg, 0xa5, 4096);
	if (shape == FR_GTOD_3_10) {
		struct k3_10_gtod g;

		memset(&g, 0, sizeof(g));
		g.seq = v->seq;
		fill_3_10(&g.f, v, &x);
		memcpy(pg + 128, &g, sizeof(g));
	} else if (shape == FR_GTOD_3_10_DEBUG) {
		struct k3_10_debug_gtod g;

		memset(&g, 0, sizeof(g));
		g.seq.sequence = v->seq;
		/* The lockdep map holds kernel pointers: a static key, no cached class yet, the name. */
		g.seq.dep_map.key = 0xffffffff82a4c6b0ULL;
		g.seq.dep_map.name = 0xffffffff81c3d2e5ULL;
		fill_3_10(&g.f, v, &x);
		memcpy(pg + 128, &g, sizeof(g));
	} else if (shape == FR_GTOD_4_X) {
		struct k4_x_gtod g;

		memset(&g, 0, sizeof(g));
		g.seq = v->seq;
		SET_CLOCK(g, v);
		g.wall_time_snsec = x.snsec;
		g.wall_time_sec = x.sec;
		g.monotonic_time_sec = x.mono_sec;
		g.monotonic_time_snsec = x.mono_snsec;
		g.wall_time_coarse_sec = x.sec;
		g.wall_time_coarse_nsec = (int64_t)x.coarse_nsec;
		g.monotonic_time_coarse_sec = x.coarse_mono_sec;
		g.monotonic_time_coarse_nsec = (int64_t)x.coarse_mono_nsec;
		memcpy(pg + 128, &g, sizeof(g));
	} else {
		struct k4_20_gtod g;

		memset(&g, 0, sizeof(g));
		g.seq = v->seq;
		SET_CLOCK(g, v);
		g.basetime[0].sec = (uint64_t)x.sec;
		g.basetime[0].nsec = x.snsec;
		g.basetime[11].sec = (uint64_t)x.sec + 37; /* TAI */
		g.basetime[11].nsec = x.snsec;
		g.basetime[1].sec = (uint64_t)x.mono_sec;
		g.basetime[1].nsec = x.mono_snsec;
		g.basetime[5].sec = (uint64_t)x.sec;
		g.basetime[5].nsec = x.coarse_nsec;
		g.basetime[6].sec = (uint64_t)x.coarse_mono_sec;
		g.basetime[6].nsec = x.coarse_mono_nsec;
		memcpy(pg + 128, &g, sizeof(g));
	}
}
