#!/bin/sh
# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-latency: one case per run, checking its output shape, arithmetic and exit status.
# Usage: latency_cases.sh CASE TOOL LIBFASTRAW BACKSTEP_SHIM
# (FR_PRELOAD_FIRST, if set, is preloaded before either library: the ASan runtime in sanitizer builds.)
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) is meant to split
set -eu
case_name=${1:?usage: latency_cases.sh CASE TOOL LIBFASTRAW BACKSTEP_SHIM}
tool=${2:?no tool}
lib=${3:?no library}
shim=${4:?no shim}
first=${FR_PRELOAD_FIRST:-}
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"
export RUN
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Shapes as POSIX extended regexes, read by grep -E and by awk from ENVIRON (no escape
# processing there). No {n} intervals: mawk, the default awk on Debian, may not know them.
D3='[0-9][0-9][0-9]'
D9="$D3$D3$D3"
SUM_RE='^sum: -?[0-9]+$'
TOTAL_RE="^Total time: -?[0-9]+\\.${D9}S - Average Latency: -?[0-9]+\\.${D9}S N zero deltas: [0-9]+ N inconsistent deltas: [0-9]+\$"
LAST_RE="^Average of [0-9]+ average latencies of [0-9]+ samples : -?[0-9]+\\.${D9}S\$"
DUMP_RE="^[0-9]+\\.$D9\$"
# shellcheck disable=SC2089 # the quotes are part of the pattern
RUN_RE="^    [{]\"sum_ns\": -?[0-9]+, \"avg_ns\": -?[0-9]+\\.$D3, \"zero_deltas\": [0-9]+, \"inconsistent_deltas\": [0-9]+(, \"timespecs\": [[]\"[0-9]+\\.$D9\"(, \"[0-9]+\\.$D9\")*[]])?[}],?\$"
# shellcheck disable=SC2089
AVG_RE="^  \"avg_ns\": -?[0-9]+\\.$D3,\$"
# shellcheck disable=SC2090
export SUM_RE TOTAL_RE LAST_RE DUMP_RE RUN_RE AVG_RE

fail() {
	echo "FAIL ($case_name): $*"
	echo "--- stdout (first 40 lines):"
	head -n 40 "$tmp/out"
	echo "--- stderr:"
	cat "$tmp/err"
	exit 1
}

# run [VAR=VALUE...] -- ARGS...: runs the tool with ARGS in that environment; sets rc, $tmp/out, $tmp/err.
run() {
	envs=""
	while [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	shift
	echo "+${envs} fastraw-latency $*"
	# shellcheck disable=SC2086 # envs is a list of VAR=VALUE words without spaces
	if env $envs $RUN "$tool" "$@" >"$tmp/out" 2>"$tmp/err"; then rc=0; else rc=$?; fi
}

expect_rc() {
	[ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1"
}

# expect_out REGEX [COUNT]: stdout has a line matching the extended REGEX (exactly COUNT of them).
expect_out() {
	n=$(grep -Ec -- "$1" "$tmp/out" || true)
	if [ $# -ge 2 ]; then
		[ "$n" -eq "$2" ] || fail "$n lines match /$1/, expected $2"
	else
		[ "$n" -ge 1 ] || fail "no line matches /$1/"
	fi
}

expect_err() {
	grep -Eq -- "$1" "$tmp/err" || fail "stderr has no line matching /$1/"
}

expect_no_out() {
	[ ! -s "$tmp/out" ] || fail "stdout should be empty"
}

expect_no_err() {
	[ ! -s "$tmp/err" ] || fail "stderr should be empty"
}

# usage_error ARGS...: exit 2, a message on stderr, nothing on stdout.
usage_error() {
	run -- "$@"
	expect_rc 2
	expect_no_out
	[ -s "$tmp/err" ] || fail "no message on stderr"
}

# check_text SAMPLES REPEATS [DUMP] [LAST]: every line has its shape, in order, and the numbers
# agree: Total time is the sum, the average is sum / (SAMPLES-1) truncated, each dump's last
# minus first timespec is the sum, and the last line (when asked for) averages all repeats.
check_text() {
	awk -v n="$1" -v reps="$2" -v dump="${3:-0}" -v last="${4:-0}" '
	BEGIN {
		sum_re = ENVIRON["SUM_RE"]; total_re = ENVIRON["TOTAL_RE"]
		last_re = ENVIRON["LAST_RE"]; dump_re = ENVIRON["DUMP_RE"]
	}
	function bad(msg) { print "line " NR ": " msg ": " $0; failed = 1; exit 1 }
	# "12.000000345S" as integer nanoseconds, in a string-safe way.
	function ns(s,  neg, parts) {
		sub(/S$/, "", s)
		neg = sub(/^-/, "", s)
		split(s, parts, ".")
		return (neg ? -1 : 1) * (parts[1] * 1000000000 + parts[2])
	}
	{
		if (state == 0 && dump && dumped < n) {
			if ($0 !~ dump_re) bad("not a timespec")
			split($0, p, ".")
			if (dumped == 0) { s0 = p[1]; n0 = p[2] }
			span = (p[1] - s0) * 1000000000 + (p[2] - n0)
			dumped++
			next
		}
		if (state == 0) {
			if ($0 !~ sum_re) bad("not a sum line")
			sum = $2 + 0
			if (dump && sum != span) bad("sum is not last minus first timespec")
			state = 1
			next
		}
		if (state == 1) {
			if ($0 !~ total_re) bad("not a Total time line")
			if (ns($3) != sum) bad("Total time is not the sum")
			want = sum / (n - 1)
			want = want < 0 ? -int(-want) : int(want)
			if (ns($7) != want) bad("Average Latency is not sum / " (n - 1))
			total += sum
			runs++
			state = 0
			dumped = 0
			if (runs == reps) state = 2
			next
		}
		if (state == 2 && last) {
			if ($0 !~ last_re) bad("not the last line")
			if ($3 != reps || $7 != n) bad("wrong counts in the last line")
			want = total / (reps * (n - 1))
			want = want < 0 ? -int(-want) : int(want)
			if (ns($10) != want) bad("the last line is not the mean of the averages")
			state = 3
			next
		}
		bad("unexpected line")
	}
	END {
		if (failed) exit 1
		if (runs != reps) { print runs " repeats printed, expected " reps; exit 1 }
		if (last && state != 3) { print "no last line"; exit 1 }
	}' "$tmp/out" || fail "text output"
}

# check_json SAMPLES REPEATS [parse]: strict line shapes; with "parse" and python3, also a
# parse by json.load (json.tool's parser) and cross-checks of the values. Python is asked
# only where it matters: a start costs a second through a pyenv shim.
have_python=""
check_json() {
	awk -v n="$1" -v reps="$2" '
	function bad(msg) { print "line " NR ": " msg ": " $0; failed = 1; exit 1 }
	NR == 1 && $0 != "{" { bad("not {") }
	NR == 2 && $0 !~ /^  "clock": ("[A-Z_]+"|null),$/ { bad("clock") }
	NR == 3 && $0 !~ /^  "clock_id": -?[0-9]+,$/ { bad("clock_id") }
	NR == 4 && $0 != "  \"samples\": " n "," { bad("samples") }
	NR == 5 && $0 != "  \"deltas\": " n - 1 "," { bad("deltas") }
	NR == 6 && $0 != "  \"repeats\": " reps "," { bad("repeats") }
	NR == 7 && $0 != "  \"runs\": [" { bad("runs") }
	NR >= 8 && NR < 8 + reps {
		if ($0 !~ ENVIRON["RUN_RE"])
			bad("run")
		if ((NR < 7 + reps) != ($0 ~ /,$/)) bad("comma")
	}
	NR == 8 + reps && $0 != "  ]," { bad("end of runs") }
	NR == 9 + reps && $0 !~ ENVIRON["AVG_RE"] { bad("avg_ns") }
	NR == 10 + reps && $0 !~ /^  "zero_deltas": [0-9]+,$/ { bad("zero_deltas") }
	NR == 11 + reps && $0 !~ /^  "inconsistent_deltas": [0-9]+$/ { bad("inconsistent_deltas") }
	NR == 12 + reps && $0 != "}" { bad("not }") }
	END { if (!failed && NR != 12 + reps) { print NR " lines"; exit 1 } }' "$tmp/out" || fail "JSON shape"
	[ "${3:-}" = parse ] || return 0
	if [ -z "$have_python" ]; then
		have_python=no
		if command -v python3 >/dev/null 2>&1 && python3 -c 'import json' >/dev/null 2>&1; then
			have_python=yes
		fi
	fi
	if [ "$have_python" = yes ]; then
		python3 - "$tmp/out" <<'EOF' || fail "JSON rejected by python3 or values inconsistent"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert len(runs) == d["repeats"], "runs"
assert d["deltas"] == d["samples"] - 1, "deltas"
assert d["zero_deltas"] == sum(r["zero_deltas"] for r in runs), "zero total"
assert d["inconsistent_deltas"] == sum(r["inconsistent_deltas"] for r in runs), "inconsistent total"
for r in runs:
    assert abs(r["avg_ns"] - r["sum_ns"] / d["deltas"]) < 0.001, "run avg"
    if "timespecs" in r:
        t = [int(s.replace(".", "")) for s in r["timespecs"]]
        assert len(t) == d["samples"], "timespecs"
        assert t[-1] - t[0] == r["sum_ns"], "timespec sum"
total = sum(r["sum_ns"] for r in runs) / (d["deltas"] * d["repeats"])
assert abs(d["avg_ns"] - total) < 0.001, "avg"
EOF
	else
		echo "(python3 not available: JSON checked by its line shapes only)"
	fi
}

# The text of "N zero deltas" / "N inconsistent deltas" in run K (1-based).
field() {
	awk -v k="$1" -v f="$2" '/^Total time:/ && ++i == k { print $f }' "$tmp/out"
}

case $case_name in
help)
	for h in -h --help; do
		run -- "$h"
		expect_rc 0
		expect_no_err
		expect_out '^usage: fastraw-latency '
		expect_out 'SAMPLES-1 deltas'
		expect_out '^Exit status: '
	done
	;;
badflag)
	for args in -x --bogus "-n" "-c" "-r" "extra" "-n 5 extra"; do
		# shellcheck disable=SC2086 # each word list is split on purpose
		usage_error $args
		expect_err '^usage: fastraw-latency '
	done
	;;
badvalue)
	for args in "-n 0" "-n 1" "-n -5" "-n abc" "-n 5x" "-n 100000001" "-r 0" "-r -1" "-r 2x"; do
		# shellcheck disable=SC2086
		usage_error $args
		expect_err '^fastraw-latency: -[nr] needs a number of '
	done
	;;
badclock)
	for c in nosuchclock CLOCK_ "" "4x" MONOTONIC-RAW; do
		usage_error -c "$c"
		expect_err "^fastraw-latency: unknown clock \"$c\": "
	done
	;;
