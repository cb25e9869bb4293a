# SPDX-License-Identifier: MIT
# Sourced by the e2e shell tests: a scratch directory $T, no FASTRAW_ variable from outside, and run/fail.

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE FASTRAW_SOURCE FASTRAW_SYSCALL FASTRAW_SHADOW_VDSO

# fail MESSAGE: names the step ($what), shows its output and stops the test.
fail() {
	echo "FAIL ($what): $*"
	echo "--- stdout"; cat "$T/out"
	echo "--- stderr"; cat "$T/err"
	exit 1
}

# run WHAT CMD...: runs CMD, output in $T/out and $T/err; a non-zero exit status fails.
run() {
	what=$1
	shift
	echo "== $what"
	"$@" >"$T/out" 2>"$T/err" || fail "exit status $?"
}
