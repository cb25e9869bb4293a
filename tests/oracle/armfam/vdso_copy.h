/* SPDX-License-Identifier: MIT */
/* A private copy of this process's ARM-family vDSO (arm64, 32-bit ARM) and data pages whose counter reads return chosen values. */
#ifndef FR_TEST_ACOPY_H
#define FR_TEST_ACOPY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The CPU's finder of what is rerouted (tests/oracle/<cpu>/sites.h): struct asites. */
#include "sites.h"

#define AC_PAGE 4096u
#define AC_MAX_VDSO_PAGES 4u
#define AC_TIMENS_MODE 0x7fffffffu /* VDSO_CLOCKMODE_TIMENS */

/* Where the era keeps its data (the library's struct fr_layout gives these). */
struct acopy_geom {
	uint32_t pages_below; /* data pages directly below [vdso] */
	uint32_t raw_off;     /* the CS_RAW entry in a data page */
	uint32_t clock_size;  /* sizeof one clock entry (struct vdso_data, struct vdso_clock) */
	uint32_t timens_page; /* the page with the real data inside a time namespace */
	int image;            /* the vDSO is another kernel's image (ORACLE_VDSO_IMAGE), not this process's: no live page */
};

/* Called at counter read n (0, 1, ...) of one call, before the read returns its value. */
typedef void (*ac_read_hook)(unsigned n);

/* What the kernel's code did during one call of the copy. */
struct ac_call {
	long ret;           /* the copy's return value */
	unsigned reads;     /* counter reads executed */
	int read_site;      /* index (asites.read) of the last one, or -1 */
	unsigned carries;   /* carry loops replaced by their closed form */
	unsigned bad_carry; /* a carry loop whose step register was not 1e9: the copy is not what it seems */
	unsigned syscalls;  /* fallback system calls the copy made */
};

/*
 * The copy: the data pages, the vDSO image at pages_below pages above them (its PC-relative
 * loads reach the copied pages), then one page of trampolines. Every counter read, every
 * clock_gettime system call and every carry loop's first instruction becomes a branch to a
 * trampoline that saves all registers and the flags, calls the oracle's handler with them
 * and returns after the rerouted instruction: no signal and no change of a system register,
 * so the handler is ordinary code of this thread. Only the live data page is copied (to page 0).
 */
struct acopy {
	uint8_t *region;
	size_t pages, vdso_pages;
	struct acopy_geom geom;
	uint8_t *vvar;  /* data page 0 of the copy */
	uint8_t *text;  /* copy of [vdso], patched and executable */
	uint8_t *tramp; /* the trampoline page */
	uint8_t time_page[AC_PAGE]; /* the live data page as copied */
	uint8_t ns_page[AC_PAGE];   /* the live namespace page (page 0) when live_in_timens */
	int live_mode;       /* clock_mode of the live RAW entry */
	int live_in_timens;  /* this process runs in a time namespace (the real page was copied) */
	const volatile uint8_t *live; /* the live data page the copy was taken from (NULL: an image's) */
	uint64_t cntfrq;     /* the counter's frequency (CNTFRQ_EL0, CNTFRQ) */
	int (*gettime)(clockid_t, struct timespec *);
	struct asites sites;
	uint32_t carry_branch[AS_MAX_SITES]; /* each carry loop's branch to its trampoline */
};

/*
 * Maps and patches the copy of the vDSO at vdso (its data pages below it as geom says).
 * NULL, or why it could not be made.
 */
const char *acopy_open(struct acopy *ac, const uint8_t *vdso, const struct acopy_geom *geom);
void acopy_close(struct acopy *ac);

/*
 * Copies the live data page again (a settled snapshot) into time_page and the copy's data page
 * 0. 0, or -1 when it never settled or there is no live page.
 */
int acopy_refresh(struct acopy *ac);

/* Carry loops in closed form (on) or run natively (off). */
void acopy_set_carry_shortcut(struct acopy *ac, int on);

/* The hook run at each counter read of the copy (NULL: none). */
void acopy_set_read_hook(ac_read_hook hook);

/* Calls the copy's clock_gettime(clk): the first counter read returns tsc, any later one tsc2. */
void acopy_gettime2(struct acopy *ac, clockid_t clk, uint64_t tsc, uint64_t tsc2, struct timespec *ts,
		    struct ac_call *call);
void acopy_gettime(struct acopy *ac, clockid_t clk, uint64_t tsc, struct timespec *ts, struct ac_call *call);

#endif
