/* SPDX-License-Identifier: MIT */
/* What the launcher needs to know about an ELF file of either class: class, machine, type, whether it has a program interpreter, and whether it defines a symbol. */
#ifndef LAUNCHER_ELF_H
#define LAUNCHER_ELF_H

struct launcher_elf {
	int elf_class; /* e_ident[EI_CLASS] as found: ELFCLASS32, ELFCLASS64, or an invalid value */
	int is_native_class; /* elf_class is this build's (TOOL_ELF_CLASS: 32-bit on arm, else 64-bit) */
	int is_native; /* e_machine is this build's architecture (TOOL_ELF_MACHINE) */
	int type;      /* e_type: ET_EXEC, ET_DYN, ... */
	int has_interp; /* a PT_INTERP program header: the kernel starts the dynamic loader */
};

/*
 * Reads the ELF header and, for files of this build's class, the program headers from fd.
 * Returns 0; -ENOEXEC when fd is not ELF; -EINVAL for an ELF file too damaged to read; or a
 * negative errno from the read.
 */
int launcher_elf_read(int fd, struct launcher_elf *out);

/*
 * Reads the file's section headers, its SHT_DYNSYM table and the string table it links to, and
 * looks for a global or weak symbol called name with a definition (not SHN_UNDEF). Nothing is
 * loaded or run. Returns 1 when found, 0 when not, -ENOEXEC when the file has no dynamic symbol
 * table, -EINVAL when its headers are damaged, or a negative errno from the read.
 */
int launcher_elf_defines(int fd, const char *name);

#endif
