#!/bin/sh
# SPDX-License-Identifier: MIT
# --clocks LIST: sets FASTRAW_CLOCKS for the program (the library then counts its served clocks), a bad list is a usage error.
. "$(dirname "$0")/launcher_common.sh"

run 0 "$L" --lib "$LIB" --clocks all --stats --debug "$PROBE" loop 1000
out_has "FASTRAW_CLOCKS=all"
out_has "clock_gettime calls ok"
# Where RAW is exact here, the probe's CLOCK_MONOTONIC call is served too; else it passes through.
if grep -q ': kernel=.* active$' "$T/err"; then
	err_matches ': stats: .*, MONOTONIC fast=[1-9][0-9]* passthrough=0'
	err_matches ": clocks: served from the kernel's page: REALTIME MONOTONIC REALTIME_COARSE MONOTONIC_COARSE BOOTTIME TAI \(and MONOTONIC_RAW\)$"
else
	err_matches ': stats: .*, MONOTONIC passthrough=[1-9]'
	err_matches ": clocks: only MONOTONIC_RAW is served: "
fi

run 0 "$L" --lib "$LIB" --clocks monotonic,tai "$PROBE"
out_has "FASTRAW_CLOCKS=monotonic,tai"

# Not asked for: inherited untouched.
run 0 env FASTRAW_CLOCKS=realtime "$L" --lib "$LIB" "$PROBE"
out_has "FASTRAW_CLOCKS=realtime"
run 0 "$L" --lib "$LIB" "$PROBE"
out_has "FASTRAW_CLOCKS=(unset)"

for bad in bogus "monotonic,,tai" MONOTONIC "all,raw" ""; do
	run 2 "$L" --lib "$LIB" --clocks "$bad" "$PROBE"
	err_has "fastraw: --clocks takes all or a comma list of raw, monotonic, boottime, realtime, tai, monotonic_coarse, realtime_coarse, not '$bad'"
	out_lacks "argv[0]"
done

run 2 "$L" --clocks
err_has "fastraw: option '--clocks' needs a value"

finish
