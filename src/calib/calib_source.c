/* SPDX-License-Identifier: MIT */
/* Calibrated mode at run time: sandwiches taken by rare calls, the estimate, and the seqlocked line readers compute. */
#include "calib/calib_source.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "calib/calib_hold.h"
#include "calib/calib_math.h"
#include "base/once.h"
#include "base/sys.h"
#include "exact/fastpath.h"
#include "proc/memid.h"
#include "base/owner.h"
#include "report/stats.h"

#define CAL_TRIES 128
/* Beyond this the line is not slewed at max_slew_ppm: behind, it steps forward; ahead, it runs
   at half speed until it meets the estimate. */
#define STEP_NS 100000
#define FAST_SLEW_PPM 500000

/*
 * What readers see, under a seqcount: the line, whether it serves, and when the next sandwich
 * is due. The writer holds `updater`, makes seq odd, reads the counter (so every reading made
 * with the old line precedes the switch point in the ordered and fenced modes), writes, makes
 * seq even.
 */
struct cal_line {
	uint32_t seq;
	uint32_t serving;
	struct fr_cal_published pub;
	int64_t sec0; /* the second the line was in when published: splitting needs no division */
} __attribute__((aligned(64)));

#define NSEC 1000000000LL

/*
 * A reading when even the kernel failed (errno set), and borrowed's "the line moved, read again".
 * No RAW value comes near them, while any other value may be a reading: in a time namespace
 * whose offset puts RAW before zero (a restored checkpoint) readings are negative.
 */
#define FAILED INT64_MIN
#define MOVED (INT64_MIN + 1)

/*
 * Sandwiches a refresh takes back to back. The first system call after a while of other work is
 * slow, and the slower the wider its sandwich: under RHEL 7's page-table isolation in a QEMU
 * (TCG) guest 3-4 us wide, against 0.3 us for one repeated at once. The window keeps the tightest.
 */
#define REFRESH_SANDWICHES 2

/*
 * Calibrated mode's state, one record: the published line, and what only the updater touches.
 * Apart from base/once.h's table: the readers load the line and next_refresh by one load each.
 */
static struct {
	struct cal_line line;  /* what every reader reads (above) */
	uint64_t next_refresh; /* counter value after which a reader takes a sandwich; read outside the seqcount (a hint) */
	/* Only the holder of `updater` touches est, params and seed. */
	struct fr_cal_est est;
	struct fr_cal_params params;
	uint64_t seed;
	/* The process whose thread may change est and the line; 0 when free (see claim). Its holder holds
	   its signals (calib_hold.h): no handler runs, so none can jump out, while the right is taken. */
	pid_t updater;
} cal;

/* claim's answer to a process that shares this memory with its owner (vfork, CLONE_VM). */
#define NOT_OWNER (-1)

#define LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static inline __attribute__((always_inline)) void load_line(struct fr_cal_line *to, struct fr_cal_line *from)
{
	to->tsc0 = LD(from->tsc0);
	to->ns0 = LD(from->ns0);
	to->mult = LD(from->mult);
}

static inline __attribute__((always_inline)) void load_pub(struct fr_cal_published *p)
{
	load_line(&p->slew, &cal.line.pub.slew);
	p->tsc_end = LD(cal.line.pub.tsc_end);
	load_line(&p->after, &cal.line.pub.after);
}

static void store_line(struct fr_cal_line *to, const struct fr_cal_line *from)
{
	ST(to->tsc0, from->tsc0);
	ST(to->ns0, from->ns0);
	ST(to->mult, from->mult);
}

/*
 * The right to change the estimate, once per process at a time: 1 taken (with this thread's
 * signals held until release), 0 held by another thread, NOT_OWNER. Only the process that owns
 * this memory ever writes it: a vfork or CLONE_VM child has a pid of its own in its parent's
 * memory, and taking over from a parent thread in the middle of an update, or leaving the right
 * held when it exits, would wreck the parent's line. So a holder that belongs to another process
 * is a thread of the parent that was inside an update when this process was forked: it does not
 * exist in this copy, so the right is taken over (base/owner.h) and what it may have left half
 * written is reset.
 */
