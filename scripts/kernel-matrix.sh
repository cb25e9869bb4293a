#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots Debian's kernels under QEMU (TCG) and runs the end-to-end suites and the oracle inside each configuration.
#
#   scripts/kernel-matrix.sh [--arch ARCH] [--only NAME]... [--suites LIST] [-j JOBS] [--list] [--keep]
#   scripts/kernel-matrix.sh --no-build --build-dir DIR ...     (how CTest runs it)
#
# The guests are of the build's architecture (its manifest names it: x86_64, aarch64 or arm);
# --arch must agree. Without --no-build it first builds the project like scripts/test.sh, for
# --arch (default the host's; aarch64 with scripts/aarch64.sh in build-aarch64, arm with
# scripts/armhf.sh in build-armhf). It installs qemu-system-x86 or -arm and cpio when missing,
# fetches the kernels with a private apt configuration (its own sources list, package lists and
# cache under $FASTRAW_MATRIX_CACHE/apt, arm64's under aarch64/kernels/apt, armhf's under
# armhf/kernels/apt; the machine's apt sources are never read or changed, nothing is installed
# into /boot) and keeps their vmlinuz beside that apt folder (default ~/.cache/fastraw-matrix;
# RHEL 8.10's shape is Debian's 5.10 relabelled, scripts/matrix-relabel.sh). Linux 4.19, which
# Debian's archive no longer has, boots from a prebuilt image ($FASTRAW_SHARED_KERNELS/4.19/
# bzImage, 32-bit ARM's from arm-4.19/zImage, default ../shared/kernels/ beside the project);
# without it its configurations are
# skipped and the others run, as are those whose other userland (FR_MATRIX_ENV: glibc 2.17,
# Debian's bullseye or trixie glibc) cannot be had. -j runs that many guests at once
# (FASTRAW_MATRIX_JOBS; default the host's CPUs, at most 4). --suites runs only the given
# comma-separated suites. It exits 0 when every configuration passed, 1 when one failed, and 77
# (CTest's "skipped") with the reason when QEMU or a kernel cannot be had.
#
# Its parts, each sourced from here: the configurations and each architecture's QEMU facts
# (matrix-configs.sh), the kernels (matrix-kernels.sh), the initramfs (matrix-initramfs.sh), the
# guests' boots (matrix-boot.sh) and the report (matrix-report.sh). This file reads the command
# line, builds, picks the configurations that can run and hands them on.
set -euo pipefail

FR_MATRIX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${FASTRAW_MATRIX_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
# Guests side by side: one per host CPU (at most 4). Most suites keep one vCPU busy, so two
# 2-vCPU guests on a 2-CPU host finish sooner than one after the other (measured: 205 s against
# 294 s for the seven configurations on this project's loaded 2-core VM).
JOBS=${FASTRAW_MATRIX_JOBS:-$(n=$(nproc 2>/dev/null || echo 1); echo $((n > 4 ? 4 : n)))}
SKIP=77

# shellcheck source=scripts/matrix-configs.sh
. "$FR_MATRIX_ROOT/scripts/matrix-configs.sh"

say() { echo "matrix: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}

usage() {
	sed -n '3,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
	echo "configurations:"
	for c in "${CONFIGS[@]}"; do
		IFS='|' read -r name series opts _ expect _ tns cpu smp <<<"$c"
		printf '  %-16s Linux %-11s -cpu %-11s -smp %s  %-28s %s%s\n' "$name" "$series" "$cpu" "$smp" \
			"$opts" "$expect" "$([ "$tns" = 0 ] || echo ", in a time namespace")"
	done
}

build=1 build_dir='' keep=0 only=() suites_only='' arch='' list=0
while [ $# -gt 0 ]; do
	case "$1" in
	--no-build) build=0 ;;
	--build-dir) build_dir=$2; shift ;;
	--arch) arch=$2; shift ;;
	--only) only+=("$2"); shift ;;
	--suites) suites_only=$2; shift ;;
	-j) JOBS=$2; shift ;;
	-j[0-9]*) JOBS=${1#-j} ;;
	--keep) keep=1 ;;
	--list | -h | --help) list=1 ;;
	*) echo "kernel-matrix.sh: unknown argument: $1" >&2; list=2 ;;
	esac
	shift
done

# The architecture a build's manifest names (a manifest without the line is x86-64's), or nothing.
manifest_arch() {
	local m=$1/matrix/manifest
	[ -f "$m" ] || return 0
	sed -n 's/^arch //p' "$m" | grep . || echo x86_64
}

# The guests' architecture: --arch, else the build's, else the host's.
arch_given=$arch
[ -n "$arch" ] || [ -z "$build_dir" ] || arch=$(manifest_arch "$build_dir")
[ -n "$arch" ] || arch=$(uname -m)
matrix_arch "$arch" || { echo "kernel-matrix.sh: no configurations for $arch (x86_64, aarch64, arm)" >&2; exit 2; }
[ "$list" = 0 ] || { if [ "$list" = 1 ]; then usage; exit 0; fi; usage >&2; exit 2; }
case "$JOBS" in '' | *[!0-9]* | 0) echo "kernel-matrix.sh: -j wants a positive number" >&2; exit 2 ;; esac

