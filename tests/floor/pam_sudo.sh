#!/bin/sh
# SPDX-License-Identifier: MIT
# sudo and su authenticate through PAM in a Debian 11 root with libfastraw in its /etc/ld.so.preload.
#
# Environment (tests/floor.cmake): FR_SOURCE_DIR, FASTRAW_LIB (the library under test: any build
# of it, as long as it needs nothing past GLIBC_2.17), FR_PTY_ANSWER (tests/floor/pty_answer.c),
# CC, FR_DEB_ARCH. The root comes from scripts/bullseye-root.sh (made once, cached; skipped, 77,
# when it cannot be made: not root, no debootstrap, no network on a cold cache). The test works on
# an overlay of it in a private mount namespace, so the cached root is never changed and every
# mount (the overlay, /proc, /dev) goes with the namespace, whatever way the test ends.
#
# Asserted, with the library preloaded and then without it (the control): a user with a password
# and in group sudo runs `sudo -S -k` with the password on standard input, and `su` to root typing
# the password on a terminal; each authenticates (a password prompt, then the command runs as root)
# and the command run as root maps the library exactly when it is in /etc/ld.so.preload; a program
# built for the root's glibc 2.31 calls clock_gettime(CLOCK_MONOTONIC_RAW) served by the library;
# nothing prints a PAM or sudo plugin error ("Module is unknown", "unable to resolve symbol",
# "error in /etc/sudo.conf ... while loading plugin").
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
: "${FR_SOURCE_DIR:?run under ctest}" "${FASTRAW_LIB:?}" "${FR_PTY_ANSWER:?}" "${CC:?}" "${FR_DEB_ARCH:?}"
# A stopped test (CTest's timeout) still runs its EXIT trap, which removes its scratch folder.
trap 'exit 1' HUP INT TERM
unset LD_PRELOAD FASTRAW_TSC FASTRAW_DEBUG FASTRAW_STATS FASTRAW_DISABLE FASTRAW_SOURCE FASTRAW_SYSCALL FASTRAW_SHADOW_VDSO
# chroot lives in sbin, which a shell of a user other than root may not search.
PATH=$PATH:/usr/sbin:/sbin
PW=fastraw-pw-27
ROOT_LIB=/usr/local/lib/libfastraw.so
# What libpam, su and sudo print when a module's or a plugin's symbol cannot be had, or the
# password is refused; and the loader's complaint about a preload it cannot load.
ERRORS='Module is unknown|unable to resolve symbol|error in /etc/sudo.conf|while loading plugin|Authentication failure|incorrect password|Sorry, try again|ld.so: object|cannot be preloaded'

case "$FR_DEB_ARCH" in
amd64) triple=x86_64-linux-gnu ;;
arm64) triple=aarch64-linux-gnu ;;
*) skip "no bullseye root for $FR_DEB_ARCH" ;;
esac

if [ "${1:-}" != --inside ]; then
	[ "$(id -u)" = 0 ] || skip "not root: the test needs chroot and mounts"
	for tool in unshare chroot mount; do
		command -v "$tool" >/dev/null 2>&1 || skip "no $tool"
	done
	unshare --mount --propagation private true 2>/dev/null || skip "no private mount namespace here (unshare --mount)"
	BASE=$(bash "$FR_SOURCE_DIR/scripts/bullseye-root.sh" "$FR_DEB_ARCH" 2>"$T/root.err")
	rc=$?
	cat "$T/root.err"
	[ "$rc" != 77 ] || skip "no bullseye root: $(sed -n 's/^bullseye-root: SKIPPED: //p' "$T/root.err")"
	if [ "$rc" != 0 ] || [ ! -f "$BASE/.complete" ]; then
		echo "FAIL: scripts/bullseye-root.sh made no root (exit $rc)"
		exit 1
	fi
	echo "root: $BASE"
	unshare --mount --propagation private sh "$0" --inside "$BASE"
	exit $?
fi

