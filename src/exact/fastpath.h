/* SPDX-License-Identifier: MIT */
/* One exact CLOCK_MONOTONIC_RAW reading from the kernel's data pages, generic over the counter read. */
#ifndef FR_FASTPATH_H
#define FR_FASTPATH_H

#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"
#include "math/rawmath.h"
#include "arch/arch.h"
#include "base/access.h"
#include "passthru/passthru.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* A counter read: one of the fr_arch_counter_* reads in production, a synthetic value in tests. */
typedef uint64_t (*fr_counter_fn)(void);

/* Where a fast reading goes: (sec, unnormalised ns) into a timespec, or one integer of nanoseconds. */
typedef void (*fr_emit_fn)(void *dst, uint64_t sec, uint64_t ns);

/*
 * The out-of-line general reading a fast reading falls back to; dst is what the emitter writes.
 * An instance's own knows its pages and its counter read, so it takes nothing else.
 */
typedef int (*fr_general_fn)(void *dst);

/* A fast reading's answer when r has no general reading: its caller runs one (fr_raw_read_with). */
enum { FR_GENERAL = FR_PASS + 1 };

/*
 * One instance of the reading, as the kernel's vDSO code is one instance per clock: every
 * always_inline caller builds it as a compile-time constant, so each field folds into the code.
 */
struct fr_read {
	const struct fr_kdata *kd;
	enum fr_rules rules;
	uint32_t fs;           /* the era's field shift: 8 where max_cycles precedes the fields */
	fr_counter_fn counter; /* NULL: convert a given counter value instead of reading one */
	fr_general_fn general; /* what a fast reading falls back to, NULL: FR_GENERAL (unused by the general one) */
	fr_emit_fn emit;       /* where a fast reading puts its answer (unused by the general one) */
	int unordered;         /* counter is the unordered read (FR_CTR_UNORDERED): see fr_masked_behind */
	/*
	 * 0 (every RAW instance leaves it so): CLOCK_MONOTONIC_RAW from the CS_RAW entry. 1: clock,
	 * a high-resolution clock (REALTIME, MONOTONIC, BOOTTIME, TAI), from the CS_HRES_COARSE
	 * entry, as the kernel's vDSO picks its base (served clocks, exact/clocks.h).
	 */
	int hres;
	clockid_t clock;
};

/* basetime[clock] of an entry (sec, then nsec); on a time namespace's page, offset[clock]. */
static inline __attribute__((always_inline)) const volatile uint8_t *fr_basetime(const volatile uint8_t *entry,
										 uint32_t fs, uint32_t clock)
{
	return entry + FR_OFF_BASETIME + fs + 16 * clock;
}

/* The CS_RAW entry's base time (sec, then nsec); on a time namespace's page, its offsets. */
static inline __attribute__((always_inline)) const volatile uint8_t *fr_raw_basetime(const volatile uint8_t *entry,
										     uint32_t fs)
{
	return fr_basetime(entry, fs, FR_CLOCK_RAW_ID);
}

/* The base r reads in an entry: RAW's, or its high-resolution clock's. */
static inline __attribute__((always_inline)) const volatile uint8_t *fr_read_base(const struct fr_read *r,
										  const volatile uint8_t *entry)
{
	return r->hres ? fr_basetime(entry, r->fs, (uint32_t)r->clock) : fr_raw_basetime(entry, r->fs);
}

/* The entry r reads on page 0: CS_RAW, or CS_HRES_COARSE. */
static inline __attribute__((always_inline)) const volatile uint8_t *fr_read_entry0(const struct fr_read *r)
{
	return r->hres ? r->kd->hres0 : r->kd->raw0;
}

/* The same entry on the page with the real data inside a time namespace, or NULL. */
static inline __attribute__((always_inline)) const volatile uint8_t *fr_read_entry_ns(const struct fr_read *r)
{
	return r->hres ? r->kd->hres_ns : r->kd->raw_ns;
}

/*
 * Whether entry, seen with an odd seq, is a time namespace's page (seq 1 and the marker mode)
 * rather than a writer at work: then its offsets for r's clock, which never change, into
 * *off_sec and *off_nsec (the kernel fills those of REALTIME and TAI with 0); the real data is
 * on fr_read_entry_ns(r), with its own seqcount.
 */
