/* SPDX-License-Identifier: MIT */
/* libc's own symbols (its getauxval, its clock_gettime), found in its dynamic symbol table so that our interposers of them are bypassed. */
#ifndef FR_DYNSYM_H
#define FR_DYNSYM_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

#include "base/libc.h"
#include "elf/early.h"
#include "elf/elfsym.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Whether path is base or ends in "/" base; no libc string calls (see fr_streq). Inline, so that
 * base's length is a constant: the path is measured once and only its tail compared (every
 * process runs this on the names of the objects ahead of libc's).
 */
static inline int fr_path_is(const char *path, const char *base)
{
	size_t n = 0, b = __builtin_strlen(base);

	while (path[n])
		n++;
	if (n < b || (n > b && path[n - b - 1] != '/'))
		return 0;
	for (size_t i = 0; i < b; i++)
		if (path[n - b + i] != base[i])
			return 0;
	return 1;
}

/*
 * Whether an object of the loader's list (its name and load bias) is libc. glibc's is libc.so.6 by
 * name. musl's libc.so is its dynamic linker too, named by the program's PT_INTERP or by however
 * it was started (ld-musl-x86_64.so.1, libc.so, a copy's path), so it is known by its load bias,
 * which the loader's r_debug gives (r_ldbase).
 */
static inline int fr_is_libc(const char *name, uintptr_t bias)
{
#if FR_LIBC_GLIBC
	(void)bias;
	return name && fr_path_is(name, "libc.so.6");
#else
	const struct r_debug *r = fr_rdebug();

	(void)name;
	return r && bias == r->r_ldbase;
#endif
}

/*
 * Fills out with libc's dynamic tables (libc.so.6, from the loader's link_map list, read without
 * a call, also before this object is relocated; kept once found, so that no later call reads the
 * list's entries ahead of libc's). No allocation, never dlsym. Returns 0 or -1.
 */
int fr_libc_tables(struct fr_elfsyms *out);

/*
 * Whether the object at this load bias is the libc fr_libc_tables found and kept: 1 with its
 * tables in out, else 0 (not found yet, or another object: in another namespace's list, libc's
 * entry is another copy of libc). A loader's entry is known by its bias without reading its name.
 */
int fr_libc_kept_at(uintptr_t bias, struct fr_elfsyms *out);

struct dl_phdr_info;
typedef int (*fr_iterate_fn)(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg);

/*
 * libc's own dl_iterate_phdr, found in its symbol table (so never a sanitizer's interceptor),
 * cached, behind a filter that leaves out the vDSO's entry (its program headers and, under
 * glibc, its name lie in the image, which the program may have unmapped); NULL if libc cannot be
 * read. It walks the caller's namespace, under the loader's recursive lock: never from a path a
 * signal handler may take for the first time.
 */
fr_iterate_fn fr_dl_iterate_phdr(void);

/* The address of name@version (version NULL: any) in libc.so.6, or NULL. */
void *fr_libc_sym(const char *name, const char *version);

typedef void *(*fr_dlsym_fn)(void *handle, const char *name);
typedef void *(*fr_dlvsym_fn)(void *handle, const char *name, const char *version);
typedef unsigned long (*fr_getauxval_fn)(unsigned long type);

/* Whether p is libc's own clock_gettime, under either of its names (clock_gettime, __clock_gettime). Keeps errno. */
int fr_is_libc_clock_gettime(const void *p);

/*
 * Registers child to run in every fork child, through libc's own registration found in its
 * tables: glibc's __register_atfork (which pthread_atfork, a wrapper linked from
 * libc_nonshared.a, calls with the caller's __dso_handle; exported since 2.3.2), given no handle,
 * as an executable's is, so that no dlclose removes it; musl's pthread_atfork. Takes libc's lock
 * and may allocate, as pthread_atfork does. Returns 0, or -1 when it is not found or fails.
 * Keeps errno.
 */
int fr_libc_atfork_child(void (*child)(void));

/*
 * argv[0] as libc keeps it for the program (program_invocation_name), read where an unversioned
 * reference would bind: the program's own copy of the variable (a copy relocation, which its
 * code and libc's then use) ahead of libc's. Before libc's start-up has set it (an executable's
 * preinit array), the kernel's initial stack (fr_stack_end). NULL if neither has it.
 * Async-signal-safe once libc's tables are kept: reads only.
 */
const char *fr_program_name(void);

/* libc's getauxval, resolved once and cached (lock-free); NULL if libc cannot be parsed. */
fr_getauxval_fn fr_real_getauxval(void);

/* libc's getauxval(type), or 0 when it cannot be found. Keeps errno. */
unsigned long fr_auxval(unsigned long type);

#pragma GCC visibility pop

#endif
