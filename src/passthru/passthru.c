/* SPDX-License-Identifier: MIT */
/* The pass-through target: the real vDSO's clock_gettime, found on first use, or the system call. */
#include "passthru/passthru.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "passthru/copies.h"
#include "passthru/direct.h"
#include "passthru/depth.h"
#include "passthru/real.h"
#include "passthru/time64.h"
#include "elf/dynsym.h"
#include "elf/early.h"
#include "elf/nextsym.h"
#include "arch/arch.h"
#include "base/once.h"
#include "report/stats.h"
#include "elf/vdso_elf.h"

/*
 * The kernel's clock_gettime into the library's timespec. On a 32-bit ABI built with 64-bit
 * time_t (FR_HAS_TIME64) that is clock_gettime64, or the 32-bit call widened once the kernel
 * said it has none (passthru/time64.h).
 */
static inline int sys_clock_gettime(clockid_t clk, struct timespec *ts)
{
#if FR_HAS_TIME64
	return fr_time64_gettime(fr_sys3, (struct fr_time64_nrs){ SYS_clock_gettime64, SYS_clock_gettime },
				 &fr_word(FR_W_NO_TIME64)->i, clk, ts);
#else
	return (int)fr_sys3(SYS_clock_gettime, clk, (long)ts, 0);
#endif
}

int fr_sys_clock_gettime(clockid_t clk, struct timespec *ts)
{
	return sys_clock_gettime(clk, ts);
}

int fr_sys_clock_gettime_after_vdso(clockid_t clk, struct timespec *ts)
{
	return sys_clock_gettime(clk, ts);
}

int fr_fail(int err)
{
	errno = -err;
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
	fr_real_fn f = { (int (*)(clockid_t, struct timespec *))fr_vdso_sym(fr_vdso_base(), FR_ARCH_VDSO_CLOCK_GETTIME,
									FR_ARCH_VDSO_VERSION) };

	return f.call ? f : fr_real_sys();
}

static int real_init(clockid_t clk, struct timespec *ts);

/*
 * The hot path's record (base/hot.h), defined here for its one word that does not start at 0:
 * the pass-through target starts at its init trampoline (a pointer the loader relocates, as
 * every static pointer to a function).
 */
struct fr_hot fr_hot = { .real = { real_init } };

/* The pass-through target, resolved and published on first use (racers resolve the same one). */
fr_real_fn fr_real_get(void)
{
	fr_real_fn f = { __atomic_load_n(&fr_hot.real.call, __ATOMIC_ACQUIRE) };
	int saved = errno;

	if (f.call != real_init)
		return f;
	f = resolve_real();
	errno = saved;
	/* A claim, not fr_once_put: the slot starts at real_init, not NULL, and only that is replaced. */
	FR_CLAIM(&fr_hot.real.call, real_init, f.call);
	return f;
}

static int real_init(clockid_t clk, struct timespec *ts)
{
	return fr_real_get().call(clk, ts);
}

int fr_passthrough_libc(clockid_t clk, struct timespec *ts)
{
	fr_stats_pass(clk);
	fr_real_fn real = { __atomic_load_n(&fr_hot.real.call, __ATOMIC_ACQUIRE) };

	return fr_finish(fr_kcall(real, clk, ts));
}

int fr_passthrough_vdso(clockid_t clk, struct timespec *ts)
{
	fr_stats_pass(clk);
	return __atomic_load_n(&fr_hot.real.call, __ATOMIC_ACQUIRE)(clk, ts);
}

/* The target where the chain's next clock_gettime is libc's own (published as NULL: fr_hot.pass). */
static int vdso_libc_convention(clockid_t clk, struct timespec *ts)
{
	return fr_vdso_libc(clk, ts);
}

/*
 * Where the process has no vDSO (valgrind): the system call, whose -EFAULT for a bad pointer
 * libc's own turns into -1 and errno for every clock, so no tail jump.
 */
