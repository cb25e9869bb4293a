/* SPDX-License-Identifier: MIT */
/* Asks the kernel to read 8 bytes for us: EFAULT instead of SIGSEGV or SIGBUS when the guess is wrong. */
#include "sys/readable.h"

#include <errno.h>

int fr_readable(const volatile void *p)
{
	/* The kernel's sigset_t size: any other size is refused (EINVAL) before the copy. */
	register long size __asm__("r10") = 8;
	long ret;

	/* With no mask to copy the kernel would read nothing and answer 0. */
	if (!p)
		return 0;

	/*
	 * rt_sigprocmask copies the new mask in from p before it looks at how: with an invalid how
	 * it answers EINVAL, and changes nothing, exactly when the copy succeeded. A fault inside the
	 * kernel's copy is an error code, never a signal. The raw instruction: libc's syscall() is
	 * interposed by this library, and errno stays untouched.
	 */
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(14L /* SYS_rt_sigprocmask */), "D"(-1L), "S"(p), "d"(0L), "r"(size)
			 : "rcx", "r11", "memory");
	if (ret == -EINVAL)
		return 1;
	return ret == -EFAULT ? 0 : -1;
}
