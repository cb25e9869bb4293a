/* SPDX-License-Identifier: MIT */
/* End-to-end, root in a throwaway guest: the served clocks follow the kernel's page bit for bit through slews, steps, a leap second and TAI changes. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <unistd.h>

#include "harness.h"
#include "ksys.h"
#include "../oracle/live.h"

/*
 * Each case runs three things side by side for RUN_MS (the leap second 6 s): the oracle on the
 * live pages (this process: settled snapshots of the data page through the copied vDSO code and
 * ours), the served-clocks probe under the library with FASTRAW_CLOCKS=all (another process:
 * every clock in the kernel's bracket), and a thread that changes the clock as the case says.
 * Afterwards the clock is put back as it was, so that the cases stay independent.
 */
#define RUN_MS 4000
#define PPM_500 (500L << 16) /* struct timex's freq: ppm with a 16-bit fraction */

static const char *const served[] = {
	"MONOTONIC", "BOOTTIME", "REALTIME", "TAI", "MONOTONIC_COARSE", "REALTIME_COARSE", "MONOTONIC_RAW",
};
#define N_SERVED (sizeof(served) / sizeof(served[0]))

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0)
		;
}

static int64_t k_ns(clockid_t clk)
{
	struct timespec ts;

	k_clock_gettime(clk, &ts);
	return ts_ns(&ts);
}

static void set_realtime_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };

	ck_assert_msg(clock_settime(CLOCK_REALTIME, &ts) == 0, "clock_settime: %s", strerror(errno));
}

/* adjtimex with these modes and fields; returns the clock state, failing the test on an error. */
static int adj(struct timex *tx)
{
	int st = adjtimex(tx);

	ck_assert_msg(st >= 0, "adjtimex(modes %#x): %s", tx->modes, strerror(errno));
	return st;
}

/* The clock's state before a case, and putting it back: frequency, status, TAI offset, time. */
struct saved {
	struct timex tx;
	int64_t rt_ns, mono_ns;
};

static void save(struct saved *s)
{
	memset(&s->tx, 0, sizeof(s->tx));
	adj(&s->tx);
	s->rt_ns = k_ns(CLOCK_REALTIME);
	s->mono_ns = k_ns(CLOCK_MONOTONIC);
}

static void restore(const struct saved *s, int time_too)
{
	struct timex tx = { .modes = ADJ_OFFSET | ADJ_FREQUENCY, .freq = s->tx.freq };

	/* A PLL offset is cleared only while the PLL is on: the offset first, then the status. */
	adj(&tx);
	tx = (struct timex){ .modes = ADJ_OFFSET_SINGLESHOT };
	adj(&tx);
	tx = (struct timex){ .modes = ADJ_STATUS, .status = s->tx.status };
	adj(&tx);
	tx = (struct timex){ .modes = ADJ_TAI, .constant = s->tx.tai };
	adjtimex(&tx); /* a kernel that takes only positive offsets keeps its own if the saved one is 0 */
	if (time_too)
		set_realtime_ns(s->rt_ns + (k_ns(CLOCK_MONOTONIC) - s->mono_ns));
	/* The tick length follows the frequency at the next second's end: let it settle. */
	sleep_ms(1100);
}

/* A case: the changes it makes, in a thread of its own while the oracle and the probe run. */
struct plan {
	const char *name;
	void (*change)(struct plan *p);
	long run_ms; /* how long the oracle and the probe run (0: RUN_MS) */
	int time_too; /* whether putting the clock back sets its time too (the case stepped it) */
	const char *may_step; /* the clocks that may go back, as "REALTIME REALTIME_COARSE TAI" (NULL: none) */
	struct e2e_result *r;
	int64_t start_rt_ns;
	int states[12]; /* adjtimex's clock states seen after the change (TIME_OOP, TIME_WAIT ...) */
	int n_states;
};

static void *changer(void *arg)
{
	struct plan *p = arg;

	p->change(p);
	return NULL;
}

static void change_frequency(struct plan *p)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = PPM_500 };

	(void)p;
	sleep_ms(600);
	adj(&tx);
	sleep_ms(1200);
	tx = (struct timex){ .modes = ADJ_FREQUENCY, .freq = -PPM_500 };
	adj(&tx);
}