static inline __attribute__((always_inline)) int fr_timens_offsets(const struct fr_read *r,
								   const volatile uint8_t *entry, uint64_t *off_sec,
								   uint64_t *off_nsec)
{
	const volatile uint8_t *off;

	if (!fr_read_entry_ns(r) || FR_LD32(entry + FR_OFF_MODE) != r->kd->lay->timens_mode)
		return 0;
	off = fr_read_base(r, entry);
	*off_sec = FR_LD64(off);
	*off_nsec = FR_LD64(off + 8);
	return 1;
}

/* What a fast reading does when it cannot answer: the instance's general reading, or FR_GENERAL. */
static inline __attribute__((always_inline)) int fr_fall_back(const struct fr_read *r, void *dst)
{
	return r->general ? r->general(dst) : FR_GENERAL;
}

/*
 * Under the masked rule, whether a counter value lies behind cycle_last (its masked delta in the
 * upper half of the mask). An ordered read never is: it waits for the loads of seq and
 * cycle_last, as the kernel's. An unordered one may be taken before them, and the delta would
 * then wrap through the mask into a reading years ahead: it is given cycle_last's reading
 * instead, the base, as x86's rules clamp such a counter.
 */
static inline __attribute__((always_inline)) int fr_masked_behind(uint64_t delta, uint64_t mask)
{
	return delta > (mask >> 1);
}

/*
 * The pvclock page's version protocol: its version with the low bit cleared opens the window.
 * An odd version (an update in progress) never equals that even one, so fr_seq_retry on the
 * version field reports an update in progress as a change, and the reader tries again.
 */
static inline __attribute__((always_inline)) uint32_t fr_pvclock_begin(const volatile uint8_t *pv)
{
	uint32_t version = FR_LD32(pv + FR_PV_VERSION) & ~1u;

	FR_BARRIER();
	return version;
}

/* A vclock page's fields into vals, inside the window at version; FR_PASS when the page is unusable. */
typedef int (*fr_vclock_copy_fn)(const volatile uint8_t *page, uint32_t version, void *vals);

/*
 * One consistent copy of a vclock page (pvclock or Hyper-V: both keep their version at offset 0)
 * under its version protocol, with the counter read inside the same window when counter is not
 * NULL. Returns FR_PASS when copy says the vDSO would make the system call, or when the version
 * never settles; the kernel retries without bound, this is bounded.
 */
static inline __attribute__((always_inline)) int
fr_vclock_snapshot(const volatile uint8_t *page, uint32_t version_mask, fr_vclock_copy_fn copy, void *vals,
		   fr_counter_fn counter, uint64_t *tsc)
{
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		uint32_t version = FR_LD32(page) & version_mask;

		FR_BARRIER();
		if (FR_UNLIKELY(copy(page, version, vals) != FR_OK))
			return FR_PASS;
		if (counter)
			*tsc = counter();
		if (FR_LIKELY(!fr_seq_retry(page, version)))
			return FR_OK;
	}
	return FR_PASS;
}

_Static_assert(FR_PV_VERSION == 0 && FR_HV_SEQUENCE == 0, "fr_vclock_snapshot reads the version at offset 0");

/* The pvclock fields; the vDSO makes the system call while the stable bit is clear. */
static inline __attribute__((always_inline)) int
fr_pvclock_copy(const volatile uint8_t *pv, uint32_t version, void *vals)
{
	struct fr_pvclock_vals *p = vals;

	(void)version;
	if (!(FR_LD8(pv + FR_PV_FLAGS) & FR_PV_STABLE_BIT))
		return FR_PASS;
	p->tsc_timestamp = FR_LD64(pv + FR_PV_TSC_TIMESTAMP);
	p->system_time = FR_LD64(pv + FR_PV_SYSTEM_TIME);
	p->mul = FR_LD32(pv + FR_PV_MUL);
	p->shift = FR_LDS8(pv + FR_PV_SHIFT);
	return FR_OK;
}

/* The Hyper-V TSC page's scale and offset (hv_read_tsc_page_tsc); sequence 0 marks the page invalid. */
static inline __attribute__((always_inline)) int
fr_hvclock_copy(const volatile uint8_t *hv, uint32_t sequence, void *vals)
{
	struct fr_hvclock_vals *h = vals;

	if (sequence == 0)
		return FR_PASS;
	h->scale = FR_LD64(hv + FR_HV_SCALE);
	h->offset = FR_LD64(hv + FR_HV_OFFSET);
	return FR_OK;
}

