/* SPDX-License-Identifier: MIT */
/* Finds, in a vDSO image's .text, the instructions the oracle replaces with traps: counter reads, fallback system calls, carry loops. */
#include "sites.h"

#include <elf.h>
#include <string.h>
#include <sys/syscall.h>

static int imm32_is(const uint8_t *p, uint32_t v)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x == v;
}

/*
 * Matches the carry loop at t[i]: sub $1e9,%r64; add $1,%r32 (or inc); cmp $999999999,%r64; ja back.
 * A decoder of the x86 forms compilers emit for it, so test code of x86's, not a table.
 */
static int match_carry(const uint8_t *t, size_t i, size_t end, struct vs_carry *cs)
{
	size_t p = i;
	int r, c, b = 0;

	if (p + 6 <= end && t[p] == 0x48 && t[p + 1] == 0x2d && imm32_is(t + p + 2, 1000000000u)) {
		r = 0;
		p += 6;
	} else if (p + 7 <= end && (t[p] & 0xfe) == 0x48 && t[p + 1] == 0x81 && (t[p + 2] & 0xf8) == 0xe8 &&
		   imm32_is(t + p + 3, 1000000000u)) {
		r = (t[p + 2] & 7) | (t[p] & 1) << 3;
		p += 7;
	} else {
		return 0;
	}
	if (p < end && t[p] == 0x41) {
		b = 8;
		p++;
	}
	if (p + 3 <= end && t[p] == 0x83 && (t[p + 1] & 0xf8) == 0xc0 && t[p + 2] == 1) {
		c = (t[p + 1] & 7) | b;
		p += 3;
	} else if (p + 2 <= end && t[p] == 0xff && (t[p + 1] & 0xf8) == 0xc0) {
		c = (t[p + 1] & 7) | b;
		p += 2;
	} else {
		return 0;
	}
	if (r == 0 && p + 6 <= end && t[p] == 0x48 && t[p + 1] == 0x3d && imm32_is(t + p + 2, 999999999u)) {
		p += 6;
	} else if (p + 7 <= end && t[p] == (0x48 | (r >> 3)) && t[p + 1] == 0x81 && t[p + 2] == (0xf8 | (r & 7)) &&
		   imm32_is(t + p + 3, 999999999u)) {
		p += 7;
	} else {
		return 0;
	}
	if (p + 2 > end || t[p] != 0x77 || (intptr_t)(p + 2) + (int8_t)t[p + 1] != (intptr_t)i)
		return 0;
	if (c == r || c == 4)
		return 0;
	cs->at = i;
	cs->resume = p + 2;
	memcpy(cs->orig, t + i, 2);
	cs->val_reg = r;
	cs->cnt_reg = c;
	return 1;
}

/* The [lo, hi) file range of .text in the vDSO image (which is mapped exactly as its file). */
static int text_range(const uint8_t *img, size_t size, size_t *lo, size_t *hi)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *names;

	if (size < sizeof(*eh) || eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
		return -1;
	sh = (const void *)(img + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	for (int i = 0; i < eh->e_shnum; i++) {
		size_t name = names->sh_offset + sh[i].sh_name;

		if (name + 6 > size || memcmp(img + name, ".text", 6) != 0)
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > size)
			return -1;
		*lo = sh[i].sh_offset;
		*hi = sh[i].sh_offset + sh[i].sh_size;
		return 0;
	}
	return -1;
}

static const uint8_t RDTSC[] = FR_X86_RDTSC;
static const uint8_t RDTSCP[] = FR_X86_RDTSCP;
static const uint8_t LFENCE[] = FR_X86_LFENCE;
static const uint8_t MFENCE[] = FR_X86_MFENCE;

static int at(const uint8_t *t, size_t i, size_t hi, const uint8_t *pat, size_t n)
{
	return i + n <= hi && !memcmp(t + i, pat, n);
}

