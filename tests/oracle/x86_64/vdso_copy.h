/* SPDX-License-Identifier: MIT */
/* A private, patched copy of this process's vDSO and data pages whose counter reads return a chosen TSC. */
#ifndef FR_TEST_VCOPY_H
#define FR_TEST_VCOPY_H

#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"
#include "sites.h"

#define VC_PAGE 4096u
#define VC_MAX_VDSO_PAGES 8u

typedef int (*vc_gettime_fn)(clockid_t clk, struct timespec *ts);

/* Called at counter read n (0, 1, ...) of one call, before the read returns its value. */
typedef void (*vc_read_hook)(unsigned n);

/* What the kernel's code did during one call of the copy. */
struct vc_call {
	long ret;              /* the copy's return value */
	unsigned rdtsc_traps;  /* patched counter reads executed */
	int rdtsc_site;        /* index of the last one, or -1 */
	unsigned carry_traps;  /* carry loops replaced by their closed form */
	unsigned syscalls;     /* fallback system calls the copy made */
};

/*
 * The copy keeps the era's relative layout: [vvar] (and [vvar_vclock]) pages_below pages, then
 * the vDSO image, so the code's RIP-relative loads reach the copied pages. Only the data page
 * (page 0, or the real page inside a time namespace) and a live pvclock page are copied; every
 * other page is zero, written by the regimes.
 */
struct vcopy {
	uint8_t *region;
	size_t pages;
	const struct fr_layout *lay;
	uint8_t *vvar;        /* data page 0 of the copy */
	uint8_t *vclock;      /* the pvclock page of the copy */
	uint8_t *hvclock;     /* the Hyper-V TSC page of the copy (vclock + 1 page) */
	uint8_t *text;        /* copy of [vdso], patched and executable */
	uint8_t time_page[VC_PAGE]; /* the live data page as copied */
	uint8_t pv_page[VC_PAGE];   /* the live pvclock page as copied (when live_mode is pvclock) */
	int live_mode;        /* clock_mode of the live RAW entry */
	int live_in_timens;   /* this process runs in a time namespace (the real page was copied) */
	uint32_t tsc_aux;     /* what rdtscp leaves in ecx for this process (IA32_TSC_AUX) */
	vc_gettime_fn gettime;
	struct vsites sites;
	const volatile uint8_t *live; /* the live data page the copy was taken from (NULL: an image's) */
	size_t live_seq_off;          /* where its RAW entry's seq lies */
};

/*
 * Maps and patches the copy and installs the SIGILL handler. Returns NULL, or why the copy could
 * not be made; *fatal says whether that is a failure (a vDSO exists but cannot be analysed) or
 * a legitimate absence (no vDSO in this process, a kernel exporting no RAW data).
 */
const char *vcopy_open(struct vcopy *vc, int *fatal);
void vcopy_close(struct vcopy *vc);

/*
 * Copies the live data page again (a settled snapshot: even seq, unchanged across the copy) into
 * time_page and the copy's data page 0. 0, or -1 when it never settled or there is no live page.
 */
int vcopy_refresh(struct vcopy *vc);

/*
 * Whether the kernel's carry loops (sec += 1 per 1e9 ns) run natively or are replaced by a trap
 * that applies their closed form, for results whose loop would take seconds.
 */
void vcopy_set_carry_shortcut(struct vcopy *vc, int on);

/* The hook run at each counter read of the copy (NULL: none). */
void vcopy_set_read_hook(vc_read_hook hook);

/* Calls the copy's clock_gettime(clk): the first counter read returns tsc, any later one tsc2. */
void vcopy_gettime2(struct vcopy *vc, clockid_t clk, uint64_t tsc, uint64_t tsc2, struct timespec *ts,
		    struct vc_call *call);
void vcopy_gettime(struct vcopy *vc, clockid_t clk, uint64_t tsc, struct timespec *ts, struct vc_call *call);

#endif