static void change_offset(struct plan *p)
{
	struct timex tx = { .modes = ADJ_OFFSET_SINGLESHOT, .offset = 200000 };

	(void)p;
	/* adjtime(): +0.2 s slewed at 500 ppm; then the PLL's ADJ_OFFSET, +50 ms. */
	sleep_ms(600);
	adj(&tx);
	sleep_ms(1500);
	tx = (struct timex){ .modes = ADJ_OFFSET_SINGLESHOT };
	adj(&tx);
	tx = (struct timex){ .modes = ADJ_STATUS, .status = STA_PLL };
	adj(&tx);
	tx = (struct timex){ .modes = ADJ_OFFSET, .offset = 50000 };
	adj(&tx);
}

static void change_realtime(struct plan *p)
{
	sleep_ms(600);
	set_realtime_ns(p->start_rt_ns + 3600 * 1000000000LL);
	sleep_ms(1000);
	set_realtime_ns(p->start_rt_ns - 3600 * 1000000000LL);
}

static void change_leap(struct plan *p)
{
	const int64_t day = 86400LL * 1000000000LL;
	/*
	 * A zero maximum error keeps the clock synchronised (STA_UNSYNC comes back once it passes
	 * 16 s, and with it adjtimex's TIME_ERROR in place of the leap states).
	 */
	struct timex tx = { .modes = ADJ_STATUS | ADJ_MAXERROR, .status = STA_INS, .maxerror = 0 };

	/* Two seconds before the next midnight UTC, then a leap second to insert there. */
	sleep_ms(300);
	set_realtime_ns((p->start_rt_ns / day + 1) * day - 2000000000LL);
	adj(&tx);
	for (int i = 0; i < 12; i++) {
		sleep_ms(400);
		tx = (struct timex){ .modes = 0 };
		p->states[p->n_states++] = adj(&tx);
	}
}

static void change_tai(struct plan *p)
{
	struct timex tx = { .modes = ADJ_TAI, .constant = 37 };

	(void)p;
	sleep_ms(600);
	adj(&tx);
	sleep_ms(1000);
	tx = (struct timex){ .modes = ADJ_TAI, .constant = 1037 };
	adj(&tx);
	sleep_ms(1000);
	tx = (struct timex){ .modes = ADJ_TAI, .constant = 37 };
	adj(&tx);
}

/* The probe under the library, in a thread: e2e_run blocks until it exits. */
static void *probe(void *arg)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_CLOCKS=all", "FASTRAW_STATS=1", "FASTRAW_DEBUG=1") };
	struct plan *p = arg;
	char ms[24];

	snprintf(ms, sizeof(ms), "%ld", p->run_ms);
	e2e_run(p->r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_SETTIME"), ms));
	return NULL;
}

/* A probe's count for one clock. */
static int64_t count(const struct e2e_result *r, const char *clock, const char *what)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_%s", clock, what);
	return e2e_int_value(r->out, key);
}

/* How often the probe saw the clock go back: the kernel's inside a sample, or ours below its last answer. */
static int64_t went_back(const struct e2e_result *r, const char *clock)
{
	return count(r, clock, "steps_back") + count(r, clock, "backwards");
}

/*
 * The oracle, the probe and the change side by side, then the clock put back (its time too when
 * the case says) before anything is asserted, so that a failing case leaves no slew or offset to
 * the next.
 */
static int run_side_by_side(struct plan *p, struct olive_counts *c, struct e2e_result *r)
{
	pthread_t tp, tc;
	const char *why;
	struct saved s;
	int ok;

	why = olive_open();
	ck_assert_msg(why == NULL, "the oracle's copy of this vDSO: %s", why);
	save(&s);
	p->start_rt_ns = s.rt_ns;
	p->r = r;
	if (!p->run_ms)
		p->run_ms = RUN_MS;
	ck_assert_int_eq(pthread_create(&tp, NULL, probe, p), 0);
	ck_assert_int_eq(pthread_create(&tc, NULL, changer, p), 0);
	ok = olive_run(p->name, (int64_t)p->run_ms * 1000000, c);
	pthread_join(tc, NULL);
	pthread_join(tp, NULL);
	olive_close();
	restore(&s, p->time_too);
	printf("%s: probe:\n%s", p->name, r->out);
	fflush(stdout);
	return ok;
}

/*
 * Runs case p; asserts what every case does: the oracle exact on every snapshot, RAW's mult
 * unmoved; every clock the probe read inside the kernel's bracket (where the kernel's own clock
 * did not step back inside it), served by the library, and never backwards unless the case steps
 * it (p->may_step). The caller frees r.
 */
