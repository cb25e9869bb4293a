/* SPDX-License-Identifier: MIT */
/* Lazy, lock-free initialisation: find the pages, choose the counter, self-test, publish. */
#include "startup/runtime.h"

#include <errno.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "startup/claim.h"
#include "startup/decide.h"
#include "startup/served.h"
#include "startup/start.h"
#include "arch/stubs.h"
#include "base/once.h"
#include "base/pages.h"
#include "base/sys.h"
#include "calib/calib_source.h"
#include "exact/fastpath.h"
#include "kdata/gtod.h"
#include "passthru/copies.h"
#include "passthru/depth.h"
#include "elf/dynsym.h"
#include "elf/early.h"
#include "proc/env.h"
#include "proc/readable.h"
#include "report/errfd.h"
#include "report/clocknames.h"
#include "report/log.h"
#include "elf/nextsym.h"
#include "report/stats.h"
#include "elf/vdso_elf.h"

extern char **environ;

/*
 * The environment the process started with: the kernel's initial stack holds it right after argv,
 * whatever the program did to environ since (clearenv, putenv, setenv of a new name), and also
 * before libc's start-up has set environ (a preinit array). environ where the stack's end is
 * unknown (musl, which sets environ before any code of ours runs).
 */
static char **start_environment(void)
{
	void *end = fr_stack_end();

	return end ? fr_env_on_stack(end) : environ;
}

/*
 * The configuration: FASTRAW_* parsed once, by the constructor (before main) or by whichever call
 * comes first, and kept. Only the thread that claims the parse writes it; a racer, or a handler
 * interrupting the parse, parses into its own scratch copy (the same environment, the same answer).
 * A record of its own (its state is the word FR_W_ENV_STATE): it is read before any decision is
 * published, by the constructor and syscall()'s stub, and the decisions copy it.
 */
static struct fr_env env_kept;

const struct fr_env *fr_env_get(struct fr_env *scratch)
{
	if (fr_keep_ready(&fr_word(FR_W_ENV_STATE)->i))
		return &env_kept;
	if (!fr_keep_claim(&fr_word(FR_W_ENV_STATE)->i)) {
		fr_env_parse(start_environment(), (int)fr_auxval(AT_SECURE), scratch);
		return scratch;
	}
	fr_env_parse(start_environment(), (int)fr_auxval(AT_SECURE), &env_kept);
	fr_keep_done(&fr_word(FR_W_ENV_STATE)->i, 1);
	return &env_kept;
}

static int raw_pass(struct timespec *ts)
{
	return fr_passthrough_libc(CLOCK_MONOTONIC_RAW, ts);
}

/*
 * A RAW entry failed, so its pass-through did: the error is the pass-through's own, asked again
 * in the library's convention (the same pointer gets the same answer), not read back from errno.
 */
static __attribute__((noinline)) int vdso_raw_failed(struct timespec *ts)
{
	return fr_kcall(fr_real_get(), CLOCK_MONOTONIC_RAW, ts).err;
}

/*
 * RAW in the vDSO's convention (0 or -errno), errno untouched. The RAW entries are libc-shaped,
 * the tail the exported clock_gettime jumps to, and set errno when they fail: errno is kept as
 * the caller had it, never read as an answer.
 */
static inline int raw_vdso_convention(struct timespec *ts)
{
	int saved, ret;

	if (!ts)
		return -EFAULT;
	saved = errno;
	ret = fr_raw_call(ts);
	if (ret != 0)
		ret = vdso_raw_failed(ts);
	errno = saved;
	return ret;
}

int fr_vdso_clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (clk != CLOCK_MONOTONIC_RAW)
		return fr_passthrough_vdso(clk, ts);
	return raw_vdso_convention(ts);
}

/* The same with FASTRAW_CLOCKS's clocks served: a separate entry, so the default pays nothing for them. */
static int vdso_clock_gettime_served(clockid_t clk, struct timespec *ts)
{
	if (clk != CLOCK_MONOTONIC_RAW)
		return fr_served_vdso(clk, ts);
	return raw_vdso_convention(ts);
}

