#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks what the loader must do for libfastraw.so in every process: which symbols it imports and which objects it needs.
# Usage: check_imports.sh LIBRARY   (NM and READELF may name the tools; the defaults are nm and readelf.)
#
# Each import is a symbol lookup through every object of the process, each DT_NEEDED entry and
# version need a check, in every process the library is preloaded into (issue 30). The library
# imports __errno_location and environ (nm also lists environ's alias __environ), needs libc
# alone, and has no DT_INIT or DT_FINI (no start files): ld.so's _r_debug and __libc_stack_end,
# libc's fork-handler registration and program_invocation_name are found in their tables.
set -u
lib=${1:?usage: check_imports.sh LIBRARY}
NM=${NM:-nm}
READELF=${READELF:-readelf}
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

[ -f "$lib" ] || { echo "no such library: $lib"; exit 1; }

# 1. Imports: the allowed names alone (versions stripped).
"$NM" -D --undefined-only "$lib" >"$tmp/nm" || { echo "$NM failed"; exit 1; }
awk 'NF { sub(/@.*/, "", $NF); print $NF }' "$tmp/nm" | LC_ALL=C sort -u >"$tmp/got"
printf '%s\n' __environ __errno_location environ | LC_ALL=C sort >"$tmp/allowed"
extra=$(LC_ALL=C comm -23 "$tmp/got" "$tmp/allowed" | tr '\n' ' ')
if [ -n "$extra" ]; then
	echo "FAIL: imports beyond __errno_location and environ: $extra"
	status=1
else
	echo "ok: imports: $(tr '\n' ' ' <"$tmp/got")"
fi

# 2. Needed objects: libc alone (no ld.so), and version needs of libc alone.
# libc_alone WHAT NAMES: NAMES (one line, each name followed by a space) is libc.so.6 alone.
libc_alone() {
	if [ "$2" != "libc.so.6 " ]; then
		echo "FAIL: $1 '$2', want 'libc.so.6' alone"
		status=1
	else
		echo "ok: $1 libc.so.6 alone"
	fi
}
"$READELF" -dW "$lib" >"$tmp/dyn" || { echo "$READELF failed"; exit 1; }
libc_alone needs "$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$tmp/dyn" | tr '\n' ' ')"
"$READELF" -VW "$lib" >"$tmp/ver" || { echo "$READELF -V failed"; exit 1; }
libc_alone "version needs of" "$(sed -n 's/.*File: \([^ ]*\).*/\1/p' "$tmp/ver" | tr '\n' ' ')"

# 3. No start files: no DT_INIT, no DT_FINI (the constructors are .init_array entries).
if grep -Eq '\((INIT|FINI)\)' "$tmp/dyn"; then
	echo "FAIL: DT_INIT or DT_FINI present (linked with the start files):"
	grep -E '\((INIT|FINI)\)' "$tmp/dyn"
	status=1
else
	echo "ok: no DT_INIT, no DT_FINI"
fi

[ $status -eq 0 ] && echo "PASS"
exit $status