static void run_case(struct plan *p, struct olive_counts *c, struct e2e_result *r)
{
	int ok = run_side_by_side(p, c, r);
	const char *name = p->name;

	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
	ck_assert_msg(ok && c->differences == 0 && c->compared > 0,
		      "%s: the kernel's vDSO and ours disagree on the live pages (see the oracle lines)", name);
	ck_assert_msg(c->raw_mult_changes == 0, "%s: RAW's mult changed %u times", name, c->raw_mult_changes);
	ck_assert_ptr_nonnull(e2e_lib_line(r->err, "clocks: served from the kernel's page: "));
	for (size_t i = 0; i < N_SERVED; i++) {
		long long fast, pass;
		int64_t n = count(r, served[i], "samples");
		int steps = p->may_step && strstr(p->may_step, served[i]);

		ck_assert_msg(n > 0, "%s: no %s samples", name, served[i]);
		ck_assert_msg(count(r, served[i], "violations") == 0, "%s: %s answered outside the kernel's bracket:\n%.*s",
			      name, served[i], E2E_SHOWN, r->out);
		/*
		 * The coarse clocks are the tick's base: where the kernel lowers mult it also moves
		 * that base back by a few nanoseconds (kernels without the coarse clocks' fix), and
		 * its own reads go back too. Ours may then go back, never on their own.
		 */
		if (!steps && (!strstr(served[i], "_COARSE") || count(r, served[i], "kernel_backwards") == 0))
			ck_assert_msg(went_back(r, served[i]) == 0,
				      "%s: %s went backwards:\n%.*s", name, served[i], E2E_SHOWN, r->out);
		e2e_stats_of(r->err, served[i], &fast, &pass);
		ck_assert_msg(fast + pass == n && fast > n / 2, "%s: %s fast=%lld passthrough=%lld of %lld", name,
			      served[i], fast, pass, (long long)n);
	}
}

/* The page's mult rose by 300 of the slew's 500 ppm: the kernel reaches the new mult within a tick or two. */
static void assert_mult_rose(const struct olive_counts *c)
{
	ck_assert_msg(c->mult_changes > 0, "the page's mult never changed");
	ck_assert_msg(c->mult_max > c->mult_first + c->mult_first / 3333, "mult rose only to %u from %u", c->mult_max,
		      c->mult_first);
}

/* ADJ_FREQUENCY +500 ppm, then -500: the high-resolution clocks' mult follows, RAW's stays. */
START_TEST(slew_frequency)
{
	struct plan p = { .name = "slew ADJ_FREQUENCY +-500 ppm", .change = change_frequency };
	struct olive_counts c;
	struct e2e_result r;

	run_case(&p, &c, &r);
	assert_mult_rose(&c);
	ck_assert_msg(c.mult_min < c.mult_first - c.mult_first / 3333, "mult fell only to %u from %u", c.mult_min,
		      c.mult_first);
	e2e_result_free(&r);
}
END_TEST

/* adjtime()'s ADJ_OFFSET_SINGLESHOT, then the PLL's ADJ_OFFSET: slews, the mult rises, RAW's stays. */
START_TEST(slew_offset)
{
	struct plan p = { .name = "slew ADJ_OFFSET (adjtime, then the PLL)", .change = change_offset };
	struct olive_counts c;
	struct e2e_result r;

	run_case(&p, &c, &r);
	assert_mult_rose(&c);
	ck_assert_msg(c.rt_steps_fwd + c.rt_steps_back == 0, "a slew stepped REALTIME");
	e2e_result_free(&r);
}
END_TEST

/* clock_settime(CLOCK_REALTIME) an hour forward, then two back: REALTIME and TAI step, the rest do not. */
START_TEST(jump_realtime)
{
	struct plan p = { .name = "clock_settime REALTIME +1 h, -2 h", .change = change_realtime, .time_too = 1,
			  .may_step = "REALTIME REALTIME_COARSE TAI" };
	struct olive_counts c;
	struct e2e_result r;

	run_case(&p, &c, &r);
	ck_assert_msg(c.rt_steps_fwd > 0 && c.rt_steps_back > 0, "REALTIME's base stepped forward %u and back %u times",
		      c.rt_steps_fwd, c.rt_steps_back);
	ck_assert_msg(went_back(&r, "REALTIME") > 0,
		      "the probe never saw REALTIME step back");
	ck_assert_int_eq(c.tai_changes, 0);
	e2e_result_free(&r);
}
END_TEST

