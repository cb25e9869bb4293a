# SPDX-License-Identifier: MIT
# The kernel matrix's configurations: which guests each architecture boots and what each runs and expects.
# shellcheck shell=bash
#
# Sourced by kernel-matrix.sh. Data only, but for matrix_arch (the QEMU and console facts of an
# architecture) and guest_machine (how its report reads the guest's CPU line). A new guest is one
# line of a CONFIGS_<arch> table; a new architecture is one table, one case of matrix_arch and
# one of guest_machine.
# shellcheck disable=SC2034 # kernel-matrix.sh reads them

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
# Root in the guest, e2e_settime slews and steps the clock (adjtimex, clock_settime, a leap
# second, ADJ_TAI) under the oracle on the live pages and the served clocks' probe: in one 6.x and
# one 7.x guest of each architecture (about 30 s each).
SETTIME_SUITES=$ACTIVE_SUITES,e2e_settime
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
# FR_E2E_GTOD (a boot option init passes on) names the layout e2e_calib must see on the debug line.
GTOD_419_OPTS="$TSC_OPTS FR_E2E_GTOD=3.16-4.19"
# RHEL 7.9 (3.10.0-1160.el7, a prebuilt image: $FASTRAW_SHARED_KERNELS/el7/bzImage): no RAW data,
# the 3.10 gtod page at its fixed address (no [vvar]), read once the vDSO's own code proves it
# mapped. On tsc its clock mode is TSC and auto runs calibrated mode by that verdict, seeded from
# the page (FR_E2E_GTOD=3.10 on the debug line); e2e_calib's drift case follows the kernel's RAW,
# which accumulates a truncated raw_interval before 4.13, for FR_E2E_CALIB_SECONDS; the guest
# also measures fastraw-latency with and without the library (FR_MATRIX_LATENCY). el7-glibc217
# runs e2e_clocks, e2e_lookup and e2e_calib's bound with probes built against glibc 2.17.
# no_timer_check: under TCG on a loaded host 3.10's check_timer once panicked ("IO-APIC + timer
# doesn't work!"); RHEL skips that check itself under KVM.
EL7_OPTS="$TSC_OPTS no_timer_check FR_E2E_GTOD=3.10 FR_E2E_CALIB_SECONDS=60 FR_MATRIX_LATENCY=1"
EL7_GLIBC217_OPTS="$TSC_OPTS no_timer_check FR_E2E_GTOD=3.10 FR_MATRIX_ENV=glibc217"
EL7_GLIBC217_SUITES=e2e_clocks,e2e_lookup,e2e_calib:calib
# RHEL 7.9's lockdep build ($FASTRAW_SHARED_KERNELS/el7-debug/bzImage: CONFIG_DEBUG_LOCK_ALLOC,
# a 40-byte seqcount before the clock fields): the page read as the 3.10-debug layout it holds,
# not the 3.10 one its release implies, and calibrated mode seeded from it.
EL7_DEBUG_OPTS="$TSC_OPTS no_timer_check FR_E2E_GTOD=3.10-debug"
EL7_DEBUG_SUITES=e2e_causality,e2e_calib,e2e_lookup
# RHEL 8.10's shape (Debian's 5.10 relabelled 4.18.0-553.el8_10.x86_64, matrix-relabel.sh): the
# generic vDSO of 5.10's era under a 4.18 release, as RHEL 8.4-8.10 ship. The library assumes the
# layout the page and the vDSO prove; FR_E2E_ERA names the era the debug line must say: 5.7-6.4,
# whose delta rules the vDSO's code has (it does not mask the counter with S64_MAX).
EL8_OPTS="$TSC_OPTS FR_E2E_ERA=5.7-6.4"
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
	"tsc-6.12|6.12|$TSC_OPTS|tsc|active|$SETTIME_SUITES|0|max|2"
	"hpet-6.1|6.1|clocksource=hpet|hpet|passthrough|$PASS_SUITES|0|max|2"
	"timens-tsc-6.12|6.12|$TSC_OPTS|tsc|active|$TIMENS_SUITES|$TIMENS_OFFSET|max|2"
	"tsc-7.2|7.2|$TSC_OPTS|tsc|active|$SETTIME_SUITES|0|max|2"
	"tsc-7.3|7.3|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"nordtscp-7.2|7.2|$TSC_OPTS|tsc|active|$ACTIVE_SUITES|0|max,-rdtscp|2"
	"gtod-4.19|4.19|$GTOD_419_OPTS|tsc|calibrated|$GTOD_SUITES|0|max|2"
	"el8.10-shape|el8.10|$EL8_OPTS|tsc|active|$ACTIVE_SUITES|0|max|2"
	"gtod-hpet-4.19|4.19||hpet|passthrough|$GTOD_PASS_SUITES|0|max|2"
	"el7|el7|$EL7_OPTS|tsc|calibrated|$GTOD_SUITES|0|max|2"
	"el7-glibc217|el7|$EL7_GLIBC217_OPTS|tsc|calibrated|$EL7_GLIBC217_SUITES|0|max|2"
	"el7-debug|el7-debug|$EL7_DEBUG_OPTS|tsc|calibrated|$EL7_DEBUG_SUITES|0|max|2"
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
A64_SETTIME_SUITES=$A64_ACTIVE_SUITES,e2e_settime
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
	"archtimer-6.1|6.1||$A64_CS|active|$A64_SETTIME_SUITES|0|$A64_CPU|2"
	"archtimer-6.12|6.12||$A64_CS|active|$A64_HOST_SUITES|0|$A64_CPU|2"
	"timens-6.12|6.12||$A64_CS|active|$A64_TIMENS_SUITES|$TIMENS_OFFSET|$A64_CPU|2"
	"archtimer-7.2|7.2||$A64_CS|active|$A64_SETTIME_SUITES|0|$A64_CPU|2"
	"archtimer-7.3|7.3||$A64_CS|active|$A64_ACTIVE_SUITES|0|$A64_CPU|2"
	"calib-7.2|7.2||$A64_CS|active|$CALIB_SUITES|0|$A64_CPU|2"
	"glibc217-6.12|6.12|FR_MATRIX_ENV=glibc217|$A64_CS|active|$A64_GLIBC217_SUITES|0|$A64_CPU|2"
)