fr_real_fn fr_vdso_entry(void)
{
	return (fr_real_fn){ fr_served_any() ? vdso_clock_gettime_served : fr_vdso_clock_gettime };
}

int fr_raw_first(struct timespec *ts)
{
	fr_raw_fn f;

	if (!fr_relocated())
		return fr_early_clock_gettime(CLOCK_MONOTONIC_RAW, ts);
	fr_init();
	f = __atomic_load_n(&fr_hot.raw, __ATOMIC_ACQUIRE);
	/* Another initialiser may still be publishing: this call goes to the real vDSO. */
	return f ? f(ts) : raw_pass(ts);
}

/* Everything initialisation decides: computed by the claim's holder, into a static (below). */
struct plan {
	struct fr_env env;
	struct fr_cpu_features cpu;
	struct fr_kdata kd;
	struct fr_status st;
	int ordered_missing;
	struct utsname uts;
	struct fr_cal_seed seed;             /* calibrated mode's starting rate */
	const char *cal_forced_ineligible; /* FASTRAW_SOURCE=calibrated where the rule says no */
	const char *clocks_why;            /* why FASTRAW_CLOCKS's other clocks are not served, or NULL */
	int gtod_era;                      /* FASTRAW_DEBUG: the layout the gtod page was read with, -1: none */
};

/* release: what the tools' entry (fr_init_release) decides for instead of uname's; NULL in the library. */
static void plan_make(struct plan *p, fr_real_fn real, const char *release)
{
	const struct fr_env *env;
	struct fr_gtod g, *gtod;
	const char *why, *eligible;
	int located = 0;

	__builtin_memset(p, 0, sizeof(*p));
	p->st.pick.era = "none";
	p->st.mode = -1;
	p->gtod_era = -1;
	if (release)
		p->st.release = release;
	else
		p->st.release = fr_start_uname(&p->uts) == 0 || fr_sys_uname(&p->uts) == 0 ? p->uts.release : NULL;
	env = fr_env_get(&p->env);
	if (env != &p->env)
		p->env = *env;
	fr_cpu_probe(&p->cpu);
	p->st.counter = fr_choose_counter(&p->env, &p->cpu, &p->ordered_missing);
	if (p->env.disable)
		why = "disabled by FASTRAW_DISABLE";
	else if (p->env.source == FR_SRC_OFF)
		why = "disabled by FASTRAW_SOURCE=off";
	else if (!(why = fr_locate(p->st.release, fr_counter_for(p->st.counter), real, &p->kd, &p->st.pick))) {
		located = 1;
		p->st.mode = fr_kdata_mode(&p->kd);
		/* Say so plainly: the self-test would only report that no call could be served. */
		if (p->st.mode == FR_MODE_NONE)
			why = "clock mode none: the clocksource has no vDSO reader, the kernel serves every call";
		else if (p->env.source == FR_SRC_CALIBRATED)
			why = "FASTRAW_SOURCE=calibrated";
		else if (!p->st.pick.judged)
			why = fr_self_test(&p->kd, fr_counter_for(p->st.counter), real);
	}
	p->st.active = why == NULL;
	p->st.reason = why;
	p->clocks_why = fr_served_why_not(p->st.active, p->env.source == FR_SRC_CALIBRATED, p->env.clocks);
	if (!p->clocks_why)
		p->clocks_why = fr_self_test_clocks(&p->kd, fr_counter_for(p->st.counter), real, p->env.clocks);
	if (p->st.active || p->env.disable || p->env.source == FR_SRC_OFF || p->env.source == FR_SRC_KERNEL)
		return;
	/* The kernel's data cannot give exact values here: the calibrated estimate, where eligible. */
	gtod = fr_cal_gtod(p->st.release, &g) == 0 ? &g : NULL;
	/* The vDSO's exports proved this era (calib/calib_gtod.c): say so, not what the number implies. */
	if (gtod && gtod->era == FR_GTOD_ARM_4_1 && !located)
		p->st.reason = FR_ARMDATA_ERA_WHY;
	p->gtod_era = gtod ? gtod->era : -1;
	eligible = fr_cal_eligible(&p->cpu, gtod);
	/*
	 * Where a CPU may have no counter at all (32-bit ARM: a Cortex-A9 has no generic timer, and
	 * the read faults), FASTRAW_SOURCE=calibrated forces nothing the kernel has not vouched for:
	 * a data page whose clock mode reads the counter, or a pre-5.5 vdso_data with tk_is_cntvct 1.
	 */
	if (eligible && FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM && !(located && fr_mode_is_counter(p->st.mode)) &&
	    !(gtod && gtod->era == FR_GTOD_ARM_4_1 && gtod->tsc)) {
		p->st.cal_note = eligible;
		return;
	}
	if (eligible && p->env.source != FR_SRC_CALIBRATED) {
		p->st.cal_note = eligible;
		return;
	}
	fr_cal_seed_choose(&p->kd, located, gtod, &p->seed);
	p->st.calibrated = 1;
	p->st.cal_note = p->seed.source;
	p->cal_forced_ineligible = eligible;
}

