#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libfastraw and runs fastraw-bench (the goals table, then every mode), again inside a time
# namespace where one can be made, then calibrated mode's error against the kernel, then the
# installed runtimes' clocks with and without the preload (scripts/bench-runtimes.sh).
# Usage: scripts/bench.sh [--quick] [--cal-seconds N] [fastraw-bench arguments, e.g. --rounds N]
#   --quick          fastraw-bench --quick, calibrated mode for 6 s instead of 60 s, and
#                    bench-runtimes.sh --quick
#   --cal-seconds N  calibrated mode's run per counter mode (also FASTRAW_CAL_SECONDS; default 60)
set -euo pipefail

args=()
runtimes_args=()
cal_default=60
while [ $# -gt 0 ]; do
	case "$1" in
	--quick)
		args+=(--quick)
		runtimes_args=(--quick)
		cal_default=6
		;;
	--cal-seconds)
		[ $# -ge 2 ] || { echo "bench.sh: --cal-seconds needs a number" >&2; exit 2; }
		FASTRAW_CAL_SECONDS=$2
		shift
		;;
	*) args+=("$1") ;;
	esac
	shift
done
case "${FASTRAW_CAL_SECONDS:=$cal_default}" in
'' | *[!0-9]* | 0)
	echo "bench.sh: the calibrated run's seconds must be a positive number, not \"$FASTRAW_CAL_SECONDS\"" >&2
	exit 2
	;;
esac

# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck disable=SC2119 # fr_setup's arguments are for cmake, not ours
fr_setup

bench=("$FR_BUILD/fastraw-bench" --lib "$FR_BUILD/libfastraw.so" "${args[@]}")

echo
"${bench[@]}"

echo
echo "== Inside a time namespace (CLOCK_MONOTONIC and _RAW offset by +5000 s) =="
if [ "$(id -u)" -ne 0 ]; then
	echo "skipped: creating a time namespace needs root (CAP_SYS_ADMIN)"
elif ! command -v unshare >/dev/null 2>&1; then
	echo "skipped: unshare (util-linux) is not installed"
elif ! why=$(unshare --time --fork --monotonic 5000 true 2>&1); then
	echo "skipped: unshare --time failed: ${why:-no reason given} (kernel without CONFIG_TIME_NS, or too old a util-linux?)"
else
	# The offsets file shows the namespace is in force; the bench's order column then shows
	# that the interposer applies the offset exactly as the kernel's vDSO does.
	# shellcheck disable=SC2016 # $(...) and "$@" are for the inner sh
	unshare --time --fork --monotonic 5000 \
		sh -c 'echo "timens_offsets:" $(cat /proc/self/timens_offsets); exec "$@"' sh "${bench[@]}"
fi

echo
echo "== Calibrated mode (FASTRAW_SOURCE=calibrated): error against the kernel over $FASTRAW_CAL_SECONDS s =="
[ "$FASTRAW_CAL_SECONDS" -ge 60 ] ||
	echo "(a short run: fewer pauses and slews than the 60 s default, so it proves less)"
# Two threads read RAW between two kernel system calls, with pauses up to 400 ms; the error is
# how far a reading lies outside that bracket, after the 2 s warm-up. Promise: at most 2000 ns.
printf '  %-11s %10s %12s %12s %10s\n' "FASTRAW_TSC" "readings" "max err ns" "p99.9 ns" "backwards"
for tsc in default rdtsc lfence; do
	env_tsc=()
	[ "$tsc" = default ] || env_tsc=("FASTRAW_TSC=$tsc")
	out=$(env "${env_tsc[@]}" FASTRAW_SOURCE=calibrated LD_PRELOAD="$FR_BUILD/libfastraw.so" \
		"$FR_BUILD/tests/e2e_probe_calib" "$FASTRAW_CAL_SECONDS" 2 2)
	val() { sed -n "s/^$1=//p" <<<"$out"; }
	max=$(val max_err_ns)
	printf '  %-11s %10s %12s %12s %10s  %s\n' "$tsc" "$(val measured)" "$max" "$(val p999_err_ns)" \
		"$(val backwards)" "$([ "$max" -le 2000 ] && [ "$(val backwards)" = 0 ] && echo PASS || echo MISS)"
done

echo
echo "== Runtimes' monotonic clocks, without the preload and with FASTRAW_CLOCKS=all =="
bash "$FR_ROOT/scripts/bench-runtimes.sh" "${runtimes_args[@]}"