/* One FR_X86_READ_SLOT-byte counter-read slot starting at t[i]; returns its length (0: none). */
static size_t match_read(const uint8_t *t, size_t i, size_t hi, struct vs_read *r)
{
	if (at(t, i, hi, LFENCE, 3) && at(t, i + 3, hi, RDTSC, 2)) {
		*r = (struct vs_read){ i + 3, 2, FR_X86_READ_LFENCE_RDTSC };
		return FR_X86_READ_SLOT;
	}
	if (at(t, i, hi, MFENCE, 3) && at(t, i + 3, hi, RDTSC, 2)) {
		*r = (struct vs_read){ i + 3, 2, FR_X86_READ_MFENCE_RDTSC };
		return FR_X86_READ_SLOT;
	}
	if (at(t, i, hi, RDTSCP, 3) && i + FR_X86_READ_SLOT <= hi && fr_x86_is_nops(t + i + 3, 2)) {
		*r = (struct vs_read){ i, 3, FR_X86_READ_RDTSCP };
		return FR_X86_READ_SLOT;
	}
	if (at(t, i, hi, RDTSC, 2) && i + FR_X86_READ_SLOT <= hi && fr_x86_is_nops(t + i + 2, 3)) {
		*r = (struct vs_read){ i, 2, FR_X86_READ_RDTSC };
		return FR_X86_READ_SLOT;
	}
	/* Before ALTERNATIVE_2 (4.x): a 3-byte fence slot, NOPs where no fence was patched in, then rdtsc. */
	if (i + FR_X86_READ_SLOT <= hi && fr_x86_is_nops(t + i, 3) && at(t, i + 3, hi, RDTSC, 2)) {
		*r = (struct vs_read){ i + 3, 2, FR_X86_READ_RDTSC };
		return FR_X86_READ_SLOT;
	}
	return 0;
}

const char *vsites_find(const uint8_t *t, size_t size, struct vsites *s)
{
	/* mov $SYS_clock_gettime, %eax; syscall */
	static const uint8_t CLOCK_GETTIME_SYSCALL[] = { FR_X86_MOV_EAX_IMM32, SYS_clock_gettime, 0, 0, 0, 0x0f, 0x05 };
	size_t lo, hi, covered = 0;

	memset(s, 0, sizeof(*s));
	if (text_range(t, size, &lo, &hi) != 0)
		return "no .text section header in the vDSO image";
	for (size_t i = lo; i < hi; i++) {
		struct vs_carry cs;
		struct vs_read r;
		size_t len;

		if (i >= covered && (len = match_read(t, i, hi, &r)) != 0) {
			if (s->n_read == VS_MAX_SITES)
				return "more counter reads in the vDSO text than the oracle has room for";
			s->read[s->n_read++] = r;
			covered = i + len;
		} else if (i >= covered && (at(t, i, hi, RDTSC, 2) || at(t, i, hi, RDTSCP, 3))) {
			s->unmatched++;
		}
		if (at(t, i, hi, CLOCK_GETTIME_SYSCALL, sizeof(CLOCK_GETTIME_SYSCALL)) && s->n_syscall < VS_MAX_SITES)
			s->syscall_at[s->n_syscall++] = i + 5;
		if (s->n_carry < VS_MAX_SITES && match_carry(t, i, hi, &cs))
			s->carry[s->n_carry++] = cs;
	}
	if (s->n_read == 0)
		return "no counter read (rdtsc, lfence;rdtsc, mfence;rdtsc or rdtscp in its NOP-padded slot) "
		       "recognised in the vDSO text";
	if (s->n_syscall == 0)
		return "no clock_gettime fallback system call found in the vDSO text";
	if (s->n_carry == 0)
		return "no seconds-carry loop recognised in the vDSO text (huge results would take seconds each)";
	return NULL;
}

const char *vsites_counter_name(const struct vsites *s)
{
	static const char *const names[FR_X86_READS] = FR_X86_READ_NAMES;

	if (s->n_read == 0)
		return "none";
	for (int i = 1; i < s->n_read; i++)
		if (s->read[i].kind != s->read[0].kind)
			return "mixed";
	return names[s->read[0].kind];
}
