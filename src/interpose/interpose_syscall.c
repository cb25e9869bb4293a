/* SPDX-License-Identifier: MIT */
/* The exported syscall(): every call on to the next syscall() in the chain, RAW and the served clocks' clock_gettime on the fast path only when asked for. */
#include <sys/syscall.h>
#include <time.h>

#include "arch/stubs.h"
#include "base/hot.h"
#include "interpose/prime.h"
#include "startup/runtime.h"
#include "startup/served.h"
#include "elf/early.h"
#include "arch/arch.h"
#include "elf/nextsym.h"

/*
 * The exported syscall() is an assembly stub (src/arch/<cpu>/, arch/stubs.h): every call but a
 * served RAW clock_gettime jumps on to the next syscall() in the chain with all registers as
 * the caller left them, so that a later interposer, and in the end libc, sees exactly the call
 * it would see without us: the kernel's own contract (EFAULT for a bad pointer, the system call
 * itself for programs that test it). The functions here are what it calls and reads.
 *
 * RAW (and every clock FASTRAW_CLOCKS serves) is served in-process only with FASTRAW_SYSCALL=1
 * and when the 16 bytes at p lie above the caller's frame inside a stack page this thread has
 * just written (on x86-64 the call instruction's push of the return address is that write: p
 * above it, in its page): that page is mapped and writable for this thread now, so the store
 * cannot fault where the kernel would answer EFAULT. Any other pointer (the heap, static data, another stack page,
 * and every bad one: unmapped, read-only, PROT_NONE, NULL, kernel) goes to the kernel. Telling
 * a writable page without a fault needs a system call, which costs what the kernel's own
 * clock_gettime does; a cache of pages once found writable would fault after munmap or
 * mprotect, and a SIGSEGV handler would change the host. The cost: a timespec on the heap, in
 * static data or across a page boundary from that write gets the kernel's speed; the stack's
 * offset in its page is random, so a local d bytes above the written word misses in about
 * (d + 16) in 4096 runs (4 KiB pages).
 */

_Static_assert(FR_RAW_MODE_UNKNOWN == 0, "fr_hot.syscall_raw_mode starts unknown");

/* The next syscall() in the chain (a later interposer's, else libc's), resolved on first use. */
__attribute__((used)) void *fr_syscall_next(void)
{
	return fr_next_cached(&fr_hot.syscall_next, "syscall");
}

/*
 * FASTRAW_SYSCALL as the runtime reads it (it never changes once read): racers store the same.
 * Returns 0 when it cannot be read yet (before relocation the environment is out of reach):
 * this call then goes on to the next syscall() and the mode stays unknown.
 */
__attribute__((used)) int fr_syscall_mode_read(void)
{
	if (!fr_relocated())
		return 0;
	__atomic_store_n(&fr_hot.syscall_raw_mode, fr_syscall_mode(), __ATOMIC_RELAXED);
	return 1;
}

/* RAW on the fast path, p already known writable (see above). In libc's convention, as syscall(). */
__attribute__((used)) long fr_syscall_raw(long nr, long clk, struct timespec *p)
{
	(void)nr;
	(void)clk;
	return fr_raw_call(p);
}

/*
 * Another clock FASTRAW_CLOCKS serves, p already known writable: from the page as
 * clock_gettime's dispatcher serves it, or, when the page cannot answer exactly, the vDSO's
 * answer, as RAW's entry passes on. In libc's convention, as syscall().
 */
__attribute__((used)) long fr_syscall_served(long nr, long clk, struct timespec *p)
{
	(void)nr;
	return fr_served_libc((clockid_t)clk, p);
}

/*
 * No syscall() after ours, not even libc's: the system call itself, in libc's convention (before
 * relocation -1 without errno, which is out of reach then). Reached by a jump with the caller's
 * registers and stack: the seventh argument is the caller's stack word.
 */
__attribute__((used)) long fr_syscall_none(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret = fr_sys6(nr, a, b, c, d, e, f);

	if ((unsigned long)ret < -4095UL)
		return ret;
	/* The kernel's -errno in libc's shape, converted here once (passthru/passthru.h). */
	return fr_relocated() ? fr_fail((int)ret) : fr_finish_unrelocated((struct fr_kret){ (int)ret });
}

void fr_syscall_prime(void)
{
	fr_syscall_next();
	if (__atomic_load_n(&fr_hot.syscall_raw_mode, __ATOMIC_RELAXED) == FR_RAW_MODE_UNKNOWN)
		fr_syscall_mode_read();
}
