#!/bin/sh
# SPDX-License-Identifier: MIT
# Under valgrind a process has no vDSO: the library must say so and pass every call to the kernel.
# usage: valgrind_passthrough.sh LIBFASTRAW PROBE
set -eu
lib=$1 probe=$2
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 0
fi
out=$(LD_PRELOAD="$lib" FASTRAW_DEBUG=1 FASTRAW_STATS=1 valgrind -q "$probe" 1000 1 2>&1) || {
	echo "FAIL: probe under valgrind exited non-zero:"; echo "$out"; exit 1
}
echo "$out"
echo "$out" | grep -q 'passthrough: no \[vdso\] or \[vvar\] mapping' || { echo "FAIL: no passthrough reason"; exit 1; }
echo "$out" | grep -q '^violations=0$' || { echo "FAIL: the probe saw violations"; exit 1; }
echo "$out" | grep -Eq 'fastraw: stats: MONOTONIC_RAW fast=0 passthrough=[1-9]' || { echo "FAIL: calls not passed through"; exit 1; }
echo "valgrind passthrough: ok"
