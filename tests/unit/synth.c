/* SPDX-License-Identifier: MIT */
/* Synthetic [vvar] and pvclock pages of one era, and what that era's vDSO would read from them. */
#include "synth.h"

#include <string.h>
#include <sys/mman.h>

#include "exact/fastpath.h"

/* The eras' table is the CPU's: tests/oracle/<cpu>/synth_eras.c. */

/* Entry fields, §2.4: seq 0, clock_mode 4, cycle_last 8, [max_cycles 16], then mask, mult, shift, basetime. */
enum { O_SEQ = 0, O_MODE = 4, O_LAST = 8, O_MAX = 16, O_MASK = 16, O_MULT = 24, O_SHIFT = 28, O_BASE = 32 };

void synth_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

void synth_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * Pages start inaccessible, like the kernel's timens and vclock pages that fault (SIGBUS) until
 * used (docs/kernel-data.md §1.1, §5): a reader that touches a page it has no business with
 * crashes the test.
 */
static uint8_t *map_none(size_t pages)
{
	void *p = mmap(NULL, pages * FR_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_msg(p != MAP_FAILED, "mmap failed");
	return p;
}

static void page_access(uint8_t *page, int prot)
{
	if (mprotect(page, FR_PAGE_SIZE, prot) != 0)
		ck_abort_msg("mprotect failed");
}

void synth_init(struct synth *s, int era_index)
{
	const struct fr_layout *lay;

	s->era = &eras[era_index];
	s->vvar = map_none(SYNTH_PAGES);
	s->pv = map_none(2);
	s->hv = s->pv + FR_PAGE_SIZE;
	s->pv_open = s->hv_open = 0;
	s->open = 1;
	page_access(s->vvar, PROT_READ | PROT_WRITE);
	lay = fr_layout_by_name(s->era->name);
	ck_assert_msg(lay != NULL, "no layout named %s", s->era->name);
	fr_kdata_init(&s->kd, lay, s->vvar, s->pv);
}

void synth_free(struct synth *s)
{
	munmap(s->vvar, SYNTH_PAGES * FR_PAGE_SIZE);
	munmap(s->pv, 2 * FR_PAGE_SIZE);
}

void synth_close_pv(struct synth *s)
{
	if (s->pv_open)
		page_access(s->pv, PROT_NONE);
	s->pv_open = 0;
}

void synth_set_hv(struct synth *s, const struct hvvals *h)
{
	if (!s->hv_open)
		page_access(s->hv, PROT_READ | PROT_WRITE);
	s->hv_open = 1;
	synth_put32(s->hv + 0, h->seq);
	synth_put64(s->hv + 8, h->scale);
	synth_put64(s->hv + 16, h->offset);
}

void synth_close_hv(struct synth *s)
{
	if (s->hv_open)
		page_access(s->hv, PROT_NONE);
	s->hv_open = 0;
}

uint8_t *synth_field(struct synth *s, uint32_t page, int idx, uint32_t off)
{
	uint32_t entry = s->era->raw - (idx ? 0 : s->era->size);

	if (off >= O_MASK && s->era->has_max)
		off += 8;
	return s->vvar + page * FR_PAGE_SIZE + entry + off;
}

/* basetime[clk] of entry idx: {sec, nsec}. */
static void put_base(struct synth *s, uint32_t page, int idx, int clk, uint64_t sec, uint64_t nsec)
{
	synth_put64(synth_field(s, page, idx, O_BASE + 16 * (uint32_t)clk), sec);
	synth_put64(synth_field(s, page, idx, O_BASE + 16 * (uint32_t)clk + 8), nsec);
}

void synth_set_clock(struct synth *s, uint32_t page, const struct clockvals *v)
{
	if (!(s->open & (1u << page)))
		page_access(s->vvar + page * FR_PAGE_SIZE, PROT_READ | PROT_WRITE);
	s->open |= 1u << page;
	for (int idx = 0; idx < 2; idx++) {
		/*
		 * clock_data[0] gets a different (NTP-like) mult and other bases, and the RAW entry's
		 * other basetime slots are filled too: reading the wrong entry or slot changes the result.
		 */
		synth_put32(synth_field(s, page, idx, O_SEQ), v->seq);
		synth_put32(synth_field(s, page, idx, O_MODE), v->mode);
		synth_put64(synth_field(s, page, idx, O_LAST), idx ? v->L : v->L ^ 0x5a5a5);
		if (s->era->has_max)
			synth_put64(s->vvar + page * FR_PAGE_SIZE + s->era->raw - (idx ? 0 : s->era->size) + O_MAX,
				    idx ? v->max : v->max / 3);
		synth_put64(synth_field(s, page, idx, O_MASK), synth_mask(s->era, v));
		synth_put32(synth_field(s, page, idx, O_MULT), idx ? v->mult : v->mult ^ 0x10101);
		synth_put32(synth_field(s, page, idx, O_SHIFT), v->shift);
		for (int clk = 0; clk < 12; clk++)
			put_base(s, page, idx, clk, 0x1111111ULL * (uint64_t)(clk + 1) + (uint64_t)idx,
				 (uint64_t)(0x333 + clk) << 20);
		if (idx)
			put_base(s, page, idx, FR_CLOCK_RAW_ID, v->sec, v->B);
	}
	synth_put32(s->vvar + page * FR_PAGE_SIZE + s->era->hrtimer, 1);
}

uint64_t synth_mask(const struct era *e, const struct clockvals *v)
{
	return v->mask ? v->mask : e->mask;
}

void synth_share_clocksource(struct synth *s, uint32_t page)
{
	uint8_t *raw = s->vvar + page * FR_PAGE_SIZE + s->era->raw, *hres = raw - s->era->size;

	memcpy(hres + O_LAST, raw + O_LAST, 8);
	if (s->era->has_max)
		memcpy(hres + O_MAX, raw + O_MAX, 8);
}

void synth_set_pv(struct synth *s, const struct pvvals *p)
{
	if (!s->pv_open)
		page_access(s->pv, PROT_READ | PROT_WRITE);
	s->pv_open = 1;
	synth_put32(s->pv + 0, p->version);
	synth_put64(s->pv + 8, p->tsts);
	synth_put64(s->pv + 16, p->sys);
	synth_put32(s->pv + 24, p->mul);
	s->pv[28] = (uint8_t)p->shift;
	s->pv[29] = p->flags;
}

void synth_set_timens(struct synth *s, const struct nsoff *off, uint32_t marker)
{
	/* kernel/time/namespace.c: every entry seq 1 and the marker; MONOTONIC and RAW offsets set. */
	memset(s->vvar, 0, FR_PAGE_SIZE);
	for (int idx = 0; idx < 2; idx++) {
		synth_put32(synth_field(s, 0, idx, O_SEQ), 1);
		synth_put32(synth_field(s, 0, idx, O_MODE), marker);
	}
	/* A different MONOTONIC offset: the library must take slot 4 of the RAW entry. */
	put_base(s, 0, 1, 1, (uint64_t)off->sec + 77, off->nsec / 2);
	put_base(s, 0, 1, FR_CLOCK_RAW_ID, (uint64_t)off->sec, off->nsec);
}

int synth_expect(const struct era *e, const struct clockvals *v, const struct pvvals *p,
		 const struct nsoff *ns, uint64_t counter, struct timespec *ts)
{
	return synth_expect_vclock(e, v, p, NULL, ns, counter, ts);
}

int synth_expect_vclock(const struct era *e, const struct clockvals *v, const struct pvvals *p,
			const struct hvvals *h, const struct nsoff *ns, uint64_t counter, struct timespec *ts)
{
	uint64_t c = counter, ns_val;

	/* A seq that stays odd never settles (§4): after bounded retries the call passes. */
	if (v->seq & 1)
		return 0;
#if FR_HAS_VCLOCK
	if (v->mode == FR_MODE_PVCLOCK) {
		/* Unstable pvclock: the vDSO makes the syscall (§6 step 2). */
		if (!p || !(p->flags & FR_PV_STABLE_BIT) || (p->version & 1))
			return 0;
		if (!m_pvclock(counter, p->tsts, p->sys, p->mul, p->shift, &c))
			return 0;
	} else if (v->mode == FR_MODE_HVCLOCK) {
		/* Sequence 0 marks the page invalid: the vDSO makes the syscall (§7 step 1). */
		if (!h || !m_hvclock(counter, h->seq, h->scale, h->offset, &c))
			return 0;
	} else
#else
	/* No vclock pages on this architecture: p and h describe nothing the kernel has. */
	(void)p;
	(void)h;
#endif
#if FR_ARCH_MODE_ANY_COUNTER
	/* arm64's vDSO reads the counter in every mode but none (docs/kernel-data.md §14.2). */
	if (v->mode == FR_MODE_NONE)
		return 0;
#else
	if (v->mode != FR_MODE_COUNTER && v->mode != FR_MODE_COUNTER_ALT)
		return 0;
#endif
	if (e->rules == M_MASKED) {
		/* The generic delta: no 63-bit mask of the counter and no "invalid" bit (arm64 section). */
		ns_val = m_raw_masked(c, v->L, synth_mask(e, v), v->mult, v->shift, v->B);
	} else {
		/* 6.5+: the clocksource read is masked to 63 bits; bit 63 is the invalid marker (§3). */
		if (e->rules != M_5_3)
			c &= M_S64_MAX;
		if ((int64_t)c < 0)
			return 0;
		ns_val = m_raw_ns(e->rules, c, v->L, v->max, v->mult, v->shift, v->B);
	}
	if (ns)
		*ts = m_ts(v->sec + (uint64_t)ns->sec, ns_val + ns->nsec);
	else
		*ts = m_ts(v->sec, ns_val);
	return 1;
}

/* The synthetic counter's state (see synth_ctr_set). */
static struct {
	uint64_t first, later;
	unsigned calls;
	uint8_t *bump;
} ctr;

static uint64_t ctr_fn(void)
{
	if (ctr.calls++ == 0) {
		if (ctr.bump) {
			uint32_t v;

			memcpy(&v, ctr.bump, sizeof(v));
			synth_put32(ctr.bump, v + 2);
		}
		return ctr.first;
	}
	return ctr.later;
}

void synth_ctr_set(uint64_t first, uint64_t later, uint8_t *bump)
{
	ctr.first = first;
	ctr.later = later;
	ctr.calls = 0;
	ctr.bump = bump;
}

/* One reading: g = 0 the fast path (fr_raw_read_with), g = 1 the reference (fr_raw_read_general_with). */
int synth_read(struct synth *s, int g, struct timespec *ts)
{
	ts->tv_sec = -1;
	ts->tv_nsec = -1;
	return g ? fr_raw_read_general_with(&s->kd, ctr_fn, ts) : fr_raw_read_with(&s->kd, ctr_fn, ts);
}

static void check_read(struct synth *s, const struct clockvals *v, const struct pvvals *p, const struct hvvals *h,
		       const struct nsoff *ns, uint64_t c, const char *what)
{
	struct timespec want = { 0, 0 }, got;
	int ok = synth_expect_vclock(s->era, v, p, h, ns, c, &want);

	for (int g = 0; g < 2; g++) {
		int r;

		synth_ctr_set(c, c, NULL);
		r = synth_read(s, g, &got);
		if (r != (ok ? FR_OK : FR_PASS) ||
		    (ok && (got.tv_sec != want.tv_sec || got.tv_nsec != want.tv_nsec)))
			ck_abort_msg("%s, era %s, %s reading, counter %#llx, L %#llx: got %s {%lld, %ld}, want %s "
				     "{%lld, %ld}",
				     what, s->era->name, g ? "general" : "fast", (unsigned long long)c,
				     (unsigned long long)v->L, r == FR_OK ? "OK" : "PASS", (long long)got.tv_sec,
				     got.tv_nsec, ok ? "OK" : "PASS", (long long)want.tv_sec, want.tv_nsec);
	}
}

unsigned synth_ctr_calls(void)
{
	return ctr.calls;
}

/* Both readings of s with counter value c give the era's answer for c (or both pass the call on). */
void synth_check_read(struct synth *s, const struct clockvals *v, const struct pvvals *p,
		      const struct nsoff *ns, uint64_t c, const char *what)
{
	check_read(s, v, p, NULL, ns, c, what);
}

void synth_check_read_hv(struct synth *s, const struct clockvals *v, const struct hvvals *h,
			 const struct nsoff *ns, uint64_t c, const char *what)
{
	check_read(s, v, NULL, h, ns, c, what);
}
