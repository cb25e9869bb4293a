#!/bin/sh
# SPDX-License-Identifier: MIT
# A program its user may execute but not read (mode 0111): the launcher runs it preloaded and, with --debug, says it could not tell static from dynamic.
. "$(dirname "$0")/launcher_common.sh"

# Root reads anything: the program is run by nobody. Everything it needs is copied into $T, opened
# to other users, so that the build tree's own permissions do not matter.
as_user() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	elif command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		runuser -u nobody -- "$@"
	fi
}
chmod 755 "$T"
cp "$L" "$T/fastraw"
cp "$LIB" "$T/libfastraw.so"
cp "$PROBE" "$T/x"
chmod 0111 "$T/x"
as_user test -x "$T/fastraw" 2>/dev/null || skip "no non-root user can run $T/fastraw"
! as_user head -c 1 "$T/x" >/dev/null 2>&1 || skip "$T/x (mode 0111) is readable by its user"

# Without the launcher, as the baseline: the loader preloads into it.
run 0 as_user env LD_PRELOAD="$T/libfastraw.so" "$T/x"
out_has "clock_gettime in $T/libfastraw.so"

run 0 as_user "$T/fastraw" --lib "$T/libfastraw.so" "$T/x" one
out_has "argv[1]=one"
out_has "LD_PRELOAD=$T/libfastraw.so"
out_has "clock_gettime in $T/libfastraw.so"
out_has "clock_gettime calls ok"
[ ! -s "$T/err" ] || fail "stderr is not empty without --debug"

run 0 as_user "$T/fastraw" --lib "$T/libfastraw.so" --debug "$T/x"
out_has "clock_gettime in $T/libfastraw.so"
err_has "fastraw: cannot read $T/x (Permission denied): whether it is dynamically linked is unknown; preloading anyway"
err_has "fastraw: launching $T/x with LD_PRELOAD=$T/libfastraw.so"
if [ "${FR_E2E_EXPECT:-}" = passthrough ]; then
	err_matches "^fastraw\[[0-9]+\] x: kernel=.* passthrough"
else
	err_matches "^fastraw\[[0-9]+\] x: kernel=.* active$"
fi

# What can be known without reading it still counts: a set-user-ID program is refused.
cp "$PROBE" "$T/suid"
chmod 4111 "$T/suid"
run 126 as_user "$T/fastraw" --lib "$T/libfastraw.so" "$T/suid"
err_is "fastraw: $T/suid: set-user-ID: the dynamic loader ignores LD_PRELOAD for it"

finish
