#!/bin/sh
# SPDX-License-Identifier: MIT
# stress-ng --vdso under the preload: it finds the vDSO by matching getauxval(AT_SYSINFO_EHDR) against dl_iterate_phdr.
# usage: stress_ng_vdso.sh LIBFASTRAW
# Exit 77 (skipped) when stress-ng is not installed.
set -eu
lib=$1
# shellcheck source=tests/e2e/script_common.sh
. "$(dirname "$0")/script_common.sh"

command -v stress-ng >/dev/null 2>&1 || {
	echo "SKIP: stress-ng not installed (Debian package stress-ng; scripts/common.sh installs it)"
	exit 77
}
# stress-ng writes its temporary files into the current directory.
cd "$T"
run "stress-ng --vdso 1 under LD_PRELOAD" \
	env LD_PRELOAD="$lib" FASTRAW_DEBUG=1 stress-ng --vdso 1 --timeout 1 --metrics-brief
cat "$T/out" "$T/err"
grep -q "^fastraw\[[0-9]*\] [^:]*: kernel=" "$T/err" || fail "no FASTRAW_DEBUG line: the library was not loaded"
! grep -q "failed to find relevant vDSO functions" "$T/out" "$T/err" || fail "stress-ng did not find the vDSO"
! grep -q "skipped\|No stress workers" "$T/out" "$T/err" || fail "the vdso stressor did not run"
grep -q "vdso: exercising vDSO functions" "$T/out" "$T/err" || fail "the vdso stressor did not exercise the vDSO"
grep -q "successful run completed" "$T/out" "$T/err" || fail "stress-ng did not complete"
echo PASS