# 32-bit ARM (armhf, -M virt): Debian's armmp kernels, bookworm's 6.1 and trixie's 6.12 (both
# boot on virt and read the initramfs without modules; armmp-lpae would too), whose vDSO is the
# generic one (5.5+) and serves RAW from the generic timer, the only clocksource. -cpu
# cortex-a15 is an ARMv7-A core with the generic timer, at 24 MHz as arm64's guests. The suites
# run on bookworm's glibc 2.36 (the cross toolchain's), their programs built with a 32-bit
# time_t; FR_MATRIX_ENV=bullseye and =trixie point the probes of e2e_bracket, e2e_clocks,
# e2e_causality and e2e_lookup at copies built against Debian's own armhf glibc of that release
# (scripts/matrix-debian-glibc.sh): bullseye's 2.31, whose programs call clock_gettime with a
# 32-bit time_t, and trixie's, built with a 64-bit time_t as trixie's own packages are, whose
# programs call __clock_gettime64. No time namespace: 32-bit ARM kernels have none (arm does not
# select GENERIC_VDSO_TIME_NS, so TIME_NS cannot be set), and the guest leaves the suites'
# timens cases out as on 4.19.
ARM_CPU=cortex-a15,cntfrq=24000000
ARM_CS=arch_sys_counter
# The oracle runs the guest's own A32 vDSO code (tests/oracle/arm/ with the ARM family's
# tests/oracle/armfam/) in armmp-6.1 and trixie-6.12. e2e_steps runs in armmp-6.1 (about 7 s):
# 32-bit ARM's ptrace has no PTRACE_SINGLESTEP (EIO), so its probe steps with breakpoints
# (tests/steps/softstep_arm.c). e2e_unload and e2e_stats (whose probes dlopen the library) and
# e2e_syscall run on 6.1 (measured: 3 s, 7-11 s, 34 s); e2e_api passes there too but takes 190 s
# (measured at speed factor 4.3), more than the suite's time budget leaves; no e2e_settime (the
# live oracle is arm64's and x86's). The lists are kept short for time: under
# TCG e2e_bracket takes 1-4 min a guest, e2e_lookup 1-2, e2e_env and e2e_lifecycle 2-5 (measured
# beside four other builds on 2 cores).
# Three guests, not four, for the suite's time budget: the 6.12 kernel runs the userlands' two,
# which also run the cross-built suites (their probes replaced), so an armmp-6.12 guest of its
# own (measured: bracket, causality, clocks, lookup and vdso_id pass there) adds no kernel.
ARM_ACTIVE_SUITES=oracle,e2e_bracket,e2e_causality,e2e_clocks,e2e_lookup,e2e_lifecycle,e2e_steps,e2e_unload,e2e_stats,e2e_syscall
ARM_USERLAND_SUITES=e2e_bracket,e2e_clocks,e2e_causality,e2e_lookup
# Linux 4.19 and 5.4 on 32-bit ARM (prebuilt images, $FASTRAW_SHARED_KERNELS/arm-4.19/zImage and
# arm-5.4/zImage, skipped alone where absent, so never in CI): the pre-5.5 vDSO serves no RAW, and
# its struct vdso_data in the one [vvar] page (tk_is_cntvct 1) seeds calibrated mode, which auto
# picks (FR_E2E_GTOD=arm-4.1-5.4 on the debug line) and serves. The images must be built without
# CPU_SW_DOMAIN_PAN: with it every kernel entry writes DACR, on which QEMU's TCG flushes its TLB,
# and the RAW system call takes 236-251 counter ticks (10 us at 24 MHz) against 22-26 without;
# sandwiches bound RAW no tighter than the narrowest one (calib_math.c), so calibrated mode then
# never leaves its warm-up and the suites that need its speed stall. e2e_calib's drift case runs
# 60 s there (FR_E2E_CALIB_SECONDS), as in el7. The suites of x86's gtod
# guests: e2e_lookup's probe finds no __vdso_clock_gettime64 in these vDSOs (5.5+ only) and
# asserts the lookups of __vdso_clock_gettime, and that those of the missing name fail.
ARM_GTOD_SUITES=e2e_causality,e2e_clocks,e2e_vfork,e2e_calib,e2e_lookup
CONFIGS_arm=(
	"armmp-6.1|6.1||$ARM_CS|active|$ARM_ACTIVE_SUITES|0|$ARM_CPU|2"
	"bullseye-6.12|6.12|FR_MATRIX_ENV=bullseye|$ARM_CS|active|$ARM_USERLAND_SUITES|0|$ARM_CPU|2"
	"trixie-6.12|6.12|FR_MATRIX_ENV=trixie|$ARM_CS|active|oracle,$ARM_USERLAND_SUITES,e2e_vdso_id|0|$ARM_CPU|2"
	"calib-arm-4.19|arm-4.19|FR_E2E_GTOD=arm-4.1-5.4 FR_E2E_CALIB_SECONDS=60|$ARM_CS|calibrated|$ARM_GTOD_SUITES|0|$ARM_CPU|2"
	"calib-arm-5.4|arm-5.4|FR_E2E_GTOD=arm-4.1-5.4 FR_E2E_CALIB_SECONDS=60|$ARM_CS|calibrated|$ARM_GTOD_SUITES|0|$ARM_CPU|2"
)

