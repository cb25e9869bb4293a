/* SPDX-License-Identifier: MIT */
/* The architecture seam: the few things generic code asks of the CPU, each answered by src/arch/<cpu>/. */
#ifndef FR_ARCH_H
#define FR_ARCH_H

#include <stdint.h>

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
 *   FR_ARCH_NAME, FR_ARCH_ELF_MACHINE         the architecture's name (uname -m) and e_machine
 *   void fr_arch_inc64(uint64_t *p)           *p += 1 in one instruction: a signal handler on
 *                                             this thread sees it done or not done, never half
 *   long fr_sys6(nr, a..f), fr_sys3(nr, a..c) the system call instruction itself: the kernel's
 *                                             result, a negative errno on failure
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
 * Generic code includes this header, the interposers also arch/stubs.h, the tests
 * arch/insn.h; the replaceable probe, fr_cpu_probe, is start-up's (startup/decide.h).
 * src/arch/README.md says what a port provides.
 */

/*
 * The counter's rate as the CPU itself reports it, best first: each candidate is hz_num / hz_den
 * ticks per second, both nonzero. Calibrated mode seeds from the first that gives a usable rate
 * (calib/calib_seed.c); none when the CPU does not say.
 */
#define FR_ARCH_RATES_MAX 4
struct fr_arch_rates {
	int n;
	struct fr_arch_rate {
		uint64_t hz_num, hz_den;
		const char *source; /* where it came from, e.g. "cpuid 0x15": printed by the tools */
	} r[FR_ARCH_RATES_MAX];
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

#if defined(__x86_64__)
#include "arch/x86_64/abi.h"
#include "arch/x86_64/counter.h"
#include "arch/x86_64/rawsys.h"
#elif defined(__aarch64__)
#include "arch/aarch64/abi.h"
#include "arch/aarch64/counter.h"
#include "arch/aarch64/rawsys.h"
#else
#error "libfastraw: no src/arch/ folder for this architecture"
#endif

/* FASTRAW_TSC's values and the printed names (FR_ARCH_COUNTER_NAME_*), indexed by enum fr_counter_mode. */
extern const char *const fr_counter_names[FR_CTR_MODES];

/* The printed name of a mode, "?" for a value outside the enum. */
const char *fr_counter_name(enum fr_counter_mode mode);

#endif
