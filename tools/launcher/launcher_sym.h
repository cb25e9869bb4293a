/* SPDX-License-Identifier: MIT */
/* Whether a 64-bit ELF file's dynamic symbol table defines a name: how the launcher tells libfastraw from any other library. */
#ifndef LAUNCHER_SYM_H
#define LAUNCHER_SYM_H

/*
 * Reads the file's section headers, its SHT_DYNSYM table and the string table it links to, and
 * looks for a global or weak symbol called name with a definition (not SHN_UNDEF). Nothing is
 * loaded or run. Returns 1 when found, 0 when not, -ENOEXEC when the file has no dynamic symbol
 * table, -EINVAL when its headers are damaged, or a negative errno from the read.
 */
int launcher_elf_defines(int fd, const char *name);

#endif
