# SPDX-License-Identifier: MIT
# Sourced by the launcher's transcript tests: tests/support/checks.sh, run, and checks of the lines a command wrote.
# shellcheck shell=sh disable=SC2034  # L, LIB and PROBE are for the scripts that source this file
set -u
: "${FASTRAW_LAUNCHER:?run under ctest}" "${FASTRAW_LIB:?}" "${LAUNCHER_PROBE:?}"
# An inherited preload or setting would change what the probe reports.
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE
L=$FASTRAW_LAUNCHER
LIB=$(readlink -f "$FASTRAW_LIB")
PROBE=$LAUNCHER_PROBE
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"
# The launcher's work is to execve its program: qemu-user passes that to the host kernel. A case
# that checks only what comes before (LAUNCHER_BEFORE_EXEC=1) runs under qemu-user too.
[ "${LAUNCHER_BEFORE_EXEC:-}" = 1 ] || needs_system "the launcher executes $arch programs"

# run STATUS CMD...: runs CMD with its stdout in $T/out and stderr in $T/err, prints both, checks the status.
run() {
	want=$1
	shift
	echo "\$ $*"
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	sed 's/^/  out| /' "$T/out"
	sed 's/^/  err| /' "$T/err"
	echo "  exit $got"
	[ "$got" = "$want" ] || fail "exit status $got, expected $want"
}

out_has() { grep -qxF -- "$1" "$T/out" || fail "no stdout line: $1"; }
err_has() { grep -qxF -- "$1" "$T/err" || fail "no stderr line: $1"; }
out_lacks() { ! grep -qF -- "$1" "$T/out" || fail "stdout holds: $1"; }
err_lacks() { ! grep -qF -- "$1" "$T/err" || fail "stderr holds: $1"; }
err_matches() { grep -qE -- "$1" "$T/err" || fail "no stderr line matches: $1"; }
out_empty() { [ ! -s "$T/out" ] || fail "stdout is not empty"; }
# err_is TEXT: stderr is exactly TEXT (lines separated by newlines).
err_is() { printf '%s\n' "$1" | diff -u - "$T/err" >/dev/null || fail "stderr is not exactly: $1"; }
# refused FILE REASON: the launcher refuses to run FILE (status 126, nothing on stdout) and says
# exactly "fastraw: FILE: REASON".
refused() {
	run 126 "$L" --lib "$LIB" "$1"
	out_empty
	err_is "fastraw: $1: $2"
}

# ELF headers by hand: CLASS MACHINE (octal bytes) of an ET_EXEC file, the rest zero.
elf_header() {
	printf "\\177ELF\\$1\\001\\001\\000\\000\\000\\000\\000\\000\\000\\000\\000\\002\\000\\$2\\000\\001\\000\\000\\000" >"$3"
	head -c 44 /dev/zero >>"$3"
	chmod 755 "$3"
}
