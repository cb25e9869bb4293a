#!/bin/sh
# SPDX-License-Identifier: MIT
# Programs and libraries the launcher refuses, each with its message and exit status; none of them runs.
. "$(dirname "$0")/launcher_common.sh"

run 125 "$L" --lib /nonexistent/libfastraw.so "$PROBE"
out_empty
err_is "fastraw: no usable libfastraw.so: /nonexistent/libfastraw.so (No such file or directory)"

echo "not a library" >"$T/libfake.so"
run 125 "$L" --lib "$T/libfake.so" "$PROBE"
err_is "fastraw: no usable libfastraw.so: $T/libfake.so (not an ELF file)"

# A real library that is not libfastraw (libc, and libm beside it): told by its dynamic symbol
# table, which lacks fastraw_info; the program does not run without the library.
libc=$(ldd "$PROBE" | awk '$1 == "libc.so.6" { print $3 }')
for other in "$libc" "${libc%/*}/libm.so.6"; do
	[ -f "$other" ] || { echo "(no $other here)"; continue; }
	run 125 "$L" --lib "$other" "$PROBE"
	out_empty
	err_is "fastraw: no usable libfastraw.so: $other (not libfastraw: its dynamic symbol table does not define fastraw_info)"
done
[ -n "$libc" ] || fail "ldd names no libc.so.6 for $PROBE"

run 127 "$L" --lib "$LIB" "$T/no-such-program"
err_is "fastraw: $T/no-such-program: No such file or directory"

run 127 env PATH="$T" "$L" --lib "$LIB" fastraw-no-such-program
err_is "fastraw: fastraw-no-such-program: not found on PATH"

cp "$PROBE" "$T/noexec"
chmod 644 "$T/noexec"
refused "$T/noexec" "Permission denied"

run 126 env PATH="$T" "$L" --lib "$LIB" noexec
err_is "fastraw: noexec: found on PATH but not executable"

mkdir "$T/dir"
refused "$T/dir" "Is a directory"

printf 'hello\n' >"$T/text"
chmod 755 "$T/text"
refused "$T/text" "neither an ELF program nor a #! script"

# FIFOs named as the library, as a #! interpreter and planted in the places searched: refused
# without opening them. An open would wait for a writer for ever: timeout ends that with 124
# (a bound on a hang, not a timing check), within the test's own limit.
mkfifo "$T/fifo" || fail "mkfifo $T/fifo"
run 125 timeout 20 "$L" --lib "$T/fifo" "$PROBE"
out_empty
err_is "fastraw: no usable libfastraw.so: $T/fifo (a FIFO, not a regular file)"
run 126 timeout 20 "$L" --lib "$LIB" "$T/fifo"
err_is "fastraw: $T/fifo: Permission denied"
printf '#!%s\n' "$T/fifo" >"$T/fifoscript"
chmod 755 "$T/fifoscript"
run 126 timeout 20 "$L" --lib "$LIB" "$T/fifoscript"
out_empty
err_is "fastraw: $T/fifoscript: its #! interpreter $T/fifo: a FIFO, not a regular file"
# Nor is a device opened: it may act on being opened.
run 125 "$L" --lib /dev/null "$PROBE"
err_is "fastraw: no usable libfastraw.so: /dev/null (a character device, not a regular file)"
if [ -e "$LAUNCHER_INSTALL_LIBDIR/libfastraw.so" ]; then
	echo "(FIFOs in the places searched not checked: an installed $LAUNCHER_INSTALL_LIBDIR/libfastraw.so comes first)"
else
	mkdir -p "$T/place/$LAUNCHER_BINDIR" "$T/place/$LAUNCHER_LIBDIR"
	cp "$L" "$T/place/$LAUNCHER_BINDIR/fastraw"
	mkfifo "$T/place/$LAUNCHER_BINDIR/libfastraw.so" "$T/place/$LAUNCHER_LIBDIR/libfastraw.so"
	to_lib=$(realpath -m --relative-to="$T/place/$LAUNCHER_BINDIR" "$T/place/$LAUNCHER_LIBDIR")
	run 125 timeout 20 "$T/place/$LAUNCHER_BINDIR/fastraw" "$PROBE"
	out_empty
	err_is "fastraw: no usable libfastraw.so: $LAUNCHER_INSTALL_LIBDIR/libfastraw.so (No such file or directory), \
$T/place/$LAUNCHER_BINDIR/$to_lib/libfastraw.so (a FIFO, not a regular file), \
$T/place/$LAUNCHER_BINDIR/libfastraw.so (a FIFO, not a regular file); name one with --lib PATH"
	# A FIFO in one place does not stop the search: the library in the next place is used.
	rm "$T/place/$LAUNCHER_BINDIR/libfastraw.so"
	cp "$LIB" "$T/place/$LAUNCHER_BINDIR/libfastraw.so"
	run 0 timeout 20 "$T/place/$LAUNCHER_BINDIR/fastraw" "$PROBE"
	out_has "clock_gettime in $T/place/$LAUNCHER_BINDIR/libfastraw.so"
fi

# The build's ELF class (1: 32-bit, 2: 64-bit) is the launcher's own. A program of the other
# class is refused for its width (launcher_width.sh checks that under qemu-user too).
native_class=$(od -An -tu1 -j4 -N1 "$L" | tr -d ' ')
# A program of this class for another architecture: EM_386 (3) beside 32-bit ARM, EM_X86_64 (62)
# beside aarch64, EM_AARCH64 (183) beside x86_64.
if [ "$native_class" = 1 ]; then
	elf_header 001 003 "$T/elfother"
else
	[ "$arch" = x86_64 ] && other=267 || other=076
	elf_header 002 "$other" "$T/elfother"
fi
refused "$T/elfother" "not an $arch program: libfastraw.so is $arch only"
for class in 0 3 255; do
	elf_header "$(printf '%03o' $class)" 076 "$T/elfclass$class"
	refused "$T/elfclass$class" "an ELF file with an invalid class (EI_CLASS $class, neither 32- nor 64-bit): no loader runs it"
done

printf '#!/nonexistent/interpreter\n' >"$T/badscript"
chmod 755 "$T/badscript"
refused "$T/badscript" "its #! interpreter /nonexistent/interpreter: No such file or directory"

# Set-ID programs: the kernel asks the loader for secure execution, and it would drop the preload.
cp "$PROBE" "$T/suid"
chmod 4755 "$T/suid"
refused "$T/suid" "set-user-ID: the dynamic loader ignores LD_PRELOAD for it"

cp "$PROBE" "$T/sgid"
chmod 2755 "$T/sgid"
refused "$T/sgid" "set-group-ID: the dynamic loader ignores LD_PRELOAD for it"

# A script's own set-ID bits are ignored by Linux, so they do not matter; its interpreter's do.
printf '#!%s\n' "$T/suid" >"$T/suid-interp"
chmod 4755 "$T/suid-interp"
refused "$T/suid-interp" "its #! interpreter $T/suid: set-user-ID: the dynamic loader ignores LD_PRELOAD for it"

if command -v setcap >/dev/null 2>&1 && cp "$PROBE" "$T/caps" && setcap cap_net_raw+ep "$T/caps" 2>/dev/null; then
	refused "$T/caps" "has file capabilities: the dynamic loader ignores LD_PRELOAD for it"
else
	echo "(file capabilities not checked: setcap is missing or not permitted here)"
fi

finish
