#!/bin/sh
# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-check: usage errors, clean runs (plain and preloaded), and faults it must find.
# Usage: check_tool.sh usage TOOL
#        check_tool.sh plain TOOL
#        check_tool.sh preload TOOL LIBFASTRAW
#        check_tool.sh cputime TOOL
#        check_tool.sh detect TOOL SHIM MODE   (MODE: backwards cross nsec error ahead behind)
# FR_PRELOAD_FIRST, when set, goes first in LD_PRELOAD (the ASan runtime in sanitizer builds).
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) is meant to split
set -u
what=${1:?usage: check_tool.sh CASE TOOL [LIB] [MODE]}
tool=${2:?usage: check_tool.sh CASE TOOL [LIB] [MODE]}
preload=
T=0.2
status=0
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	status=1
}

# run STATUS ARGS...: runs the tool, shows the transcript, checks the exit status.
run() {
	want=$1
	shift
	echo "\$ fastraw-check $*"
	if [ -n "$preload" ]; then
		LD_PRELOAD="${FR_PRELOAD_FIRST:+$FR_PRELOAD_FIRST:}$preload" $RUN "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		$RUN "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	summary=$(tail -n 1 "$tmp/out")
	cat "$tmp/out"
	sed 's/^/stderr: /' "$tmp/err"
	[ "$want" = any ] || [ "$rc" -eq "$want" ] || fail "exit status $rc, expected $want"
}

# A field of the summary line (the last line, starting "fastraw-check: clock="), without forking.
field() {
	case $summary in
	"fastraw-check: clock="*) ;;
	*) return ;;
	esac
	line=" ${summary#fastraw-check: } "
	case $line in
	*" $1="*)
		rest=${line##* "$1"=}
		printf '%s\n' "${rest%% *}"
		;;
	esac
}

# expect FIELD TEST VALUE: e.g. expect samples -gt 0, expect result = ok.
expect() {
	v=$(field "$1")
	if [ -z "$v" ]; then
		fail "no $1= in the summary line"
	elif ! test "$v" "$2" "$3"; then
		fail "$1=$v, expected $1 $2 $3"
	fi
}

expect_out() {
	grep -q -e "$1" "$tmp/out" || fail "stdout lacks \"$1\""
}

expect_err() {
	grep -q -e "$1" "$tmp/err" || fail "stderr lacks \"$1\""
}

# A run that must find nothing wrong; stderr holds only the library's FASTRAW_DEBUG line.
clean() {
	run 0 "$@"
	case $summary in
	"fastraw-check: clock="*) ;;
	*) fail "the last line is not the summary" ;;
	esac
	expect samples -gt 0
	for f in backwards cross nsec_range errors; do expect $f -eq 0; done
	expect result = ok
	n=$(field threads)
	[ "$(grep -c '^fastraw-check: thread=[0-9]* cpu=[0-9]' "$tmp/out")" = "$n" ] ||
		fail "expected $n per-thread lines, each with the CPU it was pinned to"
	if [ -n "$preload" ]; then
		expect_err '^fastraw\[[0-9]*\] fastraw-check: '
	else
		[ -s "$tmp/err" ] && fail "unexpected output on stderr"
	fi
}

clean_kernel() {
	clean "$@"
	expect kernel_samples -gt 0
	expect kernel_violations -eq 0
	expect worst_ns -eq 0
	expect median_window_ns -gt 0
}

passing_runs() {
	clean -t $T
	expect clock = MONOTONIC_RAW
	expect threads -eq "$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)"
	expect seconds = 0.2
	clean -t .25 -j 1
	expect seconds = 0.25
	expect cross -eq 0
	clean -t $T -c MONOTONIC -j 2
	expect clock = MONOTONIC
	clean -t $T -c clock_monotonic_raw -j 3
	expect threads -eq 3
	clean_kernel -t $T --against-kernel -j 2
	clean_kernel -t $T -c 1 --against-kernel -j 2
	expect clock = MONOTONIC

	# REALTIME may be stepped while we read; such a step shows as backwards, not as a failure here.
	run any -t $T -c REALTIME -j 2 --against-kernel
	[ "$rc" -le 1 ] || fail "exit status $rc"
	expect clock = REALTIME
	expect samples -gt 0
	expect nsec_range -eq 0
	expect errors -eq 0
	[ "$rc" -eq 1 ] && echo "note: REALTIME was stepped during the run"

	run 0 -t $T -j 2 --against-kernel --json
	if command -v jq >/dev/null 2>&1; then
		jq -e '.clock == "MONOTONIC_RAW" and .clock_id == 4 and .threads == 2 and .seconds == 0.2
			and .against_kernel == true and .result == "ok" and .samples > 0
			and .kernel_samples > 0 and .median_window_ns > 0 and .backwards == 0 and .cross == 0
			and .nsec_range == 0 and .errors == 0 and .kernel_violations == 0 and .worst_ns == 0
			and [.per_thread[].thread] == [0, 1]
			and ([.per_thread[].samples] | add) == .samples' "$tmp/out" >/dev/null ||
			fail "--json output is not what was expected"
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["clock"] == "MONOTONIC_RAW" and d["clock_id"] == 4 and d["threads"] == 2, d
assert d["seconds"] == 0.2 and d["against_kernel"] is True and d["result"] == "ok", d
assert d["samples"] > 0 and d["kernel_samples"] > 0 and d["median_window_ns"] > 0, d
for k in ("backwards", "cross", "nsec_range", "errors", "kernel_violations", "worst_ns"):
    assert d[k] == 0, k
assert [t["thread"] for t in d["per_thread"]] == [0, 1], d
assert sum(t["samples"] for t in d["per_thread"]) == d["samples"], d
' "$tmp/out" || fail "--json output is not what was expected"
	else
		echo "note: neither jq nor python3, --json output not parsed"
		expect_out '"result":"ok"'
	fi
}