static int parent_gone(pid_t self, pid_t holder)
{
	(void)self;
	(void)holder;
	return 1;
}

static int claim(struct fr_held *h)
{
	pid_t self = fr_sys_getpid();

	if (!fr_memid_own(self))
		return NOT_OWNER;
	fr_hold_signals(h);
	switch (fr_pid_take(&cal.updater, self, parent_gone)) {
	case FR_PID_TOOK:
		return 1;
	case FR_PID_TOOK_OVER:
		fr_cal_est_init(&cal.est, &cal.params, cal.seed);
		if (LD(cal.line.seq) & 1) {
			/* A publication torn by the fork: back to warm-up, the kernel's values. */
			ST(cal.line.serving, 0);
			__atomic_store_n(&cal.line.seq, LD(cal.line.seq) + 1, __ATOMIC_RELEASE);
		}
		return 1;
	default:
		/* Held by another thread of this process. */
		fr_unhold_signals(h);
		return 0;
	}
}

static void release(const struct fr_held *h)
{
	fr_pid_set(&cal.updater, 0);
	fr_unhold_signals(h);
}

/* Publishes the estimate's target, slewed from the current line (the first one is biased up). */
static void publish(void)
{
	struct fr_cal_line target;
	struct fr_cal_published cur, next;
	uint32_t seq = LD(cal.line.seq);
	int serving = (int)LD(cal.line.serving);
	uint64_t now;

	fr_cal_est_target(&cal.est, &target);
	__atomic_store_n(&cal.line.seq, seq + 1, __ATOMIC_RELAXED);
	/* The odd seq must be visible before the switch point is read (a store, then a counter read). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	now = fr_arch_counter_fenced();
	if (serving) {
		int64_t e;

		load_pub(&cur);
		e = fr_cal_line_at(&target, now) - fr_cal_at(&cur, now);
		if (e > STEP_NS) {
			/* Far behind (a suspend, a migration, a frequency step): a step forward is
			   never a step back, and slewing it out would take minutes. */
			fr_cal_slew(NULL, &target, now, cal.params.max_slew_ppm, &next);
		} else {
			/* Far ahead: slow down hard (the slope stays positive) rather than for minutes. */
			fr_cal_slew(&cur, &target, now, e < -STEP_NS ? FAST_SLEW_PPM : cal.params.max_slew_ppm, &next);
		}
	} else {
		/*
		 * Until now callers got the kernel's own values, and one may be returning one right
		 * now. Starting the line above the estimate by its predicted error keeps the line from
		 * starting below them; the next publications slew the bias away.
		 */
		int64_t err = fr_cal_est_error_ns(&cal.est);

		target.ns0 += err > 0 ? err : 0;
		fr_cal_slew(NULL, &target, now, cal.params.max_slew_ppm, &next);
	}
	store_line(&cal.line.pub.slew, &next.slew);
	ST(cal.line.pub.tsc_end, next.tsc_end);
	store_line(&cal.line.pub.after, &next.after);
	ST(cal.line.sec0, fr_cal_at(&next, now) / NSEC);
	ST(cal.line.serving, 1);
	__atomic_store_n(&cal.line.seq, seq + 2, __ATOMIC_RELEASE);
}

/* The kernel's RAW clock between two fenced counter reads. */
static struct fr_kret sandwich(struct fr_cal_point *pt)
{
	fr_real_fn real = fr_real_get();
	struct timespec k;
	struct fr_kret ret;

	pt->tsc_before = fr_arch_counter_fenced();
	ret = fr_kcall(real, CLOCK_MONOTONIC_RAW, &k);
	pt->tsc_after = fr_arch_counter_fenced();
	pt->ns = (int64_t)k.tv_sec * NSEC + k.tv_nsec;
	return ret;
}

/* The kernel's answer through a sandwich, in the readers' convention: ns, or FAILED with errno. */
static int64_t kernel_answer(struct fr_cal_point *pt)
{
	struct fr_kret ret = sandwich(pt);

	fr_stats_pass(CLOCK_MONOTONIC_RAW); /* FASTRAW_STATS: the kernel answered this call */
	/* Its own conversion to libc's, not fr_finish: the readers inline this, and fr_fail's call would grow them. */
	if (ret.err != 0) {
		errno = -ret.err;
		return FAILED;
	}
	return pt->ns;
}

