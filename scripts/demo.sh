#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libfastraw and shows clock_gettime(CLOCK_MONOTONIC_RAW) latency before and after LD_PRELOAD.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck disable=SC2119 # fr_setup's arguments are for cmake, not ours
fr_setup

lat="$FR_BUILD/fastraw-latency"
lib="$FR_BUILD/libfastraw.so"
samples=1000000
status=0

# best_avg LABEL [VAR=VALUE...]: the lowest mean delta between consecutive calls (fastraw-latency's
# top-level "avg_ns", in ns) of three runs, in a clean environment plus the given variables.
best_avg() {
	local label=$1 best="" out avg rc
	shift
	for _ in 1 2 3; do
		rc=0
		out=$(env -u LD_PRELOAD -u FASTRAW_TSC -u FASTRAW_DEBUG "$@" "$lat" -n "$samples" --json) || rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "demo: $label: fastraw-latency exited $rc:" \
				"$(sed -n 's/^  "inconsistent_deltas": \([0-9]*\)$/\1/p' <<<"$out") inconsistent deltas" >&2
			status=1
		fi
		avg=$(sed -n 's/^  "avg_ns": \([0-9.]*\),$/\1/p' <<<"$out")
		[ -n "$avg" ] || { echo "demo: $label: no result" >&2; exit 1; }
		if [ -z "$best" ] || awk -v a="$avg" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$avg
		fi
	done
	echo "$best"
}

plain=$(best_avg "plain")
preload=$(best_avg "LD_PRELOAD" LD_PRELOAD="$lib")
rdtsc=$(best_avg "LD_PRELOAD rdtsc" LD_PRELOAD="$lib" FASTRAW_TSC=rdtsc)

echo
echo "clock_gettime(CLOCK_MONOTONIC_RAW), best of 3 runs of $samples calls"
printf '  %-36s %8s %9s\n' "run" "ns/call" "speed-up"
for row in "plain (libc, kernel vDSO)|$plain" "LD_PRELOAD=libfastraw.so|$preload" \
	"LD_PRELOAD=... FASTRAW_TSC=rdtsc|$rdtsc"; do
	awk -v label="${row%%|*}" -v ns="${row##*|}" -v base="$plain" \
		'BEGIN { printf "  %-36s %8.1f %8.2fx\n", label, ns, base / ns }'
done

echo
echo "One preloaded run with FASTRAW_DEBUG=1 (the library's own report on stderr):"
env -u FASTRAW_TSC LD_PRELOAD="$lib" FASTRAW_DEBUG=1 "$lat" -n 1000 2>&1 | sed 's/^/  /'
exit "$status"
