/* SPDX-License-Identifier: MIT */
/* Asks the kernel to read 8 bytes for us: EFAULT instead of SIGSEGV or SIGBUS when the guess is wrong. */
#include "proc/readable.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch/arch.h"

/* FUTEX_WAIT | FUTEX_PRIVATE_FLAG (linux/futex.h, which musl-gcc's headers lack). */
#define FUTEX_WAIT_PRIVATE_ 128

int fr_readable(const volatile void *p)
{
	long ret;

	/* With no mask to copy the kernel would read nothing and answer 0. */
	if (!p)
		return 0;

	/*
	 * rt_sigprocmask copies the new mask in from p before it looks at how: with an invalid how
	 * it answers EINVAL, and changes nothing, exactly when the copy succeeded. A fault inside the
	 * kernel's copy is an error code, never a signal. The size is the kernel's sigset_t's: any
	 * other is refused (EINVAL) before the copy.
	 */
	ret = fr_sys6(SYS_rt_sigprocmask, -1, (long)p, 0, 8, 0, 0);
	if (ret == -EINVAL)
		return 1;
	return ret == -EFAULT ? 0 : -1;
}

int fr_word_readable(const volatile void *p)
{
	static const struct timespec now = { 0, 0 };
	long ret;

	/* The futex word must be 4-byte aligned (EINVAL otherwise, before any read). */
	if (!p || ((uintptr_t)p & 3))
		return p ? -1 : 0;

	/*
	 * FUTEX_WAIT reads the word at p with the kernel's guarded user access before anything else
	 * that could fail: EFAULT when the page is unmapped or PROT_NONE (mincore would call a
	 * PROT_NONE page present). Otherwise EAGAIN (the word differs), or, when it equals the value
	 * given, ETIMEDOUT at once from the zero timeout, or EINTR: each means the read succeeded.
	 * A private futex touches no shared state and has nothing to wake. futex, not fr_readable's
	 * rt_sigprocmask: this probe runs inside getauxval, which a program may call after installing
	 * a seccomp filter, and futex is the call a filter must allow for libc's own locks.
	 */
	ret = fr_sys6(SYS_futex, (long)p, FUTEX_WAIT_PRIVATE_, 0, (long)&now, 0, 0);
	if (ret == 0 || ret == -EAGAIN || ret == -ETIMEDOUT || ret == -EINTR)
		return 1;
	return ret == -EFAULT ? 0 : -1;
}
