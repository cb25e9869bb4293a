# SPDX-License-Identifier: MIT
# Sourced by the install tests: tests/support/checks.sh, the settings they run under, run and the file checks.
# shellcheck shell=sh disable=SC2034  # HERE, SUPPORT, CPU_TESTS and SUPPORT_DIRS are for the scripts that source this file
set -u
: "${FR_BUILD_DIR:?run under ctest}" "${FR_SOURCE_DIR:?}" "${CMAKE_COMMAND:?}"
# An inherited preload or setting would change what the programs report. FASTRAW_SOURCE=kernel:
# every value is exact (the kernel's data) or the kernel's own (pass-through), never estimated.
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE PKG_CONFIG_PATH
export FASTRAW_SOURCE=kernel
HERE=$FR_SOURCE_DIR/tests/install
SUPPORT=$FR_SOURCE_DIR/tests/support
CC=${CC:-cc}
# shellcheck source=tests/support/checks.sh
. "$SUPPORT/checks.sh"
# The target's facts and $RUN, its emulator in a cross build (FR_TOOLCHAIN_FILE is then its
# toolchain file, which the projects built here are configured with too).
# shellcheck source=tests/tools/arch_facts.sh
. "$FR_SOURCE_DIR/tests/tools/arch_facts.sh"
# ksys.h takes its system call instruction from the CPU's cpu_test.h: both folders, as a CMake list too.
CPU_TESTS=$FR_SOURCE_DIR/tests/oracle/$arch
SUPPORT_DIRS="$SUPPORT;$CPU_TESTS"
TOOLCHAIN=
[ -n "${FR_TOOLCHAIN_FILE:-}" ] && TOOLCHAIN=-DCMAKE_TOOLCHAIN_FILE=$FR_TOOLCHAIN_FILE

# launcher_skipped: under an emulator the launcher cannot execve its program (qemu-user hands
# that to the host kernel); says so and returns 0 then.
launcher_skipped() {
	[ "$emulated" = 1 ] || return 1
	echo "  (skipped under $RUN: the launcher and the bench execve $arch programs)"
}

# run STATUS CMD...: runs CMD with its output in $T/out (stderr too), prints it, checks the status.
run() {
	status_want=$1
	shift
	echo "\$ $*"
	"$@" >"$T/out" 2>&1
	got=$?
	sed 's/^/  | /' "$T/out"
	[ "$got" = "$status_want" ] || fail "exit status $got, expected $status_want: $*"
}

out_has() { grep -qF -- "$1" "$T/out" || fail "no output line holding: $1"; }

# has_file PATH: a file or a symbolic link that resolves.
has_file() { [ -e "$1" ] || fail "missing: $1"; }

# needed FILE: the DT_NEEDED names of an ELF file, one a line.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
