#!/bin/sh
# SPDX-License-Identifier: MIT
# The real neighbours: faketime in both orders and through the launcher, and an AddressSanitizer program run through the launcher.
# usage: neighbours.sh LIBFASTRAW LAUNCHER ASAN-PROBE|-
# Exit 77 (skipped) when neither faketime nor an ASan build is available.
set -eu
lib=$1 launcher=$2 asan=$3
# shellcheck source=tests/e2e/script_common.sh
. "$(dirname "$0")/script_common.sh"
ran=0

if command -v faketime >/dev/null 2>&1; then
	ran=1
	run "libfastraw before faketime's library" env LD_PRELOAD="$lib" faketime 2020-01-01 date +%Y
	[ "$(cat "$T/out")" = 2020 ] || fail "date printed $(cat "$T/out"), not 2020"
	run "faketime around the launcher" faketime 2020-01-01 "$launcher" --lib "$lib" -- date +%Y
	[ "$(cat "$T/out")" = 2020 ] || fail "date printed $(cat "$T/out"), not 2020"
	run "the launcher around faketime" "$launcher" --lib "$lib" -- faketime 2020-01-01 date +%Y
	[ "$(cat "$T/out")" = 2020 ] || fail "date printed $(cat "$T/out"), not 2020"
else
	echo "SKIP faketime: not installed (Debian package faketime; scripts/common.sh installs it)"
fi

if [ "$asan" != - ]; then
	ran=1
	asan_rt=$(ldd "$asan" | sed -n 's/^[[:space:]]*libasan\.so[^ ]* => \([^ ]*\) .*/\1/p')
	[ -n "$asan_rt" ] || { what=ldd; fail "no libasan in ldd $asan"; }
	# The runtime a user puts first stays first: ASan aborts otherwise ("does not come first").
	# Its own clock_gettime interceptor comes first and forwards to ours, which FASTRAW_STATS shows.
	run "ASan runtime first in LD_PRELOAD, through the launcher" \
		env LD_PRELOAD="$asan_rt" FASTRAW_DEBUG=1 FASTRAW_STATS=1 "$launcher" --lib "$lib" -- "$asan"
	grep -q "^violations=0$" "$T/out" || fail "RAW outside the kernel's bracket"
	grep -q "^fastraw\[[0-9]*\] [^:]*: kernel=.* \(active\|passthrough: .*\)$" "$T/err" || fail "no FASTRAW_DEBUG line"
	if [ "${FR_E2E_EXPECT:-}" != passthrough ]; then
		grep -q " active$" "$T/err" || fail "the fast path is not active beside ASan"
		grep -Eq "MONOTONIC_RAW[^,]*fast=[1-9]" "$T/err" || fail "no RAW call served by libfastraw"
	fi
else
	echo "SKIP ASan: the compiler cannot build with -fsanitize=address"
fi
[ "$ran" = 1 ] || exit 77
echo "PASS"
