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
 * The note, in base/once.h's table: FR_W_ERR_NOTED (fr_errfd_note ran), FR_W_ERR_OPEN (a file was
 * noted, published after the two that say which: FR_W_ERR_DEV, FR_W_ERR_INO).
 */

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

	if (!FR_CLAIM(&fr_word(FR_W_ERR_NOTED)->i, 0, 1))
		return;
	if (stat_fd2(&st) != 0 || (!at_start && !fd2_is_terminal()))
		return;
	fr_word(FR_W_ERR_DEV)->u64 = st.st_dev;
	fr_word(FR_W_ERR_INO)->u64 = st.st_ino;
	__atomic_store_n(&fr_word(FR_W_ERR_OPEN)->i, 1, __ATOMIC_RELEASE);
}

int fr_errfd_unchanged(void)
{
	fr_stat st;

	return __atomic_load_n(&fr_word(FR_W_ERR_OPEN)->i, __ATOMIC_ACQUIRE) && stat_fd2(&st) == 0 &&
	       st.st_dev == fr_word(FR_W_ERR_DEV)->u64 && st.st_ino == fr_word(FR_W_ERR_INO)->u64;
}
