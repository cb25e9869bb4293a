#!/bin/sh
# SPDX-License-Identifier: MIT
# The launcher's options: help, version, usage errors (exit 2), and arguments left to the program.
. "$(dirname "$0")/launcher_common.sh"
USAGE="usage: fastraw [--tsc $ctr_uno|$ctr_ord|$ctr_fen] [--debug] [--stats] [--clocks LIST] [--lib PATH] [--] PROGRAM [ARG...]"
HINT="Run 'fastraw --help' for the options."

run 0 "$L" --help
out_has "$USAGE"
out_has "  --tsc MODE   how the counter is read: $ctr_ord, $ctr_fen or $ctr_uno (sets FASTRAW_TSC)"
out_has "Without --lib, libfastraw.so is taken from $LAUNCHER_INSTALL_LIBDIR, then from DIR/../lib"
[ ! -s "$T/err" ] || fail "--help wrote to stderr"
cp "$T/out" "$T/help"

run 0 "$L" -h
cmp -s "$T/out" "$T/help" || fail "-h and --help differ"

run 0 "$L" --version
[ "$(cat "$T/out")" = "fastraw $LAUNCHER_VERSION" ] || fail "version line is not: fastraw $LAUNCHER_VERSION"

run 2 "$L" --frobnicate "$PROBE"
out_empty
err_is "fastraw: unknown option '--frobnicate'
$USAGE
$HINT"

run 2 "$L" -x "$PROBE"
err_has "fastraw: unknown option '-x'"

run 2 "$L"
err_is "fastraw: no program to run
$USAGE
$HINT"

run 2 "$L" --debug --
err_has "fastraw: no program to run"

run 2 "$L" --tsc fast "$PROBE"
err_has "fastraw: --tsc takes $ctr_uno, $ctr_ord or $ctr_fen, not 'fast'"
out_lacks "argv[0]"

run 2 "$L" --tsc
err_has "fastraw: option '--tsc' needs a value"

# Options after the program's name, and everything after --, belong to the program.
run 0 "$L" --lib "$LIB" "$PROBE" --help -x --tsc
out_has "argv[1]=--help"
out_has "argv[2]=-x"
out_has "argv[3]=--tsc"

run 0 "$L" --lib "$LIB" -- "$PROBE" --debug
out_has "argv[0]=$PROBE"
out_has "argv[1]=--debug"
out_has "FASTRAW_DEBUG=(unset)"

run 0 "$L" --tsc="$ctr_uno" --lib="$LIB" "$PROBE"
out_has "FASTRAW_TSC=$ctr_uno"

finish