static int sys_libc_convention(clockid_t clk, struct timespec *ts)
{
	return fr_finish(fr_kcall(fr_real_sys(), clk, ts));
}

int fr_pass_call(fr_clock_fn f, clockid_t clk, struct timespec *ts)
{
	struct fr_depth saved;
	int ret;

	if (!fr_depth_enter(&saved)) {
		fr_depth_report("clock_gettime");
		if (!fr_relocated())
			return fr_finish_unrelocated(fr_kcall(fr_real_sys(), clk, ts));
		return fr_finish(fr_kcall(fr_real_sys(), clk, ts));
	}
	ret = f(clk, ts);
	fr_depth_leave(&saved);
	return ret;
}

/* The interposer after us that fr_hot.pass sends calls to, through pass_guarded; set before publication. */
static int pass_guarded(clockid_t clk, struct timespec *ts)
{
	return fr_pass_call(__atomic_load_n(&fr_word(FR_W_GUARDED)->clock, __ATOMIC_RELAXED), clk, ts);
}

fr_clock_fn fr_pass_next(void)
{
	return (fr_clock_fn)fr_next_cached(fr_slot(FR_W_PASS_NEXT), FR_CLOCK_GETTIME_NAME);
}

int fr_early_clock_gettime(clockid_t clk, struct timespec *ts)
{
	fr_clock_fn next = ts ? fr_pass_next() : NULL;

	if (next)
		return fr_pass_call(next, clk, ts);
	return fr_finish_unrelocated(fr_kcall(fr_real_sys(), clk, ts));
}

fr_clock_fn fr_pass_interposer(void)
{
	/* In a later copy of the library, the first copy's, which counts the call (passthru/copies.h). */
	fr_clock_fn f = fr_copy_pass();

	if (f)
		return f;
	f = fr_pass_next();
	return f && !fr_is_libc_clock_gettime((const void *)f) ? f : NULL;
}

fr_clock_fn fr_pass_target(void)
{
	fr_clock_fn f = fr_pass_interposer();

	/* Racers store the same target, before the release store that publishes pass_guarded. */
	if (f) {
		__atomic_store_n(&fr_word(FR_W_GUARDED)->clock, f, __ATOMIC_RELAXED);
		return pass_guarded;
	}
	return fr_real_get().call == fr_sys_clock_gettime ? sys_libc_convention : vdso_libc_convention;
}

/*
 * Resolves the pass-through target and publishes it: when libc's own follows, fr_hot.direct (the
 * vDSO from the exported entry itself), else fr_hot.pass; that fails harmlessly when initialisation
 * already put the counting wrapper there.
 */
static fr_clock_fn publish(void)
{
	fr_clock_fn f = fr_pass_target();

	if (f == vdso_libc_convention)
		__atomic_store_n(&fr_hot.direct.call, fr_real_get().call, __ATOMIC_RELEASE);
	else
		FR_CLAIM(&fr_hot.pass, NULL, f);
	return f;
}

int fr_pass_first(clockid_t clk, struct timespec *ts)
{
	if (!fr_relocated())
		return fr_early_clock_gettime(clk, ts);
	return publish()(clk, ts);
}

void fr_pass_prime(void)
{
	if (!fr_relocated() || __atomic_load_n(&fr_hot.pass, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&fr_hot.direct.call, __ATOMIC_ACQUIRE))
		return;
	publish();
}

/* The counting wrapper, whose target is set before the wrapper is published. */
static int pass_counting(clockid_t clk, struct timespec *ts)
{
	fr_stats_pass_on(clk);
	return __atomic_load_n(&fr_word(FR_W_COUNTED)->clock, __ATOMIC_RELAXED)(clk, ts);
}

void fr_pass_count(void)
{
	__atomic_store_n(&fr_word(FR_W_COUNTED)->clock, fr_pass_target(), __ATOMIC_RELAXED);
	__atomic_store_n(&fr_hot.pass, pass_counting, __ATOMIC_RELEASE);
}
