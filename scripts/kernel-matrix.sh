#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots Debian's kernels under QEMU (TCG) and runs the end-to-end suites and the oracle inside each configuration.
#
#   scripts/kernel-matrix.sh [--arch ARCH] [--only NAME]... [--suites LIST] [-j JOBS] [--list] [--keep]
#   scripts/kernel-matrix.sh --no-build --build-dir DIR ...     (how CTest runs it)
#
# The guests are of the build's architecture (its manifest names it: x86_64 or aarch64); --arch
# must agree. Without --no-build it first builds the project like scripts/test.sh, for --arch
# (default the host's; aarch64 with scripts/aarch64.sh, in build-aarch64). It
# installs qemu-system-x86 or -arm and cpio when missing, fetches the kernels with a private apt
# configuration (its own sources list, package lists and cache under $FASTRAW_MATRIX_CACHE/apt,
# arm64's under aarch64/kernels/apt; the machine's apt sources are never read or changed,
# nothing is installed into /boot) and keeps their vmlinuz in $FASTRAW_MATRIX_CACHE (arm64's in
# aarch64/kernels; default ~/.cache/fastraw-matrix). Linux 4.19, which Debian's archive no longer
# has, and RHEL 8's kernel shape boot from prebuilt images ($FASTRAW_SHARED_KERNELS/4.19/bzImage
# and .../rhel8-shape/bzImage, default ../shared/kernels/ beside the project); without one its
# configurations are skipped and the others run. -j runs that many guests
# at once (FASTRAW_MATRIX_JOBS; default the host's CPUs, at most 4). --suites runs only the
# given comma-separated suites. It exits 0 when every configuration passed, 1 when one failed,
# and 77 (CTest's "skipped") with the reason when QEMU or a kernel cannot be had.
set -euo pipefail

