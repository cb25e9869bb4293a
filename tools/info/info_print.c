/* SPDX-License-Identifier: MIT */
/* fastraw-info's two outputs: aligned "key: value" lines for people, one JSON object for scripts. */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "common/tool_arch.h"
#include "report/clocknames.h"
#include "info/info.h"

/* The longest key, "tsc frequency (pvclock):", is 24 characters. */
#define KEY_WIDTH 24

static void __attribute__((format(printf, 3, 4))) kv(FILE *f, const char *key, const char *fmt, ...)
{
	char k[KEY_WIDTH + 2];
	va_list ap;

	snprintf(k, sizeof(k), "%s:", key);
	fprintf(f, "%-*s ", KEY_WIDTH, k);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static const char *mode_name(int mode)
{
	return mode < 0 ? "unknown" : fr_mode_name(mode);
}

/* A rate for people: "62.500 MHz (62500000 Hz, cntfrq_el0)"; a fraction is rounded to the Hz. */
static void rate_line(FILE *f, const struct fr_arch_rate *r)
{
	uint64_t hz = (r->hz_num + r->hz_den / 2) / r->hz_den;

	kv(f, "counter frequency", "%" PRIu64 ".%03" PRIu64 " MHz (%" PRIu64 " Hz, %s)", hz / 1000000, hz / 1000 % 1000,
	   hz, r->source);
}

/* The clock ids of the page's clocks (FASTRAW_CLOCKS=all), in the order the lines name them. */
static const clockid_t page_clocks[] = {
	CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI, CLOCK_REALTIME_COARSE,
	CLOCK_MONOTONIC_COARSE,
};

/* The names of the page's clocks in the bits m, space-separated, into buf. */
static const char *clock_list(char *buf, size_t size, unsigned m)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(page_clocks) / sizeof(page_clocks[0]); i++) {
		if (m >> page_clocks[i] & 1)
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? " " : "",
					      fr_clock_name(page_clocks[i]));
	}
	return buf;
}

/*
 * Which of the page's clocks a preloaded process serves (FASTRAW_CLOCKS), which go to the vDSO,
 * and why those do (NULL when none does): for the text lines and the JSON keys alike.
 */
static const char *clock_split(const struct fr_status *st, unsigned *served, unsigned *rest)
{
	unsigned raw = 1u << CLOCK_MONOTONIC_RAW;

	*served = st->active || st->calibrated ? raw | st->clocks : 0;
	*rest = FR_ENV_CLOCKS_ALL & ~*served;
	if (!*rest)
		return NULL;
	if (st->clocks_wanted == raw)
		return "FASTRAW_CLOCKS=raw, the default";
	return st->clocks_why ? st->clocks_why : "not named in FASTRAW_CLOCKS";
}

static void clock_lines(FILE *f, const struct fr_status *st)
{
	unsigned served, rest;
	const char *why = clock_split(st, &served, &rest);
	char list[160], others[160];

	if (!served)
		kv(f, "served clocks", "none");
	else
		kv(f, "served clocks", "%s%s", clock_list(list, sizeof(list), served), st->calibrated ? " (calibrated)" : "");
	if (!why)
		kv(f, "other clocks", "to the vDSO (the page computes none of them)");
	else
		kv(f, "other clocks", "to the vDSO: %s (%s)", clock_list(others, sizeof(others), rest), why);
}