/* FASTRAW_DEBUG's line on FASTRAW_CLOCKS, printed only when it names more than RAW. */
static void report_clocks(const struct fr_status *st)
{
	struct fr_line l;

	fr_line_start(&l);
	fr_line_add(&l, "clocks: ");
	if (st->clocks) {
		fr_line_add(&l, "served from the kernel's page:");
		for (clockid_t c = 0; c < 32; c++) {
			if (st->clocks >> c & 1) {
				fr_line_add(&l, " ");
				fr_line_add(&l, fr_clock_name(c));
			}
		}
		fr_line_add(&l, " (and MONOTONIC_RAW)");
	} else {
		fr_line_add(&l, "only MONOTONIC_RAW is served: ");
		fr_line_add(&l, st->clocks_why);
	}
	fr_line_emit(&l);
}

static __attribute__((noinline)) void report(const struct plan *p, const struct fr_status *st)
{
	struct fr_line l;
	const char *why;

	/* Only to the stderr the process started with (report/errfd.h): never into a data file. */
	if (!fr_errfd_unchanged())
		return;
	for (int i = 0; i < p->env.nwarn; i++) {
		fr_line_start(&l);
		fr_line_add(&l, "warning: ");
		fr_env_warning_line(&p->env.warn[i], &l);
		fr_line_emit(&l);
	}
	if (p->ordered_missing) {
		fr_line_start(&l);
		fr_line_add(&l, "warning: FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_ORDERED " but this CPU has no "
				FR_ARCH_ORDERED_FEATURE "; using " FR_ARCH_COUNTER_NAME_FENCED);
		fr_line_emit(&l);
	}
	if (!p->env.debug)
		return;
	if ((why = fr_chain_problem())) {
		fr_line_start(&l);
		fr_line_add(&l, "lookups: ");
		fr_line_add(&l, why);
		fr_line_emit(&l);
	}
	if (p->gtod_era >= 0 && p->gtod_era != fr_gtod_era_for_release(p->st.release)) {
		/* A vendor kernel with a later layout than its number: the page wins. */
		fr_line_start(&l);
		fr_line_add(&l, "gtod page: the ");
		fr_line_add(&l, fr_gtod_era_name(p->gtod_era));
		fr_line_add(&l, " layout, not the ");
		fr_line_add(&l, fr_gtod_era_name(fr_gtod_era_for_release(p->st.release)));
		fr_line_add(&l, " one release ");
		fr_line_add(&l, p->st.release);
		fr_line_add(&l, " implies; read as the page holds it");
		fr_line_emit(&l);
	}
	fr_line_start(&l);
	fr_line_add(&l, "kernel=");
	fr_line_add(&l, p->st.release ? p->st.release : "?");
	fr_line_add(&l, " era=");
	fr_line_add(&l, p->st.pick.era);
	if (p->st.pick.assumed) {
		fr_line_add(&l, " (");
		fr_line_add(&l, p->st.pick.note);
		fr_line_add(&l, ")");
	}
	fr_line_add(&l, " clock=");
	fr_line_add(&l, p->st.mode < 0 ? "unknown" : fr_mode_name(p->st.mode));
	fr_line_add(&l, " counter=");
	fr_line_add(&l, fr_counter_name(p->st.counter));
	if (p->st.active) {
		fr_line_add(&l, " active");
	} else if (p->st.calibrated) {
		fr_line_add(&l, " calibrated: seed ");
		fr_line_add(&l, p->st.cal_note);
		if (p->seed.kmult) {
			fr_line_add(&l, " mult=");
			fr_line_add_uint(&l, p->seed.kmult);
			fr_line_add(&l, " shift=");
			fr_line_add_uint(&l, p->seed.kshift);
		}
		fr_line_add(&l, ", within 2 us of the kernel after warm-up; kernel data not used: ");
		fr_line_add(&l, p->st.reason);
		if (p->cal_forced_ineligible) {
			fr_line_add(&l, "; forced although ");
			fr_line_add(&l, p->cal_forced_ineligible);
		}
	} else {
		fr_line_add(&l, " passthrough: ");
		fr_line_add(&l, p->st.reason);
		if (p->st.cal_note) {
			fr_line_add(&l, "; calibrated mode not eligible: ");
			fr_line_add(&l, p->st.cal_note);
		}
	}
	fr_line_emit(&l);
	if (p->env.clocks != FR_ENV_CLOCKS_RAW)
		report_clocks(st);
}

