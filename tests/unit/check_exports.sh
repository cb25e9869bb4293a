#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks libfastraw.so's interface: exactly the interposed names exported, no TEXTREL, NODELETE, libc only.
# Usage: check_exports.sh LIBRARY   (NM and READELF may name the tools; the defaults are nm and readelf.
# FR_ALLOW_DEPS may list extra allowed dependencies as glob patterns, for sanitizer builds.)
set -u
set -f # no globbing: FR_ALLOW_DEPS holds patterns
lib=${1:?usage: check_exports.sh LIBRARY}
NM=${NM:-nm}
READELF=${READELF:-readelf}
FR_ALLOW_DEPS=${FR_ALLOW_DEPS:-}
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

[ -f "$lib" ] || { echo "no such library: $lib"; exit 1; }

# 1. Defined dynamic symbols: the interposed names and nothing else.
# FR_EXPORTS_EXTRA: the port's own (__clock_gettime64 and fastraw_clock_gettime32 on a 32-bit ABI
# with 64-bit time_t).
# shellcheck disable=SC2086 # a list of names
printf '%s\n' __clock_gettime clock_gettime dlsym dlvsym getauxval __getauxval syscall \
	fastraw_clock_gettime fastraw_info fastraw_now_ns fastraw_ticks fastraw_ticks_to_ns ${FR_EXPORTS_EXTRA:-} |
	LC_ALL=C sort >"$tmp/want"
"$NM" -D --defined-only "$lib" >"$tmp/nm" || { echo "$NM failed"; exit 1; }
awk 'NF { print $NF }' "$tmp/nm" | LC_ALL=C sort >"$tmp/got"
if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "FAIL: exported symbols differ (- wanted, + exported):"
	cat "$tmp/diff"
	status=1
else
	echo "ok: exports are exactly: $(tr '\n' ' ' <"$tmp/got")"
fi

# 2. No text relocations.
"$READELF" -d "$lib" >"$tmp/dyn" || { echo "$READELF failed"; exit 1; }
if grep -q TEXTREL "$tmp/dyn"; then
	echo "FAIL: the library has text relocations:"
	grep TEXTREL "$tmp/dyn"
	status=1
else
	echo "ok: no TEXTREL"
fi

# 3. Marked NODELETE: dlclose must never unmap it (another thread may be running its code).
if grep -q 'FLAGS_1.*NODELETE' "$tmp/dyn"; then
	echo "ok: DF_1_NODELETE set"
else
	echo "FAIL: DT_FLAGS_1 lacks NODELETE (link with -z nodelete):"
	grep FLAGS "$tmp/dyn"
	status=1
fi

# Whether $1 is one of the extra allowed dependencies.
allowed_extra() {
	for pat in $FR_ALLOW_DEPS; do
		# shellcheck disable=SC2254
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}

# 4. Dependencies: libc and the dynamic loader only.
sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$tmp/dyn" >"$tmp/needed"
if [ ! -s "$tmp/needed" ]; then
	echo "FAIL: no DT_NEEDED at all (expected libc.so.6)"
	status=1
fi
while read -r dep; do
	case $dep in
	libc.so.6 | ld-linux-x86-64.so.2 | ld-linux-aarch64.so.1) echo "ok: needs $dep" ;;
	*) if allowed_extra "$dep"; then echo "ok: needs $dep (allowed: FR_ALLOW_DEPS)"; else
		echo "FAIL: unexpected dependency $dep"; status=1; fi ;;
	esac
done <"$tmp/needed"
if ! command -v ldd >/dev/null 2>&1; then
	echo "skip: no ldd; indirect dependencies not checked"
elif ! ldd "$lib" >/dev/null 2>&1; then
	# The host's ldd cannot load a library of another architecture (a cross build).
	echo "skip: ldd cannot read $lib here (another architecture?); indirect dependencies not checked"
else
	# ldd lists the vDSO, libc and the loader; anything else came in indirectly.
	ldd "$lib" | awk '{ print $1 }' | while read -r dep; do
		case $dep in
		linux-vdso.so.1 | libc.so.6 | /lib64/ld-linux-x86-64.so.2 | */ld-linux-x86-64.so.2 | */ld-linux-aarch64.so.1) ;;
		*) allowed_extra "$dep" || { echo "FAIL: ldd shows $dep"; exit 1; } ;;
		esac
	done || status=1
fi

[ $status -eq 0 ] && echo "PASS"
exit $status