badid)
	# A number the kernel rejects: checked by one call before measuring.
	# -1 is a CPU-time clock id of an invalid type.
	for c in 99 -1; do
		usage_error -c "$c"
		expect_err "^fastraw-latency: clock $c: clock_gettime: "
	done
	;;
shape)
	run --
	expect_rc 0
	expect_no_err
	check_text 100 1
	expect_out ' N inconsistent deltas: 0$' 1
	run -- -n 2
	expect_rc 0
	check_text 2 1
	;;
dump)
	run -- -d -n 10
	expect_rc 0
	expect_out "$DUMP_RE" 10
	check_text 10 1 1
	run -- -d -n 5 -r 3
	expect_rc 0
	expect_out "$DUMP_RE" 15
	check_text 5 3 1 1
	;;
repeat)
	run -- -r 5 -n 50
	expect_rc 0
	check_text 50 5 0 1
	expect_out '^Average of 5 average latencies of 50 samples : ' 1
	run -- -r 1
	expect_rc 0
	check_text 100 1 0 1
	run -- -n 50
	expect_out '^Average of ' 0
	;;
clock_name)
	for c in monotonic_raw:MONOTONIC_RAW:4 CLOCK_REALTIME:REALTIME:0 Monotonic:MONOTONIC:1 \
		clock_boottime:BOOTTIME:7; do
		arg=${c%%:*}
		rest=${c#*:}
		run -- -c "$arg"
		expect_rc 0
		check_text 100 1
		run -- -c "$arg" --json
		expect_rc 0
		expect_out "^  \"clock\": \"${rest%%:*}\",$" 1
		expect_out "^  \"clock_id\": ${rest#*:},$" 1
	done
	;;
clock_number)
	for c in 4:MONOTONIC_RAW 1:MONOTONIC 0:REALTIME 11:TAI; do
		run -- -c "${c%%:*}" --json -n 20
		expect_rc 0
		check_json 20 1
		expect_out "^  \"clock\": \"${c#*:}\",$" 1
		expect_out "^  \"clock_id\": ${c%%:*},$" 1
	done
	# A numbered clock without a name, "clock": null: this process's own CPU-time clock,
	# ((~pid) << 3) | 2 (CPUCLOCK_SCHED), the pid being the shell's that execs the tool (or the
	# emulator, which keeps its pid for the program it runs).
	echo "+ fastraw-latency -c <own process CPU clock> --json -n 20"
	# shellcheck disable=SC2016 # expanded by the inner shell
	if sh -c 'exec $RUN "$0" -c "$(( (~$$ << 3) | 2 ))" --json -n 20' "$tool" >"$tmp/out" 2>"$tmp/err"; then
		rc=0
	else
		rc=$?
	fi
	expect_rc 0
	check_json 20 1 parse
	expect_out '^  "clock": null,$' 1
	expect_out '^  "clock_id": -[0-9]+,$' 1
	;;