/* Whether readers at tsc are past the second after sec0 (they would divide); the caller holds the right. */
static int stale_second(uint64_t tsc)
{
	struct fr_cal_published p;

	load_pub(&p);
	return fr_cal_at(&p, tsc) - LD(cal.line.sec0) * NSEC >= NSEC;
}

/* Gives a sandwich to the estimate; the caller holds the right. */
static void feed(const struct fr_cal_point *pt)
{
	uint64_t gap = fr_cal_est_refresh_ticks(&cal.est) / 4;

	/*
	 * Once readers use the line, every new target is published, ready or not: after a
	 * frequency step the fresh rate is far better than the old line carried on.
	 */
	if (fr_cal_est_add(&cal.est, pt) && (fr_cal_est_ready(&cal.est) || LD(cal.line.serving)))
		publish();
	else if (LD(cal.line.serving) && fr_cal_est_error_ns(&cal.est) >= 0 && stale_second(pt->tsc_after))
		publish(); /* the same target, a new sec0 */
	/* A few sandwiches per refresh period, so that each window has a tight one to keep. */
	ST(cal.next_refresh, pt->tsc_after + (gap ? gap : 1));
}

/* A call during warm-up: the kernel's value, and its sandwich for the estimate. */
static __attribute__((noinline)) int64_t warm(void)
{
	struct fr_cal_point pt;
	struct fr_held h;

	if (kernel_answer(&pt) == FAILED)
		return FAILED;
	if (claim(&h) > 0) {
		feed(&pt);
		release(&h);
	}
	return pt.ns;
}

/*
 * A reader whose newest sandwich is old takes one: 1 when it did (the line may have moved),
 * 0 when another thread is on it, NOT_OWNER when this process may not.
 */
static __attribute__((noinline)) int refresh(void)
{
	struct fr_cal_point pt;
	struct fr_held h;
	int c = claim(&h);

	if (c <= 0)
		return c;
	if (LD(cal.next_refresh) > fr_arch_counter_fenced()) {
		/* Another thread took it meanwhile. */
		release(&h);
		return 0;
	}
	for (int i = 0; i < REFRESH_SANDWICHES; i++)
		if (sandwich(&pt).err == 0)
			feed(&pt);
	release(&h);
	return 1;
}

/*
 * A reader in a process that shares this memory with its owner (vfork, CLONE_VM), when the
 * line is due a sandwich that only the owner may take: the owner may never take it (a vfork
 * parent is stopped until the child leaves). The line p, read at seq, clamped into [k, k +
 * bound] around the kernel's k: within the promise however old the line, and monotonic, as
 * both ends only move forward and the line was within the bound while fresh. A new line
 * from the owner could then start below a k served here, but only by the old line's error and
 * only for readings closer together than that (microseconds). MOVED: the line moved, read again.
 */
static __attribute__((noinline)) int64_t borrowed(const struct fr_cal_published *p, uint32_t seq)
{
	struct fr_cal_point pt;
	int64_t k = kernel_answer(&pt), l;

	if (k == FAILED)
		return FAILED;
	if (__atomic_load_n(&cal.line.seq, __ATOMIC_ACQUIRE) != seq)
		return MOVED;
	l = fr_cal_at(p, pt.tsc_after);
	return l < k ? k : l - k > cal.params.bound_ns ? k + cal.params.bound_ns : l;
}

/* v, or fail where v is FAILED: only the slow paths' answers need it. */
static inline __attribute__((always_inline)) int64_t failed_as(int64_t v, int64_t fail)
{
	return v == FAILED ? fail : v;
}

/*
 * One reading: the line at the counter, inside the seqcount; fail (a constant) with errno when
 * the kernel failed. *sec0 is the line's second, or -1 when the value came from the kernel.
 */