/*
 * The clocksource value for the entry's clock mode: the counter, kvmclock from the pvclock page
 * or Hyper-V reference time from the TSC page, at the counter read inside the vclock's window;
 * or, with no counter, at the given value tick on the line of the vclock page's current
 * parameters. FR_PASS for a mode the vDSO would not serve, and for a pvclock counter below the
 * page's timestamp (mainline wraps there, vendor kernels clamp: only the running vDSO can answer).
 */
static inline __attribute__((always_inline)) int
fr_mode_cycles(const struct fr_read *r, int32_t mode, uint64_t tick, uint64_t *cycles)
{
	const struct fr_kdata *kd = r->kd;
	uint64_t tsc = tick;

	/* Each vclock page is mapped only once the kernel has used its mode: touch it only then. */
	if (fr_mode_is_pvclock(mode)) {
		struct fr_pvclock_vals p;

		if (!kd->vclock || fr_vclock_snapshot(kd->vclock, ~1u, fr_pvclock_copy, &p, r->counter, &tsc) != FR_OK)
			return FR_PASS;
		if (r->counter)
			return fr_pvclock_cycles(&p, tsc, cycles);
		*cycles = fr_pvclock_line(&p, tsc);
		return FR_OK;
	}
	if (fr_mode_is_counter(mode)) {
		*cycles = r->counter ? r->counter() : tick;
		return FR_OK;
	}
	if (fr_mode_is_hvclock(mode)) {
		struct fr_hvclock_vals h;

		if (!kd->hvclock || fr_vclock_snapshot(kd->hvclock, ~0u, fr_hvclock_copy, &h, r->counter, &tsc) != FR_OK)
			return FR_PASS;
		*cycles = fr_hvclock_cycles(&h, tsc);
		return FR_OK;
	}
	return FR_PASS;
}

/*
 * One consistent look at the CS_RAW entry, following a time namespace to the real page: waits
 * for an even seq, takes the clocksource value (fr_mode_cycles, at tick when r has no counter)
 * inside the window, masks it as the era does, reads the fields and checks seq again. FR_OK
 * with *cycles, *v and the namespace offsets; FR_PASS for a mode that cannot be served, the
 * "invalid" marker, or a seqcount that never settles. Nothing is cached: every call reads seq,
 * mode and fields afresh.
 */
static inline __attribute__((always_inline)) int
fr_raw_snapshot(const struct fr_read *r, uint64_t tick, uint64_t *cycles, struct fr_raw_vals *v, uint64_t *off_sec,
		uint64_t *off_nsec)
{
	const volatile uint8_t *entry = fr_read_entry0(r);
	uint32_t fs = r->fs;
	int in_ns = 0;

	*off_sec = *off_nsec = 0;
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		const volatile uint8_t *base = fr_read_base(r, entry);
		uint32_t seq = FR_LD32(entry + FR_OFF_SEQ);

		if (FR_UNLIKELY(seq & 1)) {
			/*
			 * Odd: a writer is at work, or this is a time-namespace page, so
			 * fr_seq_begin's wait does not fit here.
			 */
			if (!in_ns && fr_timens_offsets(r, entry, off_sec, off_nsec)) {
				entry = fr_read_entry_ns(r);
				in_ns = 1;
				continue;
			}
			fr_arch_pause();
			continue;
		}
		FR_BARRIER();
		if (fr_mode_cycles(r, (int32_t)FR_LD32(entry + FR_OFF_MODE), tick, cycles) != FR_OK)
			return FR_PASS;
		/*
		 * x86 from 6.5 masks the counter value to 63 bits, and bit 63 is its vDSO's "invalid"
		 * marker; the generic masked delta has neither.
		 */
		if (r->rules != FR_RULES_5_3 && r->rules != FR_RULES_MASKED)
			*cycles &= FR_S64_MAX;
		if (FR_UNLIKELY(r->rules != FR_RULES_MASKED && !fr_cycles_ok(*cycles)))
			return FR_PASS;
		v->cycle_last = FR_LD64(entry + FR_OFF_CYCLE_LAST);
		v->max_cycles = fs ? FR_LD64(entry + FR_OFF_MAX_CYCLES) : 0;
		v->mask = r->rules == FR_RULES_MASKED ? FR_LD64(entry + FR_OFF_MASK + fs) : ~0ULL;
		v->mult = FR_LD32(entry + FR_OFF_MULT + fs);
		v->shift = FR_LD32(entry + FR_OFF_SHIFT + fs);
		v->base_sec = FR_LD64(base);
		v->base_nsec = FR_LD64(base + 8);
		if (FR_LIKELY(!fr_seq_retry(entry + FR_OFF_SEQ, seq)))
			return FR_OK;
	}
	return FR_PASS;
}

