# SPDX-License-Identifier: MIT
# The kernel matrix's kernels: Debian's cloud kernels fetched through a private apt configuration, their vmlinuz cached.
# shellcheck shell=bash
#
# Sourced by kernel-matrix.sh, which sets CACHE, MIRROR, SECURITY_MIRROR, KEYRING, KARCH (Debian's
# name of the guests' architecture: amd64, arm64 or armhf), KFLAVOUR (the kernel flavour: cloud,
# or armhf's armmp) and say().
# The machine's own apt sources are never read or changed: a sources list of our own (bookworm
# and bookworm-security for 6.1 and 6.12, sid and experimental for 7.x, for amd64 bullseye and
# bullseye-security for 5.10, which el8.10 relabels: matrix-relabel.sh, and for armhf trixie and
# trixie-security, whose 6.12 it boots), package lists and a package cache live under $KCACHE/apt,
# and apt-get is pointed at them with -o options. KCACHE is $CACHE for amd64 kernels and
# $CACHE/<dir>/kernels for the others' (aarch64/ and armhf/, beside scripts/aarch64.sh's and
# scripts/armhf.sh's sysroots), whose apt configuration names their architecture (and reads no
# dpkg status: the machine's is not of that architecture).
# shellcheck disable=SC2153 # CACHE is the sourcing script's
KCACHE=$CACHE
case "$KARCH" in
arm64) KCACHE=$CACHE/aarch64/kernels ;;
armhf) KCACHE=$CACHE/armhf/kernels ;;
esac

apt_updated=0
apt_install() {
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 && return 0
	[ "$apt_updated" = 1 ] && return 1
	apt_updated=1
	apt-get update >/dev/null 2>&1 || return 1
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1
}