selected=()
for c in "${CONFIGS[@]}"; do
	if [ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qx "${c%%|*}"; then
		selected+=("$c")
	fi
done
[ ${#selected[@]} -gt 0 ] || { echo "kernel-matrix.sh: no configuration named ${only[*]} (--list)" >&2; exit 2; }

# The host's architecture by the guests' name for it (a 32-bit ARM host says armv7l).
host_arch=$(uname -m)
case "$host_arch" in arm64) host_arch=aarch64 ;; armv*) host_arch=arm ;; esac
if [ "$build" = 1 ] && [ "$arch" != "$host_arch" ]; then
	# The cross build, with its Check sysroot (exit 77 when the tools cannot be had): aarch64's
	# script is named for the CPU, 32-bit ARM's for Debian's architecture (armhf).
	cross=$arch
	[ "$arch" != arm ] || cross=armhf
	build_dir=${build_dir:-$FR_MATRIX_ROOT/build-$cross}
	bash "$FR_MATRIX_ROOT/scripts/$cross.sh" "$build_dir"
elif [ "$build" = 1 ]; then
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
if [ "$(manifest_arch "$build_dir")" != "$arch" ]; then
	echo "kernel-matrix.sh: $build_dir is a $(manifest_arch "$build_dir") build, not $arch${arch_given:+ (--arch $arch_given)}" >&2
	exit 2
fi

# shellcheck source=scripts/matrix-kernels.sh
. "$FR_MATRIX_ROOT/scripts/matrix-kernels.sh"

# shellcheck source=scripts/matrix-initramfs.sh
. "$FR_MATRIX_ROOT/scripts/matrix-initramfs.sh"
# shellcheck source=scripts/matrix-boot.sh
. "$FR_MATRIX_ROOT/scripts/matrix-boot.sh"
# shellcheck source=scripts/matrix-report.sh
. "$FR_MATRIX_ROOT/scripts/matrix-report.sh"

need_tools
mkdir -p "$CACHE"
work=$build_dir/matrix/run
rm -rf "$work"
mkdir -p "$work"

# Every kernel first (one apt update at most), so that guests can run side by side. A prebuilt
# kernel that is not there (is_shared_series) skips its configurations only: the others still run.
declare -A kernel_of=()
missing=() runnable=() skipped=()
for c in "${selected[@]}"; do
	IFS='|' read -r name series _ <<<"$c"
	if [ -z "${kernel_of[$series]:-}" ]; then
		if k=$(kernel_for "$series"); then
			kernel_of[$series]=$k
		else
			kernel_of[$series]=none
			is_shared_series "$series" || missing+=("Linux $series")
		fi
	fi
	if [ "${kernel_of[$series]}" = none ] && is_shared_series "$series"; then
		say "SKIPPED $name: no Linux $series image at $SHARED_KERNELS/$series/$(shared_image_name) (FASTRAW_SHARED_KERNELS)"
		skipped+=("$name")
	else
		runnable+=("$c")
	fi
done
[ ${#missing[@]} -eq 0 ] ||
	skip "kernel package(s) for ${missing[*]} cannot be fetched here (Debian's archive through apt-get, $KEYRING)"
[ ${#runnable[@]} -gt 0 ] || skip "no kernel for ${skipped[*]}"
selected=("${runnable[@]}")
# The probes of another userland (FR_MATRIX_ENV=NAME in a configuration's options), built into
# $build_dir/matrix/NAME/ with their env file: glibc217 by matrix-glibc217.sh (CentOS 7's glibc
# with npm's GCC 4.8.5), a Debian release's name (bullseye, trixie) by matrix-debian-glibc.sh
# (that release's glibc for the guests' architecture). Where the userland cannot be had (77) the
# configurations that want it are skipped. A failed build is left for their guests to report (no
# env file: their init fails the set-up).
ENV_SETS=()
for env in $(printf '%s\n' "${selected[@]}" | sed -n 's/.*FR_MATRIX_ENV=\([A-Za-z0-9_]*\).*/\1/p' | sort -u); do
	rc=0
	case "$env" in
	glibc217) bash "$FR_MATRIX_ROOT/scripts/matrix-glibc217.sh" "$arch" "$build_dir/matrix/$env" || rc=$? ;;
	*) bash "$FR_MATRIX_ROOT/scripts/matrix-debian-glibc.sh" "$arch" "$env" "$build_dir/matrix/$env" || rc=$? ;;
	esac
	if [ "$rc" = 0 ]; then
		ENV_SETS+=("$build_dir/matrix/$env")
	elif [ "$rc" = "$SKIP" ]; then
		runnable=()
		for c in "${selected[@]}"; do
			case "$c" in
			*"FR_MATRIX_ENV=$env"*) say "SKIPPED ${c%%|*}: the $env userland cannot be had"; skipped+=("${c%%|*}") ;;
			*) runnable+=("$c") ;;
			esac
		done
		[ ${#runnable[@]} -gt 0 ] || skip "no $env userland for ${skipped[*]}"
		selected=("${runnable[@]}")
	fi
done
make_initramfs "$work/initramfs.gz"

t_all=$(date +%s)
run_guests
report_all
[ "$keep" = 1 ] || rm -f "$work/initramfs.gz"
[ "$passed" = "$ran" ]
