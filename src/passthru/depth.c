/* SPDX-License-Identifier: MIT */
/* Counts the forwarding calls under way on each thread, so that a chain leading back to us ends. */
#include "passthru/depth.h"

#include "base/libc.h"
#include "elf/early.h"
#include "report/log.h"

static __thread struct fr_depth depth __attribute__((tls_model(FR_TLS_MODEL)));
static unsigned early_depth;

int fr_depth_enter(struct fr_depth *saved)
{
	uintptr_t sp = (uintptr_t)saved;
	unsigned n;

	if (!fr_relocated()) {
		saved->n = 0;
		if (__atomic_add_fetch(&early_depth, 1, __ATOMIC_RELAXED) <= FR_DEPTH_MAX)
			return 1;
		__atomic_sub_fetch(&early_depth, 1, __ATOMIC_RELAXED);
		return 0;
	}
	*saved = depth;
	/* Stacks grow down: a record above this frame belongs to a call this one is nested in. */
	n = saved->n && saved->sp > sp ? saved->n + 1 : 1;
	if (n > FR_DEPTH_MAX)
		return 0;
	/* A handler that runs between the two stores sees at worst one level fewer, and restores both. */
	depth.sp = sp;
	depth.n = n;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return 1;
}

void fr_depth_leave(const struct fr_depth *saved)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!fr_relocated()) {
		__atomic_sub_fetch(&early_depth, 1, __ATOMIC_RELAXED);
		return;
	}
	depth = *saved;
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
	fr_line_start(&l);
	fr_line_add(&l, "loop: ");
	fr_line_add(&l, name);
	fr_line_add(&l, " came back into libfastraw " FR_DEPTH_MAX_TEXT " times on one thread through the "
			"definitions after it; such calls are answered without them (the system call)");
	fr_line_emit(&l);
}