# The private apt configuration, as apt-get/apt-cache options in APT_PRIVATE; 1 when there can be none.
APT_PRIVATE=()
apt_private() {
	local d=$KCACHE/apt opt=
	[ ${#APT_PRIVATE[@]} -gt 0 ] && return 0
	command -v apt-get >/dev/null 2>&1 && command -v apt-cache >/dev/null 2>&1 || return 1
	# Debian's archive key verifies every suite used (bookworm's keyring includes the current keys).
	[ -r "$KEYRING" ] || apt_install debian-archive-keyring || return 1
	[ -r "$KEYRING" ] || return 1
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" || return 1
	[ "$KARCH" = amd64 ] || opt="arch=$KARCH "
	cat >"$d/sources.list" <<-EOF
		deb [${opt}signed-by=$KEYRING] $MIRROR bookworm main
		deb [${opt}signed-by=$KEYRING] $SECURITY_MIRROR bookworm-security main
		deb [${opt}signed-by=$KEYRING] $MIRROR sid main
		deb [${opt}signed-by=$KEYRING] $MIRROR experimental main
	EOF
	[ "$KARCH" != amd64 ] || cat >>"$d/sources.list" <<-EOF
		deb [signed-by=$KEYRING] $MIRROR bullseye main
		deb [signed-by=$KEYRING] $SECURITY_MIRROR bullseye-security main
	EOF
	[ "$KARCH" != armhf ] || cat >>"$d/sources.list" <<-EOF
		deb [${opt}signed-by=$KEYRING] $MIRROR trixie main
		deb [${opt}signed-by=$KEYRING] $SECURITY_MIRROR trixie-security main
	EOF
	APT_PRIVATE=(-o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=-
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache")
	[ "$KARCH" = amd64 ] || APT_PRIVATE+=(-o Dir::State::status=/dev/null
		-o "APT::Architecture=$KARCH" -o "APT::Architectures=$KARCH")
	# As root apt downloads as the _apt user, who may not write under $HOME: stay root.
	[ "$(id -u)" = 0 ] && APT_PRIVATE+=(-o APT::Sandbox::User=root)
	return 0
}

# Refreshes the private package lists, once per run of the script (kernel_for runs in command
# substitutions, so the mark is a file naming the run: $$ is the script's process in all of them).
apt_private_update() {
	local mark=$KCACHE/apt/updated-by
	[ "$(cat "$mark" 2>/dev/null)" = "$$" ] && return 0
	say "updating the private package lists ($KCACHE/apt)" >&2
	apt-get "${APT_PRIVATE[@]}" update >/dev/null 2>&1 || return 1
	echo "$$" >"$mark"
}

# The newest package of a series by its name pattern, or nothing.
newest_package() {
	local prefix=$1 regex=$2
	apt-cache "${APT_PRIVATE[@]}" pkgnames "$prefix" 2>/dev/null | grep -E "$regex" | sort -V | tail -n 1 || true
}

# The vmlinuz in a downloaded kernel package, moved to $KCACHE/vmlinuz-<release>; prints its path.
# Up to 6.x the image package holds ./boot/vmlinuz-<release>; from 7.x Debian ships the image
# as linux-binary-unsigned-<release>, with ./usr/lib/modules/<release>/vmlinuz.unsigned.
unpack_vmlinuz() {
	local deb=$1 tmp=$2 path release
	path=$(dpkg-deb --fsys-tarfile "$deb" | tar -t |
		grep -E '^\./(boot/vmlinuz-[^/]+|usr/lib/modules/[^/]+/vmlinuz[^/]*)$' | head -n 1 || true)
	case "$path" in
	./boot/vmlinuz-*) release=${path#./boot/vmlinuz-} ;;
	./usr/lib/modules/*) release=$(cut -d/ -f5 <<<"$path") ;;
	*) echo "kernel-matrix.sh: no vmlinuz in $deb" >&2; return 1 ;;
	esac
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "$path" || return 1
	mv "$tmp/$path" "$KCACHE/vmlinuz-$release"
	echo "$KCACHE/vmlinuz-$release"
}

# shellcheck source=scripts/matrix-relabel.sh
. "$FR_MATRIX_ROOT/scripts/matrix-relabel.sh"

# RHEL 8.10's shape (el8.10): Debian bullseye's newest 5.10 cloud kernel, unpacked to its vmlinux
# and relabelled 4.18.0-553.el8_10.x86_64 (matrix-relabel.sh), cached as
# $KCACHE/vmlinux-<Debian's release>-as-<that release>. Where the mirror lacks the newest
# package (a lagging one answers 404), the next older ones are tried.
EL8_RELEASE=4.18.0-553.el8_10.x86_64
el8_kernel() {
	local found pkg tmp image from
	found=$(cd "$KCACHE" && ls -1 vmlinux-5.10.0-*-as-$EL8_RELEASE 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$found" ]; then
		echo "$KCACHE/$found"
		return 0
	fi
	apt_private && apt_private_update || return 1
	for pkg in $(apt-cache "${APT_PRIVATE[@]}" pkgnames linux-image-5.10.0 2>/dev/null |
		grep -E '^linux-image-5\.10\.0-[0-9]+-cloud-amd64-unsigned$' | sort -rV | head -n 5); do
		tmp=$(mktemp -d "$KCACHE/fetch.XXXXXX")
		say "fetching $pkg" >&2
		if (cd "$tmp" && apt-get "${APT_PRIVATE[@]}" download "$pkg" >/dev/null 2>&1) &&
			image=$(unpack_vmlinuz "$tmp"/*.deb "$tmp"); then
			from=${image##*/vmlinuz-}
			say "relabelling Linux $from as $EL8_RELEASE" >&2
			found=$KCACHE/vmlinux-$from-as-$EL8_RELEASE
			if relabelled_kernel "$image" "$from" "$EL8_RELEASE" "$found"; then
				rm -rf "$tmp" "$image"
				echo "$found"
				return 0
			fi
			rm -rf "$tmp" "$image"
			return 1
		fi
		rm -rf "$tmp"
	done
	return 1
}

# Kernels Debian's archive does not have (x86-64 before 5.3, 32-bit ARM before 5.5), built from
# public source and kept beside the project: $FASTRAW_SHARED_KERNELS/<series>/bzImage, or zImage
# for 32-bit ARM's (default ../shared/kernels/). Prints the image's path; 1 when it is not there
# (its configurations are then skipped, the others still run).
SHARED_KERNELS=${FASTRAW_SHARED_KERNELS:-$FR_MATRIX_ROOT/../shared/kernels/}
SHARED_KERNELS=${SHARED_KERNELS%/}
shared_image_name() {
	case "$KARCH" in armhf) echo zImage ;; *) echo bzImage ;; esac
}
shared_kernel_for() {
	local image
	image=$SHARED_KERNELS/$1/$(shared_image_name)
	[ -r "$image" ] || return 1
	echo "$image"
}

