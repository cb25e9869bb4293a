#!/bin/sh
# SPDX-License-Identifier: MIT
# Another interposer beside libfastraw, in both orders and through the launcher: each call reaches it as it would without us; RAW stays ours when we are first.
# usage: chain.sh LIBFASTRAW CHAIN-LIB PROBE LAUNCHER
#
# CHAIN-LIB (chain_lib.c) defines clock_gettime (adding CHAIN_REALTIME_OFFSET_S to REALTIME),
# dlsym, getauxval and syscall, counts each call and forwards it with RTLD_NEXT. The probe prints
# how many of its own calls the interposer saw and the REALTIME shift it got.
set -eu
lib=$1 chain=$2 probe=$3 launcher=$4
shift_s=100000000
# shellcheck source=tests/e2e/script_common.sh
. "$(dirname "$0")/script_common.sh"
# Every run shows the library's decision.
export FASTRAW_DEBUG=1

value() {
	v=$(sed -n "s/^$1=//p" "$T/out" | head -n 1)
	[ -n "$v" ] || fail "no $1= line"
	echo "$v"
}

expect_eq() {
	[ "$(value "$1")" = "$2" ] || fail "$1=$(value "$1"), expected $2"
}

expect_ge1() {
	[ "$(value "$1")" -ge 1 ] || fail "$1=$(value "$1"): the later interposer did not see the call"
}

# next_is FILE: the test interposer's own RTLD_NEXT lookups of clock_gettime, plain and versioned, land in FILE.
next_is() {
	for key in interposer_next_from interposer_next_versioned_from; do
		case $(value $key) in
		"$1" | */"$1") ;;
		*) fail "$key=$(value $key), expected $1" ;;
		esac
	done
}

# What holds whichever order: every clock, lookup and system call reaches the test interposer,
# and RAW values lie inside the kernel's bracket.
common() {
	expect_eq realtime_shift "$shift_s"
	expect_ge1 realtime_seen
	expect_ge1 dlsym_clock_seen
	expect_eq found_realtime_shift "$shift_s"
	expect_eq dlsym_getpid_ok 1
	expect_ge1 dlsym_getpid_seen
	expect_eq getauxval_ok 1
	expect_ge1 getauxval_seen
	expect_eq syscall_ok 1
	expect_ge1 syscall_seen
	expect_eq violations 0
}

# The library's debug line: active, unless this machine's clocksource has no vDSO reader.
expect_ours() {
	grep -q "^fastraw\[[0-9]*\] [^:]*: kernel=.* active$" "$T/err" ||
		{ [ "${FR_E2E_EXPECT:-}" = passthrough ] && grep -q "passthrough: " "$T/err"; } ||
		fail "no FASTRAW_DEBUG line saying active"
}

run "libfastraw first" env LD_PRELOAD="$lib:$chain" "$probe"
common
expect_ours
grep -q "^clock_gettime_from=$lib" "$T/out" || fail "clock_gettime does not bind to libfastraw"
expect_eq raw_seen 0
# The later interposer asking RTLD_NEXT for the real clock_gettime gets libc's, never ours back.
next_is libc.so.6

run "libfastraw first, FASTRAW_STATS=1 (the counting wrapper forwards too)" \
	env FASTRAW_STATS=1 LD_PRELOAD="$lib:$chain" "$probe"
common
expect_eq raw_seen 0

run "test interposer first" env LD_PRELOAD="$chain:$lib" "$probe"
common
expect_ours
grep -q "^clock_gettime_from=$chain" "$T/out" || fail "clock_gettime does not bind to the test interposer"
[ "$(value raw_seen)" -ge 20000 ] || fail "raw_seen=$(value raw_seen): the first interposer must see every RAW call"
# The first interposer's RTLD_NEXT leads to us, as it leads to whatever follows it.
next_is "$lib"

run "launcher, test interposer already in LD_PRELOAD" env LD_PRELOAD="$chain" "$launcher" --lib "$lib" -- "$probe"
common
expect_ours
grep -q "^clock_gettime_from=$chain" "$T/out" || fail "the launcher put libfastraw in front of LD_PRELOAD"
[ "$(value raw_seen)" -ge 20000 ] || fail "raw_seen=$(value raw_seen)"
echo "PASS"
