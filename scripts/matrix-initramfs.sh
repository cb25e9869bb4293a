# SPDX-License-Identifier: MIT
# The kernel matrix's initramfs: the guest's init, the manifest, the built suites and every library they load, at their host paths.
# shellcheck shell=bash
#
# Sourced by kernel-matrix.sh, which sets arch and TRIPLE (matrix_arch), manifest (the build's
# matrix/manifest), work (the run's folder), ENV_SETS (the folders of other userlands' probes,
# each with its env file) and say().
# shellcheck disable=SC2154 # arch, TRIPLE, work and manifest are the sourcing script's

# Copies one path to the same absolute path under $1.
copy_one() {
	local root=$1 path=$2 link
	if [ -e "$root$path" ] || [ -L "$root$path" ]; then
		return 0
	fi
	mkdir -p "$root$(dirname "$path")"
	link=$(readlink "$path" 2>/dev/null || true)
	# A link to a file beside it (libfastraw.so.0 -> libfastraw.so.0.1.0) stays a link, so the
	# guest sees one library under both names, as the host does; anything else is copied.
	if [ -n "$link" ] && [ "${link#*/}" = "$link" ]; then
		copy_one "$root" "$(dirname "$path")/$link"
		ln -s "$link" "$root$path"
	else
		cp -L "$path" "$root$path"
	fi
}

# Copies a file and the shared objects it needs to the same absolute paths under $1.
stage_with_deps() {
	local root=$1 file=$2 dep
	[ -e "$root$file" ] && return 0
	copy_one "$root" "$file"
	if [ "$arch" != "$(uname -m)" ]; then
		stage_cross_deps "$root" "$file"
		return
	fi
	# The interpreter the file names: for another glibc's probes (matrix-glibc217.sh) ldd shows
	# the host's loader in its place ("/path/ld-2.17.so => /lib64/ld-linux-x86-64.so.2").
	dep=$("$READELF" -lW "$file" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	[ -z "$dep" ] || [ ! -e "$dep" ] || copy_one "$root" "$dep"
	# ldd prints "name => /path (addr)" and "/path/ld-linux... (addr)"; a static program has none.
	while read -r dep; do
		[ -n "$dep" ] || continue
		copy_one "$root" "$dep"
	done < <(ldd "$file" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
}

# A cross-built file's interpreter and DT_NEEDED libraries, found as the guest's ld.so will
# find them (ldd cannot run it): first in its RUNPATH or RPATH (the build's own libraries, staged
# at their host paths), then in the manifest's libdir lines, the cross libc's and the test
# sysroot's directories, whose libraries go to /lib/<triple>/, one of the guest ld.so's own
# directories. Each library found is staged with its own dependencies.
stage_cross_deps() {
	local root=$1 file=$2 interp name dir found rpath origin
	interp=$("$READELF" -lW "$file" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
		# A loader outside the system's folders is another glibc's, at its own path on this
		# host (matrix-glibc217.sh, matrix-debian-glibc.sh), whose libraries the file's rpath
		# then finds there too; the system's (/lib/ld-linux-armhf.so.3) is the cross libc's.
		case "$interp" in
		/lib/* | /lib64/* | /usr/lib/*) found=$(find_cross_lib "${interp##*/}") ;;
		*) found=$interp; [ -e "$found" ] || found= ;;
		esac
		[ -n "$found" ] ||
			{ say "warning: no ${interp##*/} (the interpreter of $file) in ${LIBDIRS[*]}" >&2; return 0; }
		mkdir -p "$root${interp%/*}"
		cp -L "$found" "$root$interp"
	fi
	origin=${file%/*}
	rpath=$("$READELF" -dW "$file" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p' | head -n 1)
	rpath=${rpath//\$ORIGIN/$origin}
	rpath=${rpath//\$\{ORIGIN\}/$origin}
	while read -r name; do
		[ -n "$name" ] || continue
		found=
		for dir in ${rpath//:/ }; do
			[ -e "$dir/$name" ] && { found=$dir/$name; break; }
		done
		if [ -n "$found" ]; then
			stage_with_deps "$root" "$found"
		elif [ -e "$root/lib/$TRIPLE/$name" ] || [ -e "$root/lib/$name" ]; then
			continue # staged, or the interpreter (libc needs it by name)
		elif found=$(find_cross_lib "$name"); then
			mkdir -p "$root/lib/$TRIPLE"
			cp -L "$found" "$root/lib/$TRIPLE/$name"
			stage_cross_deps "$root" "$found"
		else
			say "warning: no $name (needed by $file) in ${LIBDIRS[*]}" >&2
		fi
	done < <("$READELF" -dW "$file" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
}

# The first of the cross library directories that holds $1.
find_cross_lib() {
	local dir
	for dir in "${LIBDIRS[@]}"; do
		[ -e "$dir/$1" ] && { echo "$dir/$1"; return 0; }
	done
	return 1
}

# Packs the initramfs into $1 (gzipped newc cpio).
make_initramfs() {
	local out=$1 root=$work/root init path set
	READELF=$(command -v "$TRIPLE-readelf" || echo readelf)
	mapfile -t LIBDIRS < <(sed -n 's/^libdir //p' "$manifest")
	LIBDIRS+=("/usr/$TRIPLE/lib")
	rm -rf "$root"
	mkdir -p "$root"/{dev,proc,sys,tmp,matrix}
	cp "$manifest" "$root/matrix/manifest"
	init=$(sed -n 's/^init //p' "$manifest")
	cp "$init" "$root/init"
	while read -r path; do
		# Not built (a suite that does not build for this architecture yet): its guest says so.
		[ -e "$path" ] || { say "warning: $path is missing, not staged" >&2; continue; }
		stage_with_deps "$root" "$path"
	done < <(sed -n 's/^suite [^ ]* //p; s/^env [A-Z_]*=\(\/.*\)/\1/p' "$manifest" "${ENV_SETS[@]/%//env}" | sort -u)
	for set in "${ENV_SETS[@]}"; do
		cp "$set/env" "$root/matrix/env.${set##*/}"
	done
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
}
