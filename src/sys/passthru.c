/* SPDX-License-Identifier: MIT */
/* The pass-through target: the real vDSO's clock_gettime, found on first use, or the system call. */
#include "sys/passthru.h"

#include <errno.h>

#include "sys/stats.h"
#include "sys/vdso_elf.h"

int fr_sys_clock_gettime(clockid_t clk, struct timespec *ts)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(228L /* SYS_clock_gettime */), "D"((long)clk), "S"(ts)
			 : "rcx", "r11", "memory");
	return (int)ret;
}

int fr_finish(int ret)
{
	if (__builtin_expect(ret == 0, 1))
		return 0;
	errno = -ret;
	return -1;
}

/*
 * The real vDSO function, or the system call where the process has no vDSO (valgrind). Found
 * from AT_SYSINFO_EHDR, not /proc/self/maps: this runs in the constructor of every process,
 * before anything could have moved the vDSO (a checkpoint restorer that moves it puts it back
 * where the saved pointers expect it).
 */
static fr_real_fn resolve_real(void)
{
	fr_real_fn f = (fr_real_fn)fr_vdso_sym(fr_vdso_base(), "__vdso_clock_gettime", "LINUX_2.6");

	return f ? f : fr_sys_clock_gettime;
}

static int real_init(clockid_t clk, struct timespec *ts);

fr_real_fn fr_real = real_init;

/* The pass-through target, resolved and published on first use (racers resolve the same one). */
fr_real_fn fr_real_get(void)
{
	fr_real_fn f = __atomic_load_n(&fr_real, __ATOMIC_ACQUIRE), expected = real_init;
	int saved = errno;

	if (f != real_init)
		return f;
	f = resolve_real();
	errno = saved;
	__atomic_compare_exchange_n(&fr_real, &expected, f, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return f;
}

static int real_init(clockid_t clk, struct timespec *ts)
{
	return fr_real_get()(clk, ts);
}

int fr_passthrough(clockid_t clk, struct timespec *ts)
{
	fr_stats_pass(clk);
	return fr_finish(__atomic_load_n(&fr_real, __ATOMIC_ACQUIRE)(clk, ts));
}
