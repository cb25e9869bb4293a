#!/bin/sh
# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-info, its answers checked against uname, sysfs, /proc/cpuinfo, dmesg and its environment.
# Usage: info_transcript.sh CASE TOOL LIBRARY, CASE one of plain preload env clocks json usage timens release.
# Exit 0 pass, 1 fail, 77 skip. FR_TARGET_ARCH and FR_EMULATOR: tests/tools/arch_facts.sh.
# shellcheck disable=SC2086 # $RUN (the emulator's words, or nothing) and $TOOLCHAIN are meant to split
set -u
# shellcheck source=tests/tools/arch_facts.sh
. "$(dirname "$0")/arch_facts.sh"
what=${1:?usage: info_transcript.sh CASE TOOL LIBRARY}
tool=${2:?no tool}
lib=${3:?no library}
unset FASTRAW_TSC FASTRAW_DISABLE FASTRAW_DEBUG FASTRAW_CLOCKS LD_PRELOAD
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run NAME COMMAND...: runs it, keeps NAME.out, NAME.err and NAME.rc, and shows the transcript.
run() {
	n=$1
	shift
	"$@" >"$tmp/$n.out" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
	echo "\$ $*"
	cat "$tmp/$n.out"
	sed 's/^/stderr| /' "$tmp/$n.err"
	echo "exit $(cat "$tmp/$n.rc")"
}

# field NAME KEY: the value of "KEY:" in NAME's text output.
field() { awk -v k="$2:" 'index($0, k) == 1 { sub(/^[^:]*: */, ""); print }' "$tmp/$1.out"; }

# eq DESCRIPTION GOT WANT
eq() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else fail "$1: got '$2', want '$3'"; fi
}

# rc NAME WANT; quiet NAME (stderr empty); warned NAME PATTERN COUNT
rc() { eq "$1 exit status" "$(cat "$tmp/$1.rc")" "$2"; }
quiet() { eq "$1 stderr empty" "$(wc -c <"$tmp/$1.err" | tr -d ' ')" 0; }
warned() { eq "$1 stderr: $2 lines" "$(grep -c -- "$2" "$tmp/$1.err")" "$3"; }
# The FASTRAW_DEBUG line of run $1 without its "fastraw[PID] fastraw-info: " prefix.
debug_line() { grep '^fastraw\[[0-9]*\] fastraw-info: kernel=' "$tmp/$1.err" | sed 's/^fastraw\[[0-9]*\] fastraw-info: //'; }

# Under qemu-user /proc/cpuinfo is the host's: the feature is what the emulated CPU reports,
# taken from the tool itself (the one fact here not checked against another source).
if [ "$emulated" = 1 ]; then
	has_ordered=$($RUN "$tool" -n 0 | awk -v k="$feature_key:" 'index($0, k) == 1 { print $2 }')
elif cpu_has "$cpuinfo_flag"; then has_ordered=yes
else has_ordered=no; fi
if [ "$has_ordered" = yes ]; then default_counter="$ctr_ord (default: CPU has $feature)"
else default_counter="$ctr_fen (default: no $feature)"; fi

# The cpu line's vendor: x86's vendor_id; arm64's MIDR implementer, checked as a hex part number.
check_cpu() {
	n=$1
	case $arch in
	x86_64)
		eq "$n cpu vendor = /proc/cpuinfo" "$(field "$n" cpu | cut -d' ' -f1)" \
			"$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)"
		;;
	*)
		midr=$(cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 2>/dev/null)
		if [ -n "$midr" ]; then
			part=$(printf '0x%03x' $(((midr >> 4) & 0xfff)))
			case $(field "$n" cpu) in
			*" part $part r"*) echo "ok: $n cpu part $part = midr_el1" ;;
			*) fail "$n cpu '$(field "$n" cpu)' does not name part $part of midr_el1 $midr" ;;
			esac
		else
			eq "$n cpu without midr_el1" "$(field "$n" cpu)" "unknown (the CPU's identity cannot be read here)"
		fi
		;;
	esac
}

