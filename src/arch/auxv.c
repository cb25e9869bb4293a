/* SPDX-License-Identifier: MIT */
/* The kernel's auxiliary vector read by raw system calls: one reader for the early loader lookup and the CPU probe. */
#include "arch/auxv.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/arch.h"

#define FR_PR_GET_AUXV 0x41555856L /* Linux 6.4 */

long fr_auxv_read(unsigned long *v, long size)
{
	static const char path[] = "/proc/self/auxv";
	long fd, n, got = 0;

	/* prctl returns the vector's full size and copies what fits; it wants its arguments 4 and 5 zero. */
	n = fr_sys6(SYS_prctl, FR_PR_GET_AUXV, (long)v, size, 0, 0, 0);
	if (n > 0)
		return n < size ? n : size;
	fd = fr_sys3(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < size && (n = fr_sys3(SYS_read, fd, (long)((char *)v + got), size - got)) > 0)
		got += n;
	fr_sys3(SYS_close, fd, 0, 0);
	return got;
}

unsigned long fr_auxv_find(const unsigned long *v, long bytes, unsigned long type)
{
	long words = bytes / (long)sizeof(*v);

	for (long i = 0; i + 1 < words && v[i] != AT_NULL; i += 2)
		if (v[i] == type)
			return v[i + 1];
	return 0;
}

unsigned long fr_auxval_raw(unsigned long type)
{
	unsigned long v[FR_AUXV_WORDS];
	long n = fr_auxv_read(v, sizeof(v));

	return n > 0 ? fr_auxv_find(v, n, type) : 0;
}