# Whether a series is one of the prebuilt ones (shared_kernel_for), not Debian's: x86-64's 4.19
# and RHEL 7's, 32-bit ARM's arm-4.19 and arm-5.4.
is_shared_series() {
	case "$KARCH:$1" in amd64:4.19 | amd64:el7 | amd64:el7-debug | armhf:arm-4.19 | armhf:arm-5.4) return 0 ;; esac
	return 1
}

# The cached vmlinuz of a kernel series, fetched when there is none yet: the newest 6.1.0-N and
# 6.12.N of bookworm(-security) (armhf: 6.12.N+deb13 of trixie(-security)), the newest 7.2.N in
# sid and 7.3* in experimental, all of Debian's $KFLAVOUR flavour for $KARCH; el8.10's
# relabelled vmlinux (el8_kernel, amd64).
kernel_for() {
	local series=$1 a=$KFLAVOUR-$KARCH u=-unsigned glob prefix regex pkg tmp found deb='[0-9]+'
	if is_shared_series "$series"; then
		shared_kernel_for "$series"
		return
	fi
	# Debian's 32-bit ARM images carry no architecture in their names and are signed by no one
	# (linux-image-6.1.0-57-armmp); the 6.12 booted there is trixie's own (+deb13).
	[ "$KARCH" != armhf ] || a=$KFLAVOUR u='' deb=13
	case "$series" in
	el8.10) mkdir -p "$KCACHE" && el8_kernel; return ;;
	6.1) glob='vmlinuz-6.1.0-*' prefix=linux-image-6.1.0 regex="^linux-image-6\\.1\\.0-[0-9]+-$a$u\$" ;;
	6.12) glob='vmlinuz-6.12.*' prefix=linux-image-6.12 regex="^linux-image-6\\.12\\.[0-9]+\\+deb$deb-$a$u\$" ;;
	7.2) glob='vmlinuz-7.2.*' prefix=linux-binary-unsigned-7.2 regex="^linux-binary-unsigned-7\\.2\\.[0-9]+\\+deb[0-9]+-$a\$" ;;
	7.3) glob='vmlinuz-7.3[-.]*' prefix=linux-binary-unsigned-7.3 regex="^linux-binary-unsigned-7\\.3(\\.[0-9]+)?(\\+deb[0-9]+)?-$a\$" ;;
	*) echo "kernel-matrix.sh: no package rule for Linux $series" >&2; return 1 ;;
	esac
	mkdir -p "$KCACHE" || return 1
	# shellcheck disable=SC2086 # the glob is meant to expand
	found=$(cd "$KCACHE" && ls -1 $glob 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$found" ]; then
		echo "$KCACHE/$found"
		return 0
	fi
	apt_private || return 1
	# Stale lists name packages the mirror no longer has: refresh before the first download.
	apt_private_update || return 1
	pkg=$(newest_package "$prefix" "$regex")
	[ -n "$pkg" ] || return 1
	tmp=$(mktemp -d "$KCACHE/fetch.XXXXXX")
	say "fetching $pkg" >&2
	if ! (cd "$tmp" && apt-get "${APT_PRIVATE[@]}" download "$pkg" >/dev/null 2>&1) ||
		! found=$(unpack_vmlinuz "$tmp"/*.deb "$tmp"); then
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$tmp"
	echo "$found"
}