/*
 * The reference reading: CLOCK_MONOTONIC_RAW into ts exactly as the era's vDSO computes it for
 * the counter value read, or FR_PASS for the real vDSO to answer (clock mode none, a cleared
 * pvclock stable bit, a Hyper-V page with sequence 0, the vDSO's "invalid" counter marker, a
 * seqcount that never settles). rules is r->rules again, as a plain argument: through r the
 * compiler sees only a load when it decides whether to inline fr_raw_ns, and with the constant
 * it keeps the one case of the era and inlines it where it is small.
 */
static inline __attribute__((always_inline)) int fr_raw_read_general(const struct fr_read *r, enum fr_rules rules,
								    struct timespec *ts)
{
	struct fr_raw_vals v;
	uint64_t cycles, off_sec, off_nsec;

	if (fr_raw_snapshot(r, 0, &cycles, &v, &off_sec, &off_nsec) != FR_OK)
		return FR_PASS;
	if (rules == FR_RULES_MASKED && r->unordered && fr_masked_behind((cycles - v.cycle_last) & v.mask, v.mask))
		cycles = v.cycle_last;
	/* Outside the window's reads: a torn snapshot could make a huge value and a slow carry. */
	fr_ts_set(ts, v.base_sec + off_sec, fr_raw_ns(rules, cycles, &v) + off_nsec);
	return FR_OK;
}

static inline void fr_emit_ts(void *dst, uint64_t sec, uint64_t ns)
{
	fr_ts_set((struct timespec *)dst, sec, ns);
}

static inline void fr_emit_ns(void *dst, uint64_t sec, uint64_t ns)
{
	*(int64_t *)dst = fr_ts_ns(sec, ns);
}

/* The entry's fields a fast reading uses, read after the counter. */
struct fr_fast_fields {
	uint64_t cycle_last, base_nsec, sec;
	uint64_t lim; /* d must not exceed it: 2^32 - 1, and max_cycles from 6.10 */
#if FR_ARCH_DELTA_MASKED
	uint64_t mask; /* the clocksource mask: only the masked rule has one */
#endif
	uint32_t mult, shift;
};

/* A data entry whose seq (even) has been read, and a time namespace's offsets (0 outside one). */
struct fr_window {
	const volatile uint8_t *entry;
	uint32_t seq;
	uint64_t off_sec, off_nsec;
};

static inline __attribute__((always_inline)) void
fr_fast_fields(const struct fr_read *r, const struct fr_window *w, struct fr_fast_fields *f)
{
	const volatile uint8_t *entry = w->entry;
	const volatile uint8_t *base = fr_read_base(r, entry);

#if FR_ARCH_DELTA_MASKED
	/*
	 * The masked rule checks none of these values, so any mix of old and new ones is caught by
	 * the seq check that follows: plain loads, which the compiler may pair (ldp) and order as
	 * it likes between the counter read and fr_seq_retry, whose asm barriers bound them.
	 */
	f->cycle_last = FR_LD64_PLAIN(entry + FR_OFF_CYCLE_LAST);
	f->mask = FR_LD64_PLAIN(entry + FR_OFF_MASK);
	f->mult = FR_LD32_PLAIN(entry + FR_OFF_MULT);
	f->shift = FR_LD32_PLAIN(entry + FR_OFF_SHIFT);
	f->sec = FR_LD64_PLAIN(base) + w->off_sec;
	f->base_nsec = FR_LD64_PLAIN(base + 8);
	f->lim = ~0ULL;
	return;
#endif
	f->cycle_last = FR_LD64(entry + FR_OFF_CYCLE_LAST);
	f->base_nsec = FR_LD64(base + 8);
	f->sec = FR_LD64(base) + w->off_sec;
	f->mult = FR_LD32(entry + FR_OFF_MULT + r->fs);
	f->shift = FR_LD32(entry + FR_OFF_SHIFT + r->fs);
	f->lim = 0xffffffffu;
	if (r->rules == FR_RULES_6_10) {
		uint64_t max_cycles = FR_LD64(entry + FR_OFF_MAX_CYCLES);

		if (max_cycles < f->lim)
			f->lim = max_cycles;
	}
}