monotonic)
	run -- -m --json
	expect_rc 0
	check_json 100 1
	expect_out '^  "clock": "MONOTONIC",$' 1
	run -- -m -r 2
	expect_rc 0
	check_text 100 2 0 1
	# The last of -m and -c counts.
	run -- -m -c raw_not_a_clock
	expect_rc 2
	run -- -c monotonic_raw -m --json
	expect_out '^  "clock": "MONOTONIC",$' 1
	run -- -m -c monotonic_raw --json
	expect_out '^  "clock": "MONOTONIC_RAW",$' 1
	;;
json)
	run -- --json
	expect_rc 0
	expect_no_err
	check_json 100 1 parse
	expect_out '^  "clock": "MONOTONIC_RAW",$' 1
	expect_out '^  "inconsistent_deltas": 0$' 1
	run -- --json -n 7 -r 3 -d
	expect_rc 0
	check_json 7 3 parse
	expect_out '"timespecs": \[' 3
	;;
zero)
	# The coarse clock moves once a tick (1-10 ms): a thousand reads in a row see equal values.
	run -- -c monotonic_coarse -n 1000
	expect_rc 0
	check_text 1000 1
	[ "$(field 1 11)" -ge 1 ] || fail "no zero deltas on CLOCK_MONOTONIC_COARSE"
	;;
