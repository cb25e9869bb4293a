#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots Debian's kernels under QEMU (TCG) and runs the end-to-end suites inside each configuration.
#
#   scripts/kernel-matrix.sh [--only NAME]... [--list] [--keep]
#   scripts/kernel-matrix.sh --no-build --build-dir DIR ...     (how CTest runs it)
#
# Without --no-build it first builds the project like scripts/test.sh. It installs
# qemu-system-x86 and cpio when missing, fetches the kernels with `apt-get download` (nothing is
# installed into /boot) and keeps what it fetched in $FASTRAW_MATRIX_CACHE (default
# ~/.cache/fastraw-matrix). It exits 0 when every configuration passed, 1 when one failed, and
# 77 (CTest's "skipped") with the reason when QEMU or a kernel cannot be had on this machine.
set -euo pipefail

FR_MATRIX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}
BOOT_TIMEOUT=${FASTRAW_MATRIX_BOOT_TIMEOUT:-240}
SKIP=77

# The suites of a configuration whose fast path is expected to serve RAW, and of one that must
# pass every RAW call through (the bracket, causality and clock tests still apply there).
# e2e_calib is not run in the guests: under TCG the guest's TSC is the host's, clamped to stay
# monotonic across vCPU threads, so it runs ~2000 ppm fast while both vCPUs read it; the guest
# kernel marks it unsynchronized and calibrated mode is (rightly) not eligible there.
ACTIVE_SUITES=e2e_bracket,e2e_causality,e2e_path,e2e_clocks,e2e_env,e2e_lifecycle,e2e_lookup,e2e_api
PASS_SUITES=e2e_bracket,e2e_causality,e2e_path,e2e_clocks
TIMENS_SUITES=e2e_bracket,e2e_causality,e2e_path,e2e_clocks,e2e_api
TIMENS_OFFSET=86400

# name | kernel series | kernel options | clocksource to wait for | expectation | suites | timens
CONFIGS=(
	"tsc-6.1|6.1|clocksource=tsc tsc=reliable|tsc|active|$ACTIVE_SUITES|0"
	"tsc-6.12|6.12|clocksource=tsc tsc=reliable|tsc|active|$ACTIVE_SUITES|0"
	"hpet-6.1|6.1|clocksource=hpet|hpet|passthrough|$PASS_SUITES|0"
	"timens-tsc-6.12|6.12|clocksource=tsc tsc=reliable|tsc|active|$TIMENS_SUITES|$TIMENS_OFFSET"
)

say() { echo "matrix: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}

usage() {
	sed -n '3,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
	echo "configurations:"
	for c in "${CONFIGS[@]}"; do
		IFS='|' read -r name series opts _ expect _ tns <<<"$c"
		printf '  %-16s Linux %-5s %-30s %s%s\n' "$name" "$series" "$opts" "$expect" \
			"$([ "$tns" = 0 ] || echo ", in a time namespace")"
	done
}

build=1 build_dir= keep=0 only=()
while [ $# -gt 0 ]; do
	case "$1" in
	--no-build) build=0 ;;
	--build-dir) build_dir=$2; shift ;;
	--only) only+=("$2"); shift ;;
	--keep) keep=1 ;;
	--list | -h | --help) usage; exit 0 ;;
	*) echo "kernel-matrix.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done

if [ "$build" = 1 ]; then
	# shellcheck source=scripts/common.sh
	. "$FR_MATRIX_ROOT/scripts/common.sh"
	[ -n "$build_dir" ] && export FASTRAW_BUILD_DIR=$build_dir
	fr_setup -DFASTRAW_BUILD_TESTS=ON >/dev/null
	build_dir=$FR_BUILD
fi
[ -n "$build_dir" ] || { echo "kernel-matrix.sh: --no-build needs --build-dir" >&2; exit 2; }
build_dir=$(cd "$build_dir" && pwd)
manifest=$build_dir/matrix/manifest
[ -f "$manifest" ] || { echo "kernel-matrix.sh: no $manifest (configure with tests on)" >&2; exit 1; }

apt_updated=0
apt_install() {
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 && return 0
	[ "$apt_updated" = 1 ] && return 1
	apt_updated=1
	apt-get update >/dev/null 2>&1 || return 1
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1
}

need_tools() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		say "installing qemu-system-x86"
		apt_install qemu-system-x86 || skip "qemu-system-x86 is missing and cannot be installed here (needs root and apt-get)"
	fi
	if ! command -v cpio >/dev/null 2>&1; then
		apt_install cpio || skip "cpio is missing and cannot be installed here"
	fi
	command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb: Debian's kernel packages cannot be unpacked here"
}

# The cached vmlinuz of a kernel series (6.1 or 6.12), fetched when there is none yet.
kernel_for() {
	local series=$1 glob regex pkg tmp found
	case "$series" in
	6.1) glob='vmlinuz-6.1.0-*' regex='^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' ;;
	6.12) glob='vmlinuz-6.12.*' regex='^linux-image-6\.12\.[0-9]+[^ ]*-cloud-amd64-unsigned$' ;;
	*) echo "kernel-matrix.sh: no package rule for Linux $series" >&2; return 1 ;;
	esac
	# shellcheck disable=SC2086 # the glob is meant to expand
	found=$(cd "$CACHE" && ls -1 $glob 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$found" ]; then
		echo "$CACHE/$found"
		return 0
	fi
	command -v apt-cache >/dev/null 2>&1 || return 1
	pkg=$(apt-cache pkgnames linux-image-"$series" 2>/dev/null | grep -E "$regex" | sort -V | tail -n 1 || true)
	if [ -z "$pkg" ] && [ "$apt_updated" = 0 ] && [ "$(id -u)" = 0 ]; then
		apt_updated=1
		apt-get update >/dev/null 2>&1 || true
		pkg=$(apt-cache pkgnames linux-image-"$series" 2>/dev/null | grep -E "$regex" | sort -V | tail -n 1 || true)
	fi
	[ -n "$pkg" ] || return 1
	tmp=$(mktemp -d "$CACHE/fetch.XXXXXX")
	say "fetching $pkg" >&2
	if ! (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1); then
		rm -rf "$tmp"
		return 1
	fi
	dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
	found=$(cd "$tmp/boot" && ls -1 vmlinuz-* | head -n 1)
	mv "$tmp/boot/$found" "$CACHE/$found"
	rm -rf "$tmp"
	echo "$CACHE/$found"
}

