/* SPDX-License-Identifier: MIT */
/* What the launcher needs to know about an ELF file: class, machine, type and whether it has a program interpreter. */
#ifndef LAUNCHER_ELF_H
#define LAUNCHER_ELF_H

struct launcher_elf {
	int elf_class; /* e_ident[EI_CLASS] as found: ELFCLASS32, ELFCLASS64, or an invalid value */
	int is_64;     /* ELFCLASS64 */
	int is_x86_64; /* e_machine == EM_X86_64 */
	int type;      /* e_type: ET_EXEC, ET_DYN, ... */
	int has_interp; /* a PT_INTERP program header: the kernel starts the dynamic loader */
};

/*
 * Reads the ELF header and, for 64-bit files, the program headers from fd.
 * Returns 0; -ENOEXEC when fd is not ELF; -EINVAL for an ELF file too damaged to read; or a
 * negative errno from the read.
 */
int launcher_elf_read(int fd, struct launcher_elf *out);

#endif
