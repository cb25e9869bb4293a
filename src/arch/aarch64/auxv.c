/* SPDX-License-Identifier: MIT */
/* The auxiliary vector read without libc, by raw system calls: the CPU probe's source when libc's getauxval cannot be found. */
#include "arch/arch.h"
#include "arch/aarch64/cpu.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/syscall.h>

#define FR_A64_PR_GET_AUXV 0x41555856L /* Linux 6.4 */

/* 64 pairs: an arm64 vector holds about 22, and AT_HWCAP and AT_HWCAP2 come early in it. */
#define AUXV_WORDS 128

unsigned long fr_a64_auxv_find(const unsigned long *v, long bytes, unsigned long type)
{
	long words = bytes / (long)sizeof(*v);

	for (long i = 0; i + 1 < words && v[i] != AT_NULL; i += 2)
		if (v[i] == type)
			return v[i + 1];
	return 0;
}

/* The vector into v, the number of bytes it holds, <= 0 when neither source answers. */
static long read_auxv(unsigned long *v, long size)
{
	static const char path[] = "/proc/self/auxv";
	long fd, n, got = 0;

	/* prctl returns the vector's full size and copies what fits. */
	n = fr_sys6(SYS_prctl, FR_A64_PR_GET_AUXV, (long)v, size, 0, 0, 0);
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

unsigned long fr_a64_auxval_raw(unsigned long type)
{
	unsigned long v[AUXV_WORDS];
	long n = read_auxv(v, sizeof(v));

	return n > 0 ? fr_a64_auxv_find(v, n, type) : 0;
}
