/* SPDX-License-Identifier: MIT */
/* What the assembly stubs of dlsym, dlvsym and syscall call and read: the C side in src/interpose/, one contract for every architecture. */
#ifndef FR_ARCH_STUBS_H
#define FR_ARCH_STUBS_H

/*
 * The stubs are assembly because they must leave the caller's frame and registers as they
 * found them: glibc's dlsym reads its caller's return address, and syscall() passes a seventh
 * argument on the stack. Each is exported under the libc name; the C functions below decide.
 * This header is read by the stubs' assembler too: only macros outside the guard.
 */

/*
 * Where the syscall stub finds its words in the hot record, fr_hot (base/hot.h, which checks each
 * offset against the struct): the mode, the clocks it serves, the next syscall() in the chain.
 */
#define FR_HOT_SYSCALL_RAW_MODE 0
#define FR_HOT_SYSCALL_CLOCKS 4
#define FR_HOT_SYSCALL_NEXT 8

/* What the syscall stub reads in fr_hot.syscall_raw_mode for FASTRAW_SYSCALL. */
#define FR_RAW_MODE_UNKNOWN 0
#define FR_RAW_MODE_OFF 1
#define FR_RAW_MODE_ON 2

/* CLOCK_MONOTONIC_RAW for the stub, whose assembler cannot read <time.h>; checked below. */
#define FR_STUB_CLOCK_MONOTONIC_RAW 4

#ifndef __ASSEMBLER__
#include <time.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

_Static_assert(FR_STUB_CLOCK_MONOTONIC_RAW == CLOCK_MONOTONIC_RAW, "the syscall stub's clock id");

/*
 * The dlsym and dlvsym stubs pass the router the caller's return address and then either
 * return value (jump NULL) or jump on to jump with the caller's frame and arguments intact.
 * A struct of two pointers comes back in two registers (x86-64 SysV: rax, rdx).
 */
struct fr_route {
	void *jump;  /* where the stub jumps with the caller's frame and arguments, or NULL */
	void *value; /* what the stub returns when jump is NULL */
};

struct fr_route fr_dlsym_route(void *handle, const char *name, const void *caller);
struct fr_route fr_dlvsym_route(void *handle, const char *name, const char *version, const void *caller);

/*
 * The syscall stub serves CLOCK_MONOTONIC_RAW itself (fr_syscall_raw) only when
 * fr_hot.syscall_raw_mode is FR_RAW_MODE_ON and the timespec lies inside a stack page this thread
 * has just written, above the caller's frame, so that storing it cannot fault where the kernel
 * would answer EFAULT (interpose/interpose_syscall.c says why). Each architecture's stub
 * checks it against its own write: on x86-64 the call instruction's push of the return
 * address, with the timespec above it in its page. While the mode is FR_RAW_MODE_UNKNOWN it asks
 * fr_syscall_mode_read (0: not yet readable). A clock of fr_hot.syscall_clocks takes the same
 * check and goes to fr_syscall_served. Every other call jumps to fr_hot.syscall_next, filled by
 * fr_syscall_next, else to fr_syscall_none.
 *
 * The other clocks the stub serves the same way, by fr_syscall_served: bits of clock ids, 0
 * (none) until initialisation, when FASTRAW_SYSCALL=1, sets the clocks FASTRAW_CLOCKS serves
 * (startup/runtime.c). A plain 0 before relocation too: the stub may read it any time.
 */
long fr_syscall_served(long nr, long clk, struct timespec *p);
void *fr_syscall_next(void);
int fr_syscall_mode_read(void);
long fr_syscall_raw(long nr, long clk, struct timespec *p);
long fr_syscall_none(long nr, long a, long b, long c, long d, long e, long f);
#pragma GCC visibility pop
#else
/* The same symbols hidden for a port's syscall_stub.S, which names this macro once. */
.macro fr_syscall_stub_hidden
	.hidden fr_hot
	.hidden fr_syscall_next
	.hidden fr_syscall_mode_read
	.hidden fr_syscall_raw
	.hidden fr_syscall_none
	.hidden fr_syscall_served
.endm
#endif

#endif
