#!/bin/sh
# SPDX-License-Identifier: MIT
# Under valgrind a process has no vDSO: the library says so and serves RAW calibrated where that is eligible, else passes through.
# usage: valgrind_no_vdso.sh LIBFASTRAW PROBE FASTRAW-INFO
#
# Valgrind maps no [vdso] or [vvar] into its client, so the kernel's data pages cannot be read and
# the exact source is out. What FASTRAW_SOURCE=auto does then depends on calibrated mode's
# eligibility as the client sees it: CPUID's invariant-TSC bit is valgrind's (it shows the client
# a CPU model of its own, whatever the host's), the kernel's trust in the TSC is the machine's.
# On arm64 the counter is invariant by the architecture and the kernel trusts it when its
# clocksource is the architected timer's (arch_sys_counter).
# So the test reads both, as the README's rule states them, and asserts the matching outcome:
#   eligible      the debug line says "calibrated" and why the kernel's data is not used, and
#                 the calls are served in-process, inside the kernel's bracket;
#   not eligible  every call passes through, and the debug line gives both reasons.
# FASTRAW_SOURCE=kernel passes every call through on any machine: the exact source is missing.
set -eu
lib=$1 probe=$2 info=$3
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 0
fi
fail() {
	echo "FAIL: $*"
	exit 1
}

# The counter's short name (fastraw-info's JSON key "invariant_<word>") and whether the kernel
# trusts the counter: the CPU's own test facts (tests/oracle/<cpu>/facts.sh).
facts="$(dirname "$0")/../oracle/$(uname -m)/facts.sh"
[ -f "$facts" ] || { echo "SKIP: no test facts for $(uname -m)"; exit 0; }
# shellcheck source=/dev/null  # the CPU's facts file, chosen at run time
. "$facts"
# shellcheck disable=SC2154  # set by the facts file
word=$counter_word

invtsc=$(valgrind -q "$info" --json --samples 0 2>&1 | sed -n "s/^ *\"invariant_$word\": \([a-z]*\),*\$/\1/p")
[ "$invtsc" = true ] || [ "$invtsc" = false ] || fail "fastraw-info under valgrind gave no invariant_$word"
if [ "$invtsc" = true ] && kernel_trusts_counter; then eligible=1; else eligible=0; fi
echo "under valgrind: invariant_$word=$invtsc, kernel trusts the counter: $(kernel_trusts_counter && echo yes || echo no)" \
	"=> calibrated mode eligible: $eligible"

# run SOURCE: the bracket probe under valgrind; sets $out and $line (the client's debug line).
run() {
	out=$(LD_PRELOAD="$lib" FASTRAW_SOURCE=$1 FASTRAW_DEBUG=1 FASTRAW_STATS=1 valgrind -q "$probe" 1000 1 2>&1) ||
		fail "probe under valgrind (FASTRAW_SOURCE=$1) exited non-zero:
$out"
	echo "--- FASTRAW_SOURCE=$1"
	echo "$out"
	# The valgrind launcher is preloaded too and prints its own line: the client's is the one
	# without a vDSO.
	[ "$(echo "$out" | grep -c '^fastraw\[[0-9]*\] [^:]*: kernel=.*no \[vdso\] or \[vvar\] mapping')" = 1 ] ||
		fail "want one debug line saying \"no [vdso] or [vvar] mapping\""
	line=$(echo "$out" | grep '^fastraw\[[0-9]*\] [^:]*: kernel=.*no \[vdso\] or \[vvar\] mapping')
	echo "$out" | grep -q '^violations=0$' || fail "the probe saw values outside the kernel's bracket"
}

assert_passthrough() {
	echo "$line" | grep -q 'passthrough: no \[vdso\] or \[vvar\] mapping' || fail "no pass-through reason: $line"
	echo "$out" | grep -Eq '^fastraw\[[0-9]+\] [^:]+: stats: MONOTONIC_RAW fast=0 passthrough=[1-9]' || fail "calls not passed through"
}

run auto
if [ "$eligible" = 1 ]; then
	echo "$line" | grep -q ' calibrated: seed .*kernel data not used: no \[vdso\] or \[vvar\] mapping' ||
		fail "calibrated mode is eligible here, but the debug line does not say it serves: $line"
	# 1000 calls under valgrind fall inside the warm-up (up to 2 s), which the kernel answers:
	# each is counted, as passed through.
	echo "$out" | grep -Eq '^fastraw\[[0-9]+\] [^:]+: stats: MONOTONIC_RAW fast=[0-9]+ passthrough=[1-9][0-9]*' ||
		fail "the calibrated warm-up calls are not counted as passed through"
else
	assert_passthrough
	echo "$line" | grep -q 'calibrated mode not eligible: ' || fail "no reason why calibrated mode is not eligible: $line"
fi

run kernel
assert_passthrough
echo "valgrind: ok (calibrated mode eligible: $eligible)"
