# SPDX-License-Identifier: MIT
# The kernel matrix's relabelled kernels: a Debian bzImage unpacked to its vmlinux ELF, its release string rewritten, for QEMU's PVH boot.
# shellcheck shell=bash
#
# Sourced by matrix-kernels.sh. RHEL 8.4-8.10's kernels (4.18.0-305...553) have the generic
# vDSO of 5.10's era under a 4.18 release: Debian's 5.10, its uname release rewritten, is that
# shape. Nothing is built: the image is Debian's, only its init_uts_ns.name.release changes.
#
# The x86 boot protocol (Documentation/x86/boot.rst, protocol 2.08+): the setup code takes
# (setup_sects + 1) * 512 bytes (setup_sects at 0x1f1; 0 means 4), and the protected-mode part
# holds the compressed vmlinux at payload_offset (u32 at 0x248) for payload_length (u32 at
# 0x24c) bytes. Its format is the compressor's own, and every one but gzip is followed by the
# uncompressed size as a little-endian u32 (gzip's own trailer ends in the same number).
# The vmlinux is an ELF whose Xen PVH note (XEN_ELFNOTE_PHYS32_ENTRY, with CONFIG_PVH) lets QEMU
# boot it with -kernel (its pvh.bin option ROM), on q35 as on pc.

# The compressed payload of bzImage $1 in file $2, and its tool as a command on stdout:
# "gzip -dc", "xz -dc", "zstd -dc" or "lz4 -dc"; 1 when it is no bzImage or another format.
bzimage_payload() {
	local image=$1 out=$2 sects off len magic
	[ "$(od -An -tx1 -j 0x202 -N4 "$image" | tr -d ' \n')" = 48647253 ] || return 1 # "HdrS"
	sects=$(od -An -tu1 -j 0x1f1 -N1 "$image" | tr -d ' ')
	off=$(od -An -tu4 -j 0x248 -N4 "$image" | tr -d ' ')
	len=$(od -An -tu4 -j 0x24c -N4 "$image" | tr -d ' ')
	[ "$sects" = 0 ] && sects=4
	[ "${off:-0}" -gt 0 ] && [ "${len:-0}" -gt 4 ] || return 1
	dd if="$image" of="$out" bs=64K iflag=skip_bytes,count_bytes skip=$(((sects + 1) * 512 + off)) \
		count="$len" status=none || return 1
	[ "$(stat -c %s "$out")" = "$len" ] || return 1
	magic=$(od -An -tx1 -N6 "$out" | tr -d ' \n')
	case "$magic" in
	1f8b*) echo "gzip -dc" ;;
	fd377a585a00) echo "xz -dc" ;;
	28b52ffd*) echo "zstd -dc" ;;
	02214c18*) echo "lz4 -dc" ;;
	*) echo "kernel-matrix.sh: $image: payload of unknown format (${magic:0:8})" >&2; return 1 ;;
	esac
}

# Decompresses bzImage $1 to the vmlinux ELF $2, checked against the size the image records.
bzimage_vmlinux() {
	local image=$1 out=$2 payload=$2.payload tool size want
	if ! tool=$(bzimage_payload "$image" "$payload"); then
		echo "kernel-matrix.sh: no compressed vmlinux found in $image" >&2
		rm -f "$payload"
		return 1
	fi
	command -v "${tool%% *}" >/dev/null 2>&1 || apt_install "${tool%% *}" ||
		{ echo "kernel-matrix.sh: no ${tool%% *} to unpack $image" >&2; rm -f "$payload"; return 1; }
	want=$(tail -c 4 "$payload" | od -An -tu4 | tr -d ' ')
	# The appended size is not the compressor's: it would take it for a second, broken stream.
	[ "${tool%% *}" = gzip ] || truncate -s -4 "$payload"
	$tool <"$payload" >"$out" 2>/dev/null
	rm -f "$payload"
	size=$(stat -c %s "$out")
	if [ "$size" != "$want" ] || [ "$(od -An -c -N4 "$out" | tr -d ' ')" != '177ELF' ]; then
		echo "kernel-matrix.sh: $image unpacked to $size bytes, not an ELF of $want" >&2
		return 1
	fi
}

# Rewrites the release of the vmlinux ELF $1 (struct new_utsname init_uts_ns.name: six fields of
# 65 bytes, sysname "Linux", nodename "(none)", release, version, machine, domainname) from $2 to
# $3, padded with NULs; 1 unless exactly one such structure holds release $2.
relabel_vmlinux() {
	local elf=$1 from=$2 to=$3 at n
	[ ${#to} -lt 65 ] || return 1
	at=$(LC_ALL=C grep -obUaP "Linux\\x00{60}\\(none\\)\\x00{59}\\Q$from\\E\\x00" "$elf" | cut -d: -f1)
	n=$(grep -c . <<<"$at")
	if [ "$n" != 1 ]; then
		echo "kernel-matrix.sh: $elf: $n utsname structures with release $from, not one" >&2
		return 1
	fi
	{ printf '%s' "$to"; head -c $((65 - ${#to})) /dev/zero; } |
		dd of="$elf" bs=1 seek=$((at + 130)) count=65 conv=notrunc status=none
}

# The vmlinux of bzImage $1 (Debian release $2) as release $3, at $4.
relabelled_kernel() {
	local image=$1 from=$2 to=$3 out=$4
	if bzimage_vmlinux "$image" "$out.tmp" && relabel_vmlinux "$out.tmp" "$from" "$to"; then
		mv "$out.tmp" "$out"
	else
		rm -f "$out.tmp"
		return 1
	fi
}