# arm64: the counter frequency line (CNTFRQ_EL0), and where the page was read, the RAW
# clocksource's rate from mult/shift, which the kernel computed from the same frequency.
check_rate() {
	n=$1
	[ "$arch" = x86_64 ] && return 0
	rate=$(field "$n" 'counter frequency')
	case $rate in
	*" MHz ("*" Hz, cntfrq_el0)") echo "ok: $n counter frequency $rate" ;;
	*) fail "$n counter frequency line: '$rate'" ;;
	esac
	hz=$(echo "$rate" | sed -n 's/.*(\([0-9]*\) Hz.*/\1/p')
	khz=$(field "$n" 'raw mult/shift' | sed -n 's/.*(\([0-9]*\) Hz)$/\1/p')
	if [ -n "$hz" ] && [ -n "$khz" ]; then
		awk -v a="$hz" -v b="$khz" 'BEGIN { d = a - b; exit !(d < b / 1000 && -d < b / 1000) }' &&
			echo "ok: $n cntfrq $hz Hz ~ mult/shift $khz Hz" || fail "$n cntfrq $hz Hz, mult/shift says $khz Hz"
	fi
}

# The checks every text report must pass, whatever the environment: independent sources first.
common() {
	n=$1
	rc "$n" 0
	eq "$n kernel = uname -r" "$(field "$n" kernel)" "$(uname -r)"
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	av=$(sed 's/ *$//' /sys/devices/system/clocksource/clocksource0/available_clocksource)
	eq "$n clocksource = sysfs" "$(field "$n" clocksource)" "$cs (available: $av)"
	eq "$n $feature_key = /proc/cpuinfo" "$(field "$n" "$feature_key")" "$has_ordered"
	check_cpu "$n"
	if [ "$arch" = x86_64 ] && [ "$(field "$n" 'invariant tsc')" = yes ]; then
		cpu_has nonstop_tsc && echo "ok: $n invariant tsc and nonstop_tsc agree" ||
			fail "$n invariant tsc without nonstop_tsc in /proc/cpuinfo"
	elif [ "$arch" != x86_64 ]; then
		# The architecture's generic timer is invariant by definition.
		eq "$n invariant $counter_word" "$(field "$n" "invariant $counter_word")" yes
	fi
	check_rate "$n"
	mode=$(expected_mode)
	got_mode=$(field "$n" 'clock mode')
	# An erratum workaround makes arm64's mode ARCHTIMER_NOCOMPAT, read the same way by 64-bit tasks.
	[ "$mode/$got_mode" = archtimer/archtimer_nocompat ] && mode=$got_mode
	eq "$n clock mode follows the clocksource" "$got_mode" "$mode"
	if [ "$mode" = pvclock ]; then
		eq "$n pvclock stable" "$(field "$n" 'pvclock stable')" yes
		# kvm-clock counts nanoseconds: mult must be 2^shift, 1 GHz.
		shift_=$(field "$n" 'raw mult/shift' | sed 's|^[0-9]*/\([0-9]*\) .*|\1|')
		eq "$n raw mult/shift of a 1 GHz clocksource" "$(field "$n" 'raw mult/shift')" \
			"$((1 << shift_))/$shift_ (1000000000 Hz)"
		mhz=$(field "$n" 'tsc frequency (pvclock)' | cut -d' ' -f1)
		kmhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | head -n 1)
		if [ -n "$kmhz" ]; then
			# The kernel's figure is from calibration or kvmclock: within 0.5%.
			awk -v a="$mhz" -v b="$kmhz" 'BEGIN { d = a - b; exit !(d < b / 200 && -d < b / 200) }' &&
				echo "ok: $n tsc frequency $mhz MHz ~ dmesg $kmhz MHz" ||
				fail "$n tsc frequency $mhz MHz, dmesg says $kmhz MHz"
		fi
	else
		eq "$n no pvclock stable line outside pvclock mode" "$(field "$n" 'pvclock stable')" ""
	fi
	[ -z "$(field "$n" 'vdso era')" ] && fail "$n: no vdso era line"
	# Every line is "key:" padded to one column, then the value.
	eq "$n lines aligned" "$(awk '{ p = index($0, ": "); while (substr($0, p + 1, 1) == " ") p++; print p }' \
		"$tmp/$n.out" | sort -u)" 25
}

