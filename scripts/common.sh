# SPDX-License-Identifier: MIT
# Shared set-up for the scripts: source it, then call fr_setup to get the tools and a fresh build.
# shellcheck shell=bash
#
# After fr_setup the working directory is the repository root and FR_BUILD holds the
# absolute build directory (FASTRAW_BUILD_DIR, default "build", relative to the root).

FR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FR_APT_PACKAGES="cmake check pkg-config gcc scdoc groff-base faketime stress-ng musl-tools clang rpm cpio debootstrap mmdebstrap qemu-system-x86 qemu-system-arm valgrind strace"
# The runtimes the e2e_runtime_* entries run (python3 and a C++ compiler are usually there),
# installed without their recommends: a headless JRE and Node need none of them.
FR_APT_RUNTIMES="openjdk-17-jre-headless nodejs"
FR_APT_UPDATED=${FR_APT_UPDATED:-0}

# Prints the names of the missing build requirements, space-separated; nothing when all are there.
fr_missing_tools() {
	local missing=()

	command -v cmake >/dev/null 2>&1 || missing+=(cmake)
	command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
	command -v "${CC:-cc}" >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || missing+=(gcc)
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists check; then
		missing+=(check)
	fi
	echo "${missing[*]}"
}

# Prints the missing tools that are wanted but not required: without scdoc the man pages are
# not built, without groff they are not checked, without faketime e2e_neighbours skips it,
# without stress-ng e2e_stress_ng_vdso is skipped, without musl-gcc, clang or rpmbuild the musl,
# clang and RPM entries skip, without debootstrap pam_sudo (its Debian 11 root) does, without
# mmdebstrap or QEMU the whole-system boots (label boot) do, without valgrind or strace
# e2e_startup_budget skips its count or its file check, without java or node their
# e2e_runtime_* entries do.
fr_missing_optional() {
	local missing=()

	command -v scdoc >/dev/null 2>&1 || missing+=(scdoc)
	command -v groff >/dev/null 2>&1 || missing+=(groff-base)
	command -v faketime >/dev/null 2>&1 || missing+=(faketime)
	command -v stress-ng >/dev/null 2>&1 || missing+=(stress-ng)
	command -v musl-gcc >/dev/null 2>&1 || missing+=(musl-tools)
	command -v clang >/dev/null 2>&1 || missing+=(clang)
	command -v rpmbuild >/dev/null 2>&1 || missing+=(rpm)
	command -v cpio >/dev/null 2>&1 || missing+=(cpio)
	command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
	command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
	command -v qemu-system-x86_64 >/dev/null 2>&1 || missing+=(qemu-system-x86)
	command -v qemu-system-aarch64 >/dev/null 2>&1 || missing+=(qemu-system-arm)
	command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
	command -v strace >/dev/null 2>&1 || missing+=(strace)
	command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
	command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || missing+=(nodejs)
	echo "${missing[*]}"
}

# Installs what is missing (as root) or says how to (otherwise, then exits non-zero; a missing
# optional tool only gets a note).
fr_install_missing() {
	local missing optional

	missing=$(fr_missing_tools)
	optional=$(fr_missing_optional)
	[ -z "$missing" ] && [ -z "$optional" ] && return 0
	if [ -z "$missing" ] && { [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; }; then
		echo "fastraw: note: $optional not installed: what needs it (man pages, some tests) is skipped" >&2
		return 0
	fi
	echo "fastraw: missing: $missing${missing:+ }$optional" >&2
	if [ "$(id -u)" -ne 0 ]; then
		echo "fastraw: run as root:  apt-get update && apt-get install -y $FR_APT_PACKAGES" \
			"&& apt-get install -y --no-install-recommends $FR_APT_RUNTIMES" >&2
		exit 1
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "fastraw: no apt-get here; install cmake, pkg-config, a C compiler and Check (libcheck) yourself" >&2
		exit 1
	fi
	if [ "$FR_APT_UPDATED" != 1 ]; then
		apt-get update
		FR_APT_UPDATED=1
	fi
	# shellcheck disable=SC2086 # the package list is meant to split into words
	DEBIAN_FRONTEND=noninteractive apt-get install -y $FR_APT_PACKAGES
	# Optional, and named for Debian 12: a release without these names skips their entries.
	# shellcheck disable=SC2086 # the package list is meant to split into words
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $FR_APT_RUNTIMES ||
		echo "fastraw: note: $FR_APT_RUNTIMES could not be installed: the e2e_runtime_* entries skip" >&2
	missing=$(fr_missing_tools)
	if [ -n "$missing" ]; then
		echo "fastraw: still missing after apt-get install: $missing" >&2
		exit 1
	fi
	optional=$(fr_missing_optional)
	[ -z "$optional" ] || echo "fastraw: note: $optional could not be installed: what needs it (man pages, some tests) is skipped" >&2
}

# fr_setup [extra cmake configure arguments...]: requirements, then configure and build.
fr_setup() {
	fr_install_missing
	cd "$FR_ROOT" || exit 1
	FR_BUILD=${FASTRAW_BUILD_DIR:-build}
	case "$FR_BUILD" in
	/*) ;;
	*) FR_BUILD="$FR_ROOT/$FR_BUILD" ;;
	esac
	cmake -S . -B "$FR_BUILD" "$@"
	cmake --build "$FR_BUILD" -j"$(nproc)"
}

# fr_apt_unpack APT_DIR ARCH KEYRING "MIRROR SUITE" ROOT PACKAGE...: downloads Debian's PACKAGEs
# of SUITE for ARCH through a private apt configuration under APT_DIR (its own sources list,
# lists and cache: the machine's apt sources are never read or changed, nothing is installed)
# and unpacks them into ROOT, made afresh; the .deb files stay in APT_DIR/debs. Returns 1 when
# the private lists cannot be updated, 2 when a package cannot be downloaded.
fr_apt_unpack() {
	local apt=$1 arch=$2 keyring=$3 source=$4 root=$5 opts deb
	shift 5
	rm -rf "$root" "$apt/debs"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$root"
	echo "deb [arch=$arch signed-by=$keyring] $source main" >"$apt/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=-
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
		-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
	[ "$(id -u)" = 0 ] && opts+=(-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" update >/dev/null 2>&1 || return 1
	(cd "$apt/debs" && apt-get "${opts[@]}" download "$@" >/dev/null 2>&1) || return 2
	for deb in "$apt/debs"/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
}
