/* SPDX-License-Identifier: MIT */
/* Which process owns this memory: a page the kernel wipes in forked children, else the kernel's kcmp. */
#include "proc/memid.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "base/once.h"
#include "base/sys.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif
#define KCMP_VM 1

#define LD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

/*
 * A page marked MADV_WIPEONFORK whose first word is the owner's pid. A forked child finds it
 * zeroed (the mark is inherited, so its own children do too); a vfork or CLONE_VM child shares
 * it and finds its parent's pid. NULL where the kernel has no such mark (before 4.14).
 */

/* The owner as ordinary memory records it (copied by fork, shared by CLONE_VM): without the page. */

void fr_memid_setup(void)
{
	/* One page, whatever its size: the kernel rounds mmap's, madvise's and munmap's length up to
	 * whole pages, so 4 KiB asks for one page of 16 or 64 KiB too (no getpagesize import). */
	size_t len = 4096;
	pid_t self = fr_sys_getpid();
	long m;
	void *p;

	__atomic_store_n(&fr_word(FR_W_MEMID_OWNER)->pid, self, __ATOMIC_RELEASE);
	if (LD(fr_word(FR_W_MEMID_PAGE)->p)) {
		__atomic_store_n((pid_t *)fr_word(FR_W_MEMID_PAGE)->p, self, __ATOMIC_RELEASE);
		return;
	}
	m = fr_sys_mmap_anon(len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	if ((unsigned long)m > -4096UL)
		return;
	p = (void *)m;
	if (fr_sys_madvise(p, len, MADV_WIPEONFORK) != 0) {
		fr_sys_munmap(p, len);
		return;
	}
	*(pid_t *)p = self;
	__atomic_store_n(fr_slot(FR_W_MEMID_PAGE), (pid_t *)p, __ATOMIC_RELEASE);
}

/* kcmp(a, b, KCMP_VM): 0 when both use one memory, > 0 when not, < 0 when the kernel cannot say. */
static long kcmp_vm(pid_t a, pid_t b)
{
	return fr_sys3(SYS_kcmp, a, b, KCMP_VM);
}

int fr_memid_own(pid_t self)
{
	pid_t *p = LD(fr_word(FR_W_MEMID_PAGE)->p), seen;

	if (p) {
		seen = LD(*p);
		if (seen == self)
			return 1;
		/*
		 * Zero: a fork copied this memory since its owner wrote the page, and this is the
		 * copy's first process to ask, so the copy is its own. (A CLONE_VM child that the
		 * forked child made before ever asking would win it instead: the forked child then
		 * only reads, which is slower, never wrong.)
		 */
		return seen == 0 && (FR_CLAIM_SEEN(p, &seen, self) || seen == self);
	}
	seen = LD(fr_word(FR_W_MEMID_OWNER)->pid);
	if (seen == self)
		return 1;
	/*
	 * Before 4.14 the kernel compares the two processes' memory. Where it cannot (no kcmp,
	 * the owner gone or not ours to inspect) the answer is "shared": writing is what is unsafe.
	 */
	if (kcmp_vm(self, seen) <= 0)
		return 0;
	__atomic_store_n(&fr_word(FR_W_MEMID_OWNER)->pid, self, __ATOMIC_RELEASE);
	return 1;
}
