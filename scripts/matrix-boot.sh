# SPDX-License-Identifier: MIT
# The kernel matrix's boots: QEMU for each configuration, side by side, watched until its guest powers off or hangs.
# shellcheck shell=bash
#
# Sourced by kernel-matrix.sh, which sets the architecture's QEMU facts (matrix_arch), work (the
# run's folder, with initramfs.gz), kernel_of (each series' image), selected, suites_only, JOBS,
# say() and skip(). Each guest's console goes to $work/NAME.log, which report_config
# (matrix-report.sh) reads.
# shellcheck disable=SC2154 # work, kernel_of and selected are the sourcing script's

# Time limits, in seconds. Until a guest has measured its speed it gets BOOT_LIMIT; from then
# on it may go STALL_LIMIT times its speed factor without printing a line of progress (a suite
# started or ended). The guest also scales Check's own timeouts by the same factor, so a slow
# host makes everything slower, never a failure: the limits only catch a guest that hangs.
BOOT_LIMIT=${FASTRAW_MATRIX_BOOT_TIMEOUT:-300}
STALL_LIMIT=${FASTRAW_MATRIX_STALL_TIMEOUT:-300}

# QEMU and cpio, installed when missing; skips (77) when they cannot be had.
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

# Boots every selected configuration, JOBS at a time, each with its own suites or those --suites
# names; returns when all have ended (each has left $work/NAME.status and NAME.row).
run_guests() {
	local c name series opts cs expect suites tns cpu smp running=0
	trap stop_guests INT TERM
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
}