static int syscall_mode_of(const struct fr_env *env)
{
	return env->syscall_raw && !env->disable ? FR_RAW_MODE_ON : FR_RAW_MODE_OFF;
}

/* The decisions, the one compute-once slot of start-up (FR_W_STATE, base/once.h): NULL until published. */
const struct fr_state *fr_state_published(void)
{
	return fr_once_get(fr_slot(FR_W_STATE));
}

int fr_syscall_mode(void)
{
	const struct fr_state *s = fr_state_published();
	struct fr_env env;

	if (s && s->syscall_mode != FR_RAW_MODE_UNKNOWN)
		return s->syscall_mode;
	/* Not decided yet (or a later copy, which decides nothing): the configuration read at start. */
	return syscall_mode_of(fr_env_get(&env));
}

/* What a later copy of the library publishes: the first copy decides, prints and counts for it. */
static const struct fr_state later_copy_state = {
	.later_copy = 1,
	.syscall_mode = FR_RAW_MODE_UNKNOWN,
	.raw = fr_copy_raw,
};

/* The first copy's decisions: written by the thread that holds the claim, before their publication. */
static struct fr_state state FR_LATE_STATIC(state);

/* The entries of the first copy: the kernel's data, calibrated mode, or the real vDSO (NULL: now_pass). */
static void entries(const struct plan *p, struct fr_state *s)
{
	s->raw = p->st.active ? fr_raw_for(p->kd.lay, p->st.counter) : NULL;
	s->now = p->st.active ? fr_now_for(p->kd.lay, p->st.counter) : NULL;
	if (p->st.calibrated) {
		s->raw = fr_cal_raw_for(p->st.counter);
		s->now = fr_cal_now_for(p->st.counter);
	}
	if (!s->raw)
		s->raw = raw_pass;
}

/* Publishes s, and then the hot path's copies of it: fr_hot.raw last, as every caller's guard. */
static void publish(const struct fr_state *s)
{
	fr_once_put(fr_slot(FR_W_STATE), (void *)s);
	__atomic_store_n(&fr_hot.raw, s->raw, __ATOMIC_RELEASE);
}

/*
 * The plan, written only by the claim's holder (startup/claim.h): off the stack, so that the first
 * RAW read, which may run in a signal handler on a small alternate stack, needs little of it.
 */
static struct plan plan FR_LATE_STATIC(plan);