usage_error() {
	msg=$1
	shift
	run 2 "$@"
	[ -s "$tmp/out" ] && fail "usage error wrote to stdout"
	expect_err "$msg"
}

case $what in
usage)
	run 0 -h
	expect_out '^usage: fastraw-check'
	[ -s "$tmp/err" ] && fail "-h wrote to stderr"
	run 0 --help
	expect_out '^Exit status: 0 no violation, 1 a violation, 2 usage error'
	usage_error '^usage: fastraw-check' --bogus
	usage_error '^usage: fastraw-check' -c
	usage_error 'unknown clock "NOSUCH"' -c NOSUCH
	usage_error 'clock 99 cannot be read: Invalid argument' -c 99
	usage_error 'unexpected argument "extra"' -t $T extra
	for bad in abc 0 0.0 -1 1.2.3 . '' 1e3 inf 0x10 86401; do
		usage_error '^fastraw-check: -t ' -t "$bad"
	done
	for bad in 0 -2 two 1025 ''; do
		usage_error '^fastraw-check: -j must be a whole number of threads from 1 to 1024' -j "$bad"
	done
	;;
plain)
	passing_runs
	;;
preload)
	preload=${3:?preload needs the library}
	export FASTRAW_DEBUG=1
	passing_runs
	;;
cputime)
	# CPU-time clocks (this thread's, the process's, -2: this thread's by the kernel's encoding):
	# each thread's readings are its own, so the cross-thread check is skipped and said to be.
	# Unskipped, two threads of THREAD_CPUTIME_ID report thousands of false crosses.
	for c in 3 THREAD_CPUTIME_ID clock_process_cputime_id 2 -2; do
		run 0 -t $T -j 2 -c "$c"
		expect cross = n/a
		for f in backwards nsec_range errors; do expect $f -eq 0; done
		expect samples -gt 0
		expect result = ok
		expect_out '^fastraw-check: note: .* is a CPU-time clock .* so the cross-thread check is skipped (cross=n/a)$'
		[ "$(grep -c ' cross=n/a ' "$tmp/out")" = 3 ] || fail "expected cross=n/a on both thread lines and the summary"
		case $c in
		3 | THREAD_CPUTIME_ID) expect clock = THREAD_CPUTIME_ID ;;
		clock_process_cputime_id | 2) expect clock = PROCESS_CPUTIME_ID ;;
		-2) expect clock = -2 ;;
		esac
	done
	run 0 -t $T -j 2 -c 3 --against-kernel
	expect cross = n/a
	expect kernel_violations -eq 0
	run 0 -t $T -j 2 -c 3 --json
	expect_out '^{"clock":"THREAD_CPUTIME_ID","clock_id":3,.*"cross":null,.*"cross_checked":false,.*"result":"ok"'
	expect_out '"per_thread":\[{"thread":0,"cpu":[0-9]*,"samples":[0-9]*,"backwards":0,"cross":null,'
	# Every other clock keeps the check, and says nothing of it.
	run 0 -t $T -j 2 -c MONOTONIC --json
	expect_out '"cross":0,.*"cross_checked":true'
	run 0 -t $T -j 2 -c MONOTONIC
	expect cross -eq 0
	grep -q 'note:' "$tmp/out" && fail "a note for a clock whose threads are ordered"
	;;
detect)
	preload=${3:?detect needs the shim}
	mode=${4:?detect needs a mode}
	export FR_SHIM="$mode"
	case $mode in
	backwards)
		run 1 -t $T -j 2
		expect backwards -gt 0
		expect nsec_range -eq 0
		expect_out '^fastraw-check: thread=[01] first backwards: sample [0-9]* read [0-9]* ns after'
		;;
	cross)
		run 1 -t $T -j 2
		expect cross -gt 0
		expect backwards -eq 0
		expect nsec_range -eq 0
		expect_out '^fastraw-check: thread=[01] first cross: .* after thread [01] published'
		;;
	nsec)
		run 1 -t $T -j 2
		expect nsec_range -gt 0
		expect backwards -eq 0
		expect cross -eq 0
		expect_out '^fastraw-check: thread=[01] first nsec_range: sample [0-9]* tv_sec='
		;;
	error)
		run 1 -t $T -j 2
		expect errors -gt 0
		expect_out '^fastraw-check: thread=[01] first error: .*Invalid argument'
		;;
	ahead | behind)
		FR_SHIM=offset
		FR_SHIM_OFFSET_NS=1000000
		[ "$mode" = behind ] && FR_SHIM_OFFSET_NS=-1000000
		export FR_SHIM_OFFSET_NS
		# A steady offset is invisible without the kernel to compare with.
		run 0 -t $T -j 2
		run 1 -t $T -j 2 --against-kernel
		expect kernel_violations -gt 0
		expect worst_ns -ge 500000
		expect worst_ns -le 1000000
		expect backwards -eq 0
		expect cross -eq 0
		expect_out "^fastraw-check: thread=[01] first kernel_violation: .* outside the kernel's"
		;;
	*)
		fail "unknown mode $mode"
		;;
	esac
	expect result = violation
	;;
*)
	fail "unknown case $what"
	;;
esac

[ $status -eq 0 ] && echo PASS
exit $status
