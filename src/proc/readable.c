/* SPDX-License-Identifier: MIT */
/* Asks the kernel to read 8 bytes for us: EFAULT instead of SIGSEGV or SIGBUS when the guess is wrong. */
#include "proc/readable.h"

#include <errno.h>
#include <sys/syscall.h>

#include "arch/arch.h"

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
