#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes a sysroot of Debian 11's glibc 2.31 (bullseye's libc6, libc6-dev and linux-libc-dev) and prints its path.
#
#   scripts/oldglibc.sh [DEB_ARCH]     (default: this machine's, dpkg --print-architecture)
#
# The packages come through a private apt configuration (its own sources list, lists and cache
# under $FASTRAW_MATRIX_CACHE/oldglibc; the machine's apt sources are never read or changed,
# nothing is installed: the packages are unpacked with dpkg-deb -x). Their absolute symlinks
# (libm.so -> /lib/..., the loader in lib64/) are made relative, so that a program linked or run
# against the sysroot never reaches this machine's newer glibc. Programs built with
#   cc --sysroot=SYSROOT -Wl,--dynamic-linker=SYSROOT/<the loader> -Wl,-rpath,SYSROOT/lib/<triple>
# then run on glibc 2.31 (tests/floor/oldglibc_e2e.sh). A second run reuses the sysroot.
# Exits 77 (CTest's "skipped") with the reason when the packages cannot be had.
set -euo pipefail

ARCH=${1:-$(dpkg --print-architecture 2>/dev/null || true)}
CACHE=${FASTRAW_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastraw-matrix}/oldglibc
MIRROR=${FASTRAW_MATRIX_MIRROR:-http://deb.debian.org/debian}
KEYRING=${FASTRAW_MATRIX_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
PACKAGES=(libc6 libc6-dev linux-libc-dev)

say() { echo "oldglibc: $*" >&2; }
skip() {
	say "SKIPPED: $*"
	exit 77
}

case "$ARCH" in
amd64 | arm64) ;;
"") skip "no dpkg to name this machine's Debian architecture" ;;
*) skip "no sysroot for $ARCH (amd64 and arm64 only)" ;;
esac
ROOT=$CACHE/sysroot-$ARCH
if [ -f "$ROOT/.complete" ]; then
	echo "$ROOT"
	exit 0
fi
command -v apt-get >/dev/null 2>&1 || skip "no apt-get to fetch bullseye's ${PACKAGES[*]}"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb to unpack bullseye's packages"
[ -r "$KEYRING" ] || skip "no $KEYRING: Debian's archive cannot be verified here"

apt=$CACHE/apt-$ARCH
rm -rf "$ROOT" "$apt/debs"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$ROOT"
echo "deb [arch=$ARCH signed-by=$KEYRING] $MIRROR bullseye main" >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=-
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
	-o "APT::Architecture=$ARCH" -o "APT::Architectures=$ARCH")
[ "$(id -u)" = 0 ] && opts+=(-o APT::Sandbox::User=root)
say "fetching bullseye's ${PACKAGES[*]} for $ARCH (private apt lists in $apt)"
apt-get "${opts[@]}" update >/dev/null 2>&1 || skip "apt-get update of the private bullseye lists from $MIRROR failed"
(cd "$apt/debs" && apt-get "${opts[@]}" download "${PACKAGES[@]}" >/dev/null 2>&1) ||
	skip "cannot download bullseye's ${PACKAGES[*]} from $MIRROR"
for deb in "$apt/debs"/*.deb; do
	dpkg-deb -x "$deb" "$ROOT"
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
say "sysroot of glibc 2.31 for $ARCH in $ROOT"
echo "$ROOT"
