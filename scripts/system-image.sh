#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes a bootable Debian system disk image (systemd and the usual daemons) once, and prints its folder.
#
#   scripts/system-image.sh SUITE DEB_ARCH      (SUITE: bookworm or bullseye; DEB_ARCH: amd64, arm64)
#
# mmdebstrap builds the root from $FASTRAW_MATRIX_MIRROR with Debian's keyring (its own apt
# configuration: the machine's apt sources are neither read nor changed), mke2fs -d turns it into
# an ext4 image without a loop mount, and the kernel and initrd are kept beside it for QEMU's
# -kernel/-initrd. The folder's name carries a hash of the suite, the architecture, the package
# list and this script's root set-up, so a change of any of them makes a new image; it is made
# beside the cache entry and moved into place only when complete. The image is never changed
# afterwards: tests/system/boot.sh boots a copy of it. Needs root. An arm64 root made on
# x86-64 runs its maintainer scripts under qemu-aarch64-static, through a binfmt_misc of its
# own in a user namespace (Linux 6.7 or later). Exits 77 (CTest's "skipped")
# with the reason when the image cannot be made here.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin

SUITE=${1:?suite}
ARCH=${2:?Debian architecture}
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
# What issue 30 names: the init and the daemons of a server, set-user-ID programs, the
# interpreters, and the cloud kernel with its initrd. procps gives ps and pidof to the collector.
PACKAGES=systemd,systemd-sysv,udev,dbus,libpam-systemd,openssh-server,cron,rsyslog,chrony,sudo,util-linux,passwd,login,python3,perl,procps,e2fsprogs,initramfs-tools,linux-image-cloud-$ARCH
SIZE=${FASTRAW_SYSTEM_IMAGE_SIZE:-3G}

say() { echo "system-image: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

if [ -n "${FR_IMAGE_QEMU:-}" ]; then
	# In the user namespace below: its uids are root's once the parent has written the map.
	for _ in $(seq 50); do [ "$(id -u)" != 0 ] || break; sleep 0.1; done
	[ "$(id -u)" = 0 ] || skip "the user namespace's uids were never mapped"
fi
case "$SUITE" in bookworm | bullseye) ;; *) skip "no system image for suite $SUITE" ;; esac
case "$ARCH" in amd64 | arm64) ;; *) skip "no system image for $ARCH (amd64 and arm64 only)" ;; esac

# The set-up done in the root after mmdebstrap (part of the cache key, as the package list is).
setup_root() {
	local r=$1
	echo 'fastraw-guest' >"$r/etc/hostname"
	echo '127.0.1.1 fastraw-guest' >>"$r/etc/hosts"
	echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$r/etc/fstab"
	# No password for root on the serial console: the guest is only ever booted by the test.
	chroot "$r" passwd -d root >/dev/null
	chroot "$r" useradd -m -s /bin/sh fruser
	# The guest has no network: nothing waits for it, and apt's timers stay quiet.
	rm -f "$r"/etc/systemd/system/timers.target.wants/apt-daily*.timer
}