backwards)
	# The shim repeats one reading and steps back 1 ms once (tests/tools/latency_backstep.c).
	run LD_PRELOAD="$first${first:+:}$shim" -- -n 100
	expect_rc 1
	check_text 100 1
	[ "$(field 1 11)" -eq 1 ] || fail "expected 1 zero delta"
	[ "$(field 1 15)" -eq 1 ] || fail "expected 1 inconsistent delta"
	run LD_PRELOAD="$first${first:+:}$shim" -- -n 100 -r 2
	expect_rc 1
	check_text 100 2 0 1
	[ "$(field 1 15)" -eq 1 ] || fail "expected 1 inconsistent delta in the first repeat"
	[ "$(field 2 15)" -eq 0 ] || fail "expected none in the second"
	run LD_PRELOAD="$first${first:+:}$shim" -- -n 100 --json
	expect_rc 1
	check_json 100 1 parse
	expect_out '^  "inconsistent_deltas": 1$' 1
	expect_out '^  "zero_deltas": 1,$' 1
	;;
preload)
	# Under libfastraw, many samples and repeats, never a step backwards.
	run LD_PRELOAD="$first${first:+:}$lib" FASTRAW_DEBUG=1 -- -n 100000 -r 5
	expect_rc 0
	check_text 100000 5 0 1
	expect_out ' N inconsistent deltas: 0$' 5
	expect_err '^fastraw\[[0-9]+\] fastraw-latency: kernel='
	run LD_PRELOAD="$first${first:+:}$lib" -- -n 100000 --json
	expect_rc 0
	check_json 100000 1
	expect_out '^  "inconsistent_deltas": 0$' 1
	;;
*)
	echo "unknown case: $case_name"
	exit 1
	;;
esac
echo "ok: $case_name"