# From here on, in the private mount namespace.
BASE=$2
LIB=$(readlink -f "$FASTRAW_LIB")
R=$T/root
# Unmount first: removing the folder through a bound /dev would reach the machine's own devices.
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	umount -R "$R" 2>/dev/null || umount -R -l "$R" 2>/dev/null
	rm -rf --one-file-system "$T"
}
trap cleanup EXIT

mkdir "$T/upper" "$T/work" "$R"
if ! mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$T/upper,workdir=$T/work" "$R" 2>"$T/mount.err"; then
	echo "(no overlay mount here: $(cat "$T/mount.err"); working on a copy)"
	cp -a "$BASE/." "$R/" || { echo "FAIL: cannot copy $BASE"; exit 1; }
fi
# A /dev of its own with only what su and sudo use; the terminals are the machine's, so that a
# pseudo-terminal opened outside is the same inside. No /dev/log: nothing reaches the machine's log.
mount_system() {
	mount -t proc proc "$R/proc" || return 1
	mount -t tmpfs -o mode=755 fastraw-dev "$R/dev" || return 1
	for node in null zero full random urandom tty; do
		touch "$R/dev/$node" || return 1
		mount --bind "/dev/$node" "$R/dev/$node" || return 1
	done
	mkdir "$R/dev/pts" && mount --bind /dev/pts "$R/dev/pts" || return 1
	ln -s pts/ptmx "$R/dev/ptmx" && ln -s /proc/self/fd "$R/dev/fd"
}
mount_system || { echo "FAIL: cannot mount /proc and /dev in the root"; exit 1; }

# The user, before any preload: setting it up is not under test.
if ! chroot "$R" /usr/sbin/useradd -m -s /bin/sh -G sudo fruser ||
	! printf 'fruser:%s\nroot:%s\n' "$PW" "$PW" | chroot "$R" /usr/sbin/chpasswd; then
	echo "FAIL: cannot make the user in the root"
	exit 1
fi
uid=$(chroot "$R" id -u fruser)
gid=$(chroot "$R" id -g fruser)
sudo_gid=$(chroot "$R" getent group sudo | cut -d: -f3)
# sudo names the host it runs on and complains when that name does not resolve; its lecture
# would only lengthen the log.
echo "127.0.1.1 $(uname -n)" >>"$R/etc/hosts"
echo 'Defaults lecture=never' >"$R/etc/sudoers.d/fastraw-test"
chmod 0440 "$R/etc/sudoers.d/fastraw-test"
cp "$LIB" "$R$ROOT_LIB" || { echo "FAIL: cannot copy $LIB into the root"; exit 1; }

# The probe, built against the root's own glibc 2.31 (its loader is the root's /lib path).
"$CC" --sysroot="$BASE" -B"$BASE/usr/lib/$triple/" -static-libgcc -std=gnu11 -O2 \
	-o "$R/usr/local/bin/libc_version" "$FR_SOURCE_DIR/tests/floor/libc_version.c" -ldl >"$T/cc.log" 2>&1 ||
	{ cat "$T/cc.log"; echo "FAIL: the probe does not build against the root's glibc"; exit 1; }

# as_user CMD...: CMD in the root as the user, with a clean environment and the C locale.
as_user() {
	chroot --userspec="$uid:$gid" --groups="$gid,$sudo_gid" "$R" /usr/bin/env -i \
		PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/fruser USER=fruser LOGNAME=fruser SHELL=/bin/sh LC_ALL=C "$@"
}
AS_ROOT='id -u; cat /proc/self/maps; exec /usr/local/bin/libc_version'

