/* SPDX-License-Identifier: MIT */
/* Counts the forwarding calls under way on each thread, so that a chain leading back to us ends. */
#include "passthru/depth.h"

#include "base/libc.h"
#include "elf/early.h"
#include "report/errfd.h"
#include "report/log.h"

static __thread const struct fr_depth *innermost __attribute__((tls_model(FR_TLS_MODEL)));
static unsigned early_depth;

/* What a live record's check word holds: its own address, scrambled, so that zeroed or reused stack memory does not pass. */
static uintptr_t check_of(const struct fr_depth *d)
{
	return (uintptr_t)d ^ (uintptr_t)0x9e3779b97f4a7c15ull;
}

int fr_depth_enter(struct fr_depth *saved)
{
	const struct fr_depth *t;
	unsigned n = 1;

	if (!fr_relocated()) {
		saved->n = 0;
		if (__atomic_add_fetch(&early_depth, 1, __ATOMIC_RELAXED) <= FR_DEPTH_MAX)
			return 1;
		__atomic_sub_fetch(&early_depth, 1, __ATOMIC_RELAXED);
		return 0;
	}
	t = innermost;
	/* Stacks grow down: a live record above this frame belongs to a call this one is nested in. */
	if (t && (uintptr_t)t > (uintptr_t)saved && t->check == check_of(t))
		n = t->n + 1;
	if (n > FR_DEPTH_MAX)
		return 0;
	saved->up = t;
	saved->n = n;
	saved->check = check_of(saved);
	/* A handler that runs before the store sees the record of the call this one is nested in. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	innermost = saved;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return 1;
}

void fr_depth_leave(struct fr_depth *saved)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!fr_relocated()) {
		__atomic_sub_fetch(&early_depth, 1, __ATOMIC_RELAXED);
		return;
	}
	innermost = saved->up;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* A record whose call returned is never taken for a live one. */
	saved->check = 0;
}

int fr_depth_debug;
static int reported;

void fr_depth_report(const char *name)
{
	struct fr_line l;

	/* Before relocation errno is out of reach and initialisation has not run: nothing is said. */
	if (!fr_relocated() || !__atomic_load_n(&fr_depth_debug, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return;
	/* Only to the stderr the process started with (report/errfd.h), as every other line. */
	if (!fr_errfd_unchanged())
		return;
	fr_line_start(&l);
	fr_line_add(&l, "loop: ");
	fr_line_add(&l, name);
	fr_line_add(&l, " came back into libfastraw " FR_DEPTH_MAX_TEXT " times on one thread through the "
			"definitions after it; such calls are answered without them (the system call)");
	fr_line_emit(&l);
}