/* The work of fr_init, for uname's release or the one given; errno is the caller's business. */
static void init_once(const char *release)
{
	struct fr_claim_mark mark;
	fr_real_fn real;
	int says;

	/*
	 * A copy of the library loaded ahead of this one decides, prints and counts: this one sends
	 * RAW to it (and fr_hot.pass the other clocks, passthru/passthru.c) and decides nothing of its own.
	 */
	if (fr_copy_later()) {
		publish(&later_copy_state);
		return;
	}
	/*
	 * One initialiser at a time, before any work: another thread, or a handler nested in this
	 * call, gives way at once and its call goes to the real vDSO at the vDSO's cost. After a
	 * jump out of the holder its thread takes the claim back; a fork child starts over. A
	 * handler that claimed and published while this call was on its way here: nothing left to do.
	 */
	if (!fr_claim(&mark) || fr_state_published())
		return;
	real = fr_real_get();
	/*
	 * The constructor found the vDSO's entry (startup/start.h); the program may have unmapped the
	 * vDSO since, which the kernel tells by EFAULT (the data pages are mappings of their own, and
	 * may still be there): then the self-test's reference is the system call.
	 */
	if (real.call != fr_real_sys().call && fr_word_readable((const volatile void *)real.call) == 0)
		real = (fr_real_fn){ fr_sys_clock_gettime_after_vdso };
	plan_make(&plan, real, release);
	/* Whether report prints a line: a warning, the ordered counter missing, or FASTRAW_DEBUG. */
	says = plan.env.nwarn || plan.ordered_missing || plan.env.debug;
	/* The holder writes the state the fast path reads before the release store that publishes it. */
	state.kd = plan.kd;
	state.env = plan.env;
	fr_kd = state.kd;
	state.syscall_mode = syscall_mode_of(&plan.env);
	state.uts = plan.uts;
	state.st = plan.st;
	state.st.release = plan.st.release == plan.uts.release ? state.uts.release : plan.st.release;
	/* A composed reason lives in the plan's pick: point at the published copy. */
	if (plan.st.reason == plan.st.pick.why)
		state.st.reason = state.st.pick.why;
	if (plan.st.calibrated)
		fr_cal_setup(plan.seed.mult);
	entries(&plan, &state);
	/*
	 * Before any line: which file fd 2 is, if anything is to be printed (the loader's list is
	 * walked only then). A copy loaded with the program notes it now; a dlopen'd one cannot
	 * know the stderr the process started with.
	 */
	if (says || plan.env.stats) {
		fr_errfd_note(fr_self_loaded_at_start());
		fr_line_program_from(fr_program_name);
	}
	if (plan.env.stats) {
		fr_stats_atfork_via(fr_libc_atfork_child);
		state.raw = fr_stats_start(state.raw);
		fr_pass_count();
	}
	/* After the counting wrapper: the dispatcher passes what it does not serve on to it. */
	state.st.clocks_wanted = plan.env.clocks;
	state.st.clocks_why = plan.st.calibrated ? fr_served_why_not(0, 1, plan.env.clocks) : plan.clocks_why;
	if (!state.st.clocks_why) {
		state.st.clocks = fr_served_start(plan.kd.lay, plan.st.counter, plan.env.clocks, plan.env.stats);
		if (!state.st.clocks)
			state.st.clocks_why = "this era has no reader for them";
	}
	/* After the readers' publication (fr_served_read checks it again): syscall()'s stub serves them. */
	if (state.syscall_mode == FR_RAW_MODE_ON)
		__atomic_store_n(&fr_hot.syscall_clocks, state.st.clocks, __ATOMIC_RELEASE);
	__atomic_store_n(&fr_hot.debug, plan.env.debug, __ATOMIC_RELAXED);
	publish(&state);
	/* Only when there is something to say: report's line buffers are a kilobyte of stack. */
	if (says)
		report(&plan, &state.st);
}

static void init_for(const char *release)
{
	int saved;

	/* Before relocation nothing here can run: the exports pass every call on until then. */
	if (!fr_relocated())
		return;
	saved = errno;
	if (!fr_state_published())
		init_once(release);
	errno = saved;
}

void fr_init(void)
{
	init_for(NULL);
}

const struct fr_state *fr_state_get(void)
{
	const struct fr_state *s = fr_state_published();

	if (FR_LIKELY(s != NULL))
		return s;
	fr_init();
	return fr_state_published();
}

void fr_init_release(const char *release)
{
	init_for(release);
}

const struct fr_status *fr_status_get(void)
{
	const struct fr_state *s = fr_state_published();

	return s && !s->later_copy ? &s->st : NULL;
}