void info_print_text(FILE *f, const struct info *in)
{
	const struct info_sys *s = &in->sys;
	const struct info_pages *p = &in->pages;
	const struct info_agree *a = &in->agree;
	const struct fr_status *st = in->status;

	kv(f, "kernel", "%s", s->release[0] ? s->release : "unknown");
	if (s->clocksource[0])
		kv(f, "clocksource", "%s (available: %s)", s->clocksource, s->available);
	else
		kv(f, "clocksource", "unknown (sysfs not readable)");
	if (!p->era)
		kv(f, "vdso era", "none (%s)", p->problem);
	else if (p->problem)
		kv(f, "vdso era", "%s (pages not usable: %s)", p->era, p->problem);
	else if (p->era_note)
		kv(f, "vdso era", "%s (%s)", p->era, p->era_note);
	else
		kv(f, "vdso era", "%s", p->era);
	kv(f, "clock mode", "%s", mode_name(p->mode));
	if (fr_mode_is_pvclock(p->mode))
		kv(f, "pvclock stable", "%s", p->have_pv ? yes_no(p->pv_flags & FR_PV_STABLE_BIT) : "unknown");
	if (s->vendor[0] || s->brand[0])
		kv(f, "cpu", "%s %s", s->vendor, s->brand);
	else
		kv(f, "cpu", "unknown (the CPU's identity cannot be read here)");
	kv(f, "invariant " FR_ARCH_COUNTER_WORD, "%s", yes_no(s->cpu.invariant_counter));
	kv(f, tool_feature_key(), "%s", yes_no(s->cpu.ordered_read));
	if (TOOL_SHOW_COUNTER_RATE && s->rates.n)
		rate_line(f, &s->rates.r[0]);
	else if (TOOL_SHOW_COUNTER_RATE)
		kv(f, "counter frequency", "unknown (the CPU does not state it)");
	kv(f, "counter", "%s (%s)", fr_counter_name(st->counter), in->counter.why);
	if (st->active)
		kv(f, "fast path", "active");
	else if (st->calibrated)
		kv(f, "fast path", "calibrated (kernel data not used: %s)", st->reason);
	else
		kv(f, "fast path", "passthrough (%s)", st->reason);
	if (st->active)
		kv(f, "source", "kernel data (exact)");
	else if (st->calibrated)
		kv(f, "source", "calibrated (seed %s; within 2 us after warm-up)", st->cal_note);
	else
		kv(f, "source", "none (every RAW call to the kernel)");
	if (in->cal_ineligible)
		kv(f, "calibrated mode", "not eligible (%s)", in->cal_ineligible);
	else
		kv(f, "calibrated mode", "eligible");
	clock_lines(f, st);
	if (p->have_mult)
		kv(f, "raw mult/shift", "%" PRIu32 "/%" PRIu32 " (%" PRIu64 " Hz)", p->mult, p->shift,
		   info_mult_hz(p->mult, p->shift));
	if (p->have_pv) {
		uint64_t hz = info_pvclock_tsc_hz(p->pv_mul, p->pv_shift);

		kv(f, "tsc frequency (pvclock)", "%" PRIu64 ".%03" PRIu64 " MHz (mul 0x%08" PRIx32 ", shift %d)",
		   hz / 1000000, hz / 1000 % 1000, p->pv_mul, p->pv_shift);
	}
	kv(f, "time namespace", "%s", yes_no(p->timens));
	kv(f, "clock_gettime", "%s%s", a->object, a->preloaded ? " (preloaded)" : "");
	if (a->samples || a->failures)
		kv(f, "agreement", "%ld samples, %ld violations%s (%s)", a->samples, a->violations,
		   a->failures ? ", some calls failed" : "", a->measured);
	else
		kv(f, "agreement", "not run (%s)", a->measured);
}

/* A JSON string, escaped per RFC 8259; NULL becomes null. */
static void jstr(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\u%04x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static const char *jbool(int v)
{
	return v < 0 ? "null" : v ? "true" : "false";
}

/* A JSON object being written member by member. */
struct jout {
	FILE *f;
	int members;
};

/* "key": with the comma the previous member needs. */
static void jkey(struct jout *j, const char *key)
{
	fprintf(j->f, "%s\n  \"%s\": ", j->members++ ? "," : "", key);
}

/* A member whose value is printed verbatim (numbers, true, false, null). */
static void __attribute__((format(printf, 3, 4))) jraw(struct jout *j, const char *key, const char *fmt, ...)
{
	va_list ap;

	jkey(j, key);
	va_start(ap, fmt);
	vfprintf(j->f, fmt, ap);
	va_end(ap);
}

static void jmember(struct jout *j, const char *key, const char *s)
{
	jkey(j, key);
	jstr(j->f, s);
}

/* Space-separated names as a JSON array of strings. */
static void jlist(FILE *f, const char *names)
{
	char buf[256], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", names);
	fputc('[', f);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		fputs(n++ ? ", " : "", f);
		jstr(f, t);
	}
	fputc(']', f);
}

static void jwarnings(FILE *f, const struct info_counter *c)
{
	char w[256];

	fputc('[', f);
	for (int i = 0; i < c->env.nwarn; i++) {
		snprintf(w, sizeof(w), "%s=%s is not one of %s; using the default", c->env.warn[i].name,
			 c->env.warn[i].value, c->env.warn[i].accepted);
		fputs(i ? ", " : "", f);
		jstr(f, w);
	}
	if (c->ordered_missing) {
		fputs(c->env.nwarn ? ", " : "", f);
		jstr(f, "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_ORDERED " but this CPU has no " FR_ARCH_ORDERED_FEATURE
			"; using " FR_ARCH_COUNTER_NAME_FENCED);
	}
	fputc(']', f);
}