# active_or_reason NAME: the fast path is on wherever the pages allow it.
active_expected() {
	if mode_served "$(field "$1" 'clock mode')"; then
		eq "$1 fast path" "$(field "$1" 'fast path')" active
	else
		case $(field "$1" 'fast path') in
		"passthrough ("*")") echo "ok: $1 passthrough with a reason" ;;
		*) fail "$1: clock mode without a fast path, yet: $(field "$1" 'fast path')" ;;
		esac
	fi
}

# What a preloaded run's agreement test measured: the fast path where it is active.
preloaded_measure() {
	[ "$(field "$1" 'fast path')" = active ] && echo "libfastraw fast path" || echo "libfastraw pass-through"
}

case $what in
plain)
	run plain $RUN "$tool"
	common plain
	quiet plain
	active_expected plain
	eq "plain counter" "$(field plain counter)" "$default_counter"
	# qemu-user maps no data pages: whether this is a namespace is then unknown.
	[ "$emulated" = 1 ] && want_ns=unknown || want_ns=no
	eq "plain time namespace" "$(field plain 'time namespace')" "$want_ns"
	eq "plain measures libc" "$(field plain agreement)" "100000 samples, 0 violations (libc)"
	case $(field plain clock_gettime) in
	*libfastraw* | *preloaded*) fail "plain: clock_gettime from libfastraw" ;;
	*) echo "ok: plain clock_gettime from $(field plain clock_gettime)" ;;
	esac
	;;
preload)
	run pre env LD_PRELOAD="$lib" $RUN "$tool"
	common pre
	quiet pre
	active_expected pre
	eq "preloaded clock_gettime" "$(field pre clock_gettime)" "$lib (preloaded)"
	eq "preloaded agreement" "$(field pre agreement)" "100000 samples, 0 violations ($(preloaded_measure pre))"
	run pre_dis env LD_PRELOAD="$lib" FASTRAW_DISABLE=1 $RUN "$tool" -n 20000
	common pre_dis
	eq "preloaded, disabled" "$(field pre_dis 'fast path')" "passthrough (disabled by FASTRAW_DISABLE)"
	eq "preloaded, disabled agreement" "$(field pre_dis agreement)" \
		"20000 samples, 0 violations (libfastraw pass-through)"
	# One debug line, the library's: the tool's own copy of the start-up code stays silent.
	run pre_dbg env LD_PRELOAD="$lib" FASTRAW_DEBUG=1 $RUN "$tool" -n 1000
	warned pre_dbg '^fastraw\[[0-9]*\] fastraw-info: kernel=' 1
	;;
env)
	run dis env FASTRAW_DISABLE=1 $RUN "$tool" -n 10000
	common dis
	quiet dis
	eq "disabled" "$(field dis 'fast path')" "passthrough (disabled by FASTRAW_DISABLE)"
	eq "disabled source" "$(field dis source)" "none (every RAW call to the kernel)"
	run cal env FASTRAW_SOURCE=calibrated $RUN "$tool" -n 10000
	common cal
	quiet cal
	case $(field cal 'fast path') in
	"calibrated (kernel data not used: "*")") echo "ok: FASTRAW_SOURCE=calibrated fast path" ;;
	*) fail "FASTRAW_SOURCE=calibrated: fast path is $(field cal 'fast path')" ;;
	esac
	case $(field cal source) in
	"calibrated (seed "*"; within 2 us after warm-up)") echo "ok: calibrated source" ;;
	*) fail "FASTRAW_SOURCE=calibrated: source is $(field cal source)" ;;
	esac
	case $(field cal 'calibrated mode') in
	eligible | "not eligible ("*")") echo "ok: calibrated mode eligibility stated" ;;
	*) fail "calibrated mode line: $(field cal 'calibrated mode')" ;;
	esac
	run off env FASTRAW_SOURCE=off $RUN "$tool" -n 10000
	eq "FASTRAW_SOURCE=off" "$(field off 'fast path')" "passthrough (disabled by FASTRAW_SOURCE=off)"
	run uno env FASTRAW_TSC="$ctr_uno" $RUN "$tool" -n 10000
	common uno
	quiet uno
	eq "FASTRAW_TSC=$ctr_uno" "$(field uno counter)" "$ctr_uno (FASTRAW_TSC=$ctr_uno)"
	active_expected uno
	run fen env FASTRAW_TSC="$ctr_fen" $RUN "$tool" -n 10000
	eq "FASTRAW_TSC=$ctr_fen" "$(field fen counter)" "$ctr_fen (FASTRAW_TSC=$ctr_fen)"
	run bogus env FASTRAW_TSC=bogus $RUN "$tool" -n 10000
	common bogus
	warned bogus "FASTRAW_TSC=bogus is not one of $ctr_accepted" 1
	eq "FASTRAW_TSC=bogus" "$(field bogus counter)" "${default_counter%)}; FASTRAW_TSC=bogus not understood)"
	run pre_bogus env LD_PRELOAD="$lib" FASTRAW_TSC=bogus $RUN "$tool" -n 10000
	warned pre_bogus 'FASTRAW_TSC=bogus' 1
	run ord env FASTRAW_TSC="$ctr_ord" $RUN "$tool" -n 10000
	common ord
	if [ "$has_ordered" = no ]; then
		eq "FASTRAW_TSC=$ctr_ord without $feature" "$(field ord counter)" \
			"$ctr_fen (FASTRAW_TSC=$ctr_ord, but this CPU has no $feature)"
		warned ord "FASTRAW_TSC=$ctr_ord but this CPU has no $feature" 1
	else
		eq "FASTRAW_TSC=$ctr_ord" "$(field ord counter)" "$ctr_ord (FASTRAW_TSC=$ctr_ord)"
		quiet ord
	fi
	;;
