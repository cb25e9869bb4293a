#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the size and instruction count of each hot-path function of a built libfastraw.so, and
# with a second library compares the two, failing when any of them grows.
#
#   scripts/hotpath.sh LIB                 one table: bytes and instructions per function
#   scripts/hotpath.sh LIB BASELINE_LIB    both, side by side; exit 1 when one grew or is new
#
# The hot path is what a warm clock_gettime, fastraw_now_ns or fastraw_ticks runs: the exports,
# the exact readers raw_* and now_* (src/exact/fastpath.c, their .cold parts listed as their own
# rows), the calibrated ones (src/calib) and the vDSO-convention entry. The library must keep its
# symbol table (an unstripped build). x86-64 and aarch64 libraries are read with the matching
# objdump (aarch64-linux-gnu-objdump, or a multiarch objdump).
set -euo pipefail

die() {
	echo "hotpath: $*" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 LIB [BASELINE_LIB]"
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
done

# The objdump that reads this library's machine.
objdump_for() {
	local machine
	machine=$(readelf -h "$1" | sed -n 's/^ *Machine: *//p')
	case "$machine" in
	*X86-64*) echo objdump ;;
	*AArch64*)
		if command -v aarch64-linux-gnu-objdump >/dev/null 2>&1; then
			echo aarch64-linux-gnu-objdump
		else
			echo objdump
		fi
		;;
	*) die "$1: unsupported machine '$machine'" ;;
	esac
}

# The rules' names from before the readers were named by hand (raw_FR_RULES_6_10_ordered is
# raw_610_ordered), so that an older library compares row by row with a newer one.
normalise() {
	sed -e 's/FR_RULES_\([0-9]*\)_\([0-9]*\)/\1\2/' -e 's/FR_RULES_MASKED/masked/'
}

# "name bytes instructions" for each hot-path symbol of $1, sorted by name.
table() {
	local lib=$1 od
	od=$(objdump_for "$lib")
	nm -S --defined-only "$lib" |
		awk '$3 ~ /^[tT]$/ && $4 ~ /^(clock_gettime|fr_clock_gettime|fr_vdso_clock_gettime|fastraw_now_ns|fastraw_ticks|(raw|now)_[A-Za-z0-9_]+)(\.cold)?$/ && $4 !~ /_general(\.|$)/ { print $1, $2, $4 }' |
		sort -u -k3,3 |
		while read -r addr size name; do
			local start=$((16#$addr)) len=$((16#$size)) n
			n=$("$od" -d --no-show-raw-insn --start-address="$start" --stop-address=$((start + len)) "$lib" |
				grep -cE '^ +[0-9a-f]+:	')
			echo "$(normalise <<<"$name") $len $n"
		done | sort -k1,1
}

new=$(table "$1")
if [ $# -eq 1 ]; then
	printf '%-28s %7s %6s\n' function bytes insns
	awk '{ printf "%-28s %7d %6d\n", $1, $2, $3 }' <<<"$new"
	exit 0
fi

old=$(table "$2")
# join: name, new bytes, new insns, old bytes, old insns; a row only one side has gets "-".
join -a1 -a2 -e - -o 0,1.2,1.3,2.2,2.3 <(echo "$new") <(echo "$old") |
	awk '
	BEGIN { printf "%-28s %7s %7s %6s %6s  %s\n", "function", "bytes", "before", "insns", "before", "verdict"; bad = 0 }
	{
		v = "same"
		if ($2 == "-") v = "gone"
		else if ($4 == "-") { v = "NEW"; bad = 1 }
		else if ($2 + 0 > $4 + 0 || $3 + 0 > $5 + 0) { v = "GREW"; bad = 1 }
		else if ($2 + 0 < $4 + 0 || $3 + 0 < $5 + 0) v = "shorter"
		printf "%-28s %7s %7s %6s %6s  %s\n", $1, $2, $4, $3, $5, v
	}
	END { exit bad }'