FR_MATRIX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${FASTRAW_MATRIX_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
# Time limits, in seconds. Until a guest has measured its speed it gets BOOT_LIMIT; from then
# on it may go STALL_LIMIT times its speed factor without printing a line of progress (a suite
# started or ended). The guest also scales Check's own timeouts by the same factor, so a slow
# host makes everything slower, never a failure: the limits only catch a guest that hangs.
BOOT_LIMIT=${FASTRAW_MATRIX_BOOT_TIMEOUT:-300}
STALL_LIMIT=${FASTRAW_MATRIX_STALL_TIMEOUT:-300}
# Guests side by side: one per host CPU (at most 4). Most suites keep one vCPU busy, so two
# 2-vCPU guests on a 2-CPU host finish sooner than one after the other (measured: 205 s against
# 294 s for the seven configurations on this project's loaded 2-core VM).
JOBS=${FASTRAW_MATRIX_JOBS:-$(n=$(nproc 2>/dev/null || echo 1); echo $((n > 4 ? 4 : n)))}
SKIP=77

# The suites of a configuration whose fast path is expected to serve RAW, and of one that must
# pass every RAW call through (the bracket, causality and clock tests still apply there). The
# oracle runs first (but for arm64's calibrated configuration): the guest's own vDSO code against
# the library's arithmetic.
# e2e_calib is not run in the 5.3+ x86 guests: under TCG the guest's TSC is the host's, clamped to
# stay monotonic across vCPU threads, so it runs ~2000 ppm fast against hpet while both vCPUs
# read it; the guest kernel marks it unsynchronized and calibrated mode is (rightly) not eligible
# there. It runs where the kernel's RAW comes from that same TSC and calibrated mode is what auto
# does: the 4.19 guest kept on tsc (gtod-4.19 below).
ACTIVE_SUITES=oracle,e2e_bracket,e2e_causality,e2e_path,e2e_clocks,e2e_env,e2e_lifecycle,e2e_lookup,e2e_api
PASS_SUITES=oracle,e2e_bracket,e2e_causality,e2e_path,e2e_clocks
TIMENS_SUITES=oracle,e2e_bracket,e2e_causality,e2e_path,e2e_clocks,e2e_api
TIMENS_OFFSET=86400
TSC_OPTS="clocksource=tsc tsc=reliable"
# Linux 4.19 (a prebuilt image, matrix-kernels.sh): no RAW data, the gtod page of the 3.16-4.19
# layout. Kept on tsc (tsc=reliable), its gtod page says clock mode TSC and auto runs calibrated
# mode by that verdict (-cpu max has no invariant-TSC bit): FR_E2E_EXPECT=calibrated. Measured
# there, two threads on the two vCPUs for 60 s: max error 33 ns, no step back, no causality
# violation in 2 x 3 million. The suites that assert exact brackets (e2e_bracket, e2e_lifecycle,
# e2e_syscall's in-process cases) do not apply to calibrated values; e2e_calib's bound and
# e2e_causality do, and e2e_lookup, whose probe allows calibrated mode's 2 us around the kernel's
# bracket, checks every lookup and the shadow vDSO on this vDSO without RAW or clock_getres. Left to itself the same kernel marks the TSC unstable at boot ("TSCs
# unsynchronized") and runs on hpet: calibrated mode is then refused and every RAW call passes
# through, where the exact suites apply again. 4.19 has no time namespaces: the guest leaves the
# cases tagged timens out.
GTOD_SUITES=e2e_causality,e2e_clocks,e2e_vfork,e2e_calib,e2e_lookup
# RHEL 8's shape (a prebuilt 5.2.1 that reports 4.18.0-553.el8_10.x86_64): a 4.18 release whose
# gtod page has the 4.20-5.2 layout, as RHEL, Rocky and Alma 8 kernels have. The same suites as
# gtod-4.19; FR_E2E_GTOD (a boot option init passes on) names the layout e2e_calib must see
# on the debug line, with the line saying the release implied another.
GTOD_419_OPTS="$TSC_OPTS FR_E2E_GTOD=3.16-4.19"
GTOD_RHEL8_OPTS="$TSC_OPTS FR_E2E_GTOD=4.20-5.2"
# On hpet only e2e_calib's source case runs: forced there, calibrated mode broke its bound
# (2439 ns in the fenced mode against hpet's RAW), which is why the kernel's verdict counts.
GTOD_PASS_SUITES=e2e_bracket,e2e_clocks,e2e_syscall,e2e_lookup,e2e_calib:source

# name | kernel series | kernel options | clocksource to wait for | expectation | suites |
# time namespace offset (0: none) | QEMU -cpu | vCPUs
# The expectation (active, calibrated or passthrough) is what FR_E2E_EXPECT tells the suites to assert.
# -cpu max has RDTSCP, so the guest's vDSO is rdtscp-patched and the library reads rdtscp;
# max,-rdtscp gets the lfence;rdtsc vDSO and the library's lfence default.
CONFIGS_x86_64=(
	"tsc-6.1|6.1|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"tsc-6.12|6.12|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"hpet-6.1|6.1|clocksource=hpet|hpet|passthrough|$PASS_SUITES|0|max|2"
	"timens-tsc-6.12|6.12|$TSC_OPTS|tsc|active|$TIMENS_SUITES|$TIMENS_OFFSET|max|2"
	"tsc-7.2|7.2|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"tsc-7.3|7.3|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"nordtscp-7.2|7.2|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max,-rdtscp|2"
	"gtod-4.19|4.19|$GTOD_419_OPTS|tsc|calibrated|$GTOD_SUITES|0|max|2"
	"gtod-rhel8|rhel8-shape|$GTOD_RHEL8_OPTS|tsc|calibrated|$GTOD_SUITES|0|max|2"
	"gtod-hpet-4.19|4.19||hpet|passthrough|$GTOD_PASS_SUITES|0|max|2"
)

# arm64 (-M virt): the generic timer is the only clocksource, so there is no pass-through
# configuration. QEMU's default 62.5 MHz counter gives mult = 2^27, shift = 23, which any
# arithmetic gets right; at 24 MHz (mult 699050667, shift 24) the rounding is tested.
# pauth-impdef=on: QEMU's own pointer-authentication algorithm, not the architected QARMA that
# makes every guest ~2.5 times slower.
A64_CPU=max,pauth-impdef=on,cntfrq=24000000
A64_CS=arch_sys_counter
# Calibrated mode, forced (FASTRAW_SOURCE=calibrated), can be tested here on 5.3+, unlike on x86: the
# arm64 guest's counter is QEMU's one virtual clock for every vCPU, so it keeps causality across
# them and its rate is the kernel's (measured in these guests: no reading of one vCPU's ahead of
# the other's next in 3-5 million, and e2e_probe_calib's error 0-340 ns after warm-up against
# its 2 us bound, in the ordered and the unordered mode).
CALIB_SUITES=e2e_calib
# e2e_path's trace probe decodes x86-64 only: its arm64 counterpart is e2e_steps, which counts a
# call's instructions by single-stepping it and checks that the library's reads are its own.
A64_ACTIVE_SUITES=${ACTIVE_SUITES/e2e_path/e2e_steps}
A64_TIMENS_SUITES=${TIMENS_SUITES/e2e_path/e2e_steps}
# One configuration also runs the suites of the host-facing guarantees (loader, syscall() and
# its register spy, statistics, vfork, seccomp, unloading, the vDSO's identity, plugins, dlerror).
A64_HOST_SUITES=$A64_ACTIVE_SUITES,e2e_host,e2e_syscall,e2e_stats,e2e_vfork,e2e_sandbox,e2e_unload,e2e_vdso_id,e2e_plugin,e2e_dlerror
# CentOS 7's glibc 2.17 (the oldest the library supports) on arm64: the suites run on Debian's
# glibc as everywhere, but their probes are built with npm's GCC 4.8.5 against glibc 2.17 and
# run under its own loader (scripts/matrix-glibc217.sh; the initramfs carries the sysroot's
# libraries at their host paths). FR_MATRIX_ENV names the probes' environment (env.glibc217),
# which also sets FR_E2E_GLIBC=2.17: e2e_clocks then asserts the probes run on glibc 2.17.
# Skipped alone where npm or the toolchain cannot be had.
A64_GLIBC217_SUITES=e2e_bracket,e2e_clocks,e2e_lookup
CONFIGS_aarch64=(
	"archtimer-6.1|6.1||$A64_CS|active|$A64_ACTIVE_SUITES|0|$A64_CPU|2"
	"archtimer-6.12|6.12||$A64_CS|active|$A64_HOST_SUITES|0|$A64_CPU|2"
	"timens-6.12|6.12||$A64_CS|active|$A64_TIMENS_SUITES|$TIMENS_OFFSET|$A64_CPU|2"
	"archtimer-7.2|7.2||$A64_CS|active|$A64_ACTIVE_SUITES|0|$A64_CPU|2"
	"archtimer-7.3|7.3||$A64_CS|active|$A64_ACTIVE_SUITES|0|$A64_CPU|2"
	"calib-7.2|7.2||$A64_CS|active|$CALIB_SUITES|0|$A64_CPU|2"
	"glibc217-6.12|6.12|FR_MATRIX_ENV=glibc217|$A64_CS|active|$A64_GLIBC217_SUITES|0|$A64_CPU|2"
)

say() { echo "matrix: $*"; }
skip() {
	say "SKIPPED: $*"
	exit "$SKIP"
}

usage() {
	sed -n '3,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
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
case "$arch" in
x86_64 | amd64) arch=x86_64 KARCH=amd64 QEMU=qemu-system-x86_64 QEMU_PKG=qemu-system-x86
	QEMU_MACHINE=q35 CONSOLE=ttyS0 CPU_HEAD=cpu W_CLOCK=7 W_COUNTER=7 CONFIGS=("${CONFIGS_x86_64[@]}") ;;
aarch64 | arm64) arch=aarch64 KARCH=arm64 QEMU=qemu-system-aarch64 QEMU_PKG=qemu-system-arm
	QEMU_MACHINE=virt CONSOLE=ttyAMA0 CPU_HEAD=timer W_CLOCK=9 W_COUNTER=10
	CONFIGS=("${CONFIGS_aarch64[@]}") ;;