static inline __attribute__((always_inline)) int64_t cal_ns(fr_counter_fn counter, int64_t *sec0, int64_t fail)
{
	*sec0 = -1;
	for (int i = 0; i < CAL_TRIES; i++) {
		uint32_t seq = __atomic_load_n(&cal.line.seq, __ATOMIC_ACQUIRE), serving;
		struct fr_cal_published p;
		uint64_t tsc;
		int64_t s0;

		/*
		 * Not fr_seq_begin: its own wait loop would grow this reader's code, and a wait here
		 * shares the bound with the other retries.
		 */
		if (FR_UNLIKELY(seq & 1)) {
			fr_arch_pause();
			continue;
		}
		serving = LD(cal.line.serving);
		load_pub(&p);
		s0 = LD(cal.line.sec0);
		tsc = counter();
		if (FR_UNLIKELY(fr_seq_retry(&cal.line.seq, seq)))
			continue;
		if (FR_UNLIKELY(!serving))
			return failed_as(warm(), fail);
		if (FR_UNLIKELY(tsc >= LD(cal.next_refresh))) {
			int r = refresh();

			if (r > 0)
				continue;
			if (r == NOT_OWNER) {
				int64_t v = borrowed(&p, seq);

				if (v == MOVED)
					continue;
				return failed_as(v, fail);
			}
		}
		*sec0 = s0;
		return fr_cal_at(&p, tsc);
	}
	/* A writer that never finishes (it cannot happen without a bug): the kernel answers. */
	{
		struct fr_cal_point pt;

		return failed_as(kernel_answer(&pt), fail);
	}
}

static inline __attribute__((always_inline)) int cal_raw(fr_counter_fn counter, struct timespec *ts)
{
	int64_t sec0, ns = cal_ns(counter, &sec0, FAILED), rel, sec, nsec;

	/* Within two seconds of the line's sec0 (always, while calls come): no division. */
	rel = ns - sec0 * NSEC;
	if (FR_LIKELY(sec0 >= 0 && (uint64_t)rel < 2 * NSEC)) {
		int carry = rel >= NSEC;

		ts->tv_sec = (time_t)(sec0 + carry);
		ts->tv_nsec = (long)(rel - (carry ? NSEC : 0));
		return 0;
	}
	/* Only a value from the kernel (sec0 -1) can be FAILED: the check costs the line's readers nothing. */
	if (ns == FAILED)
		return -1;
	/* A negative reading too, as the kernel normalises it: tv_sec < 0, tv_nsec in [0, 1e9). */
	fr_cal_split(ns, &sec, &nsec);
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = (long)nsec;
	return 0;
}

static int raw_unordered(struct timespec *ts) { return cal_raw(fr_arch_counter_unordered, ts); }
static int raw_fenced(struct timespec *ts) { return cal_raw(fr_arch_counter_fenced, ts); }
static int raw_ordered(struct timespec *ts) { return cal_raw(fr_arch_counter_ordered, ts); }
/* fastraw_now_ns's convention: -1 when the kernel failed, as on the other paths. */
static int64_t now_unordered(void) { int64_t s; return cal_ns(fr_arch_counter_unordered, &s, -1); }
static int64_t now_fenced(void) { int64_t s; return cal_ns(fr_arch_counter_fenced, &s, -1); }
static int64_t now_ordered(void) { int64_t s; return cal_ns(fr_arch_counter_ordered, &s, -1); }

fr_raw_fn fr_cal_raw_for(enum fr_counter_mode mode)
{
	switch (mode) {
	case FR_CTR_UNORDERED: return raw_unordered;
	case FR_CTR_FENCED: return raw_fenced;
	case FR_CTR_ORDERED: return raw_ordered;
	}
	return NULL;
}

fr_now_fn fr_cal_now_for(enum fr_counter_mode mode)
{
	switch (mode) {
	case FR_CTR_UNORDERED: return now_unordered;
	case FR_CTR_FENCED: return now_fenced;
	case FR_CTR_ORDERED: return now_ordered;
	}
	return NULL;
}

void fr_cal_setup(uint64_t seed_mult)
{
	fr_memid_setup();
	fr_cal_defaults(&cal.params);
	cal.seed = seed_mult;
	fr_cal_est_init(&cal.est, &cal.params, cal.seed);
	ST(cal.next_refresh, 0);
}
