/* SPDX-License-Identifier: MIT */
/* The system calls the library makes, straight to the kernel: each libc wrapper it would import costs every process a symbol lookup at start-up. */
#ifndef FR_SYS_H
#define FR_SYS_H

#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include "arch/arch.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Each returns the kernel's result, a negative errno on failure, and leaves errno alone: the
 * callers kept errno around libc's wrappers anyway. Under LD_PRELOAD of every process
 * (/etc/ld.so.preload) every import is a lookup the loader makes in each process: about 550
 * instructions of /bin/true's start-up apiece (issue 30).
 */
static inline pid_t fr_sys_getpid(void)
{
	return (pid_t)fr_sys3(SYS_getpid, 0, 0, 0);
}

static inline long fr_sys_uname(struct utsname *u)
{
	return fr_sys3(SYS_uname, (long)u, 0, 0);
}

/* A file opened read-only and close-on-exec (openat: the one open every architecture has). */
static inline long fr_sys_open_ro(const char *path, int flags)
{
	return fr_sys6(SYS_openat, -100 /* AT_FDCWD */, (long)path, flags, 0, 0, 0);
}

static inline long fr_sys_read(int fd, void *buf, size_t n)
{
	return fr_sys3(SYS_read, fd, (long)buf, (long)n);
}

static inline long fr_sys_write(int fd, const void *buf, size_t n)
{
	return fr_sys3(SYS_write, fd, (long)buf, (long)n);
}

static inline long fr_sys_close(int fd)
{
	return fr_sys3(SYS_close, fd, 0, 0);
}

/*
 * An anonymous private read-write mapping; a negative errno (-4095..-1 as an address) on failure.
 * 32-bit ABIs without the old mmap (arm EABI) have mmap2, whose offset counts pages: 0 either way.
 */
#ifdef SYS_mmap
#define FR_SYS_MMAP SYS_mmap
#else
#define FR_SYS_MMAP SYS_mmap2
#endif
static inline long fr_sys_mmap_anon(size_t len, int prot, int flags)
{
	return fr_sys6(FR_SYS_MMAP, 0, (long)len, prot, flags, -1, 0);
}

static inline long fr_sys_munmap(void *p, size_t len)
{
	return fr_sys3(SYS_munmap, (long)p, (long)len, 0);
}

static inline long fr_sys_madvise(void *p, size_t len, int advice)
{
	return fr_sys3(SYS_madvise, (long)p, (long)len, advice);
}

/* The kernel's signal set: 64 signals, one bit each (signal n is bit n - 1), 8 bytes on 32-bit ABIs too. */
typedef uint64_t fr_ksigset;

static inline fr_ksigset fr_ksig_bit(int sig)
{
	return 1ULL << (sig - 1);
}

static inline long fr_sys_sigprocmask(int how, const fr_ksigset *set, fr_ksigset *old)
{
	return fr_sys6(SYS_rt_sigprocmask, how, (long)set, (long)old, sizeof(fr_ksigset), 0, 0);
}

static inline long fr_sys_sigpending(fr_ksigset *set)
{
	return fr_sys3(SYS_rt_sigpending, (long)set, sizeof(fr_ksigset), 0);
}

static inline long fr_sys_sigtimedwait(const fr_ksigset *set, const struct timespec *timeout)
{
	return fr_sys6(SYS_rt_sigtimedwait, (long)set, 0, (long)timeout, sizeof(fr_ksigset), 0, 0);
}

#pragma GCC visibility pop

#endif
