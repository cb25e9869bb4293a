#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libfastraw and the end-to-end probes with musl-gcc and runs the glibc build's Check
# suites on them: the musl probes under LD_PRELOAD of the musl library.
#
#   scripts/musl.sh MUSL_BUILD_DIR SUITE_DIR ARCH SUITE:PROBE[,PROBE...]...
#
# MUSL_BUILD_DIR is configured with CC=musl-gcc and FASTRAW_WERROR=ON (no tests: Check is not
# built for musl) and its libfastraw.so checked: no dlvsym export, nothing for the loader to do
# that musl's refuses (IRELATIVE), libc.so the only library it needs. The probes are built beside
# it as MUSL_BUILD_DIR/probes/e2e_probe_NAME. SUITE_DIR holds the glibc build's test_SUITE
# programs; each runs with FASTRAW_LIB set to the musl library and FR_PROBE_NAME to its probes,
# and decides "active" or "passthrough" from the machine as it does in the glibc build.
# FR_GLIBC_LIB, when set, names the glibc build's library: preloaded into a musl program, it
# must stop that program from starting (exit status 127, no signal), as docs/install.md says.
# Installs musl-tools when missing (as root); exits 77 (CTest's "skipped") with the reason when
# musl-gcc cannot be had.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:?usage: musl.sh MUSL_BUILD_DIR SUITE_DIR ARCH SUITE:PROBES...}
SUITES=${2:?the glibc build directory of the test_* suites}
ARCH=${3:?the architecture (FR_ARCH)}
shift 3
SKIP=77

say() { echo "musl: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}
fail() {
	say "FAILED: $*"
	exit 1
}

if ! command -v musl-gcc >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
		skip "no musl-gcc; install it as root (apt-get install musl-tools)"
	say "installing musl-tools"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends musl-tools >/dev/null 2>&1 ||
		skip "apt-get cannot install musl-tools"
	command -v musl-gcc >/dev/null 2>&1 || skip "musl-gcc still missing after apt-get install musl-tools"
fi

# The library.
mkdir -p "$BUILD"
log=$BUILD/musl-build.log
if ! { CC=musl-gcc cmake -S "$ROOT" -B "$BUILD" -DFASTRAW_WERROR=ON -DFASTRAW_BUILD_TESTS=OFF &&
	cmake --build "$BUILD" -j2 --target fastraw; } >"$log" 2>&1; then
	tail -n 40 "$log"
	fail "the musl build failed (whole log: $log)"
fi
grep -q '^FASTRAW_LIBC_IS_GLIBC:INTERNAL=$' "$BUILD/CMakeCache.txt" ||
	fail "the build took musl-gcc for glibc (FASTRAW_LIBC_IS_GLIBC in $BUILD/CMakeCache.txt)"
lib=$BUILD/libfastraw.so
exports=$(nm -D --defined-only "$lib" | awk '{print $3}' | LC_ALL=C sort | tr '\n' ' ')
say "exports: $exports"
case " $exports " in *" dlvsym "*) fail "the musl library exports dlvsym, which musl does not have" ;; esac
case " $exports " in *" clock_gettime "*) ;; *) fail "the musl library does not export clock_gettime" ;; esac
if readelf -rW "$lib" | grep -q IRELATIVE; then
	fail "the musl library has IRELATIVE relocations, which musl's loader refuses"
fi
needed=$(readelf -dW "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so " ] || fail "the musl library needs '$needed', want 'libc.so' alone"
say "built $lib: needs $needed, no IRELATIVE"

# The probes, each named after its CMake target so that the library's lines name it the same.
# musl-gcc's include path has no kernel headers; the seccomp probe (efault) needs linux/ and asm/,
# which come from the machine's linux-libc-dev alone (a folder of links to those three), never
# with glibc's headers beside them.
# Built afresh on every run: a probe left by an earlier run would hide a change of its source.
probes=$BUILD/probes
kh=$BUILD/kernel-headers
rm -rf "$probes"
mkdir -p "$probes" "$kh"
for d in /usr/include/linux /usr/include/asm-generic "/usr/include/$ARCH-linux-gnu/asm"; do
	[ -d "$d" ] || fail "no $d: the kernel's headers (linux-libc-dev) are needed for the probes"
	ln -sfn "$d" "$kh/$(basename "$d")"
