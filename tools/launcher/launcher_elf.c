/* SPDX-License-Identifier: MIT */
/* Reads just enough of an ELF file to tell whether the dynamic loader will run for it. */
#define _GNU_SOURCE
#include "launcher/launcher_elf.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

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
	out->is_x86_64 = eh.e_machine == EM_X86_64;
	out->elf_class = eh.e_ident[EI_CLASS];
	out->is_64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	if (!out->is_64)
		return 0;
	if ((size_t)n < sizeof(eh))
		return -EINVAL;
	return scan_phdrs(fd, &eh, out);
}
