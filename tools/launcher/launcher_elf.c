/* SPDX-License-Identifier: MIT */
/* Reads just enough of an ELF file of either class to tell whether the dynamic loader will run for it, and whether it defines a symbol. */
#define _GNU_SOURCE
#include "launcher/launcher_elf.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_arch.h"

/* More program headers than any linker writes; PN_XNUM (0xffff) files land beyond it too. */
#define LAUNCHER_MAX_PHDRS 1024
/* Bounds no real library reaches; beyond them the file is taken as damaged. */
#define MAX_SECTIONS 65280
#define MAX_SYMBOLS (1u << 22)
#define MAX_STRTAB (64u << 20)

/* The ELF header's fields the launcher reads, from a file of either class. */
struct hdr {
	int is_64;
	uint64_t phoff, shoff;
	unsigned phentsize, phnum, shentsize, shnum;
};

/* A section header's fields, either class. */
struct shdr {
	uint32_t type, link;
	uint64_t offset, size, entsize;
};

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

/* Reads the header of an ELF file of class 32 or 64: -ENOEXEC for anything else. */
static int read_hdr(int fd, struct hdr *h)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} u;
	int err = read_at(fd, &u, sizeof(u.e32), 0);

	if (err)
		return err;
	if (memcmp(u.e32.e_ident, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	h->is_64 = u.e32.e_ident[EI_CLASS] == ELFCLASS64;
	if (!h->is_64 && u.e32.e_ident[EI_CLASS] != ELFCLASS32)
		return -ENOEXEC;
	if (!h->is_64) {
		*h = (struct hdr){ 0, u.e32.e_phoff, u.e32.e_shoff, u.e32.e_phentsize, u.e32.e_phnum,
				   u.e32.e_shentsize, u.e32.e_shnum };
		return 0;
	}
	if ((err = read_at(fd, &u, sizeof(u.e64), 0)))
		return err;
	*h = (struct hdr){ 1, u.e64.e_phoff, u.e64.e_shoff, u.e64.e_phentsize, u.e64.e_phnum, u.e64.e_shentsize,
			   u.e64.e_shnum };
	return 0;
}

/* p_type is each program header's first word in both classes. */
static int scan_phdrs(int fd, const struct hdr *h, struct launcher_elf *out)
{
	size_t entsize = h->is_64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	unsigned char ph[64 * sizeof(Elf64_Phdr)];
	unsigned done = 0, per = (unsigned)(sizeof(ph) / entsize);

	if (h->phnum > LAUNCHER_MAX_PHDRS || (h->phnum && h->phentsize != entsize))
		return -EINVAL;
	while (done < h->phnum) {
		unsigned n = h->phnum - done < per ? h->phnum - done : per;
		int err = read_at(fd, ph, n * entsize, (off_t)(h->phoff + done * entsize));
		uint32_t type;

		if (err)
			return err;
		for (unsigned i = 0; i < n; i++) {
			memcpy(&type, ph + i * entsize, sizeof(type));
			if (type == PT_INTERP)
				out->has_interp = 1;
		}
		done += n;
	}
	return 0;
}

int launcher_elf_read(int fd, struct launcher_elf *out)
{
	Elf32_Ehdr eh;
	ssize_t n = pread(fd, &eh, sizeof(eh), 0);
	struct hdr h;
	int err;

	memset(out, 0, sizeof(*out));
	if (n < 0)
		return -errno;
	if (n < EI_NIDENT || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	/* e_type and e_machine sit at the same offsets in both classes. */
	if ((size_t)n < offsetof(Elf32_Ehdr, e_version))
		return -EINVAL;
	out->type = eh.e_type;
	out->is_native = eh.e_machine == TOOL_ELF_MACHINE;
	out->elf_class = eh.e_ident[EI_CLASS];
	out->is_native_class = out->elf_class == TOOL_ELF_CLASS;
	/* A file of the other class, or of none, is refused for that alone: nothing more is read. */
	if (!out->is_native_class)
		return 0;
	err = read_hdr(fd, &h);
	return err ? (err == -ENOEXEC ? -EINVAL : err) : scan_phdrs(fd, &h, out);
}

static int section(int fd, const struct hdr *h, unsigned i, struct shdr *sh)
{
	Elf64_Shdr s64;
	Elf32_Shdr s32;
	int err;

	if (i >= h->shnum)
		return -EINVAL;
	if (h->is_64) {
		if ((err = read_at(fd, &s64, sizeof(s64), (off_t)(h->shoff + (uint64_t)i * sizeof(s64)))))
			return err;
		*sh = (struct shdr){ s64.sh_type, s64.sh_link, s64.sh_offset, s64.sh_size, s64.sh_entsize };
		return 0;
	}
	if ((err = read_at(fd, &s32, sizeof(s32), (off_t)(h->shoff + (uint64_t)i * sizeof(s32)))))
		return err;
	*sh = (struct shdr){ s32.sh_type, s32.sh_link, s32.sh_offset, s32.sh_size, s32.sh_entsize };
	return 0;
}

/* Whether the symbol at p (of the file's class) is a defined global or weak one called name. */
static int sym_is(const struct hdr *h, const unsigned char *p, const char *str, size_t strsz, const char *name)
{
	size_t len = strlen(name);
	unsigned bind, shndx;
	uint32_t st_name;

	if (h->is_64) {
		Elf64_Sym s;

		memcpy(&s, p, sizeof(s));
		st_name = s.st_name, bind = ELF64_ST_BIND(s.st_info), shndx = s.st_shndx;
	} else {
		Elf32_Sym s;

		memcpy(&s, p, sizeof(s));
		st_name = s.st_name, bind = ELF32_ST_BIND(s.st_info), shndx = s.st_shndx;
	}
	if (shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK))
		return 0;
	return st_name < strsz && strsz - st_name > len && memcmp(str + st_name, name, len + 1) == 0;
}

/* Scans the symbols of dynsym (strings in str, strsz bytes) for a defined global or weak name. */
static int scan(int fd, const struct hdr *h, const struct shdr *dynsym, const char *str, size_t strsz,
		const char *name)
{
	size_t entsize = h->is_64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	unsigned char syms[256 * sizeof(Elf64_Sym)];
	size_t n = dynsym->size / entsize, done = 0, per = sizeof(syms) / entsize;

	if (n > MAX_SYMBOLS)
		return -EINVAL;
	while (done < n) {
		size_t k = n - done < per ? n - done : per;
		int err = read_at(fd, syms, k * entsize, (off_t)(dynsym->offset + done * entsize));

		if (err)
			return err;
		for (size_t i = 0; i < k; i++)
			if (sym_is(h, syms + i * entsize, str, strsz, name))
				return 1;
		done += k;
	}
	return 0;
}

int launcher_elf_defines(int fd, const char *name)
{
	struct shdr sh, strh;
	struct hdr h;
	char *str;
	int err;

	if ((err = read_hdr(fd, &h)))
		return err;
	if (h.shnum == 0)
		return -ENOEXEC;
	if (h.shentsize != (h.is_64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) || h.shnum > MAX_SECTIONS)
		return -EINVAL;
	for (unsigned i = 0; i < h.shnum; i++) {
		if ((err = section(fd, &h, i, &sh)))
			return err;
		if (sh.type != SHT_DYNSYM)
			continue;
		if (sh.entsize != (h.is_64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym)) || (err = section(fd, &h, sh.link, &strh)))
			return err ? err : -EINVAL;
		if (strh.type != SHT_STRTAB || strh.size == 0 || strh.size > MAX_STRTAB)
			return -EINVAL;
		str = malloc(strh.size);
		if (!str)
			return -ENOMEM;
		err = read_at(fd, str, strh.size, (off_t)strh.offset);
		if (!err)
			err = scan(fd, &h, &sh, str, strh.size, name);
		free(str);
		return err;
	}
	return -ENOEXEC;
}
