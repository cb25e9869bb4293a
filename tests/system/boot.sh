#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots a whole Debian system under QEMU with libfastraw in /etc/ld.so.preload, and once without it as the control.
#
#   sh tests/system/boot.sh SUITE DEB_ARCH      (under ctest: tests/system.cmake)
#
# Environment: FR_SOURCE_DIR, FASTRAW_LIB (a libfastraw.so built for DEB_ARCH). The disk image
# comes from scripts/system-image.sh (made once, cached; 77 when it cannot be made). Each boot
# works on a sparse copy of it, into which debugfs writes the library, tests/system/collect.sh and
# its unit (and, for the preloaded boot, /etc/ld.so.preload); the guest records its results on the
# disk and powers off, and debugfs reads them back. QEMU runs TCG only: nested KVM guests hang on
# this project's machines. Asserted for the preloaded boot, against the control: the boot reaches
# running; no unit fails that does not fail in the control; every process maps the library (none
# does in the control); set-user-ID programs run, print no FASTRAW_DEBUG line and run with
# AT_SECURE while mapping the library; su -c to a user runs; RAW read by python3 stays inside the
# raw system call's bracket; the journal shows no crash, SIGSYS or core dump. The boot-to-running
# times of both boots are printed, with no bound.
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
: "${FR_SOURCE_DIR:?run under ctest}" "${FASTRAW_LIB:?}"
trap 'exit 1' HUP INT TERM
PATH=$PATH:/usr/sbin:/sbin
SUITE=${1:?suite}
ARCH=${2:?Debian architecture}
# Minutes a boot may take in all, collector included: TCG boots in 1-3, a loaded host slower.
LIMIT=${FASTRAW_SYSTEM_BOOT_TIMEOUT:-1500}
# What a crash, a seccomp kill or a core dump leaves in the journal.
CRASHES='segfault at|general protection|traps:|SIGSYS|SIGSEGV|SIGABRT|SIGBUS|SIGILL|dumped core|code=killed|code=dumped|status=31/SYS'

case "$ARCH" in
amd64)
	QEMU=qemu-system-x86_64
	MACHINE="-M q35 -cpu max"
	CONSOLE=ttyS0
	# As the kernel matrix's tsc configurations: under TCG the guest would otherwise find its TSC
	# unstable and run on hpet, where every RAW call passes through to the kernel.
	# no_timer_check: on a loaded host Linux 5.10's IO-APIC timer check can miss its window
	# under TCG and panic ("IO-APIC + timer doesn't work!"; seen here once at load 13).
	KOPTS="clocksource=tsc tsc=reliable no_timer_check"
	;;
arm64)
	QEMU=qemu-system-aarch64
	MACHINE="-M virt -cpu max,pauth-impdef=on"
	CONSOLE=ttyAMA0
	KOPTS=
	;;
*) skip "no system boot for $ARCH" ;;
esac
[ "$(id -u)" = 0 ] || skip "not root: the image's files are root's"
[ -f "$FASTRAW_LIB" ] || skip "no $FASTRAW_LIB (for arm64: the cross build, aarch64_build, made none)"
command -v "$QEMU" >/dev/null 2>&1 || skip "no $QEMU (apt-get install qemu-system)"
command -v debugfs >/dev/null 2>&1 || skip "no debugfs (apt-get install e2fsprogs)"
IMG=$(bash "$FR_SOURCE_DIR/scripts/system-image.sh" "$SUITE" "$ARCH" 2>"$T/image.err")
rc=$?
cat "$T/image.err"
[ "$rc" != 77 ] || skip "no $SUITE $ARCH image: $(sed -n 's/^system-image: SKIPPED: //p' "$T/image.err")"
if [ "$rc" != 0 ] || [ ! -f "$IMG/.complete" ]; then
	echo "FAIL: scripts/system-image.sh made no image (exit $rc)"
	exit 1
fi
echo "image: $IMG"

# boot NAME PRELOAD: a copy of the image with the collector (and the preload when PRELOAD is
# yes), booted until it powers off; its results land in $T/NAME.
boot() {
	name=$1
	disk=$T/$name.img
	cp --sparse=always "$IMG/disk.img" "$disk" || return 1
	install -m 0755 "$FR_SOURCE_DIR/tests/system/collect.sh" "$T/fastraw-collect"
	install -m 0755 "$FASTRAW_LIB" "$T/libfastraw.so"
	printf '[Unit]\nDescription=libfastraw boot test collector\nAfter=multi-user.target\n\n[Service]\nType=simple\nExecStart=/usr/local/sbin/fastraw-collect\n' >"$T/unit"
	chmod 0644 "$T/unit"
	{
		# debugfs writes into its current folder, under the name given.
		echo "cd /usr/local/lib"
		echo "write $T/libfastraw.so libfastraw.so"
		echo "cd /usr/local/sbin"
		echo "write $T/fastraw-collect fastraw-collect"
		echo "cd /etc/systemd/system"
		echo "write $T/unit fastraw-collect.service"
		echo "symlink /etc/systemd/system/multi-user.target.wants/fastraw-collect.service /etc/systemd/system/fastraw-collect.service"
		if [ "$2" = yes ]; then
			echo /usr/local/lib/libfastraw.so >"$T/ld.so.preload"
			chmod 0644 "$T/ld.so.preload"
			echo "cd /etc"
			echo "write $T/ld.so.preload ld.so.preload"
		fi
	} >"$T/debugfs.cmd"
	debugfs -w -f "$T/debugfs.cmd" "$disk" >"$T/$name.debugfs" 2>&1 || { cat "$T/$name.debugfs"; return 1; }
	echo "== $name: booting $SUITE $ARCH (log: serial console below on failure)"
	start=$(date +%s)
	# shellcheck disable=SC2086  # MACHINE is several words
	timeout "$LIMIT" nice -n 10 "$QEMU" $MACHINE -smp 2 -m 1024 -nographic -no-reboot -nic none \
		-kernel "$IMG/vmlinuz" -initrd "$IMG/initrd" -drive "file=$disk,format=raw,if=virtio" \
		-append "root=/dev/vda rw console=$CONSOLE panic=-1 $KOPTS" </dev/null >"$T/$name.console" 2>&1
	qrc=$?
	echo "   QEMU ended after $(($(date +%s) - start)) s (exit $qrc)"
	mkdir -p "$T/$name"
	debugfs -R "rdump /var/lib/fastraw-boot $T/$name" "$disk" >/dev/null 2>&1
	rm -f "$disk"
	if [ ! -f "$T/$name/fastraw-boot/done" ]; then
		echo "   the collector did not finish; the console's end:"
		tail -n 40 "$T/$name.console" | sed 's/^/   | /'
		[ ! -f "$T/$name/fastraw-boot/log" ] || tail -n 20 "$T/$name/fastraw-boot/log" | sed 's/^/   log| /'
		return 1
	fi
}