/*
 * The fast reading of one data entry: the common case of fr_raw_read_general in as few
 * instructions as possible (behind a fenced read each one counts), and the general path, out of line,
 * for everything else.
 *
 * pvclock: the clocksource runs at 1 GHz, so mult == 1 << shift (kvm-clock and Xen register at
 * NSEC_PER_SEC). Let kc = system_time + scaled be the kvmclock value and d = kc - L. While
 * 0 <= d < 2^32, d <= max_cycles (6.10+) and B, L < 2^62, every era's formula, masks and tests
 * included, is exactly (B + d * 2^s) >> s = (B >> s) + d, so
 *     ns = [(B >> s) + system_time - L + off_nsec] + scaled,
 * where the bracket does not depend on the counter: its loads and adds run beside the
 * multiplies. Anything else (including d = 0 cases the shortcut would also get right) is
 * simply given to the general path. A served high-resolution clock (r->hres) has NTP's mult,
 * no power of two: it takes the counter mode's formula with kc as the counter instead.
 */
static inline __attribute__((always_inline)) int
fr_fast_entry(const struct fr_read *r, const struct fr_window *w, void *dst)
{
	/*
	 * Only seq, mode and the pvclock version are read before the counter: the counter read
	 * waits for them (the ordered and fenced reads) and for nothing else. Every other field is read after it,
	 * still inside both windows, which is the same snapshot the kernel's order would see.
	 */
	const struct fr_kdata *kd = r->kd;
	const volatile uint8_t *entry = w->entry;
	int32_t mode = (int32_t)FR_LD32(entry + FR_OFF_MODE);
	struct fr_fast_fields f;

	/*
	 * pvclock first, on the fall-through: kvm-clock is where this path gains on the vDSO (its
	 * goal, 0.87x of the vDSO, is the tightest: docs/performance.md), so it gets the straight
	 * line. The counter mode pays one compare and a predicted taken branch (e2e_steps counts
	 * them), small beside the ordered or fenced counter read it goes on to. Without vclocks
	 * (FR_HAS_VCLOCK 0) this test is a constant and folds away.
	 */
	if (FR_LIKELY(fr_mode_is_pvclock(mode))) {
		/* Never NULL: the pvclock page, or a stand-in whose stable bit is clear. */
		const volatile uint8_t *pv = kd->pv_fast;
		uint32_t version = fr_pvclock_begin(pv), mul;
		uint64_t tsc_timestamp, system_time, since_last, delta, scaled;
		int8_t pshift;

		delta = r->counter();
		tsc_timestamp = FR_LD64(pv + FR_PV_TSC_TIMESTAMP);
		system_time = FR_LD64(pv + FR_PV_SYSTEM_TIME);
		mul = FR_LD32(pv + FR_PV_MUL);
		pshift = FR_LDS8(pv + FR_PV_SHIFT);
		fr_fast_fields(r, w, &f);
		/* shift >= 64 masks as the vDSO's own shifts do; a power-of-two mult implies shift < 32. */
		if (FR_UNLIKELY(!(FR_LD8(pv + FR_PV_FLAGS) & FR_PV_STABLE_BIT) ||
				(!r->hres && f.mult != 1ull << (f.shift & 63)) || pshift > 0 ||
				(f.base_nsec | f.cycle_last) >> 62))
			return fr_fall_back(r, dst);
		FR_BARRIER();
		if (FR_UNLIKELY(FR_LD32(pv + FR_PV_VERSION) != version || FR_LD32(entry + FR_OFF_SEQ) != w->seq))
			return fr_fall_back(r, dst);
		delta -= tsc_timestamp;
		/* Below the timestamp mainline wraps and vendor kernels clamp: the general path passes. */
		if (FR_UNLIKELY((int64_t)delta < 0))
			return fr_fall_back(r, dst);
		scaled = fr_mul_u64_u32_shr32(delta >> (-pshift & 63), mul);
		since_last = system_time - f.cycle_last;
		if (FR_UNLIKELY(since_last + scaled > f.lim))
			return fr_fall_back(r, dst);
		if (r->hres) {
			/*
			 * A high-resolution clock's mult follows NTP and is no power of two: the counter
			 * mode's formula below, with the kvmclock value kc as the counter, d = kc - L
			 * (0 <= d <= lim, kc < 2^63: no mask changes it), in every x86 era.
			 */
			r->emit(dst, f.sec, (((since_last + scaled) * f.mult + f.base_nsec) >> f.shift) + w->off_nsec);
			return FR_OK;
		}
		r->emit(dst, f.sec, (f.base_nsec >> f.shift) + since_last + w->off_nsec + scaled);
		return FR_OK;
	}
	if (FR_LIKELY(fr_mode_is_counter(mode))) {
		/*
		 * The counter: while 0 <= d = c - L < 2^32 (and d <= max_cycles from 6.10) every x86 era
		 * computes (B + d * mult) >> s in 64 bits, and no mask changes c (c < L + 2^32 < 2^63).
		 * The masked rule is that formula for every d, in 64-bit arithmetic: nothing to test.
		 */
		uint64_t c, d;

		/* seq's FR_BARRIER is behind us (fr_raw_read_fast), and mode was read after it. */
		FR_COMPILER_BARRIER();
		c = r->counter();
		fr_fast_fields(r, w, &f);
		if (FR_UNLIKELY(fr_seq_retry(entry + FR_OFF_SEQ, w->seq)))
			return fr_fall_back(r, dst);
#if FR_ARCH_DELTA_MASKED
		d = (c - f.cycle_last) & f.mask;
		if (r->unordered && FR_UNLIKELY(fr_masked_behind(d, f.mask)))
			d = 0;
		r->emit(dst, f.sec, ((d * f.mult + f.base_nsec) >> (f.shift & 63)) + w->off_nsec);
		return FR_OK;
#else
		d = c - f.cycle_last;
		if (FR_UNLIKELY(d > f.lim || (f.base_nsec | f.cycle_last) >> 62))
			return fr_fall_back(r, dst);
		r->emit(dst, f.sec, ((d * f.mult + f.base_nsec) >> f.shift) + w->off_nsec);
		return FR_OK;
#endif
	}
	/* hvclock (Hyper-V, rare and multiply-bound anyway), none, unknown: the general path decides. */
	return fr_fall_back(r, dst);
}

