#!/bin/sh
# SPDX-License-Identifier: MIT
# What LD_PRELOAD=libfastraw adds to /bin/true, counted in instructions under callgrind against an empty preload, within a budget.
# usage: startup_budget.sh LIBFASTRAW EMPTY_SO [BUDGET]   (BUDGET: instructions, default 15000)
#
# Callgrind's counts are deterministic (no timing is asserted): the same binaries give the same
# numbers run after run. /bin/true never reads a clock, so everything the library adds is the
# loader's work on it (relocations, symbol lookups) and its constructor: issue 30's goal is at
# most 15 k instructions over an empty preload (a constructor and nothing else). The process
# starts with an empty environment (env -i), as the goal was measured; valgrind follows env's
# exec and counts /bin/true alone.
set -eu
lib=$1 empty=$2 budget=${3:-15000}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 77
fi
[ -x /bin/true ] || { echo "SKIP: no /bin/true"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions /bin/true runs with $1 preloaded (empty: none).
count() {
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$tmp/cg.%p" \
		--log-file="$tmp/log" env -i ${1:+LD_PRELOAD=$1} /bin/true ||
		{ echo "FAIL: /bin/true under callgrind with '$1' exited $?"; cat "$tmp/log"; exit 1; }
	n=$(sed -n 's/.*Collected : *\([0-9][0-9]*\).*/\1/p' "$tmp/log" | tail -1)
	[ -n "$n" ] || { echo "FAIL: no instruction count from callgrind"; cat "$tmp/log"; exit 1; }
	echo "$n"
}

none=$(count "")
base=$(count "$empty")
with=$(count "$lib")
extra=$((with - base))
echo "/bin/true instructions: no preload $none, empty preload $base, libfastraw $with"
echo "libfastraw adds $extra over the empty preload (budget $budget)"
# The control: the empty preload costs something, so the counts did see LD_PRELOAD.
[ "$base" -gt "$none" ] || { echo "FAIL: the empty preload added nothing: LD_PRELOAD not seen"; exit 1; }
if [ "$extra" -gt "$budget" ]; then
	echo "FAIL: $extra instructions over the empty preload, above the budget of $budget"
	exit 1
fi
echo "PASS"