# matrix_arch ARCH: sets the guests' architecture (arch, Debian's name KARCH and kernel flavour
# KFLAVOUR, the GNU triple TRIPLE of its libraries' folder), its QEMU (binary, package,
# machine), the console the kernel writes to, the table's CPU column heading and the widths of
# its clock and counter columns, and CONFIGS; 1 when there is no table for ARCH.
matrix_arch() {
	case "$1" in
	x86_64 | amd64) arch=x86_64 KARCH=amd64 KFLAVOUR=cloud TRIPLE=x86_64-linux-gnu QEMU=qemu-system-x86_64
		QEMU_PKG=qemu-system-x86 QEMU_MACHINE=q35 CONSOLE=ttyS0 CPU_HEAD=cpu W_CLOCK=7 W_COUNTER=7
		CONFIGS=("${CONFIGS_x86_64[@]}") ;;
	aarch64 | arm64) arch=aarch64 KARCH=arm64 KFLAVOUR=cloud TRIPLE=aarch64-linux-gnu QEMU=qemu-system-aarch64
		QEMU_PKG=qemu-system-arm QEMU_MACHINE=virt CONSOLE=ttyAMA0 CPU_HEAD=timer W_CLOCK=9 W_COUNTER=10
		CONFIGS=("${CONFIGS_aarch64[@]}") ;;
	arm | armhf | armv7l | armv8l) arch=arm KARCH=armhf KFLAVOUR=armmp TRIPLE=arm-linux-gnueabihf QEMU=qemu-system-arm
		QEMU_PKG=qemu-system-arm QEMU_MACHINE=virt CONSOLE=ttyAMA0 CPU_HEAD=timer W_CLOCK=9 W_COUNTER=10
		CONFIGS=("${CONFIGS_arm[@]}") ;;
	*) return 1 ;;
	esac
}

# guest_machine LOG CPU: the guest's own line on its CPU, as "<kernel> clocksource=<cs> <facts>",
# then a line with what the table's CPU column shows (x86: the QEMU -cpu; arm64: the generic
# timer as the guest saw it). Either line is empty when the guest printed none.
guest_machine() {
	local log=$1 cpu=$2 machine
	case "$arch" in
	x86_64)
		machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) rdtscp=\([01]\).*/\1 clocksource=\2 rdtscp=\3/p' "$log" | head -n 1)
		printf '%s\n%s\n' "$machine" "$cpu"
		;;
	aarch64)
		machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) ecv=\([01]\) cntfrq=\([0-9]*\).*/\1 clocksource=\2 ecv=\3 cntfrq=\4/p' "$log" | head -n 1)
		printf '%s\n%s\n' "$machine" "$(sed -n 's/.* ecv=\([01]\) cntfrq=\([0-9]*\)/\2 \1/p' <<<"$machine" |
			awk '{ printf "%gMHz ecv=%s", $1 / 1e6, $2 }')"
		;;
	arm)
		machine=$(sed -n 's/^FRMATRIX: kernel=\([^ ]*\) clocksource=\([^ ]*\) cntvct=\([01]\) cntfrq=\([0-9]*\).*/\1 clocksource=\2 cntvct=\3 cntfrq=\4/p' "$log" | head -n 1)
		printf '%s\n%s\n' "$machine" "$(sed -n 's/.* cntvct=\([01]\) cntfrq=\([0-9]*\)/\2 \1/p' <<<"$machine" |
			awk '{ printf "%gMHz pl0=%s", $1 / 1e6, $2 }')"
		;;
	esac
}
