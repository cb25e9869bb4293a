#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes a sysroot of a Debian release's glibc (its libc6, libc6-dev and linux-libc-dev) and prints its path.
#
#   scripts/oldglibc.sh [DEB_ARCH] [SUITE]
#
# DEB_ARCH: amd64 or arm64 (default: this machine's, dpkg --print-architecture). SUITE: bullseye
# (Debian 11, glibc 2.31; the default) or trixie (Debian 13, glibc 2.41).
# The packages come through a private apt configuration (its own sources list, lists and cache
# under $FASTRAW_MATRIX_CACHE/oldglibc; the machine's apt sources are never read or changed,
# nothing is installed: the packages are unpacked with dpkg-deb -x). Their absolute symlinks
# (libm.so -> /lib/..., the loader in lib64/) are made relative, so that a program linked or run
# against the sysroot never reaches this machine's glibc. A release with a merged /usr (trixie)
# ships its files under usr/ only: lib and lib64 then link to usr/lib and usr/lib64, as the
# release's own root has them, so that every sysroot has its loader in the same place.
# Programs built with
#   cc --sysroot=SYSROOT -Wl,--dynamic-linker=SYSROOT/<the loader> -Wl,-rpath,SYSROOT/lib/<triple>
# then run on that glibc (tests/floor/glibc_matrix.sh). A second run reuses the sysroot.
# Exits 77 (CTest's "skipped") with the reason when the packages cannot be had.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ARCH=${1:-$(dpkg --print-architecture 2>/dev/null || true)}
SUITE=${2:-bullseye}
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/oldglibc
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
PACKAGES=(libc6 libc6-dev linux-libc-dev)

say() { echo "oldglibc: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

case "$SUITE" in
bullseye) GLIBC=2.31 ;;
trixie) GLIBC=2.41 ;;
*) skip "no sysroot for Debian $SUITE (bullseye and trixie only)" ;;
esac
case "$ARCH" in
amd64 | arm64) ;;
"") skip "no dpkg to name this machine's Debian architecture" ;;
*) skip "no sysroot for $ARCH (amd64 and arm64 only)" ;;
esac
ROOT=$CACHE/sysroot-$SUITE-$ARCH
if [ -f "$ROOT/.complete" ]; then
	echo "$ROOT"
	exit 0
fi
command -v apt-get >/dev/null 2>&1 || skip "no apt-get to fetch $SUITE's ${PACKAGES[*]}"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb to unpack $SUITE's packages"
[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"

apt=$CACHE/apt-$SUITE-$ARCH
say "fetching $SUITE's ${PACKAGES[*]} for $ARCH (private apt lists in $apt)"
fr_apt_unpack "$apt" "$ARCH" "$KEYRING" "$MIRROR $SUITE" "$ROOT" "${PACKAGES[@]}" ||
	case $? in
	1) skip "apt-get update of the private $SUITE lists from $MIRROR failed" ;;
	*) skip "cannot download $SUITE's ${PACKAGES[*]} from $MIRROR" ;;
	esac
# Merged /usr: the release's root has lib -> usr/lib and lib64 -> usr/lib64 (base-files).
for dir in lib lib64; do
	if [ ! -e "$ROOT/$dir" ] && [ -d "$ROOT/usr/$dir" ]; then
		ln -s "usr/$dir" "$ROOT/$dir"
	fi
done

# An absolute link names this machine's file: point it at the sysroot's own, relative to the link.
while IFS= read -r -d '' link; do
	target=$(readlink "$link")
	rel=$(realpath -m --relative-to="$(dirname "$link")" "$ROOT$target")
	ln -sfn "$rel" "$link"
	[ -e "$link" ] || { say "$link -> $target: not in the packages"; exit 1; }
done < <(find "$ROOT" -type l -lname '/*' -print0)
left=$(find "$ROOT" -type l -lname '/*' | head -n 3)
[ -z "$left" ] || { say "absolute symlinks left: $left"; exit 1; }
touch "$ROOT/.complete"
# The lists and the packages served only to make the sysroot.
rm -rf "$apt"
say "sysroot of glibc $GLIBC ($SUITE) for $ARCH in $ROOT"
echo "$ROOT"
