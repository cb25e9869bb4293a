/* SPDX-License-Identifier: MIT */
/* The simulated counter and kernel RAW clock of calsim.h, and a runtime that serves one program from them. */
#include "calsim.h"

#include <string.h>

/* xorshift64: deterministic, seeded per test. */
uint64_t sim_xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

double sim_unif(uint64_t *s)
{
	return (double)(sim_xs(s) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t sim_mult_of_ghz(double ghz)
{
	return (uint64_t)(TWO32 / ghz + 0.5);
}

/* Extra ns RAW has gained over true time by T: the integral of ppm(t). */
static double ppm_integral(const struct sim *s, double T)
{
	double t = T / NS_PER_S, a = 0, pa, acc = 0;

	if (s->nk == 0)
		return 0;
	pa = s->k[0].ppm;
	for (int i = 0; i < s->nk; i++) {
		double kt = s->k[i].t_s, kp = s->k[i].ppm, b, pb;

		if (kt <= a) {
			pa = kp;
			continue;
		}
		b = t < kt ? t : kt;
		pb = pa + (kp - pa) * (b - a) / (kt - a);
		acc += (b - a) * (pa + pb) / 2;
		if (t <= kt)
			return acc * 1e3; /* ppm * s = 1e3 ns */
		a = kt;
		pa = kp;
	}
	return (acc + (t - a) * pa) * 1e3;
}

double sim_raw(const struct sim *s, double T)
{
	return s->raw0 + T + ppm_integral(s, T);
}

uint64_t sim_tsc(const struct sim *s, double T)
{
	if (T < s->step_ns)
		return (uint64_t)(s->tsc0 + s->f1 * T);
	return (uint64_t)(s->tsc0 + s->f1 * s->step_ns + s->f2 * (T - s->step_ns));
}

/* What the kernel returns for this counter value. */
static int64_t sim_truth(const struct sim *s, uint64_t tsc)
{
	double d = (double)tsc - s->tsc0;
	double T = d < s->f1 * s->step_ns ? d / s->f1 : s->step_ns + (d - s->f1 * s->step_ns) / s->f2;

	return (int64_t)sim_raw(s, T);
}

/*
 * A sandwich starting at T: 1-3 us wide, 2.5% preempted (50 us, to be thrown away), 1% slowed
 * (4-15 us, kept but wide); the kernel reads its clock anywhere inside. Returns the width in ns.
 */
static double sandwich(const struct sim *s, uint64_t *rng, double T, struct fr_cal_point *pt)
{
	uint64_t r = sim_xs(rng) % 1000;
	double w = r < 25 ? 50000 : r < 35 ? 4000 + 11000 * sim_unif(rng) : 1000 + 2000 * sim_unif(rng);

	pt->tsc_before = sim_tsc(s, T);
	pt->tsc_after = sim_tsc(s, T + w) + 1;
	pt->ns = (int64_t)sim_raw(s, T + w * sim_unif(rng));
	return w;
}

/*
 * One program calling clock_gettime(RAW), served as a runtime would serve it. Before the first
 * publication every call is the system call, wrapped in counter reads (a sandwich). Afterwards a
 * call takes a sandwich when the last is older than the refresh period (or a fraction of it),
 * or (unless lazy) on every call while the estimate is not ready, republishes with fr_cal_slew at
 * that counter value whenever the target moved, and reads the published line at its own counter
 * value. The first
 * publication starts from the target or, where that is behind the last value the system call
 * gave, slews from that value: the switch cannot step back either.
 */
void sim_run(const struct scenario *sc, uint64_t rng, struct outcome *o)
{
	struct sim s = { .f1 = sc->ghz, .f2 = sc->ghz * (1 + sc->step_ppm * 1e-6),
			 .step_ns = sc->step_s > 0 ? sc->step_s * NS_PER_S : 1e30,
			 .tsc0 = 1234567890123.0, .raw0 = 587000000000.0, .k = sc->drift, .nk = sc->ndrift };
	struct fr_cal_params p;
	struct fr_cal_est est;
	struct fr_cal_published pub;
	uint64_t last_sandwich = 0;
	int published = 0, paused = 0, was_ready = 0, lost = 0;
	double T = 0, shift = 0, pause_end = -1, end = sc->run_s * NS_PER_S;
	int64_t last = INT64_MIN;

	memset(o, 0, sizeof(*o));
	o->ready_again_s = -1;
	fr_cal_defaults(&p);
	fr_cal_est_init(&est, &p, 0);
	for (int i = 0; i < sc->npauses; i++)
		end += sc->pauses[i].len_s * NS_PER_S;

	while (T < end) {
		uint64_t tsc;
		int64_t v;
		double err;

		T += (sc->gap_min_us + (sc->gap_max_us - sc->gap_min_us) * sim_unif(&rng)) * 1000;
		if (paused < sc->npauses && T - shift >= sc->pauses[paused].at_s * NS_PER_S) {
			shift += sc->pauses[paused].len_s * NS_PER_S;
			T += sc->pauses[paused++].len_s * NS_PER_S;
			pause_end = T;
		}
		tsc = sim_tsc(&s, T);
		if (!published || (!sc->lazy && !fr_cal_est_ready(&est)) ||
		    tsc - last_sandwich > fr_cal_est_refresh_ticks(&est) / (sc->per_period ? sc->per_period : 1)) {
			struct fr_cal_point pt;
			struct fr_cal_published nw, pass;
			struct fr_cal_line tg;
			int changed;

			T += sandwich(&s, &rng, T, &pt);
			last_sandwich = pt.tsc_after;
			o->sandwiches++;
			changed = fr_cal_est_add(&est, &pt);
			if (!published && !fr_cal_est_ready(&est)) {
				/* Pass-through: the system call's own answer. */
				o->backwards += pt.ns < last;
				last = pt.ns;
				o->readings++;
				continue;
			}
			if (changed || !published) {
				fr_cal_est_target(&est, &tg);
				if (!published) {
					int64_t at = fr_cal_line_at(&tg, pt.tsc_after);

					pass.slew = (struct fr_cal_line){ pt.tsc_after, at > pt.ns ? at : pt.ns, tg.mult };
					pass.after = pass.slew;
					pass.tsc_end = pt.tsc_after;
					o->warmup_s = T / NS_PER_S;
				}
				fr_cal_slew(published ? &pub : &pass, &tg, pt.tsc_after, p.max_slew_ppm, &nw);
				pub = nw;
				published = 1;
			}
			tsc = sim_tsc(&s, T);
		}
		if (fr_cal_est_ready(&est) != was_ready) {
			was_ready = !was_ready;
			if (!was_ready && T >= s.step_ns)
				lost = 1;
			if (was_ready && lost && o->ready_again_s < 0)
				o->ready_again_s = T / NS_PER_S - sc->step_s;
		}
		v = fr_cal_at(&pub, tsc);
		o->backwards += v < last;
		last = v;
		o->readings++;
		o->checked++;
		err = (double)v - (double)sim_truth(&s, tsc);
		err = err < 0 ? -err : err;
		if (T >= s.step_ns && T < s.step_ns + 2 * NS_PER_S) {
			o->worst_step_ns = err > o->worst_step_ns ? err : o->worst_step_ns;
			continue;
		}
		o->worst_ns = err > o->worst_ns ? err : o->worst_ns;
		if (pause_end >= 0 && T < pause_end + 0.05 * NS_PER_S && err > o->worst_pause_ns)
			o->worst_pause_ns = err;
	}
	o->restarts = est.restarts;
}

/* An exact 3 GHz clock's RAW at counter value t. */
int64_t sim_exact_ns(uint64_t t)
{
	return (int64_t)(7000000000000.0 + ((double)t - 3000000000000.0) / 3.0);
}

/* Its sandwich at counter value t: w ticks wide, the kernel's read at `at` (0: start, 1: end). */
struct fr_cal_point sim_read_at(uint64_t t, uint64_t w, double at)
{
	struct fr_cal_point pt = { t, t + w, sim_exact_ns(t + (uint64_t)((double)w * at)) };

	return pt;
}
