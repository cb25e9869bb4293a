/* SPDX-License-Identifier: MIT */
/* The exported dlsym, dlvsym, getauxval and __getauxval: every way to look clock_gettime up leads to us. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/auxv.h>

#include "interpose/shadow.h"
#include "runtime/runtime.h"
#include "sys/dynsym.h"
#include "sys/early.h"
#include "sys/elfsym.h"
#include "sys/nextsym.h"

#define FR_EXPORT __attribute__((visibility("default")))

/*
 * glibc's dlsym and dlvsym read their caller's return address to resolve RTLD_NEXT and to pick
 * the scope of RTLD_DEFAULT. So the exported entries are assembly stubs that ask a router where
 * to go and then jump there with the caller's frame intact: the next dlsym in the chain (a later
 * interposer's, else libc's) for every ordinary name, so that a later interposer sees each
 * lookup as it would without us; our wrapper only for the clock_gettime names.
 */
void *fr_dlsym_route(void *handle, const char *name);
void *fr_dlvsym_route(void *handle, const char *name, const void *caller);

__asm__(".text\n"
	".globl dlsym\n"
	".type dlsym, @function\n"
	"dlsym:\n"
	".cfi_startproc\n"
	"endbr64\n"
	"push %rdi\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rsi\n"
	".cfi_adjust_cfa_offset 8\n"
	"sub $8, %rsp\n"
	".cfi_adjust_cfa_offset 8\n"
	"call fr_dlsym_route\n"
	"add $8, %rsp\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rsi\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rdi\n"
	".cfi_adjust_cfa_offset -8\n"
	"jmp *%rax\n"
	".cfi_endproc\n"
	".size dlsym, .-dlsym\n"
	".globl dlvsym\n"
	".type dlvsym, @function\n"
	"dlvsym:\n"
	".cfi_startproc\n"
	"endbr64\n"
	"push %rdi\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rsi\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rdx\n"
	".cfi_adjust_cfa_offset 8\n"
	"mov 24(%rsp), %rdx\n"
	"call fr_dlvsym_route\n"
	"pop %rdx\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rsi\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rdi\n"
	".cfi_adjust_cfa_offset -8\n"
	"jmp *%rax\n"
	".cfi_endproc\n"
	".size dlvsym, .-dlvsym\n");

static void *next_dlsym_cache, *next_dlvsym_cache;

static fr_dlsym_fn next_dlsym(void)
{
	return (fr_dlsym_fn)fr_next_cached(&next_dlsym_cache, "dlsym");
}

static fr_dlvsym_fn next_dlvsym(void)
{
	return (fr_dlvsym_fn)fr_next_cached(&next_dlvsym_cache, "dlvsym");
}

static int is_libc_name(const char *name)
{
	return fr_streq(name, "clock_gettime") || fr_streq(name, "__clock_gettime");
}

static int is_clock_name(const char *name)
{
	return name && (is_libc_name(name) || fr_streq(name, "__vdso_clock_gettime"));
}

/*
 * What a successful lookup of a clock name gives instead of p: the vDSO's function and libc's
 * own become ours; another interposer's stays theirs (ours chains to it anyway when it is later).
 */
static void *replace(void *p)
{
	uintptr_t lo = fr_auxval(AT_SYSINFO_EHDR), hi = fr_elf_image_end((const void *)lo);

	if (!p)
		return NULL; /* not found: the caller sees libc's NULL and dlerror */
	/* The image's own extent, not /proc: a sanitizer runtime gets here before it can run instrumented code. */
	if (lo && (uintptr_t)p >= lo && (uintptr_t)p < hi)
		return (void *)fr_vdso_clock_gettime;
	if (fr_is_libc_clock_gettime(p))
		return (void *)fr_clock_gettime;
	return p;
}

static void *no_dlsym(void *handle, const char *name)
{
	return NULL;
}

static void *no_dlvsym(void *handle, const char *name, const char *version)
{
	return NULL;
}

/*
 * The next lookup runs from here, so the scope is ours: right for a handle and for RTLD_DEFAULT
 * (one global scope), and for RTLD_NEXT only when this library was dlopen'd (see the router).
 */
static void *clock_dlsym(void *handle, const char *name)
{
	fr_dlsym_fn next = next_dlsym();

	return next ? replace(next(handle, name)) : NULL;
}

static void *clock_dlvsym(void *handle, const char *name, const char *version)
{
	fr_dlvsym_fn next = next_dlvsym();

	return next ? replace(next(handle, name, version)) : NULL;
}

/*
 * RTLD_NEXT for a clock name goes on with the caller's frame when this library was loaded at
 * start: the loader's answer is then already the chain's (ours for a caller ahead of us; what
 * follows for a later interposer asking for the real one, which must never get ours back).
 * dlvsym is different: the loader passes over our unversioned definition when a version is
 * asked for, so only a caller after us (a later interposer, or libc) goes on with its frame.
 */
static int clock_by_caller(void *handle)
{
	return handle == RTLD_NEXT && fr_self_loaded_at_start();
}

static int clock_by_caller_v(void *handle, const void *caller)
{
	return handle == RTLD_NEXT && fr_follows_self(caller);
}

__attribute__((used)) void *fr_dlsym_route(void *handle, const char *name)
{
	fr_dlsym_fn next;

	/* Before relocation: every lookup on to the next dlsym, with the caller's frame. */
	if (!fr_relocated()) {
		next = next_dlsym();
		return next ? (void *)next : (void *)no_dlsym;
	}
	if (is_clock_name(name) && !clock_by_caller(handle))
		return (void *)clock_dlsym;
	next = next_dlsym();
	return next ? (void *)next : (void *)no_dlsym;
}

__attribute__((used)) void *fr_dlvsym_route(void *handle, const char *name, const void *caller)
{
	fr_dlvsym_fn next;

	if (!fr_relocated()) {
		next = next_dlvsym();
		return next ? (void *)next : (void *)no_dlvsym;
	}
	if (is_clock_name(name) && !clock_by_caller_v(handle, caller))
		return (void *)clock_dlvsym;
	next = next_dlvsym();
	return next ? (void *)next : (void *)no_dlvsym;
}

static void *next_getauxval_cache;

/* The next getauxval in the chain, then the shadow image in place of the vDSO's address. */
static unsigned long fr_getauxval(unsigned long type)
{
	fr_getauxval_fn next = (fr_getauxval_fn)fr_next_cached(&next_getauxval_cache, "getauxval");
	unsigned long v;
	int saved;

	/* Before relocation: the next one's answer as it is (errno is out of reach, no shadow). */
	if (!fr_relocated())
		return next ? next(type) : 0;
	if (!next) {
		errno = ENOENT;
		return 0;
	}
	v = next(type);
	if (type == AT_SYSINFO_EHDR && v) {
		saved = errno;
		v = (unsigned long)fr_shadow_get((const void *)v);
		errno = saved;
	}
	return v;
}

FR_EXPORT unsigned long getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));
FR_EXPORT unsigned long __getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));
