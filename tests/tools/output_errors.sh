#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tool, --help and --version included, fails with a message when its standard output is closed, full or a pipe nobody reads.
# Usage: output_errors.sh BUILD-DIR LIBRARY. Exit 0 pass, 1 fail.
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) is meant to split
set -u
dir=${1:?usage: output_errors.sh BUILD-DIR LIBRARY}
lib=${2:?no library}
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DISABLE FASTRAW_DEBUG FASTRAW_STATS FASTRAW_SOURCE FASTRAW_SHADOW_VDSO
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"

# A pipe whose reader has gone, on fd 5: the reader opens the FIFO (which waits for this writer)
# and exits; once it has, nothing can read what is written into fd 5.
dead_pipe() {
	rm -f "$T/fifo"
	mkfifo "$T/fifo" || exit 1
	(exec 3<"$T/fifo") &
	exec 5>"$T/fifo"
	wait
}

# check HOW STATUS REASON TOOL ARG...: runs the tool with stdout HOW (full, closed, pipe) and
# expects STATUS and exactly one stderr line "TOOL: cannot write to standard output: REASON".
check() {
	how=$1 want=$2 reason=$3 tool=$4
	shift 4
	case $how in
	full) $RUN "$dir/$tool" "$@" >/dev/full 2>"$T/err" ;;
	closed) $RUN "$dir/$tool" "$@" >&- 2>"$T/err" ;;
	pipe)
		dead_pipe
		$RUN "$dir/$tool" "$@" >&5 2>"$T/err"
		;;
	esac
	got=$?
	[ "$how" = pipe ] && exec 5>&-
	echo "\$ $tool $* ($how stdout)"
	sed 's/^/  err| /' "$T/err"
	echo "  exit $got"
	[ "$got" = "$want" ] || fail "exit status $got, expected $want"
	printf '%s\n' "$tool: cannot write to standard output: $reason" | cmp -s - "$T/err" ||
		fail "stderr is not: $tool: cannot write to standard output: $reason"
}

# every STATUS TOOL ARG...: the three broken outputs.
every() {
	st=$1
	shift
	check full "$st" "No space left on device" "$@"
	check closed "$st" "Bad file descriptor" "$@"
	check pipe "$st" "Broken pipe" "$@"
}

# ok_run TOOL ARG...: with stdout a file the same command succeeds and says nothing on stderr.
ok_run() {
	tool=$1
	shift
	echo "\$ $tool $* (stdout a file)"
	$RUN "$dir/$tool" "$@" >"$T/out" 2>"$T/err"
	got=$?
	echo "  exit $got, $(wc -l <"$T/out") lines"
	[ "$got" = 0 ] || fail "exit status $got, expected 0"
	[ -s "$T/out" ] || fail "no output"
	[ ! -s "$T/err" ] || fail "stderr is not empty"
}

[ -c /dev/full ] || skip "no /dev/full"

for tool in fastraw fastraw-latency fastraw-info fastraw-check fastraw-bench; do
	case $tool in
	fastraw) st=125 ;;
	fastraw-latency | fastraw-check) st=3 ;;
	*) st=1 ;;
	esac
	every "$st" "$tool" --help
	ok_run "$tool" --help
done
every 125 fastraw --version
ok_run fastraw --version
every 3 fastraw-latency -n 2
every 3 fastraw-latency -n 2 -r 3
every 3 fastraw-latency -n 2 --json
ok_run fastraw-latency -n 2 --json
every 1 fastraw-info -n 0
every 1 fastraw-info -n 0 --json
ok_run fastraw-info -n 0 --json
every 3 fastraw-check -t 0.01 -j 1
every 3 fastraw-check -t 0.01 -j 1 --json
ok_run fastraw-check -t 0.01 -j 1 --json

# A closed stdout that nothing writes to is no failure: the launcher runs its program, which an
# emulator cannot (qemu-user's execve is the host's).
[ "$emulated" = 1 ] && { echo "skipped under $RUN: the launcher running a program"; finish; }
echo "\$ fastraw --lib $lib true (closed stdout)"
"$dir/fastraw" --lib "$lib" true >&- 2>"$T/err"
got=$?
echo "  exit $got"
[ "$got" = 0 ] || fail "exit status $got, expected 0"
[ ! -s "$T/err" ] || fail "stderr is not empty"

finish