# check NAME PRELOAD: the assertions on one boot's results.
check() {
	name=$1 pre=$2 R=$T/$1/fastraw-boot
	state=$(cat "$R/state")
	echo "   state: $state; boot: $(grep -m1 'Startup finished' "$R/analyze")"
	[ "$state" = running ] || fail "$name: systemctl is-system-running says $state, not running (failed: $(tr '\n' ' ' <"$R/failed"))"
	total=$(wc -l <"$R/procs")
	with=$(grep -c '^[0-9]* yes ' "$R/procs")
	echo "   processes with a memory map: $total, mapping libfastraw: $with"
	echo "   their names: $(cut -d' ' -f3- "$R/procs" | sort | uniq -c | awk '{ printf "%s%s ", $2, ($1 > 1 ? "x" $1 : "") }')"
	[ "$total" -gt 10 ] || fail "$name: only $total processes seen"
	if [ "$pre" = yes ]; then
		grep '^[0-9]* no ' "$R/procs" | sed "s/^/   not mapped: /"
		[ "$with" = "$total" ] || fail "$name: $((total - with)) process(es) do not map the library"
		grep -q '^1 yes ' "$R/procs" || fail "$name: PID 1 does not map the library"
	else
		[ "$with" = 0 ] || fail "$name: $with process(es) map the library without a preload"
	fi
	sed 's/^/   setuid| /' "$R/setuid"
	for cmd in 'sudo -h' 'su --help' 'passwd --help' 'mount --version' 'python3 -c pass'; do
		grep -qx "== $cmd: exit 0" "$R/setuid" || fail "$name: '$cmd' as a user did not exit 0"
	done
	n=$(grep -c 'fastraw\[' "$R/setuid")
	if [ "$pre" = yes ]; then
		# One line: python3's, the control; none from a set-user-ID program.
		[ "$n" = 1 ] || fail "$name: $n FASTRAW_DEBUG lines from the user's runs, 1 (python3's) wanted"
		sed -n '/^== python3/,$p' "$R/setuid" | grep -q 'fastraw\[' || fail "$name: python3 printed no FASTRAW_DEBUG line"
	else
		[ "$n" = 0 ] || fail "$name: a FASTRAW_DEBUG line without the library"
	fi
	echo "   pending sudo: $(cat "$R/pending")"
	grep -q 'at_secure=1 ' "$R/pending" || fail "$name: no set-user-ID sudo caught with AT_SECURE=1"
	if [ "$pre" = yes ]; then
		grep -q 'libfastraw_maps=[1-9]' "$R/pending" || fail "$name: the set-user-ID sudo does not map the library"
	fi
	echo "   su -c: $(tr '\n' ' ' <"$R/su")"
	if ! grep -qx fruser "$R/su" || ! grep -qx 'exit 0' "$R/su"; then
		fail "$name: su -c to a user did not run"
	fi
	echo "   RAW: $(cat "$R/raw")"
	grep -q '^calls=[0-9]* outside=0 ' "$R/raw" || fail "$name: RAW outside the kernel's bracket (or no result)"
	grep -q "mapped=$([ "$pre" = yes ] && echo True || echo False)\$" "$R/raw" ||
		fail "$name: python3's maps and the preload disagree"
	[ "$pre" != yes ] || echo "   debug: $(grep 'fastraw\[' "$R/debug")"
	if grep -E "$CRASHES" "$R/journal" >"$T/crashes"; then
		sed 's/^/   journal| /' "$T/crashes"
		fail "$name: the journal shows a crash, a SIGSYS or a core dump"
	fi
}

boot control no || fail "control: the boot did not complete"
boot preload yes || fail "preload: the boot did not complete"
[ -f "$T/control/fastraw-boot/done" ] && check control no
if [ -f "$T/preload/fastraw-boot/done" ]; then
	check preload yes
	if [ -f "$T/control/fastraw-boot/done" ]; then
		new=$(sort "$T/preload/fastraw-boot/failed" | comm -23 - "$(sort "$T/control/fastraw-boot/failed" >"$T/cf"; echo "$T/cf")")
		[ -z "$new" ] || fail "units failing only with the preload: $new"
	fi
fi
finish