# Written once the essential packages are in and before initramfs-tools and the kernel are, so the
# kernel's postinst makes its initrd small at its first run: the guest needs only the virtio disk
# (ext4 is built into the cloud kernels), and MODULES=most would copy hundreds of modules, each
# looked up by a modprobe that runs under qemu-user for arm64 (most of the 32 min that image took).
# gzip: Essential, so the compressor is there whatever the suite's default.
initramfs_conf() {
	mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"
	printf 'MODULES=list\nCOMPRESS=gzip\n' >"$1/etc/initramfs-tools/conf.d/fastraw.conf"
	printf 'virtio_pci\nvirtio_mmio\nvirtio_blk\n' >"$1/usr/share/initramfs-tools/modules.d/fastraw"
}
# dpkg leaves out what no test reads (fewer files to unpack, under qemu-user for arm64) and does
# not fsync each file: a half-written root is never used, the image is made from a complete one.
DPKGOPTS=(--dpkgopt=force-unsafe-io --dpkgopt='path-exclude=/usr/share/doc/*'
	--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
	--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias')

key=$( (echo "$SUITE $ARCH $PACKAGES $SIZE ${DPKGOPTS[*]}"; declare -f setup_root initramfs_conf) | sha256sum | cut -c1-12)
OUT=$CACHE/system-$SUITE-$ARCH-$key
if [ -f "$OUT/.complete" ]; then
	echo "$OUT"
	exit 0
fi
[ "$(id -u)" = 0 ] || skip "not root: mmdebstrap's root mode and the image's owners need root"
command -v mmdebstrap >/dev/null 2>&1 || skip "no mmdebstrap (apt-get install mmdebstrap)"
command -v mke2fs >/dev/null 2>&1 || skip "no mke2fs (apt-get install e2fsprogs)"
[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"
host=$(dpkg --print-architecture 2>/dev/null || true)
if [ "$ARCH" != "$host" ] && [ -z "${FR_IMAGE_QEMU:-}" ]; then
	[ "$ARCH" = arm64 ] || skip "no $ARCH root from a $host machine"
	qemu=$(command -v qemu-aarch64-static) || skip "no qemu-aarch64-static (apt-get install qemu-user-static): the arm64 maintainer scripts cannot run here"
	command -v unshare >/dev/null 2>&1 || skip "no unshare"
	# The arm64 maintainer scripts run under qemu-user through a binfmt_misc entry of this run's
	# own: since Linux 6.7 each user namespace can have its own binfmt_misc, so the machine's is
	# never touched. The namespace maps every uid and gid to itself (written from outside, as
	# root), so the root's owners are the real ones; its mounts and pids are private too.
	bfm=$(mktemp -d)
	unshare --user --mount --propagation private --pid --fork --mount-proc --kill-child \
		env FR_IMAGE_QEMU="$qemu" FR_IMAGE_BINFMT="$bfm" bash "$0" "$@" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -e "/proc/$pid/uid_map" ] && [ "$(readlink "/proc/$pid/ns/user")" != "$(readlink /proc/self/ns/user)" ] && break
		sleep 0.2
	done
	if ! echo '0 0 65536' >"/proc/$pid/uid_map" || ! echo '0 0 65536' >"/proc/$pid/gid_map"; then
		kill "$pid"
		wait "$pid"
		rmdir "$bfm"
		skip "no user namespace with every uid mapped here"
	fi
	rc=0
	wait "$pid" || rc=$?
	# Its binfmt_misc mount went with the namespace.
	rmdir "$bfm"
	exit "$rc"
fi
if [ -n "${FR_IMAGE_QEMU:-}" ]; then
	bfm=$FR_IMAGE_BINFMT
	mount -t binfmt_misc fastraw-binfmt "$bfm" 2>/dev/null ||
		skip "binfmt_misc cannot be mounted in a user namespace here (Linux 6.7+): the arm64 maintainer scripts cannot run under qemu-user"
	# ELF64, little-endian, executable or shared object, EM_AARCH64 (183), written as the escapes
	# binfmt_misc itself decodes; F: QEMU is opened now.
	printf '%s' ':fastraw-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$FR_IMAGE_QEMU"':F' >"$bfm/register" ||
		skip "cannot register qemu-aarch64 with this namespace's binfmt_misc"
fi

new=$OUT.new
rm -rf "$new"
mkdir -p "$new"
log=$CACHE/system-$SUITE-$ARCH.log
say "making a $SUITE $ARCH system image (log: $log)"
start=$(date +%s)
root=$new/root
if ! nice -n 10 mmdebstrap --mode=root --variant=apt --architectures="$ARCH" --include="$PACKAGES" \
	"${DPKGOPTS[@]}" --essential-hook="$(declare -f initramfs_conf); initramfs_conf \"\$1\"" --keyring="$KEYRING" --aptopt='Acquire::Retries "3"' "$SUITE" "$root" "deb $MIRROR $SUITE main" >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	rm -rf "$new"
	if grep -qiE 'Failed to fetch|Temporary failure|unable to fetch|could not resolve|Release file' "$log"; then
		skip "mmdebstrap could not fetch $SUITE from $MIRROR"
	fi
	say "mmdebstrap failed (log: $log)"
	exit 1
fi
setup_root "$root"
rm -f "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
# The one kernel the cloud metapackage installed, and its initrd.
for f in "$root"/boot/vmlinuz-*; do cp "$f" "$new/vmlinuz"; done
for f in "$root"/boot/initrd.img-*; do cp "$f" "$new/initrd"; done
# -E root_owner is the root folder's: mke2fs -d copies every other owner and mode as it is.
if ! mke2fs -q -t ext4 -L fastraw-root -d "$root" "$new/disk.img" "$SIZE" >>"$log" 2>&1; then
	tail -n 3 "$log" >&2
	say "mke2fs -d failed (log: $log)"
	exit 1
fi
rm -rf "$root"
touch "$new/.complete"
mv "$new" "$OUT"
say "$SUITE $ARCH image in $OUT ($(($(date +%s) - start)) s, $(du -sm "$OUT" | cut -f1) MB used)"
echo "$OUT"