# Copies a file and the shared objects it needs to the same absolute paths under $1.
stage_with_deps() {
	local root=$1 file=$2 dep
	[ -e "$root$file" ] && return 0
	mkdir -p "$root$(dirname "$file")"
	cp -L "$file" "$root$file"
	# ldd prints "name => /path (addr)" and "/path/ld-linux... (addr)"; a static program has none.
	while read -r dep; do
		[ -n "$dep" ] && [ ! -e "$root$dep" ] || continue
		mkdir -p "$root$(dirname "$dep")"
		cp -L "$dep" "$root$dep"
	done < <(ldd "$file" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
}

make_initramfs() {
	local out=$1 root=$work/root init path
	rm -rf "$root"
	mkdir -p "$root"/{dev,proc,sys,tmp,matrix}
	cp "$manifest" "$root/matrix/manifest"
	init=$(sed -n 's/^init //p' "$manifest")
	cp "$init" "$root/init"
	while read -r path; do
		stage_with_deps "$root" "$path"
	done < <(sed -n 's/^suite [^ ]* //p; s/^env [A-Z_]*=\(\/.*\)/\1/p' "$manifest" | sort -u)
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
}

# Boots one configuration; prints its line and returns 0 when every suite passed.
run_config() {
	local name=$1 series=$2 opts=$3 cs=$4 expect=$5 suites=$6 tns=$7
	local kernel log t0 secs want done_line pass fail machine
	log=$work/$name.log
	kernel=$(kernel_for "$series") || skip "the Linux $series kernel package cannot be fetched here (apt-get download)"
	want=$(tr ',' '\n' <<<"$suites" | wc -l)
	t0=$(date +%s)
	timeout "$BOOT_TIMEOUT" qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m 1024 \
		-nodefaults -display none -no-reboot -serial "file:$log" \
		-kernel "$kernel" -initrd "$work/initramfs.gz" \
		-append "console=ttyS0 loglevel=3 panic=-1 $opts FR_MATRIX_SUITES=$suites FR_MATRIX_CLOCKSOURCE=$cs FR_MATRIX_TIMENS=$tns FR_E2E_EXPECT=$expect CK_TIMEOUT_MULTIPLIER=4" \
		>"$work/$name.qemu" 2>&1 || true
	secs=$(($(date +%s) - t0))
	tr -d '\r' <"$log" >"$log.txt" 2>/dev/null || : >"$log.txt"
	done_line=$(grep -o 'FRMATRIX: done pass=[0-9]* fail=[0-9]*' "$log.txt" | tail -n 1 || true)
	machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) rdtscp=\([01]\).*/\1 clocksource=\2 rdtscp=\3/p' "$log.txt" | head -n 1)
	pass=$(sed -n 's/.*pass=\([0-9]*\).*/\1/p' <<<"$done_line")
	fail=$(sed -n 's/.*fail=\([0-9]*\).*/\1/p' <<<"$done_line")
	if [ -n "$done_line" ] && [ "$fail" = 0 ] && [ "$pass" = "$want" ]; then
		printf 'matrix: %-16s PASS  %s/%s suites  %-44s %3ds\n' "$name" "$pass" "$want" "${machine:-?}" "$secs"
		return 0
	fi
	printf 'matrix: %-16s FAIL  %s/%s suites  %-44s %3ds%s\n' "$name" "${pass:-0}" "$want" "${machine:-?}" "$secs" \
		"$([ -n "$done_line" ] || echo "  (no result: crashed or timed out after ${BOOT_TIMEOUT}s)")"
	grep '^FRMATRIX: suite .* fail' "$log.txt" | sed 's/^/    /' || true
	echo "    --- last lines of the console ($log.txt):"
	tail -n 80 "$log.txt" | sed 's/^/    /'
	[ -s "$work/$name.qemu" ] && sed 's/^/    qemu: /' "$work/$name.qemu"
	return 1
}

need_tools
mkdir -p "$CACHE"
work=$build_dir/matrix/run
rm -rf "$work"
mkdir -p "$work"
make_initramfs "$work/initramfs.gz"

t_all=$(date +%s) ran=0 passed=0
for c in "${CONFIGS[@]}"; do
	IFS='|' read -r name series opts cs expect suites tns <<<"$c"
	if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$name"; then
		continue
	fi
	ran=$((ran + 1))
	if run_config "$name" "$series" "$opts" "$cs" "$expect" "$suites" "$tns"; then
		passed=$((passed + 1))
	fi
done
[ "$ran" -gt 0 ] || { echo "kernel-matrix.sh: no configuration named ${only[*]}" >&2; exit 2; }
say "$passed/$ran configurations passed in $(($(date +%s) - t_all)) s (logs: $work)"
[ "$keep" = 1 ] || rm -f "$work/initramfs.gz"
[ "$passed" = "$ran" ]