/* STA_INS two seconds before midnight: REALTIME repeats a second, TAI's offset grows by one, TAI never steps. */
START_TEST(leap_second)
{
	/* TAI steps with the clock_settime to 23:59:58, not with the leap (the oracle's count below). */
	struct plan p = { .name = "leap second (STA_INS)", .change = change_leap, .run_ms = 6000, .time_too = 1,
			  .may_step = "REALTIME REALTIME_COARSE TAI" };
	struct olive_counts c;
	struct e2e_result r;
	int oop = 0, wait = 0;

	run_case(&p, &c, &r);
	for (int i = 0; i < p.n_states; i++) {
		oop |= p.states[i] == TIME_OOP;
		wait |= p.states[i] == TIME_WAIT;
	}
	printf("leap second: adjtimex states seen:");
	for (int i = 0; i < p.n_states; i++)
		printf(" %d", p.states[i]);
	printf("\n");
	/* TIME_OOP during the inserted second, TIME_WAIT after it: the kernel did insert one. */
	ck_assert_msg(wait, "the kernel never reported TIME_WAIT (TIME_OOP %s): no leap second was inserted",
		      oop ? "seen" : "not seen");
	/* The clock_settime to 23:59:58 steps forward, the leap second back by one. */
	ck_assert_msg(c.rt_steps_fwd == 1 && c.rt_steps_back == 1, "REALTIME's base stepped forward %u and back %u times",
		      c.rt_steps_fwd, c.rt_steps_back);
	ck_assert_msg(went_back(&r, "REALTIME") > 0,
		      "the probe never saw REALTIME go back at the leap");
	ck_assert_msg(c.tai_changes == 1 && c.tai_last == c.tai_first + 1, "TAI's offset went %lld -> %lld in %u changes",
		      (long long)c.tai_first, (long long)c.tai_last, c.tai_changes);
	e2e_result_free(&r);
}
END_TEST

/* ADJ_TAI 37, 1037, 37: TAI's base follows, REALTIME's does not move. */
START_TEST(tai_offset)
{
	struct plan p = { .name = "ADJ_TAI 37, 1037, 37", .change = change_tai, .may_step = "TAI" };
	struct olive_counts c;
	struct e2e_result r;
	int saw37 = 0, saw1037 = 0;

	run_case(&p, &c, &r);
	for (unsigned i = 0; i < c.n_tai_seen; i++) {
		saw37 |= c.tai_seen[i] == 37;
		saw1037 |= c.tai_seen[i] == 1037;
	}
	ck_assert_msg(saw37 && saw1037 && c.tai_changes >= 3, "TAI offsets seen: %u changes, 37 %s, 1037 %s",
		      c.tai_changes, saw37 ? "yes" : "no", saw1037 ? "yes" : "no");
	ck_assert_msg(went_back(&r, "TAI") > 0,
		      "the probe never saw TAI step back");
	ck_assert_int_eq(c.rt_steps_fwd + c.rt_steps_back, 0);
	e2e_result_free(&r);
}
END_TEST

static Suite *settime_suite(void)
{
	Suite *s = suite_create("e2e_settime");
	TCase *tc = e2e_tcase(s, "settime");

	tcase_add_test(tc, slew_frequency);
	tcase_add_test(tc, slew_offset);
	tcase_add_test(tc, jump_realtime);
	tcase_add_test(tc, leap_second);
	tcase_add_test(tc, tai_offset);
	return s;
}

/*
 * It sets the machine's clock: only as root in a kernel-matrix guest (FR_MATRIX_GUEST=1, which
 * the guest's init sets), never on the machine running the suite. Elsewhere a skip (77).
 */
int main(void)
{
	const char *guest = getenv("FR_MATRIX_GUEST");

	if (!guest || strcmp(guest, "1") != 0) {
		printf("SKIP: e2e_settime: it sets the clock, so it runs only in a kernel-matrix guest (FR_MATRIX_GUEST=1)\n");
		return 77;
	}
	if (geteuid() != 0) {
		printf("e2e_settime: in a guest but not root: adjtimex and clock_settime need root\n");
		return EXIT_FAILURE;
	}
	return fr_run_suite(settime_suite());
}