clocks)
	# Which clocks a preloaded process serves (FASTRAW_CLOCKS), and why the others go to the vDSO.
	others="REALTIME MONOTONIC BOOTTIME TAI REALTIME_COARSE MONOTONIC_COARSE"
	run cdef $RUN "$tool" -n 0
	common cdef
	quiet cdef
	run call env FASTRAW_CLOCKS=all $RUN "$tool" -n 0
	common call
	quiet call
	run clist env FASTRAW_CLOCKS=tai,monotonic $RUN "$tool" -n 0
	run ccal env FASTRAW_CLOCKS=all FASTRAW_SOURCE=calibrated $RUN "$tool" -n 0
	run cbad env FASTRAW_CLOCKS=monotonic,bogus $RUN "$tool" -n 0
	warned cbad "FASTRAW_CLOCKS=monotonic,bogus is not one of raw, all, or a comma list of " 1
	eq "bogus list: the default" "$(field cbad 'other clocks')" "$(field cdef 'other clocks')"
	if [ "$(field cdef 'fast path')" = active ]; then
		eq "default served" "$(field cdef 'served clocks')" MONOTONIC_RAW
		eq "default others" "$(field cdef 'other clocks')" "to the vDSO: $others (FASTRAW_CLOCKS=raw, the default)"
		eq "all served" "$(field call 'served clocks')" "MONOTONIC_RAW $others"
		eq "all: no others" "$(field call 'other clocks')" "to the vDSO (the page computes none of them)"
		eq "list served" "$(field clist 'served clocks')" "MONOTONIC_RAW MONOTONIC TAI"
		eq "list others" "$(field clist 'other clocks')" \
			"to the vDSO: REALTIME BOOTTIME REALTIME_COARSE MONOTONIC_COARSE (not named in FASTRAW_CLOCKS)"
	else
		# RAW is not exact here: no other clock is served, whatever FASTRAW_CLOCKS says.
		case $(field call 'served clocks') in
		none | "MONOTONIC_RAW (calibrated)") echo "ok: all: RAW alone, if anything" ;;
		*) fail "all without the fast path: served $(field call 'served clocks')" ;;
		esac
	fi
	case $(field ccal 'fast path') in
	calibrated*)
		eq "calibrated: RAW alone" "$(field ccal 'served clocks')" "MONOTONIC_RAW (calibrated)"
		eq "calibrated: why" "$(field ccal 'other clocks')" "to the vDSO: $others (calibrated mode serves RAW alone: its estimate must not stand in for a shared clock)"
		;;
	*) echo "ok: calibrated mode not chosen here: $(field ccal 'fast path')" ;;
	esac
	;;
