/* SPDX-License-Identifier: MIT */
/* Builds the shadow vDSO image: a byte copy whose .dynsym st_values point at the real vDSO's code, except clock_gettime's. */
#include "interpose/shadow.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>

#include "startup/runtime.h"
#include "arch/arch.h"
#include "elf/dynsym.h"
#include "elf/elfsym.h"
#include "proc/env.h"
#include "base/once.h"
#include "base/pages.h"
#include "elf/vdso_elf.h"
#include "interpose/time32.h"

/*
 * Its own states (in the word FR_W_SHADOW_STATE), not FR_KEEP_*: a build that fails is final
 * (OFF), not given back to retry.
 */
enum { SHADOW_IDLE, SHADOW_BUILDING, SHADOW_READY, SHADOW_OFF };

/* Static and page-aligned, like the image it copies; no allocation anywhere. */
FR_PAGE_BUFFER(image_space, FR_SHADOW_MAX);
#define image ((unsigned char *)fr_page_up(image_space))

static int wanted(void)
{
	struct fr_env scratch;
	const struct fr_env *env = fr_env_get(&scratch);

	return env->shadow_vdso && !env->disable;
}

/* The vDSO's clock_gettime under each of its names: the alias, and where it has one, the 32-bit-time function. */
static int is_clock(const char *name)
{
	return strcmp(name, FR_ARCH_VDSO_CLOCK_GETTIME) == 0 || strcmp(name, "clock_gettime") == 0 ||
	       fr_is_time32_name(name);
}

/* Whether [p, p + len) lies inside the copy. */
static int inside(const void *p, size_t len, size_t size)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)image;

	return a >= b && a - b <= size && len <= size - (a - b);
}

/* Copies and rewrites; only st_value changes, so both hash tables, versions and notes stay valid. */
static int build(void)
{
	struct fr_elfsyms real, copy;
	uintptr_t lo, hi;
	size_t size, n;

	/* Its pages asked about afresh: the program may have unmapped them since they were measured. */
	if (fr_vdso_range(&lo, &hi) != 0 || hi - lo > FR_SHADOW_MAX || fr_elf_image_end((const void *)lo) != hi)
		return -1;
	size = hi - lo;
	if (fr_vdso_open((const void *)lo, &real) != 0)
		return -1;
	memcpy(image, (const void *)lo, size);
	if (fr_vdso_open(image, &copy) != 0)
		return -1;
	n = fr_elfsyms_count(&copy);
	if (!inside(copy.symtab, n * sizeof(ElfW(Sym)), size) || !inside(copy.strtab, 1, size))
		return -1;
	for (size_t i = 1; i < n; i++) {
		ElfW(Sym) *sym = &copy.symtab[i];
		unsigned type = ELF64_ST_TYPE(sym->st_info);
		const char *name = copy.strtab + sym->st_name;
		uintptr_t target;

		if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
			continue;
		if (type != STT_FUNC && type != STT_NOTYPE)
			continue;
		if (!inside(name, 1, size))
			return -1;
		if (is_clock(name))
			target = (uintptr_t)fr_vdso_stand_in(name);
		else
			target = real.bias + real.symtab[i].st_value;
		/* A parser computes load offset + st_value; unsigned wraparound is intended. */
		sym->st_value = target - copy.bias;
	}
	/*
	 * The copy stays writable: making it read-only takes mprotect, and getauxval must make no
	 * system call (a process may ask after installing a seccomp filter). Building it in every
	 * process's constructor instead would cost each one for a feature few use.
	 */
	return 0;
}

const void *fr_shadow_get(const void *real)
{
	int s = __atomic_load_n(&fr_word(FR_W_SHADOW_STATE)->i, __ATOMIC_ACQUIRE), expected = SHADOW_IDLE;

	if (s == SHADOW_READY)
		return image;
	if (s != SHADOW_IDLE)
		return real;
	if (!FR_CLAIM_SEEN(&fr_word(FR_W_SHADOW_STATE)->i, &expected, SHADOW_BUILDING))
		return expected == SHADOW_READY ? image : real;
	s = wanted() && build() == 0 ? SHADOW_READY : SHADOW_OFF;
	__atomic_store_n(&fr_word(FR_W_SHADOW_STATE)->i, s, __ATOMIC_RELEASE);
	return s == SHADOW_READY ? image : real;
}
