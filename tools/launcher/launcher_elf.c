/* SPDX-License-Identifier: MIT */
/* Reads just enough of an ELF file to tell whether the dynamic loader will run for it, and whether it defines a symbol. */
#define _GNU_SOURCE
#include "launcher/launcher_elf.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_arch.h"

/* More program headers than any linker writes; PN_XNUM (0xffff) files land beyond it too. */
#define LAUNCHER_MAX_PHDRS 1024

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

static int scan_phdrs(int fd, const Elf64_Ehdr *eh, struct launcher_elf *out)
{
	Elf64_Phdr ph[64];
	unsigned done = 0;

	if (eh->e_phnum > LAUNCHER_MAX_PHDRS || (eh->e_phnum && eh->e_phentsize != sizeof(Elf64_Phdr)))
		return -EINVAL;
	while (done < eh->e_phnum) {
		unsigned n = eh->e_phnum - done;
		int err;

		if (n > sizeof(ph) / sizeof(ph[0]))
			n = sizeof(ph) / sizeof(ph[0]);
		err = read_at(fd, ph, n * sizeof(ph[0]), (off_t)(eh->e_phoff + done * sizeof(ph[0])));
		if (err)
			return err;
		for (unsigned i = 0; i < n; i++)
			if (ph[i].p_type == PT_INTERP)
				out->has_interp = 1;
		done += n;
	}
	return 0;
}

int launcher_elf_read(int fd, struct launcher_elf *out)
{
	Elf64_Ehdr eh;
	ssize_t n = pread(fd, &eh, sizeof(eh), 0);

	memset(out, 0, sizeof(*out));
	if (n < 0)
		return -errno;
	if (n < EI_NIDENT || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	/* e_type and e_machine sit at the same offsets in both classes. */
	if ((size_t)n < offsetof(Elf64_Ehdr, e_version))
		return -EINVAL;
	out->type = eh.e_type;
	out->is_native = eh.e_machine == TOOL_ELF_MACHINE;
	out->elf_class = eh.e_ident[EI_CLASS];
	out->is_64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	if (!out->is_64)
		return 0;
	if ((size_t)n < sizeof(eh))
		return -EINVAL;
	return scan_phdrs(fd, &eh, out);
}

/* Bounds no real library reaches; beyond them the file is taken as damaged. */
#define MAX_SECTIONS 65280
#define MAX_SYMBOLS (1u << 22)
#define MAX_STRTAB (64u << 20)

static int section(int fd, const Elf64_Ehdr *eh, unsigned i, Elf64_Shdr *sh)
{
	if (i >= eh->e_shnum)
		return -EINVAL;
	return read_at(fd, sh, sizeof(*sh), (off_t)(eh->e_shoff + (Elf64_Off)i * sizeof(*sh)));
}

/* Scans the symbols of dynsym (strings in str, strsz bytes) for a defined global or weak name. */
static int scan(int fd, const Elf64_Shdr *dynsym, const char *str, size_t strsz, const char *name)
{
	Elf64_Sym syms[256];
	size_t n = dynsym->sh_size / sizeof(Elf64_Sym), done = 0, len = strlen(name);

	if (n > MAX_SYMBOLS)
		return -EINVAL;
	while (done < n) {
		size_t k = n - done < 256 ? n - done : 256;
		int err = read_at(fd, syms, k * sizeof(syms[0]), (off_t)(dynsym->sh_offset + done * sizeof(syms[0])));

		if (err)
			return err;
		for (size_t i = 0; i < k; i++) {
			const Elf64_Sym *s = &syms[i];
			unsigned bind = ELF64_ST_BIND(s->st_info);

			if (s->st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK))
				continue;
			if (s->st_name < strsz && strsz - s->st_name > len &&
			    memcmp(str + s->st_name, name, len + 1) == 0)
				return 1;
		}
		done += k;
	}
	return 0;
}

int launcher_elf_defines(int fd, const char *name)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strh;
	char *str;
	int err;

	if ((err = read_at(fd, &eh, sizeof(eh), 0)))
		return err;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOEXEC;
	if (eh.e_shnum == 0)
		return -ENOEXEC;
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum > MAX_SECTIONS)
		return -EINVAL;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if ((err = section(fd, &eh, i, &sh)))
			return err;
		if (sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_entsize != sizeof(Elf64_Sym) || (err = section(fd, &eh, sh.sh_link, &strh)))
			return err ? err : -EINVAL;
		if (strh.sh_type != SHT_STRTAB || strh.sh_size == 0 || strh.sh_size > MAX_STRTAB)
			return -EINVAL;
		str = malloc(strh.sh_size);
		if (!str)
			return -ENOMEM;
		err = read_at(fd, str, strh.sh_size, (off_t)strh.sh_offset);
		if (!err)
			err = scan(fd, &sh, str, strh.sh_size, name);
		free(str);
		return err;
	}
	return -ENOEXEC;
}