json)
	command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
	run text $RUN "$tool" -n 1000
	run j $RUN "$tool" --json -n 1000
	rc j 0
	python3 -m json.tool "$tmp/j.out" >/dev/null && echo "ok: json parses" || fail "json does not parse"
	run jp env LD_PRELOAD="$lib" FASTRAW_TSC="$ctr_uno" $RUN "$tool" -j -n 1000
	run jd env FASTRAW_DISABLE=1 FASTRAW_TSC=bogus $RUN "$tool" --json --samples 0
	run ctext env FASTRAW_CLOCKS=tai,monotonic $RUN "$tool" -n 0
	run jc env FASTRAW_CLOCKS=tai,monotonic $RUN "$tool" --json -n 0
	python3 - "$tmp" "$(uname -r)" "$lib" "$has_ordered" "$(field text 'clock mode')" \
		"$(field text 'raw mult/shift')" "$(field text 'tsc frequency (pvclock)')" \
		"$feature_key" "$counter_word" "$ctr_uno" "$arch" "$(field text 'counter frequency')" \
		"$(field text 'served clocks')" "$(field text 'other clocks')" \
		"$(field ctext 'served clocks')" "$(field ctext 'other clocks')" <<'EOF' || fails=$((fails + 1))
import json, sys
tmp, release, lib, rdtscp, mode, multshift, tscfreq, fkey, word, uno, arch, rate, served, others, cserved, cothers = sys.argv[1:]
bad = 0
def check(desc, ok):
    global bad
    print(("ok: " if ok else "FAIL: ") + desc)
    bad += not ok
keys = ["kernel", "clocksource", "clocksources_available", "vdso_era", "vdso_era_note", "vdso_problem", "clock_mode",
        "pvclock_stable", "cpu_vendor", "cpu_brand", "invariant_" + word, fkey] + \
       ([] if arch == "x86_64" else ["counter_hz", "counter_hz_source"]) + ["counter", "counter_reason",
        "warnings", "fast_path_active", "fast_path_reason", "source", "calibrated_eligible",
        "calibrated_reason", "calibrated_seed", "served_clocks", "other_clocks", "other_clocks_reason", "raw_mult", "raw_shift", "raw_counter_hz",
        "pvclock_tsc_mul", "pvclock_tsc_shift", "pvclock_tsc_hz", "time_namespace", "clock_gettime_object",
        "preloaded", "agreement"]
j, jp, jd, jc = (json.load(open(f"{tmp}/{n}.out")) for n in ("j", "jp", "jd", "jc"))
# The served clocks as the text lines name them: "none", or names with " (calibrated)"; the others
# "to the vDSO: NAMES (why)", or "to the vDSO (the page computes none of them)".
def clocks_as_text(k):
    s = " ".join(k["served_clocks"]) or "none"
    if k["source"] == "calibrated":
        s += " (calibrated)"
    o = "to the vDSO (the page computes none of them)" if not k["other_clocks"] else \
        "to the vDSO: %s (%s)" % (" ".join(k["other_clocks"]), k["other_clocks_reason"])
    return s, o
check("clocks as in text", clocks_as_text(j) == (served, others))
check("FASTRAW_CLOCKS=tai,monotonic as in text", clocks_as_text(jc) == (cserved, cothers))
check("every page clock once", sorted(jc["served_clocks"] + jc["other_clocks"]) == sorted(["MONOTONIC_RAW", "REALTIME",
      "MONOTONIC", "BOOTTIME", "TAI", "REALTIME_COARSE", "MONOTONIC_COARSE"]))
check("default: reason", j["other_clocks_reason"] == "FASTRAW_CLOCKS=raw, the default")
if j["fast_path_active"]:
    check("list served", jc["served_clocks"] == ["MONOTONIC_RAW", "MONOTONIC", "TAI"])