done
cflags=(-std=gnu11 -O2 -Wall -Wextra -Werror -I"$ROOT/tests/support" -I"$ROOT/tests/oracle/$ARCH" -I"$ROOT/tests/e2e" -I"$ROOT/src"
	-isystem "$kh")
probe() {
	local name=$1
	local -a src=()
	shift
	case $name in
	sys | efault | regspy) src=("$ROOT/tests/e2e/callregs.c" "$ROOT/tests/oracle/$ARCH/callregs_asm.c") ;;
	api) src=(-I"$ROOT/include" "$lib" -Wl,-rpath,"$BUILD") ;;
	musl_lookup) src=(-I"$ROOT/include" "$ROOT/tests/e2e/elfwalk.c" "$ROOT/tests/e2e/lookup_common.c") ;;
	ctor) src=(-L"$probes" -le2e_ctor -Wl,-rpath,"$probes") ;;
	esac
	local file=$ROOT/tests/e2e/probe_$name.c
	[ -f "$file" ] || file=$ROOT/tests/musl/probe_$name.c
	musl-gcc "${cflags[@]}" -o "$probes/e2e_probe_$name" "$file" "${src[@]}" -lpthread >>"$log" 2>&1 ||
		fail "cannot build the probe $name with musl-gcc (log: $log)"
}
# The libraries probes link (ctor) or suites preload after ours (e2e_syscall's register spy).
for l in ctor spy; do
	musl-gcc "${cflags[@]}" -shared -fPIC -o "$probes/libe2e_$l.so" "$ROOT/tests/e2e/${l}_lib.c" >>"$log" 2>&1 ||
		fail "cannot build libe2e_$l.so with musl-gcc (log: $log)"
done

# The glibc build in a musl program: musl's loader refuses it (docs/install.md, "musl").
if [ -n "${FR_GLIBC_LIB:-}" ]; then
	printf 'int main(void) { return 0; }\n' >"$BUILD/empty_main.c"
	musl-gcc -o "$probes/empty_main" "$BUILD/empty_main.c" >>"$log" 2>&1 || fail "cannot build a musl program"
	rc=0
	LD_PRELOAD=$FR_GLIBC_LIB "$probes/empty_main" >"$BUILD/glibc-lib.log" 2>&1 || rc=$?
	[ "$rc" = 127 ] || fail "the glibc library preloaded into a musl program: exit status $rc, want 127: $(head -c 300 "$BUILD/glibc-lib.log")"
	say "the glibc library in a musl program: refused (127): $(head -n 1 "$BUILD/glibc-lib.log")"
fi

# Each suite with its probes.
failed=()
for spec in "$@"; do
	suite=${spec%%:*}
	# musl runs no executable's preinit array (DT_PREINIT_ARRAY): those cases cannot apply. Nor
	# e2e_clocks' chain case: its test interposer (chain_lib.c) finds the real dlsym with
	# dlvsym, which musl does not have.
	env=(FASTRAW_LIB="$lib" "CK_EXCLUDE_TAGS=preinit chain" FR_SPY_LIB="$probes/libe2e_spy.so")
	IFS=, read -r -a names <<<"${spec#*:}"
	for p in "${names[@]}"; do
		[ -x "$probes/e2e_probe_$p" ] || probe "$p"
		env+=("FR_PROBE_$(echo "$p" | tr '[:lower:]' '[:upper:]')=$probes/e2e_probe_$p")
	done
	[ -x "$SUITES/test_$suite" ] || fail "no $SUITES/test_$suite (build the glibc tree first)"
	start=$(date +%s)
	if env "${env[@]}" "$SUITES/test_$suite" >"$BUILD/$suite.log" 2>&1; then
		result=passed
	else
		result=FAILED
		failed+=("$suite")
	fi
	say "$suite ($(echo "${names[@]}")): $result in $(($(date +%s) - start)) s: $(grep -E '^[0-9]+%: Checks' "$BUILD/$suite.log" || tail -n 1 "$BUILD/$suite.log")"
	[ $result = passed ] || grep -E ':[EF]:' "$BUILD/$suite.log" | cut -c1-600 | head -n 20
done
[ ${#failed[@]} -eq 0 ] || fail "${failed[*]} (logs in $BUILD)"
say "all ${#} suites passed on musl-built probes under the musl library"
