/* SPDX-License-Identifier: MIT */
/* The architecture seam: the few things generic code asks of the CPU, each answered by src/arch/<cpu>/. */
#ifndef FR_ARCH_H
#define FR_ARCH_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * How the counter is read, named for what the read waits for. Every architecture offers all
 * three; FR_CTR_ORDERED is the default where the CPU has it (fr_cpu_features.ordered_read),
 * FR_CTR_FENCED everywhere else. Both of those wait for every earlier load (the "ordered
 * modes" of the docs): ORDERED with one self-ordering instruction, FENCED with a separate
 * fence before a plain read. The values index fr_counter_names.
 */
enum fr_counter_mode {
	FR_CTR_ORDERED = 0,   /* one self-ordering read: after every earlier load */
	FR_CTR_FENCED = 1,    /* a fence, then the read: after every earlier instruction */
	FR_CTR_UNORDERED = 2, /* the read alone: as soon as the CPU likes */
};
#define FR_CTR_MODES 3

/* What the CPU offers the library, in generic terms; the probe fills it. */
struct fr_cpu_features {
	int ordered_read;      /* the FR_CTR_ORDERED read exists: without it, it faults */
	int invariant_counter; /* the counter ticks at one rate in every power state */
};

/* How an architecture's probe finds a libc symbol without linking it (elf/dynsym.h's fr_libc_sym). */
typedef void *(*fr_arch_libc_sym_fn)(const char *name, const char *version);

/*
 * The hooks, as the kernel's lib/vdso lists its __arch_* ones. Every architecture folder
 * provides them all, under these names; generic code uses nothing else of the CPU.
 *
 *   uint64_t fr_arch_counter_ordered(void)    the counter, read after every earlier load
 *   uint64_t fr_arch_counter_fenced(void)     the counter, read after a separate fence
 *   uint64_t fr_arch_counter_unordered(void)  the counter, read as soon as the CPU likes
 *                                             (all three static inline, always_inline: the
 *                                             fast path is instantiated once per read)
 *   FR_ARCH_COUNTER_NAME_ORDERED, _FENCED, _UNORDERED
 *                                             string literals: what FASTRAW_TSC accepts and
 *                                             what the debug line and the tools print
 *   FR_ARCH_ORDERED_FEATURE                   string literal: the CPU feature the ordered read
 *                                             needs, as the CPU's manuals spell it
 *   FR_ARCH_COUNTER_WORD                      string literal: the counter's short name
 *   void fr_arch_pause(void)                  a spin-wait hint for a retry loop
 *   fr_arch_rmb()                             the seqcount protocol's read barrier (smp_rmb)
 *   void *fr_arch_ifunc_call(void *resolver)  what an IFUNC symbol binds to, the resolver
 *                                             called as the architecture's glibc calls it
 *   FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION
 *                                             string literals: the vDSO's clock_gettime and
 *                                             its symbol version
 *   FR_ARCH_OTHER_CLOCK_INLINE                the attributes of interpose.c's every-clock-but-RAW
 *                                             path: inline or noinline, whichever leaves the
 *                                             RAW path shortest on this CPU
 *   FR_ARCH_PAGE_SECTION(name)                string literal: the section of a static page
 *                                             buffer (base/pages.h); default below
 *   void fr_arch_inc64(uint64_t *p)           *p += 1 in one instruction: a signal handler on
 *                                             this thread sees it done or not done, never half
 *   long fr_sys6(nr, a..f)                    the system call instruction itself: the kernel's
 *                                             result, a negative errno on failure (fr_sys3,
 *                                             below, passes three)
 *   void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym)
 *                                             what the CPU offers, from a copy libc keeps where
 *                                             libc_sym finds one (no trap in a VM), else as
 *                                             fr_arch_cpu_probe_insn
 *   void fr_arch_cpu_probe_insn(struct fr_cpu_features *out)
 *                                             the same, asking the CPU itself
 *   void fr_arch_cpu_name(struct fr_cpu_name *out)
 *                                             vendor and model strings, for the tools
 *   the exported dlsym, dlvsym and syscall    assembly stubs around the C routers that
 *                                             arch/stubs.h declares
 *
 *   void fr_arch_counter_rates(struct fr_arch_rates *out)
 *                                             the counter's rate as the CPU reports it, best
 *                                             first (calibrated mode's last seed)
 *   FR_ARCH_CLOCKSOURCE, FR_ARCH_CMDLINE_UNSTABLE, FR_ARCH_CPUINFO_RELIABLE,
 *   FR_ARCH_INVARIANT_WHY, FR_ARCH_UNTRUSTED_WHY
 *                                             string literals for calibrated mode's eligibility
 *                                             rule: the kernel's clocksource of this counter,
 *                                             the boot option that distrusts it, the
 *                                             /proc/cpuinfo flag that vouches for it, and the two
 *                                             reasons printed when a counter is refused
 *
 *   The kernel's facts of this CPU that generic folders read:
 *   FR_ARCH_CLOCK_MODES(X, a)                 the data page's clock_mode values, one
 *                                             X(a, role, value, name) each, values 1, 2, ... in
 *                                             order: role COUNTER (the counter itself),
 *                                             COUNTER_ALT (a second such value), PVCLOCK or
 *                                             HVCLOCK (x86's paravirtual pages), name what
 *                                             FASTRAW_DEBUG prints; kdata/kdata.h makes FR_MODE_*
 *                                             of it, -1 for a role the CPU lacks
 *   FR_ARCH_MODE_ANY_COUNTER                  1: the vDSO reads the counter in every mode but
 *                                             none, as the kernel tests it; default 0: only the
 *                                             COUNTER roles
 *   FR_ARCH_DELTA_MASKED                      1: the vDSO's delta is lib/vdso's masked one
 *                                             (FR_RULES_MASKED); 0: x86's rules
 *   FR_ARCH_READERS(X)                        X(raw name, now name, rules, field shift, counter
 *                                             read) for each reader pair the eras need, the
 *                                             names written out: exact/fastpath.c builds those
 *   int fr_arch_code_masks_counter(p, n)      1 when n bytes of the vDSO's clock_gettime
 *                                             mask the counter with S64_MAX (x86 6.5+), else 0:
 *                                             what tells eras that read one page apart
 *                                             (startup/locate.c)
 *   FR_ARCH_OLD_DATA                          the data page this CPU's kernels kept before the
 *                                             generic vDSO, calibrated mode's seed:
 *                                             FR_OLD_DATA_GTOD (x86's vsyscall_gtod_data,
 *                                             kdata/gtod.c; 3.10's at a fixed page,
 *                                             FR_GTOD_FIXED_PAGE), FR_OLD_DATA_ARM (32-bit
 *                                             ARM's 4.1-5.4 struct vdso_data, kdata/armdata.c,
 *                                             whose tk_is_cntvct calibrated mode then needs);
 *                                             default FR_OLD_DATA_NONE
 *   FR_ARCH_VDSO_CLOCK_GETTIME32              defined on a 32-bit ABI whose libc and vDSO have
 *                                             a 32-bit-time clock_gettime beside the 64-bit
 *                                             one: the vDSO's 32-bit name (the library is
 *                                             built with 64-bit time_t, FR_ARCH_VDSO_CLOCK_GETTIME
 *                                             the 64-bit one); FR_HAS_TIME64 below says which
 *   unsigned fr_arch_abs_refs(code, n, lo, hi, at_lo)
 *                                             how many instructions in code[0, n) load from
 *                                             an absolute address in [lo, hi), *at_lo of
 *                                             them from lo itself (0 where the CPU has no
 *                                             such operand, or no kernel used one)
 *   the era table, arch/<cpu>/eras.h          the definitions of fr_eras[] and fr_eras_old_why
 *                                             (why a release before its first row gets no
 *                                             layout), for kdata/eras.c alone (through
 *                                             arch/eras.h); kdata/eras.h declares them
 *   sources.cmake                             FR_ARCH_SOURCES (its C files and its exported
 *                                             stubs, *.S), FR_ARCH_DEB, and where the defaults
 *                                             are not right, FR_ARCH_COMPILE_OPTIONS (default
 *                                             none) and the compiler floor FR_ARCH_CC_MIN
 *                                             (default GNU 9 Clang 11), read by the top-level
 *                                             CMakeLists.txt
 *
 * Generic code includes this header, the interposers also arch/stubs.h, kdata/eras.c
 * arch/eras.h, the tests arch/insn.h; the probe with libc's symbols, fr_cpu_probe, is
 * start-up's (startup/decide.h). This list is the one authoritative list of what a port
 * provides; src/arch/README.md and docs/design.md point here. What only the tools print of a
 * CPU is theirs (tools/common/tool_arch.h).
 */

/*
 * The counter's rate as the CPU itself reports it, best first: each candidate is hz_num / hz_den
 * ticks per second, both nonzero. Calibrated mode seeds from the first that gives a usable rate
 * (calib/calib_seed.c); none when the CPU does not say.
 */
#define FR_RATES_MAX 4
struct fr_arch_rates {
	int n;
	struct fr_arch_rate {
		uint64_t hz_num, hz_den;
		const char *source; /* where it came from, e.g. "cpuid 0x15": printed by the tools */
	} r[FR_RATES_MAX];
};

/* The CPU's vendor and model, NUL-terminated, empty when the CPU does not say. */
struct fr_cpu_name {
	char vendor[13];
	char model[49];
};

void fr_arch_cpu_probe(struct fr_cpu_features *out, fr_arch_libc_sym_fn libc_sym);
void fr_arch_cpu_probe_insn(struct fr_cpu_features *out);
void fr_arch_cpu_name(struct fr_cpu_name *out);
void fr_arch_counter_rates(struct fr_arch_rates *out);
unsigned fr_arch_abs_refs(const uint8_t *code, unsigned long n, uint64_t lo, uint64_t hi, unsigned *at_lo);

/* The architecture's headers include system headers, whose declarations must keep their visibility. */
#pragma GCC visibility pop
#include "arch/cpu_dir.h"
#include FR_CPU_FILE(abi.h)
#include FR_CPU_FILE(counter.h)
#include FR_CPU_FILE(rawsys.h)

/* A system call with three arguments, the rest 0: the port's fr_sys6. */
static inline long fr_sys3(long nr, long a, long b, long c)
{
	return fr_sys6(nr, a, b, c, 0, 0, 0);
}

/*
 * The hooks generic code tests with #if, where a missing one would silently read as 0 and a
 * port would inherit another CPU's choice: stop the build instead.
 */
#if !defined(FR_ARCH_DELTA_MASKED) || !defined(FR_ARCH_READERS) || !defined(FR_ARCH_CLOCK_MODES) || \
	!defined(FR_ARCH_OTHER_CLOCK_INLINE)
#error "libfastraw: src/arch/<cpu>/ leaves out a hook that arch/arch.h lists"
#endif

/*
 * Defaults, Linux's #ifndef pattern, only where the default is right on every CPU.
 * FR_ARCH_PAGE_SECTION: a named .bss section is zeroed anonymous memory on every ELF target, as
 * MADV_WIPEONFORK needs (a section the compiler does not know as zeroed would be PROGBITS,
 * file-backed pages on which it fails); x86-64 moves the buffers to its .lbss only to spare the
 * .data page a fault.
 */
#ifndef FR_ARCH_PAGE_SECTION
#define FR_ARCH_PAGE_SECTION(name) ".bss.fr_page." #name
#endif
/*
 * FR_ARCH_MUSL_GUARD: 1 where every glibc the library supports applies an IRELATIVE relocation,
 * so that one (elf/early.c) can make musl's loader refuse a glibc build; 0 by default: glibc
 * 2.17's aarch64 loader refuses IRELATIVE itself ("unexpected reloc type").
 */
#ifndef FR_ARCH_MUSL_GUARD
#define FR_ARCH_MUSL_GUARD 0
#endif
/* FR_ARCH_MODE_ANY_COUNTER: only the modes FR_ARCH_CLOCK_MODES calls COUNTER read the counter. */
#ifndef FR_ARCH_MODE_ANY_COUNTER
#define FR_ARCH_MODE_ANY_COUNTER 0
#endif
/* FR_ARCH_OLD_DATA: no data page of a pre-generic vDSO this build reads. */
#define FR_OLD_DATA_NONE 0
#define FR_OLD_DATA_GTOD 1
#define FR_OLD_DATA_ARM 2
#ifndef FR_ARCH_OLD_DATA
#define FR_ARCH_OLD_DATA FR_OLD_DATA_NONE
#endif
/* FR_HAS_TIME64: 1 on a 32-bit ABI with a 32-bit-time clock_gettime beside the 64-bit one. */
#ifdef FR_ARCH_VDSO_CLOCK_GETTIME32
#define FR_HAS_TIME64 1
#else
#define FR_HAS_TIME64 0
#endif
/*
 * FR_SYMBOL_NAME(name): a declaration's symbol name spelt out (an asm label), right on every
 * ELF target; for the exports whose C name <time.h> redirects under _TIME_BITS=64.
 */
#define FR_SYMBOL_NAME(name) __asm__(name)
#pragma GCC visibility push(hidden)

/* FASTRAW_TSC's values and the printed names (FR_ARCH_COUNTER_NAME_ORDERED, _FENCED, _UNORDERED), indexed by enum fr_counter_mode. */
extern const char *const fr_counter_names[FR_CTR_MODES];

/* The printed name of a mode, "?" for a value outside the enum. */
const char *fr_counter_name(enum fr_counter_mode mode);

#pragma GCC visibility pop

#endif
