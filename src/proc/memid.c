/* SPDX-License-Identifier: MIT */
/* Which process owns this memory: a page the kernel wipes in forked children, else the kernel's kcmp. */
#include "proc/memid.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "base/once.h"
#include "base/owner.h"
#include "base/sys.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif
#define KCMP_VM 1

#define LD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

/*
 * Two words of base/once.h's table. FR_W_MEMID_PAGE: a page marked MADV_WIPEONFORK whose first
 * word is the owner's pid. A forked child finds it zeroed (the mark is inherited, so its own
 * children do too); a vfork or CLONE_VM child shares it and finds its parent's pid. NULL where
 * the kernel has no such mark (before 4.14). FR_W_MEMID_OWNER: the owner as ordinary memory
 * records it (copied by fork, shared by CLONE_VM), for when there is no page.
 */

void fr_memid_setup(void)
{
	/* One page, whatever its size: the kernel rounds mmap's, madvise's and munmap's length up to
	 * whole pages, so 4 KiB asks for one page of 16 or 64 KiB too (no getpagesize import). */
	size_t len = 4096;
	pid_t self = fr_sys_getpid();
	long m;
	void *p;

	fr_pid_set(&fr_word(FR_W_MEMID_OWNER)->pid, self);
	if (LD(fr_word(FR_W_MEMID_PAGE)->p)) {
		fr_pid_set(fr_word(FR_W_MEMID_PAGE)->p, self);
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

/*
 * Whether the owner's process is gone from this memory, before 4.14: kcmp(self, holder, KCMP_VM)
 * says the two use different memories (a fork copied it). Where the kernel cannot say (no kcmp,
 * the owner gone or not ours to inspect) the answer is "shared": writing is what is unsafe.
 */
static int other_memory(pid_t self, pid_t holder)
{
	return fr_sys3(SYS_kcmp, self, holder, KCMP_VM) > 0;
}

int fr_memid_own(pid_t self)
{
	pid_t *p = LD(fr_word(FR_W_MEMID_PAGE)->p);

	/*
	 * The page: zero when a fork copied this memory since its owner wrote it, and this is the
	 * copy's first process to ask, so the copy is its own (a CLONE_VM child that the forked
	 * child made before ever asking would win it instead: the forked child then only reads,
	 * which is slower, never wrong). Another process's id there shares the memory.
	 */
	if (p)
		return fr_pid_take(p, self, NULL) != FR_PID_SHARED;
	return fr_pid_take(&fr_word(FR_W_MEMID_OWNER)->pid, self, other_memory) != FR_PID_SHARED;
}
