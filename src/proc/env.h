/* SPDX-License-Identifier: MIT */
/* The FASTRAW_* environment variables, read from an environment block without getenv. */
#ifndef FR_ENV_H
#define FR_ENV_H

#include <time.h>

#include "arch/arch.h"
#include "report/log.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* How many FASTRAW_* variables there are: each is read once (the first entry), so warned about at most once. */
#define FR_ENV_NVARS 8

/* At most this many bytes of an echoed value are shown; a longer one ends in "..." and its length. */
#define FR_ENV_SHOW_MAX 64

/* FASTRAW_CLOCKS=raw, the default: RAW alone. */
#define FR_ENV_CLOCKS_RAW (1u << CLOCK_MONOTONIC_RAW)

/* FASTRAW_CLOCKS=all: every clock the kernel's vDSO computes from its page. */
#define FR_ENV_CLOCKS_ALL                                                                                   \
	(FR_ENV_CLOCKS_RAW | (1u << CLOCK_REALTIME) | (1u << CLOCK_MONOTONIC) | (1u << CLOCK_BOOTTIME) |    \
	 (1u << CLOCK_TAI) | (1u << CLOCK_REALTIME_COARSE) | (1u << CLOCK_MONOTONIC_COARSE))

/* The words of a FASTRAW_CLOCKS list and their clock ids, for the parser and the tools. */
struct fr_env_clock_word {
	const char *word; /* "monotonic" */
	clockid_t clock;
};
extern const struct fr_env_clock_word fr_env_clock_words[7];

/* A variable whose value was not understood; the default was used. */
struct fr_env_warning {
	const char *name;     /* "FASTRAW_TSC" */
	const char *value;    /* points into the environment block */
	const char *accepted; /* "rdtscp, lfence, rdtsc, ordered, unordered" on x86-64 */
};

/* FASTRAW_SOURCE: where CLOCK_MONOTONIC_RAW comes from. */
enum fr_source {
	FR_SRC_AUTO = 0,   /* the kernel's data where it can be read exactly, else calibrated, else the kernel */
	FR_SRC_KERNEL,     /* only the kernel's data (exact), else pass through */
	FR_SRC_CALIBRATED, /* always the calibrated estimate, even where the kernel's data would do */
	FR_SRC_OFF,        /* every call to the real vDSO */
};

struct fr_env {
	enum fr_source source;        /* FASTRAW_SOURCE, default auto */
	int tsc_set;                  /* FASTRAW_TSC named a counter */
	enum fr_counter_mode tsc;     /* valid when tsc_set */
	int tsc_ordered;              /* FASTRAW_TSC said "ordered" (or an ordered x86 name elsewhere): the default read */
	int disable;                  /* FASTRAW_DISABLE=1 */
	int debug;                    /* FASTRAW_DEBUG=1 */
	int stats;                    /* FASTRAW_STATS=1 */
	/*
	 * FASTRAW_SHADOW_VDSO=1: getauxval(AT_SYSINFO_EHDR) gives the shadow image. Off by default:
	 * the shadow's address is not the vDSO's, so programs that match it against dl_iterate_phdr,
	 * dladdr or /proc/self/maps would no longer find the vDSO.
	 */
	int shadow_vdso;
	int syscall_raw;              /* FASTRAW_SYSCALL=1: syscall(SYS_clock_gettime, RAW) may take the fast path */
	/*
	 * FASTRAW_CLOCKS: the clocks to serve from the kernel's page, one bit per clock id. Always
	 * holds CLOCK_MONOTONIC_RAW; only that by default ("raw").
	 */
	unsigned clocks;
	unsigned seen;                /* one bit per variable whose first entry has been read */
	int nwarn;
	struct fr_env_warning warn[FR_ENV_NVARS];
};

/*
 * The environment the kernel laid on the initial stack whose end (the word argc was written to,
 * as the loader's __libc_stack_end holds it) is end: the pointers after argv's NULL. The word is
 * argc only until the program's start routine runs: glibc's 32-bit ARM _start pops argc and
 * pushes argv's address into the same word (its stack-limit argument to __libc_start_main), so a
 * library dlopen'd later reads an address there. A word that cannot be argc (negative, or argv's
 * own address) makes it count argv's pointers up to the NULL the kernel wrote after them.
 */
char **fr_env_on_stack(void *end);

/*
 * Parses envp (may be NULL). An empty value counts as unset. As with getenv, the first entry of
 * a name counts and later duplicates are ignored. In a secure-execution process (secure != 0:
 * AT_SECURE, set-user-ID or /etc/ld.so.preload) every variable is ignored.
 */
void fr_env_parse(char *const *envp, int secure, struct fr_env *out);

/*
 * Appends the warning for w to l ("FASTRAW_TSC=bogus is not one of ...; using the default"),
 * the value escaped (fr_line_add_escaped) and cut at FR_ENV_SHOW_MAX bytes with "..." and its
 * length, so that neither a control character nor a long value can forge or hide output.
 */
void fr_env_warning_line(const struct fr_env_warning *w, struct fr_line *l);

#pragma GCC visibility pop

#endif
