#!/bin/sh
# SPDX-License-Identifier: MIT
# --stats: one line at exit with the calls the fast path served (more than none for a RAW loop) and passed through.
. "$(dirname "$0")/launcher_common.sh"

grep -q FASTRAW_STATS "$LIB" || skip "$LIB does not read FASTRAW_STATS yet"

run 0 "$L" --lib "$LIB" --stats "$PROBE" loop 100000
out_has "FASTRAW_STATS=1"
out_has "clock_gettime calls ok"
# The library's lines start "fastraw[PID] PROGRAM: ", PROGRAM the last part of argv[0].
n=$(grep -c '^fastraw\[[0-9]*\] [^:]*: stats: ' "$T/err")
[ "$n" = 1 ] || fail "$n stats lines, expected 1"
grep -q "^fastraw\[[0-9]*\] $(basename "$PROBE"): stats: " "$T/err" || fail "the stats line does not name the program"
line=$(grep '^fastraw\[[0-9]*\] [^:]*: stats: ' "$T/err" | sed 's/^fastraw\[[0-9]*\] [^:]*: //')
fast=$(printf '%s\n' "$line" | sed -n 's/^stats: MONOTONIC_RAW fast=\([0-9][0-9]*\) passthrough=[0-9][0-9]*.*/\1/p')
[ -n "$fast" ] || fail "stats line does not start with MONOTONIC_RAW fast=N passthrough=M"
[ "${fast:-0}" -gt 0 ] || fail "the fast path served no call"
printf '%s\n' "$line" | grep -qE ', MONOTONIC passthrough=[1-9][0-9]*' ||
	fail "the probe's CLOCK_MONOTONIC call is not counted"

run 0 "$L" --lib "$LIB" "$PROBE"
err_lacks ": stats: MONOTONIC_RAW"

finish
