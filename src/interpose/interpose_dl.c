/* SPDX-License-Identifier: MIT */
/* The exported dlsym, dlvsym, getauxval and __getauxval: every way to look clock_gettime up leads to us. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/auxv.h>

#include "interpose/shadow.h"
#include "runtime/runtime.h"
#include "sys/dynsym.h"
#include "sys/elfsym.h"

#define FR_EXPORT __attribute__((visibility("default")))

/*
 * glibc's dlsym and dlvsym read their caller's return address to resolve RTLD_NEXT and to pick
 * the scope of RTLD_DEFAULT. So the exported entries are assembly stubs that ask a router where
 * to go and then jump there with the caller's frame intact: libc for every ordinary name, our
 * replacement only for the clock_gettime names. (Calling libc from C would make every RTLD_NEXT
 * lookup relative to libfastraw, and a wrapper preloaded after us would find itself again.)
 */
void *fr_dlsym_route(const char *name);
void *fr_dlvsym_route(const char *name);

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
	"mov %rsi, %rdi\n"
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
	"mov %rsi, %rdi\n"
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

static int is_libc_name(const char *name)
{
	return fr_streq(name, "clock_gettime") || fr_streq(name, "__clock_gettime");
}

static int is_clock_name(const char *name)
{
	return name && (is_libc_name(name) || fr_streq(name, "__vdso_clock_gettime"));
}

/* What a successful lookup of a clock name gives instead of p. */
static void *replace(void *p, const char *name)
{
	uintptr_t lo = fr_auxval(AT_SYSINFO_EHDR), hi = fr_elf_image_end((const void *)lo);

	if (!p)
		return NULL; /* not found: the caller sees libc's NULL and dlerror */
	/* The image's own extent, not /proc: a sanitizer runtime gets here before it can run instrumented code. */
	if (lo && (uintptr_t)p >= lo && (uintptr_t)p < hi)
		return (void *)fr_vdso_clock_gettime;
	if (is_libc_name(name))
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
 * The real lookup runs from here, so RTLD_NEXT means "after libfastraw": it only decides whether
 * the name exists, and whatever defines clock_gettime after the caller is, in practice, libc.
 */
static void *clock_dlsym(void *handle, const char *name)
{
	fr_dlsym_fn real = fr_real_dlsym();

	return real ? replace(real(handle, name), name) : NULL;
}

static void *clock_dlvsym(void *handle, const char *name, const char *version)
{
	fr_dlvsym_fn real = fr_real_dlvsym();

	return real ? replace(real(handle, name, version), name) : NULL;
}

__attribute__((used)) void *fr_dlsym_route(const char *name)
{
	fr_dlsym_fn real;

	if (is_clock_name(name))
		return (void *)clock_dlsym;
	real = fr_real_dlsym();
	return real ? (void *)real : (void *)no_dlsym;
}

__attribute__((used)) void *fr_dlvsym_route(const char *name)
{
	fr_dlvsym_fn real;

	if (is_clock_name(name))
		return (void *)clock_dlvsym;
	real = fr_real_dlvsym();
	return real ? (void *)real : (void *)no_dlvsym;
}

static unsigned long fr_getauxval(unsigned long type)
{
	fr_getauxval_fn real = fr_real_getauxval();
	unsigned long v;
	int saved;

	if (!real) {
		errno = ENOENT;
		return 0;
	}
	v = real(type);
	if (type == AT_SYSINFO_EHDR && v) {
		saved = errno;
		v = (unsigned long)fr_shadow_get((const void *)v);
		errno = saved;
	}
	return v;
}

FR_EXPORT unsigned long getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));
FR_EXPORT unsigned long __getauxval(unsigned long type) __attribute__((alias("fr_getauxval")));
