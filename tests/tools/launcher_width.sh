#!/bin/sh
# SPDX-License-Identifier: MIT
# The program's width against the library's: one of the build's ELF class is launched with the library, one of the other class is refused saying why; both checked before the execve, so under qemu-user too.
LAUNCHER_BEFORE_EXEC=1
. "$(dirname "$0")/launcher_common.sh"

# The build's ELF class (1: 32-bit, 2: 64-bit) is the launcher's own; the other width's header
# names that width's CPU of the family (EM_AARCH64 beside 32-bit ARM, EM_ARM beside aarch64,
# EM_386 beside x86_64).
native_class=$(od -An -tu1 -j4 -N1 "$L" | tr -d ' ')
if [ "$native_class" = 1 ]; then
	bits=32 other_bits=64 other_class=002 other_machine=267
else
	bits=64 other_bits=32 other_class=001 other_machine=003
	[ "$arch" = aarch64 ] && other_machine=050
fi
elf_header "$other_class" "$other_machine" "$T/other"
run 126 $RUN "$L" --lib "$LIB" "$T/other"
out_empty
err_is "fastraw: $T/other: a $other_bits-bit program: libfastraw.so is $bits-bit $arch only"

# A program and the library of the build's width: accepted, and launched with the library. Under
# qemu-user the execve itself fails (the host kernel cannot run it): the launch is what counts.
echo "\$ $L --debug --lib $LIB $PROBE"
# shellcheck disable=SC2086 # $RUN is the emulator's words, or nothing
$RUN "$L" --debug --lib "$LIB" "$PROBE" >"$T/out" 2>"$T/err"
got=$?
sed 's/^/  out| /' "$T/out"
sed 's/^/  err| /' "$T/err"
echo "  exit $got"
err_has "fastraw: launching $PROBE with LD_PRELOAD=$LIB"
[ "$got" = 0 ] || { [ "$emulated" = 1 ] && [ "$got" = 126 ]; } || fail "exit status $got"
finish
