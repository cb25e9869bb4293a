#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs fastraw-bench --quick and checks its goals table's shape against this machine: header facts, every row, numbers that agree.
# Usage: bench_quick.sh TOOL LIBRARY. Exit 0 pass, 1 fail, 77 skip. Asserts no timing: only structure and arithmetic.
set -u
tool=${1:?usage: bench_quick.sh TOOL LIBRARY}
lib=${2:?no library}
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"
# The bench starts /bin/true and its own children under LD_PRELOAD: programs of the target.
needs_system "fastraw-bench runs $arch programs"
unset FASTRAW_TSC FASTRAW_SOURCE FASTRAW_STATS FASTRAW_DISABLE FASTRAW_DEBUG LD_PRELOAD
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
eq() { if [ "$2" = "$3" ]; then echo "ok: $1"; else fail "$1: got '$2', want '$3'"; fi; }

"$tool" --quick --lib "$lib" >"$tmp/out" 2>"$tmp/err"
status=$?
cat "$tmp/out"
sed 's/^/stderr| /' "$tmp/err"
eq "exit status" "$status" 0
# The goals table: from its heading to its closing note (the per-mode table has rows named alike).
awk '$1 == "row" && $2 == "value" { on = 1; next } /^  \(goals inform/ { on = 0 } on' "$tmp/out" >"$tmp/goals"

# Header: "key: value" lines, checked against what the machine itself says.
field() { awk -v k="$1:" 'index($0, k) == 1 { sub(/^[^:]*: */, ""); print; exit }' "$tmp/out"; }
eq "kernel" "$(field kernel)" "$(uname -r)"
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
clocksource=$(cat "$cs" 2>/dev/null || echo "?")
eq "clocksource" "$(field clocksource)" "$clocksource"
has() { cpu_has "$1" && echo yes || echo no; }
eq "$feature_key" "$(field "$feature_key")" "$(has "$cpuinfo_flag")"
if [ "$arch" = x86_64 ]; then
	# The kernel sets nonstop_tsc from the same CPUID bit (0x80000007 EDX bit 8).
	eq "invariant tsc" "$(field 'invariant tsc')" "$(has nonstop_tsc)"
	vendor=$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
	eq "cpu vendor" "$(field cpu | awk '{ print $1 }')" "$vendor"
	case "$vendor" in
	AuthenticAMD | HygonGenuine) uno_goal='<=1.10x' kind=AMD ;;
	*) uno_goal='<=1.40x' kind=Intel ;;
	esac
	eq "cpu: which rdtsc goal" "$(field cpu | sed -n 's/.*(rdtsc goal: \(.*\))$/\1/p')" "$kind"
else
	# The generic timer is invariant by definition; the unordered mode has no goal here.
	eq "invariant $counter_word" "$(field "invariant $counter_word")" yes
	uno_goal=-
fi
# The counter libfastraw chose, as its own debug line names it.
want_counter=$(FASTRAW_DEBUG=1 LD_PRELOAD="$lib" /bin/true 2>&1 | sed -n 's/.* counter=\([a-z+]*\).*/\1/p')
eq "counter" "$(field counter | awk '{ print $1 }')" "$want_counter"

# The goal each row must carry here: the rdtsc goal by vendor, default mode's by clocksource.
case "$clocksource" in
"$arch_clocksource") default_goal='<=1.05x' ;;
kvm-clock) default_goal='<=0.87x' ;;
*) default_goal='-' ;;
esac
# FASTRAW_CLOCKS=all's MONOTONIC: against the vDSO by clocksource, unordered where RAW's unordered row has a goal.
case "$clocksource" in
"$arch_clocksource") clocks_goal='<=1.00x' ;;
kvm-clock) clocks_goal='<=0.90x' ;;
*) clocks_goal='-' ;;
esac
[ "$uno_goal" = - ] && clocks_uno_goal=- || clocks_uno_goal='<=1.05x'
# Every row: id, value, baseline, diff, ratio, goal, result, description.
for row in "startup <=+10.0us" "startup-empty -" "passthrough <=+0.4ns" "passthrough-libc -" \
	"stats-raw <=+1.0ns" "stats-mono <=+1.0ns" "$ctr_uno-mode $uno_goal" "default-vdso $default_goal" \
	"clocks-mono $clocks_goal" "clocks-$ctr_uno $clocks_uno_goal" \
	"default-syscall -" "bare-$ctr_uno -" "bare-$ctr_fen -" "bare-$ctr_ord -"; do
	id=${row%% *}
	goal=${row#* }
	eq "row $id appears once" "$(awk -v id="$id" '$1 == id' "$tmp/goals" | wc -l | tr -d ' ')" 1
	line=$(awk -v id="$id" '$1 == id' "$tmp/goals")
	# shellcheck disable=SC2086 # the row's columns are meant to split into words
	set -- $line
	[ $# -ge 8 ] || { fail "row $id: $# columns: $line"; continue; }
	eq "row $id goal" "$6" "$goal"
	if [ "$id" = "bare-$ctr_ord" ] && [ "$(has "$cpuinfo_flag")" = no ]; then
		eq "row $id without $feature" "$2" "n/a"
		continue
	fi
	case "$id" in
	bare-*) check=value ;;
	*) check=full ;;
	esac
	# awk checks the arithmetic: numbers parse, diff and ratio follow from value and baseline,
	# and the result says met exactly when the number is within the goal.
	why=$(echo "$line" | awk -v check="$check" '
		function num(s) { return s ~ /^[+-]?[0-9]+(\.[0-9]+)?$/ }
		{
			if (!num($2) || $2 <= 0) { print "value " $2; exit }
			if (check == "value") { if ($3 != "-" || $4 != "-" || $5 != "-") print "baseline columns"; exit }
			if (!num($3) || !num($4) || !num($5) || $3 <= 0) { print "numbers " $3 " " $4 " " $5; exit }
			d = $2 - $3; r = $2 / $3
			if (d - $4 > 0.011 || $4 - d > 0.011) { print "diff " $4 " is not " d; exit }
			# value and baseline are printed to 0.01, the ratio to 0.001.
			tol = 0.0006 + r * (0.006 / $2 + 0.006 / $3)
			if (r - $5 > tol || $5 - r > tol) { print "ratio " $5 " is not " r; exit }
			if ($6 == "-") { if ($7 != "-") print "result without a goal: " $7; exit }
			lim = $6; sub(/^<=/, "", lim); unit = lim; sub(/[0-9.+]+/, "", unit); sub(/[a-z]+$/, "", lim)
			got = unit == "x" ? r : d
			want = got <= lim + 0 ? "met" : "missed"
			# Within the printed rounding of the limit either answer is right.
			if (got - lim < 0.006 && lim - got < 0.006) want = $7
			if ($7 != want) print "result " $7 " for " got " against " lim
		}')
	eq "row $id numbers" "$why" ""
done
eq "goals table rows" "$(wc -l <"$tmp/goals" | tr -d ' ')" 14
grep -q '^Every mode under LD_PRELOAD=' "$tmp/out" || fail "the per-mode table is missing"
for mode in "$ctr_uno" "$ctr_fen" default "cal-$ctr_uno" "cal-$ctr_fen" cal-default; do
	awk -v m="$mode" '$1 == m && $NF ~ /^[0-9]+\/[0-9]+$/ { found = 1 } END { exit !found }' "$tmp/out" ||
		fail "per-mode row $mode missing"
done

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
