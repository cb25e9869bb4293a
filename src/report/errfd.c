/* SPDX-License-Identifier: MIT */
/* Notes the stderr the library may write to, so that no line lands in a file the program put on fd 2. */
#define _GNU_SOURCE
#include "report/errfd.h"

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "arch/arch.h"
#include "base/once.h"

/*
 * 32-bit ABIs (arm EABI) keep the old SYS_fstat for the kernel's own old struct stat, which is
 * not libc's: their fstat64 fills libc's struct stat64.
 */
#ifdef SYS_fstat64
typedef struct stat64 fr_stat;
#define FR_SYS_FSTAT SYS_fstat64
#else
typedef struct stat fr_stat;
#define FR_SYS_FSTAT SYS_fstat
#endif

static int noted;   /* fr_errfd_note ran */
static int err_open; /* a file was noted */
static uint64_t err_dev; /* wide enough for stat64's fields */
static uint64_t err_ino;

/* fstat(2) by its system call: libc's fstat is GLIBC_2.33, past the library's floor of 2.17. */
static long stat_fd2(fr_stat *st)
{
	return fr_sys3(FR_SYS_FSTAT, 2, (long)st, 0);
}

/* TCGETS succeeds only on a terminal (isatty's test), by the system call: errno is untouched. */
static int fd2_is_terminal(void)
{
	/* The kernel's struct termios is at most 44 bytes on every architecture. */
	unsigned char termios[64] __attribute__((aligned(8)));

	return fr_sys3(SYS_ioctl, 2, TCGETS, (long)termios) == 0;
}

void fr_errfd_note(int at_start)
{
	fr_stat st;

	if (!FR_CLAIM(&noted, 0, 1))
		return;
	if (stat_fd2(&st) != 0 || (!at_start && !fd2_is_terminal()))
		return;
	err_dev = st.st_dev;
	err_ino = st.st_ino;
	__atomic_store_n(&err_open, 1, __ATOMIC_RELEASE);
}

int fr_errfd_unchanged(void)
{
	fr_stat st;

	return __atomic_load_n(&err_open, __ATOMIC_ACQUIRE) && stat_fd2(&st) == 0 && st.st_dev == err_dev &&
	       st.st_ino == err_ino;
}
