#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes a minimal Debian 11 (bullseye) root file system with sudo, su and PAM, once, and prints its path.
#
#   scripts/bullseye-root.sh [DEB_ARCH]     (default: this machine's, dpkg --print-architecture)
#
# debootstrap's minbase variant (which already has login, passwd, util-linux's su and
# libpam-modules) plus sudo and libc6-dev (so that a test can build a program for the root's
# glibc 2.31 against it), from $FASTRAW_MATRIX_MIRROR, verified with Debian's keyring. The
# machine's apt sources are neither read nor changed: debootstrap fetches on its own. The root is
# made beside the cache entry and moved into place only when complete; a second run reuses it.
# It is never changed afterwards: tests/floor/pam_sudo.sh works on an overlay of it.
# Needs root (debootstrap's second stage runs in a chroot). Exits 77 (CTest's "skipped") with
# the reason when the root cannot be made here.
set -euo pipefail
# debootstrap and chroot live in sbin, which a login shell of a user other than root may not search.
PATH=$PATH:/usr/sbin:/sbin

ARCH=${1:-$(dpkg --print-architecture 2>/dev/null || true)}
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
INCLUDE=sudo,libc6-dev

say() { echo "bullseye-root: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

case "$ARCH" in
amd64 | arm64) ;;
"") skip "no dpkg to name this machine's Debian architecture" ;;
*) skip "no bullseye root for $ARCH (amd64 and arm64 only)" ;;
esac
ROOT=$CACHE/bullseye-root-$ARCH
if [ -f "$ROOT/.complete" ]; then
	echo "$ROOT"
	exit 0
fi
[ "$(id -u)" = 0 ] || skip "not root: debootstrap needs root to make the bullseye root"
command -v debootstrap >/dev/null 2>&1 || skip "no debootstrap (apt-get install debootstrap)"
[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"

# A root left half-made by an interrupted run is made again from nothing.
new=$ROOT.new
rm -rf "$new"
mkdir -p "$CACHE"
log=$CACHE/bullseye-root-$ARCH.log
say "making a minimal bullseye root for $ARCH with $INCLUDE (log: $log)"
start=$(date +%s)
if ! debootstrap --variant=minbase --arch="$ARCH" --include="$INCLUDE" --keyring="$KEYRING" \
	bullseye "$new" "$MIRROR" >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	# Whatever debootstrap mounted for its second stage must not outlive it.
	for m in proc sys dev/pts dev; do
		mountpoint -q "$new/$m" 2>/dev/null && umount -l "$new/$m"
	done
	rm -rf "$new"
	if grep -qiE 'Failed getting release file|Couldn.t download|Temporary failure|unable to fetch|resolv' "$log"; then
		skip "debootstrap could not fetch bullseye from $MIRROR"
	fi
	say "debootstrap failed (log: $log)"
	exit 1
fi
# The downloaded packages served only to make the root.
rm -f "$new"/var/cache/apt/archives/*.deb
# The loader's and the libraries' absolute links name this machine's files when the root serves
# as a sysroot (cc --sysroot): point them at the root's own, relative to the link, which is the
# same file inside the chroot.
case "$ARCH" in
amd64) triple=x86_64-linux-gnu ;;
arm64) triple=aarch64-linux-gnu ;;
esac
find "$new/lib64/" "$new/usr/lib/$triple/" -maxdepth 1 -type l -lname '/*' 2>/dev/null | while IFS= read -r link; do
	ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$new$(readlink "$link")")" "$link"
done
touch "$new/.complete"
mv "$new" "$ROOT"
say "bullseye root for $ARCH in $ROOT ($(($(date +%s) - start)) s, $(du -sm "$ROOT" | cut -f1) MB)"
echo "$ROOT"