/* The fast reading: page 0, or a time namespace's real page with its offsets. */
static inline __attribute__((always_inline)) int fr_raw_read_fast(const struct fr_read *r, void *dst)
{
	const volatile uint8_t *entry = fr_read_entry0(r);
	uint32_t seq = FR_LD32(entry + FR_OFF_SEQ);
	uint64_t off_sec, off_nsec;

	if (FR_LIKELY(!(seq & 1))) {
		FR_BARRIER();
		return fr_fast_entry(r, &(const struct fr_window){ .entry = entry, .seq = seq }, dst);
	}
	/* Odd: a writer at work, or a namespace page. */
	if (fr_timens_offsets(r, entry, &off_sec, &off_nsec)) {
		seq = FR_LD32(fr_read_entry_ns(r) + FR_OFF_SEQ);
		if (FR_LIKELY(!(seq & 1))) {
			FR_BARRIER();
			return fr_fast_entry(r,
					     &(const struct fr_window){ .entry = fr_read_entry_ns(r), .seq = seq,
									.off_sec = off_sec, .off_nsec = off_nsec },
					     dst);
		}
	}
	return fr_fall_back(r, dst);
}

/* The fast reading with any counter and the layout's own rules, not inlined: for tests and tools. */
int fr_raw_read_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts);

/* The reference reading with any counter and the layout's own rules, not inlined. */
int fr_raw_read_general_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts);

/* The production counter reads, as functions (their reads are inlined into the fast paths). */
fr_counter_fn fr_counter_for(enum fr_counter_mode mode);

/* The pages the published fast paths read (fastpath.c). */
extern struct fr_kdata fr_kd;
/* The fast path for an era's rules and a counter read (it reads fr_kd), or NULL for a layout it cannot serve. */
fr_raw_fn fr_raw_for(const struct fr_layout *lay, enum fr_counter_mode mode);
/* fr_raw_for's twin giving total nanoseconds: the same reading, the same fields, no split. */
fr_now_fn fr_now_for(const struct fr_layout *lay, enum fr_counter_mode mode);

#pragma GCC visibility pop

#endif