void info_print_json(FILE *f, const struct info *in)
{
	const struct info_sys *s = &in->sys;
	const struct info_pages *p = &in->pages;
	const struct info_agree *a = &in->agree;
	const struct fr_status *st = in->status;
	struct jout j = { f, 0 };
	unsigned served, rest;
	const char *why;
	char list[160];

	fputc('{', f);
	jmember(&j, "kernel", s->release[0] ? s->release : NULL);
	jmember(&j, "clocksource", s->clocksource[0] ? s->clocksource : NULL);
	jkey(&j, "clocksources_available");
	jlist(f, s->available);
	jmember(&j, "vdso_era", p->era);
	jmember(&j, "vdso_era_note", p->era_note);
	jmember(&j, "vdso_problem", p->problem);
	jmember(&j, "clock_mode", p->mode < 0 ? NULL : fr_mode_name(p->mode));
	jraw(&j, "pvclock_stable", "%s", jbool(p->have_pv ? p->pv_flags & FR_PV_STABLE_BIT : -1));
	jmember(&j, "cpu_vendor", s->vendor);
	jmember(&j, "cpu_brand", s->brand);
	jraw(&j, "invariant_" FR_ARCH_COUNTER_WORD, "%s", jbool(s->cpu.invariant_counter));
	jraw(&j, tool_feature_key(), "%s", jbool(s->cpu.ordered_read));
	if (TOOL_SHOW_COUNTER_RATE && s->rates.n) {
		const struct fr_arch_rate *r = &s->rates.r[0];

		jraw(&j, "counter_hz", "%" PRIu64, (r->hz_num + r->hz_den / 2) / r->hz_den);
		jmember(&j, "counter_hz_source", r->source);
	} else if (TOOL_SHOW_COUNTER_RATE) {
		jraw(&j, "counter_hz", "null");
		jmember(&j, "counter_hz_source", NULL);
	}
	jmember(&j, "counter", fr_counter_name(st->counter));
	jmember(&j, "counter_reason", in->counter.why);
	jkey(&j, "warnings");
	jwarnings(f, &in->counter);
	jraw(&j, "fast_path_active", "%s", jbool(st->active));
	jmember(&j, "fast_path_reason", st->active ? NULL : st->reason);
	jmember(&j, "source", st->active ? "kernel" : st->calibrated ? "calibrated" : "none");
	jraw(&j, "calibrated_eligible", "%s", jbool(!in->cal_ineligible));
	jmember(&j, "calibrated_reason", in->cal_ineligible);
	jmember(&j, "calibrated_seed", st->calibrated ? st->cal_note : NULL);
	why = clock_split(st, &served, &rest);
	jkey(&j, "served_clocks");
	jlist(f, clock_list(list, sizeof(list), served));
	jkey(&j, "other_clocks");
	jlist(f, clock_list(list, sizeof(list), rest));
	jmember(&j, "other_clocks_reason", why);
	if (p->have_mult) {
		jraw(&j, "raw_mult", "%" PRIu32, p->mult);
		jraw(&j, "raw_shift", "%" PRIu32, p->shift);
		jraw(&j, "raw_counter_hz", "%" PRIu64, info_mult_hz(p->mult, p->shift));
	} else {
		jraw(&j, "raw_mult", "null");
		jraw(&j, "raw_shift", "null");
		jraw(&j, "raw_counter_hz", "null");
	}
	if (p->have_pv) {
		jraw(&j, "pvclock_tsc_mul", "%" PRIu32, p->pv_mul);
		jraw(&j, "pvclock_tsc_shift", "%d", p->pv_shift);
		jraw(&j, "pvclock_tsc_hz", "%" PRIu64, info_pvclock_tsc_hz(p->pv_mul, p->pv_shift));
	} else {
		jraw(&j, "pvclock_tsc_mul", "null");
		jraw(&j, "pvclock_tsc_shift", "null");
		jraw(&j, "pvclock_tsc_hz", "null");
	}
	jraw(&j, "time_namespace", "%s", jbool(p->timens));
	jmember(&j, "clock_gettime_object", a->object);
	jraw(&j, "preloaded", "%s", jbool(a->preloaded));
	jraw(&j, "agreement", "{\"samples\": %ld, \"violations\": %ld, \"failures\": %ld, \"measured\": ",
	     a->samples, a->violations, a->failures);
	jstr(f, a->measured);
	fputs("}\n}\n", f);
}