check("keys", list(j) == keys)
check("kernel", j["kernel"] == release)
check("the release names the layout: no note", j["vdso_era_note"] is None)
# Outside a vDSO (qemu-user) the namespace is unknown: null.
check("booleans", all(isinstance(j[k], bool) for k in ("invariant_" + word, fkey, "fast_path_active", "preloaded")))
check(fkey, j[fkey] == (rdtscp == "yes"))
if arch != "x86_64":
    check("counter_hz as in text", rate == "%d.%03d MHz (%d Hz, %s)" % (j["counter_hz"] // 1000000,
          j["counter_hz"] // 1000 % 1000, j["counter_hz"], j["counter_hz_source"]))
check("clock mode as in text", j["clock_mode"] == (None if mode == "unknown" else mode))
check("raw mult/shift as in text", f'{j["raw_mult"]}/{j["raw_shift"]} ({j["raw_counter_hz"]} Hz)' == multshift
      if multshift else j["raw_mult"] is None)
if mode == "pvclock":
    check("pvclock stable is a boolean", j["pvclock_stable"] is True)
    mhz = "%d.%03d MHz" % (j["pvclock_tsc_hz"] // 1000000, j["pvclock_tsc_hz"] // 1000 % 1000)
    check("pvclock tsc frequency as in text", tscfreq.startswith(mhz))
    hz = 1e9 * 2 ** (32 - j["pvclock_tsc_shift"]) / j["pvclock_tsc_mul"]
    check("pvclock tsc frequency from mul/shift", abs(hz - j["pvclock_tsc_hz"]) <= 1)
else:
    check("pvclock fields null", j["pvclock_stable"] is None and j["pvclock_tsc_hz"] is None)
check("plain: libc, not preloaded", j["preloaded"] is False and j["agreement"]["measured"] == "libc")
check("plain agreement", j["agreement"]["samples"] == 1000 and j["agreement"]["violations"] == 0)
check("plain no warnings", j["warnings"] == [] and j["time_namespace"] is (None if mode == "unknown" else False))
check("preloaded", jp["preloaded"] is True and jp["clock_gettime_object"] == lib)
check("preloaded " + uno, jp["counter"] == uno and jp["counter_reason"] == "FASTRAW_TSC=" + uno)
check("preloaded measured", jp["agreement"]["measured"] ==
      ("libfastraw fast path" if jp["fast_path_active"] else "libfastraw pass-through"))
check("disabled", jd["fast_path_active"] is False and jd["fast_path_reason"] == "disabled by FASTRAW_DISABLE")
check("disabled still reads the pages", jd["vdso_era"] == j["vdso_era"] and jd["clock_mode"] == j["clock_mode"])
check("bogus warning", len(jd["warnings"]) == 1 and "FASTRAW_TSC=bogus" in jd["warnings"][0])
check("samples 0", jd["agreement"]["samples"] == 0)
sys.exit(1 if bad else 0)
EOF
	;;
usage)
	run help $RUN "$tool" -h
	rc help 0
	quiet help
	grep -q '^usage: fastraw-info' "$tmp/help.out" && echo "ok: -h prints usage" || fail "-h: no usage"
	run long_help $RUN "$tool" --help
	rc long_help 0
	for bad in "--bogus" "-x" "extra" "-n abc" "-n -1" "--samples"; do
		# Word splitting of $bad is intended: "-n abc" is two arguments.
		# shellcheck disable=SC2086
		run bad $RUN "$tool" $bad
		rc bad 2
		eq "'$bad' prints nothing on stdout" "$(wc -c <"$tmp/bad.out" | tr -d ' ')" 0
		grep -q '^usage: fastraw-info' "$tmp/bad.err" && echo "ok: '$bad' usage on stderr" ||
			fail "'$bad': no usage on stderr"
	done
	run none $RUN "$tool" -n 0
	rc none 0
	eq "-n 0 skips the agreement test" "$(field none agreement)" "not run (libc)"
	;;
timens)
	needs_system "a time namespace's pages"
	[ "$(id -u)" = 0 ] || { echo "SKIP: time namespaces need root"; exit 77; }
	unshare --time --fork --monotonic 5000 true 2>/dev/null || { echo "SKIP: unshare --time failed"; exit 77; }
	run offsets unshare --time --fork --monotonic 5000 cat /proc/self/timens_offsets
	grep -q '^monotonic *5000 ' "$tmp/offsets.out" && echo "ok: in a namespace" || fail "no namespace offsets"
	run ns unshare --time --fork --monotonic 5000 $RUN "$tool"
	common ns
	quiet ns
	eq "time namespace" "$(field ns 'time namespace')" yes
	active_expected ns
	eq "namespace agreement" "$(field ns agreement)" "100000 samples, 0 violations (libc)"
	run ns_pre unshare --time --fork --monotonic 5000 env LD_PRELOAD="$lib" $RUN "$tool"
	common ns_pre
	eq "preloaded time namespace" "$(field ns_pre 'time namespace')" yes
	active_expected ns_pre
	eq "preloaded namespace agreement" "$(field ns_pre agreement)" \
		"100000 samples, 0 violations (libfastraw fast path)"
	;;
release)
	needs_system "the release decision reads the vDSO's pages"
	# Its eras, clock modes and notes are x86-64's table (src/kdata/eras_x86_64.c).
	[ "$arch" = x86_64 ] || { echo "SKIP: the release case knows only x86-64's eras, not $arch's"; exit 77; }
	# --release R: the library's own start-up decision and FASTRAW_DEBUG line, as if uname said R.
	run real $RUN "$tool" -n 0
	era=$(field real 'vdso era')
	mode=$(field real 'clock mode')
	counter=${default_counter%% *}
	run same env FASTRAW_DEBUG=1 $RUN "$tool" -n 0 --release "$(uname -r)"
	eq "--release of this kernel: same era" "$(field same 'vdso era')" "$era"
	eq "--release of this kernel: debug line" "$(debug_line same | cut -d' ' -f1-2)" \
		"kernel=$(uname -r) era=$era"
	newer="kernel 99.1 is newer than the newest known, 7.3"
	run newer env FASTRAW_DEBUG=1 $RUN "$tool" -n 1000 --release 99.1.0-test
	rc newer 0
	line=$(debug_line newer)
	case "$era/$mode" in
	"6.17+/tsc" | "6.17+/pvclock")
		# The newest known layout and a clock mode the fast path computes: assumed, and served.
		note="assumed: $newer; page and vDSO agree"
		eq "newer release: debug line" "$line" \
			"kernel=99.1.0-test era=6.17+ ($note) clock=$mode counter=$counter active"
		eq "newer release: vdso era" "$(field newer 'vdso era')" "6.17+ ($note)"
		eq "newer release: fast path" "$(field newer 'fast path')" active
		eq "newer release: agreement" "$(field newer agreement)" "1000 samples, 0 violations (libc)"
		run newer_json $RUN "$tool" -n 0 --json --release 99.1.0-test
		grep -qF "\"vdso_era_note\": \"$note\"," "$tmp/newer_json.out" && echo "ok: newer release: json note" ||
			fail "newer release: json has no vdso_era_note \"$note\""
		;;
	*)
		# Any other layout or mode: refused, with the reason.
		case $line in
		"kernel=99.1.0-test era=none clock=unknown counter=$counter "*"$newer"*)
			echo "ok: newer release refused on a $era/$mode page: $line" ;;
		*) fail "newer release on a $era/$mode page: $line" ;;
		esac
		;;
	esac
	# A release of an era whose [vvar] sits elsewhere: the page and the vDSO decide.
	case $era in
	6.15-6.16 | 6.17+) other=6.12.0-211.el10; says=6.10-6.12; short=6.12 ;;
	*) other=6.18.0; says=6.17+; short=6.18 ;;
	esac
	run other env FASTRAW_DEBUG=1 $RUN "$tool" -n 0 --release "$other"
	line=$(debug_line other)
	case $mode in
	tsc | pvclock)
		note="assumed: release $short says $says, whose page checks fail ([vvar] is not where this kernel era puts it); page and vDSO agree"
		case $line in
		"kernel=$other era="*" ($note) clock=$mode counter=$counter active")
			echo "ok: release $short on a $era page: assumed" ;;
		*) fail "release $short on a $era page: $line" ;;
		esac
		case $era in
		6.15-6.16 | 6.17+) eq "release $short: the real layout" "$(field other 'vdso era')" "$era ($note)" ;;
		esac
		;;
	*)
		case $line in
		*"passthrough: [vvar] is not where this kernel era puts it; no other layout matches the page"* | \
			*"kernel data not used: [vvar] is not where this kernel era puts it; no other layout matches the page"*)
			echo "ok: release $short on a $era/$mode page: refused" ;;
		*) fail "release $short on a $era/$mode page: $line" ;;
		esac
		;;
	esac
	;;
*)
	echo "unknown case: $what"
	exit 1
	;;
esac

[ "$fails" -eq 0 ] && { echo "PASS: $what"; exit 0; }
echo "FAILED: $what ($fails)"
exit 1
