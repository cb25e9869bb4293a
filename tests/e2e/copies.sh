#!/bin/sh
# SPDX-License-Identifier: MIT
# Two copies of libfastraw (two files) in one process, each way they meet: one live copy, one debug line, one stats line, every call counted once.
# usage: copies.sh LIBFASTRAW LAUNCHER PROBE PROBE-LINKED CHAIN-LIB
#
# PROBE (probe_copies.c) makes a known number of MONOTONIC and RAW calls through the
# clock_gettime every reference binds to and, unless told "default", as many again through each
# copy's own clock_gettime and fastraw_now_ns (dlsym on its handle), each checked against the
# kernel; PROBE-LINKED is the same program linked with -lfastraw. Every step is checked in full
# and the test fails at the end, so that one run shows every number.
set -eu
lib=$1 launcher=$2 probe=$3 linked=$4 chain=$5
# shellcheck source=tests/e2e/script_common.sh
. "$(dirname "$0")/script_common.sh"
export FASTRAW_DEBUG=1 FASTRAW_STATS=1

# The copy: the same library as another file, under another path.
mkdir "$T/copy" "$T/other"
copy="$T/copy/libfastraw.so.0.1.0"
cp "$lib" "$copy"
# A copy under another SONAME, as another major version's would be: the loader satisfies the
# linked probe's DT_NEEDED libfastraw.so.0 with a preloaded copy of the same SONAME (one copy).
other="$T/other/libfastraw.so.9"
cp "$lib" "$other"
off=$(grep -oba 'libfastraw\.so\.0' "$other" | head -n 1 | cut -d: -f1)
[ -n "$off" ] || { echo "FAIL: no libfastraw.so.0 SONAME in $lib"; exit 1; }
printf 9 | dd of="$other" bs=1 seek=$((off + 14)) conv=notrunc 2>/dev/null

failures=0

# bad MESSAGE: records a failed check of the current step and shows its output once.
bad() {
	echo "FAIL ($what): $*"
	if [ "$shown" = 0 ]; then
		echo "--- stdout"; cat "$T/out"
		echo "--- stderr"; cat "$T/err"
		shown=1
	fi
	failures=$((failures + 1))
}

value() {
	sed -n "s/^$1=//p" "$T/out" | head -n 1
}

# sum SED-SCRIPT: the numbers SED-SCRIPT picks out of the probe's stats lines ($head), added up.
sum() {
	grep "^${head}stats: " "$T/err" | sed -n "$1" | awk '{ n += $1 } END { print n + 0 }'
}

# step WHAT COPIES CMD...: runs CMD (a probe, perhaps through the launcher) and checks that the
# probe saw COPIES copies loaded and that they behaved as one.
step() {
	what=$1 want_copies=$2 shown=0
	shift 2
	echo "== $what"
	if ! "$@" >"$T/out" 2>"$T/err"; then
		bad "exit status $?"
		return 0
	fi
	pid=$(value pid) name=${probe_name:-e2e_probe_copies}
	head="fastraw\[$pid\] $name: "
	debug=$(grep -c "^${head}kernel=" "$T/err" || true)
	stats=$(grep -c "^${head}stats: " "$T/err" || true)
	# Summed over every stats line of the probe, so that a count made twice shows.
	fast=$(sum 's/.*MONOTONIC_RAW fast=\([0-9]*\) passthrough=.*/\1/p')
	raw_pass=$(sum 's/.*MONOTONIC_RAW fast=[0-9]* passthrough=\([0-9]*\).*/\1/p')
	mono=$(sum 's/.*, MONOTONIC passthrough=\([0-9]*\).*/\1/p')
	raw_calls=$(value raw_calls) mono_calls=$(value monotonic_calls)
	echo "copies=$(value copies) debug_lines=$debug stats_lines=$stats raw_calls=$raw_calls fast=$fast" \
		"raw_passthrough=$raw_pass monotonic_calls=$mono_calls monotonic_passthrough=$mono (summed over the stats lines)"
	[ "$(value copies)" = "$want_copies" ] || bad "copies=$(value copies), expected $want_copies (setup)"
	[ "$debug" = 1 ] || bad "$debug FASTRAW_DEBUG lines, expected 1"
	[ "$stats" = 1 ] || bad "$stats FASTRAW_STATS lines, expected 1"
	[ "$mono" = "$mono_calls" ] || bad "MONOTONIC passthrough=$mono, expected $mono_calls: counted once each"
	if [ "${FR_E2E_EXPECT:-}" = passthrough ]; then
		# Where the fast path is off, fastraw_now_ns passes through too.
		[ "$fast" = 0 ] && [ "$raw_pass" = "$((raw_calls + $(value now_calls)))" ] ||
			bad "RAW fast=$fast passthrough=$raw_pass, expected 0 and $raw_calls + $(value now_calls) fastraw_now_ns"
	else
		[ "$fast" = "$raw_calls" ] && [ "$raw_pass" = 0 ] ||
			bad "RAW fast=$fast passthrough=$raw_pass, expected fast=$raw_calls passthrough=0"
	fi
	[ "$(value violations)" = 0 ] || bad "violations=$(value violations): a value outside the kernel's bracket"
	[ "$(value now_violations)" = 0 ] || bad "now_violations=$(value now_violations)"
	# Every copy's fastraw_info tells the same state, the first copy's.
	if grep -q '^info=failed' "$T/out" || [ "$(sed -n 's/^info=//p' "$T/out" | sort -u | wc -l)" -gt 1 ]; then
		bad "the copies' fastraw_info differ"
	fi
}

step "copy first, then the library (LD_PRELOAD=copy:lib)" 2 env LD_PRELOAD="$copy:$lib" "$probe"
step "the library first, then the copy (LD_PRELOAD=lib:copy)" 2 env LD_PRELOAD="$lib:$copy" "$probe"
step "the copy in LD_PRELOAD, the launcher adding the library after it" 2 \
	env LD_PRELOAD="$copy" "$launcher" --lib "$lib" -- "$probe"
step "the library dlopen'd by a program that has the copy preloaded" 2 \
	env LD_PRELOAD="$copy" "$probe" dlopen "$lib"
probe_name=e2e_probe_copies_linked
step "a program linked with -lfastraw, another SONAME's copy preloaded" 2 env LD_PRELOAD="$other" "$linked"
probe_name=
# The copies' own clock_gettime is not called here: with an interposer between them, the later
# copy passes its clocks on along the chain, as the interposer's next definition.
step "another interposer between the copies (LD_PRELOAD=copy:chain:lib)" 2 \
	env LD_PRELOAD="$copy:$chain:$lib" "$probe" default

[ "$failures" = 0 ] || { echo "FAIL: $failures checks"; exit 1; }
echo "PASS"
