#!/bin/sh
# SPDX-License-Identifier: MIT
# Statically linked programs (plain and static-pie) are refused: no dynamic loader runs in them to preload.
. "$(dirname "$0")/launcher_common.sh"
MSG="statically linked: no dynamic loader runs, so nothing can be preloaded"
tested=0

for prog in "$LAUNCHER_STATIC" "$LAUNCHER_STATIC_PIE"; do
	[ -n "$prog" ] || continue
	tested=$((tested + 1))
	run 0 "$prog"
	out_has "static program ran"
	refused "$prog" "$MSG"
	printf '#!%s\n' "$prog" >"$T/script"
	chmod 755 "$T/script"
	refused "$T/script" "its #! interpreter $prog: $MSG"
done
[ -n "$LAUNCHER_STATIC" ] || echo "(plain static case skipped: this toolchain cannot link with -static; is libc.a installed?)"
[ -n "$LAUNCHER_STATIC_PIE" ] || echo "(static-pie case skipped: this toolchain cannot link with -static-pie)"
[ "$tested" -gt 0 ] || skip "no statically linked program could be built (libc.a missing?)"
finish