*) echo "kernel-matrix.sh: no configurations for $arch (x86_64, aarch64)" >&2; exit 2 ;;
esac
[ "$list" = 0 ] || { if [ "$list" = 1 ]; then usage; exit 0; fi; usage >&2; exit 2; }
case "$JOBS" in '' | *[!0-9]* | 0) echo "kernel-matrix.sh: -j wants a positive number" >&2; exit 2 ;; esac

selected=()
for c in "${CONFIGS[@]}"; do
	if [ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qx "${c%%|*}"; then
		selected+=("$c")
	fi
done
[ ${#selected[@]} -gt 0 ] || { echo "kernel-matrix.sh: no configuration named ${only[*]} (--list)" >&2; exit 2; }

if [ "$build" = 1 ] && [ "$arch" != "$(uname -m)" ]; then
	# The cross build, with its arm64 Check sysroot (exit 77 when the tools cannot be had).
	build_dir=${build_dir:-$FR_MATRIX_ROOT/build-$arch}
	bash "$FR_MATRIX_ROOT/scripts/$arch.sh" "$build_dir"
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

need_tools() {
	if ! command -v "$QEMU" >/dev/null 2>&1; then
		say "installing $QEMU_PKG"
		apt_install "$QEMU_PKG" || skip "$QEMU_PKG is missing and cannot be installed here (needs root and apt-get)"
	fi
	if ! command -v cpio >/dev/null 2>&1; then
		apt_install cpio || skip "cpio is missing and cannot be installed here"
	fi
	command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb: Debian's kernel packages cannot be unpacked here"
}

# Copies one path to the same absolute path under $1.
copy_one() {
	local root=$1 path=$2 link
	if [ -e "$root$path" ] || [ -L "$root$path" ]; then
		return 0
	fi
	mkdir -p "$root$(dirname "$path")"
	link=$(readlink "$path" 2>/dev/null || true)
	# A link to a file beside it (libfastraw.so.0 -> libfastraw.so.0.1.0) stays a link, so the
	# guest sees one library under both names, as the host does; anything else is copied.
	if [ -n "$link" ] && [ "${link#*/}" = "$link" ]; then
		copy_one "$root" "$(dirname "$path")/$link"
		ln -s "$link" "$root$path"
	else
		cp -L "$path" "$root$path"
	fi
}

# Copies a file and the shared objects it needs to the same absolute paths under $1.
stage_with_deps() {
	local root=$1 file=$2 dep
	[ -e "$root$file" ] && return 0
	copy_one "$root" "$file"
	if [ "$arch" != "$(uname -m)" ]; then
		stage_cross_deps "$root" "$file"
		return
	fi
	# ldd prints "name => /path (addr)" and "/path/ld-linux... (addr)"; a static program has none.
	while read -r dep; do
		[ -n "$dep" ] || continue
		copy_one "$root" "$dep"
	done < <(ldd "$file" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
}

# A cross-built file's interpreter and DT_NEEDED libraries, found as the guest's ld.so will
# find them (ldd cannot run it): first in its RUNPATH or RPATH (the build's own libraries, staged
# at their host paths), then in the manifest's libdir lines, the cross libc's and the test
# sysroot's directories, whose libraries go to /lib/<triple>/, one of the guest ld.so's own
# directories. Each library found is staged with its own dependencies.
stage_cross_deps() {
	local root=$1 file=$2 interp name dir found rpath origin
	interp=$("$READELF" -lW "$file" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
		# Else the interpreter at its own path on this host: another glibc's sysroot
		# (matrix-glibc217.sh), whose libraries the file's rpath then finds there too.
		found=$(find_cross_lib "${interp##*/}") || { [ -e "$interp" ] && found=$interp; } ||
			{ say "warning: no ${interp##*/} (the interpreter of $file) in ${LIBDIRS[*]}" >&2; return 0; }
		mkdir -p "$root${interp%/*}"
		cp -L "$found" "$root$interp"
	fi
	origin=${file%/*}
	rpath=$("$READELF" -dW "$file" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p' | head -n 1)
	rpath=${rpath//\$ORIGIN/$origin}
	rpath=${rpath//\$\{ORIGIN\}/$origin}
	while read -r name; do
		[ -n "$name" ] || continue
		found=
		for dir in ${rpath//:/ }; do
			[ -e "$dir/$name" ] && { found=$dir/$name; break; }
		done
		if [ -n "$found" ]; then
			stage_with_deps "$root" "$found"
		elif [ -e "$root/lib/$TRIPLE/$name" ] || [ -e "$root/lib/$name" ]; then
			continue # staged, or the interpreter (libc needs it by name)
		elif found=$(find_cross_lib "$name"); then
			mkdir -p "$root/lib/$TRIPLE"
			cp -L "$found" "$root/lib/$TRIPLE/$name"
			stage_cross_deps "$root" "$found"
		else
			say "warning: no $name (needed by $file) in ${LIBDIRS[*]}" >&2
		fi
	done < <("$READELF" -dW "$file" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
}

# The first of the cross library directories that holds $1.
find_cross_lib() {
	local dir
	for dir in "${LIBDIRS[@]}"; do
		[ -e "$dir/$1" ] && { echo "$dir/$1"; return 0; }
	done
	return 1
}

make_initramfs() {
	local out=$1 root=$work/root init path set
	TRIPLE=$arch-linux-gnu
	READELF=$(command -v "$TRIPLE-readelf" || echo readelf)
	mapfile -t LIBDIRS < <(sed -n 's/^libdir //p' "$manifest")
	LIBDIRS+=("/usr/$TRIPLE/lib")
	rm -rf "$root"
	mkdir -p "$root"/{dev,proc,sys,tmp,matrix}
	cp "$manifest" "$root/matrix/manifest"
	init=$(sed -n 's/^init //p' "$manifest")
	cp "$init" "$root/init"
	while read -r path; do
		# Not built (a suite that does not build for this architecture yet): its guest says so.
		[ -e "$path" ] || { say "warning: $path is missing, not staged" >&2; continue; }
		stage_with_deps "$root" "$path"
	done < <(sed -n 's/^suite [^ ]* //p; s/^env [A-Z_]*=\(\/.*\)/\1/p' "$manifest" "${ENV_SETS[@]/%//env}" | sort -u)
	for set in "${ENV_SETS[@]}"; do
		cp "$set/env" "$root/matrix/env.${set##*/}"
	done
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
}

# Runs QEMU for one configuration in the background and watches its console: killed when it
# has not reported its speed within BOOT_LIMIT s, or prints no line for STALL_LIMIT s times
# that speed factor. Writes "<seconds> <why it was stopped, or nothing>" to $work/$name.time.
boot_guest() {
	local name=$1 kernel=$2 opts=$3 cs=$4 expect=$5 suites=$6 tns=$7 cpu=$8 smp=$9
	local log=$work/$name.log qpid t0 now last=0 lines=0 n factor limit why=
	: >"$log"
	t0=$(date +%s)
	"$QEMU" -machine "$QEMU_MACHINE" -accel tcg -cpu "$cpu" -smp "$smp" -m 1024 \
		-nodefaults -display none -no-reboot -serial "file:$log" \
		-kernel "$kernel" -initrd "$work/initramfs.gz" \
		-append "console=$CONSOLE loglevel=3 panic=-1 $opts FR_MATRIX_SUITES=$suites FR_MATRIX_CLOCKSOURCE=$cs FR_MATRIX_TIMENS=$tns FR_E2E_EXPECT=$expect" \
		>"$work/$name.qemu" 2>&1 &
	qpid=$!
	echo "$qpid" >"$work/$name.qpid"
	last=$t0
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		n=$(grep -c 'FRMATRIX: ' "$log" 2>/dev/null || true)
		if [ "${n:-0}" != "$lines" ]; then
			lines=$n
			last=$now
		fi
		factor=$(sed -n 's/.*FRMATRIX: speed .* factor=\([0-9.]*\).*/\1/p' "$log" | head -n 1)
		if [ -z "$factor" ]; then
			limit=$BOOT_LIMIT
			[ $((now - t0)) -lt "$limit" ] && continue
			why="no speed report within ${limit}s"
		else
			limit=$(awk -v f="$factor" -v s="$STALL_LIMIT" 'BEGIN { printf "%d", f * s + 0.5 }')
			[ $((now - last)) -lt "$limit" ] && continue
			why="no progress for ${limit}s (speed factor $factor)"
		fi
		kill "$qpid" 2>/dev/null || true
		break
	done
	wait "$qpid" 2>/dev/null || true
	rm -f "$work/$name.qpid"
	echo "$(($(date +%s) - t0)) $why" >"$work/$name.time"
}

# What one configuration's console says, as one result line and its details; returns 0 when
# every suite passed.
report_config() {
	local name=$1 suites=$2 cpu=$3 smp=$4 log=$work/$1.log.txt
	local want done_line pass fail machine lib oracle secs why speed status=FAIL shown=$3
	tr -d '\r' <"$work/$name.log" >"$log" 2>/dev/null || : >"$log"
	read -r secs why <"$work/$name.time"
	want=$(tr ',' '\n' <<<"$suites" | wc -l)
	done_line=$(grep -o 'FRMATRIX: done pass=[0-9]* fail=[0-9]*' "$log" | tail -n 1 || true)
	if [ "$arch" = x86_64 ]; then
		machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) rdtscp=\([01]\).*/\1 clocksource=\2 rdtscp=\3/p' "$log" | head -n 1)
	else
		# The table's column for the CPU shows the generic timer as the guest saw it instead.
		machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) ecv=\([01]\) cntfrq=\([0-9]*\).*/\1 clocksource=\2 ecv=\3 cntfrq=\4/p' "$log" | head -n 1)
		shown=$(sed -n 's/.* ecv=\([01]\) cntfrq=\([0-9]*\)/\2 \1/p' <<<"$machine" |
			awk '{ printf "%gMHz ecv=%s", $1 / 1e6, $2 }')
	fi
	# The library's view: clock mode, counter and active, or why it passes through.
	lib=$(sed -n 's/^fastraw\[[0-9]*\] [^:]*: kernel=[^ ]* era=\([^ ]*\) clock=\([^ ]*\) counter=\([^ ]*\) \(.*\)/era=\1 clock=\2 counter=\3 \4/p' "$log" | head -n 1)
	speed=$(sed -n 's/^FRMATRIX: speed .* factor=\([0-9.]*\).*/\1/p' "$log" | head -n 1)
	oracle=$(grep -o 'oracle: counter=.*' "$log" | head -n 1 || true)
	[ -n "$oracle" ] || oracle="oracle: no summary line ($(grep -c '^SKIP: oracle' "$log" || true) SKIP lines)"
	tr ',' '\n' <<<"$suites" | grep -qx oracle || oracle="oracle: not run here"
	pass=$(sed -n 's/.*pass=\([0-9]*\).*/\1/p' <<<"$done_line")
	fail=$(sed -n 's/.*fail=\([0-9]*\).*/\1/p' <<<"$done_line")
	[ -n "$done_line" ] && [ "$fail" = 0 ] && [ "$pass" = "$want" ] && status=PASS
	printf 'matrix: %-16s %s  %s/%s suites  %s -cpu %s -smp %s  %3ds (speed factor %s)%s\n' "$name" "$status" \
		"${pass:-0}" "$want" "${machine:-?}" "$cpu" "$smp" "$secs" "${speed:-?}" \
		"$([ -n "$done_line" ] || echo "  (no result: ${why:-crashed})")"
	printf 'matrix: %-16s   library: %s\n' "" "${lib:-no FASTRAW_DEBUG line}"
	printf 'matrix: %-16s   %s\n' "" "$oracle"
	printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$name" "$status" "${machine%% *}" "${shown:-?}" \
		"$(sed -n 's/.*clock=\([^ ]*\).*/\1/p' <<<"$lib")" "$(sed -n 's/.*counter=\([^ ]*\).*/\1/p' <<<"$lib")" \
		"${pass:-0}/$want" "$secs" "$oracle" >"$work/$name.row"
	[ "$status" = PASS ] && return 0
	grep '^FRMATRIX: suite .* fail' "$log" | sed 's/^/    /' || true
	echo "    --- last lines of the console ($log):"
	tail -n 80 "$log" | sed 's/^/    /'
	[ -s "$work/$name.qemu" ] && sed 's/^/    qemu: /' "$work/$name.qemu"
	return 1
}

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
		say "SKIPPED $name: no Linux $series image at $SHARED_KERNELS/$series/bzImage (FASTRAW_SHARED_KERNELS)"
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
# $build_dir/matrix/NAME/ with their env file; where the toolchain cannot be had (77) the
# configurations that want them are skipped. A failed build is left for their guests to report
# (no env file: their init fails the set-up).
ENV_SETS=()
if printf '%s\n' "${selected[@]}" | grep -q 'FR_MATRIX_ENV=glibc217'; then
	rc=0
	bash "$FR_MATRIX_ROOT/scripts/matrix-glibc217.sh" "$arch" "$build_dir/matrix/glibc217" || rc=$?
	if [ "$rc" = 0 ]; then
		ENV_SETS+=("$build_dir/matrix/glibc217")
	elif [ "$rc" = "$SKIP" ]; then
		runnable=()
		for c in "${selected[@]}"; do
			case "$c" in
			*FR_MATRIX_ENV=glibc217*) say "SKIPPED ${c%%|*}: no glibc 2.17 toolchain"; skipped+=("${c%%|*}") ;;
			*) runnable+=("$c") ;;
			esac
		done
		[ ${#runnable[@]} -gt 0 ] || skip "no glibc 2.17 toolchain for ${skipped[*]}"
		selected=("${runnable[@]}")
	fi
fi
make_initramfs "$work/initramfs.gz"

# One configuration, in the background: its guest, then its report, printed as soon as it is
# complete (whole, so that guests side by side do not mix their lines).
run_config() {
	local name=$1 series=$2 opts=$3 cs=$4 expect=$5 suites=$6 tns=$7 cpu=$8 smp=$9 secs why boot retried=
	# A kernel that hangs before the guest's init runs leaves the console without a line of it
	# (4.19 did, silently, in 2 of about 30 boots on a loaded 2-core host under TCG; never once
	# its init had started): up to two more boots, each said in the report. A guest that started
	# its suites is never booted again.
	for boot in 1 2 3; do
		boot_guest "$name" "${kernel_of[$series]}" "$opts" "$cs" "$expect" "$suites" "$tns" "$cpu" "$smp"
		grep -q 'FRMATRIX: ' "$work/$name.log" 2>/dev/null && break
		[ "$boot" = 3 ] && break
		read -r secs why <"$work/$name.time"
		mv "$work/$name.log" "$work/$name.boot$boot.log"
		retried+="${retried:+; }boot $boot printed nothing of the guest's init (${why:-it ended} after ${secs}s)"
	done
	if report_config "$name" "$suites" "$cpu" "$smp" >"$work/$name.report" 2>&1; then
		echo pass >"$work/$name.status"
	else
		echo fail >"$work/$name.status"
	fi
	[ -z "$retried" ] || say "                   booted again: $retried" >>"$work/$name.report"
	cat "$work/$name.report"
}

# Interrupted (CTest's timeout, ^C): the guests still running go too.
stop_guests() {
	local f
	for f in "$work"/*.qpid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	exit 1
}
trap stop_guests INT TERM

t_all=$(date +%s) ran=0 passed=0 running=0
for c in "${selected[@]}"; do
	IFS='|' read -r name series opts cs expect suites tns cpu smp <<<"$c"
	suites=${suites_only:-$suites}
	run_config "$name" "$series" "$opts" "$cs" "$expect" "$suites" "$tns" "$cpu" "$smp" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait || true
for c in "${selected[@]}"; do
	name=${c%%|*}
	ran=$((ran + 1))
	[ "$(cat "$work/$name.status" 2>/dev/null)" = pass ] && passed=$((passed + 1))
	cat "$work/$name.row" 2>/dev/null >>"$work/table" || echo "$name|FAIL|?|?|?|?|?|?|no report" >>"$work/table"
done
echo
printf "matrix: %-16s %-4s %-28s %-11s %-${W_CLOCK}s %-${W_COUNTER}s %-6s %5s  %s\n" config result kernel "$CPU_HEAD" \
	clock counter suites secs oracle
while IFS='|' read -r name status kernel cpu clock counter suites secs oracle; do
	printf "matrix: %-16s %-4s %-28s %-11s %-${W_CLOCK}s %-${W_COUNTER}s %-6s %4ss  %s\n" "$name" "$status" "$kernel" "$cpu" \
		"${clock:-?}" "${counter:-?}" "$suites" "$secs" "${oracle#oracle: }"
done <"$work/table"
say "$passed/$ran configurations passed in $(($(date +%s) - t_all)) s, $JOBS at a time${skipped[0]:+, ${#skipped[@]} skipped (${skipped[*]})} (logs: $work)"
[ "$keep" = 1 ] || rm -f "$work/initramfs.gz"
[ "$passed" = "$ran" ]