# show FILE [TAG]: a step's output, indented, its memory map left out (a line too for a last line
# without a newline, as a prompt is).
show() {
	grep -v '^[0-9a-f]*-[0-9a-f]* ' "$1" | awk -v tag="${2:-}" '{ print "  " tag "| " $0 }'
}
# as_root_checks PRELOADED: the command run as root said uid 0, ran on glibc 2.31, and mapped the
# library (and had clock_gettime from it) exactly when PRELOADED is yes.
as_root_checks() {
	grep -qx 0 "$T/out" || fail "$what: the command did not run as root"
	grep -qx 'glibc=2.31' "$T/out" || fail "$what: the command did not run on the root's glibc 2.31"
	if [ "$1" = yes ]; then
		grep -q " $ROOT_LIB\$" "$T/out" || fail "$what: the command run as root does not map $ROOT_LIB"
		grep -qx "clock_gettime=$ROOT_LIB" "$T/out" || fail "$what: clock_gettime is not served by $ROOT_LIB"
	else
		! grep -q libfastraw "$T/out" || fail "$what: the library is mapped without a preload"
	fi
}
# su_on_terminal PASSWORD COMMAND: the user runs `su -c COMMAND root` on a pseudo-terminal and
# types PASSWORD at its prompt; the output, carriage returns dropped, in $T/out (shown), the exit
# status in st; su must have asked for the password.
su_on_terminal() {
	"$FR_PTY_ANSWER" 'Password:' "$1" chroot --userspec="$uid:$gid" --groups="$gid,$sudo_gid" "$R" \
		/usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/fruser USER=fruser LOGNAME=fruser LC_ALL=C \
		su -c "$2" root >"$T/raw" 2>&1
	st=$?
	tr -d '\r' <"$T/raw" >"$T/out"
	show "$T/out"
	grep -q 'Password:' "$T/out" || fail "$what: su asked for no password"
}
no_errors() {
	if grep -E "$ERRORS" "$T/out" >"$T/errors"; then
		fail "$what: printed: $(tr '\n' ' ' <"$T/errors")"
	fi
	! grep -q 'fastraw\[' "$T/out" || fail "$what: the library printed without FASTRAW_DEBUG"
}

cases() {
	preloaded=$1
	echo "== $2"
	what="clock_gettime RAW ($2)"
	as_user /usr/local/bin/libc_version >"$T/out" 2>&1
	st=$?
	show "$T/out"
	[ "$st" = 0 ] || fail "$what: exit status $st"
	grep -qx 'glibc=2.31' "$T/out" || fail "$what: not running on glibc 2.31"
	if [ "$preloaded" = yes ]; then
		grep -qx "clock_gettime=$ROOT_LIB" "$T/out" || fail "$what: clock_gettime is not served by $ROOT_LIB"
	fi
	no_errors

	what="sudo -S -k ($2)"
	# The prompt goes to standard error, without a newline: kept apart from the command's output.
	printf '%s\n' "$PW" | as_user sudo -S -k -p 'sudo password: ' /bin/sh -c "$AS_ROOT" >"$T/out" 2>"$T/err"
	st=$?
	show "$T/out"
	show "$T/err" err
	[ "$st" = 0 ] || fail "$what: exit status $st"
	grep -q 'sudo password: ' "$T/err" || fail "$what: sudo asked for no password"
	as_root_checks "$preloaded"
	cat "$T/err" >>"$T/out"
	no_errors

	what="su root on a terminal ($2)"
	su_on_terminal "$PW" "$AS_ROOT"
	[ "$st" = 0 ] || fail "$what: exit status $st"
	as_root_checks "$preloaded"
	no_errors

	# The password is checked, not waved through: a wrong one is refused and nothing runs.
	what="su root with a wrong password ($2)"
	su_on_terminal "$PW-wrong" 'echo ran-as-root'
	[ "$st" != 0 ] || fail "$what: exit status 0"
	grep -q 'su: Authentication failure' "$T/out" || fail "$what: su did not say Authentication failure"
	! grep -q ran-as-root "$T/out" || fail "$what: the command ran"
}

echo "$ROOT_LIB" >"$R/etc/ld.so.preload"
cases yes "libfastraw in /etc/ld.so.preload"
rm "$R/etc/ld.so.preload"
cases no "no preload (control)"
finish
