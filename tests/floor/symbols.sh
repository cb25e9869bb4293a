#!/bin/sh
# SPDX-License-Identifier: MIT
# The glibc floor: libfastraw.so and the fastraw launcher need no glibc symbol version past GLIBC_2.17.
#
#   symbols.sh LIB LAUNCHER LAUNCHER_STATIC
#
# Environment: CC (the build's compiler, for the probes), OBJDUMP and READELF (the build's).
# The checks first prove on probes built here that they fail on a symbol past the floor (a
# version made up by a version script, so that any build machine has one, and this machine's
# fstat where its glibc gives fstat@GLIBC_2.33), on a library with no versioned glibc symbol at
# all (what a broken objdump would also show) and on a dynamically linked launcher.
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
LIB=${1:?usage: symbols.sh LIB LAUNCHER LAUNCHER_STATIC}
LAUNCHER=${2:?}
LAUNCHER_STATIC=${3:?}
: "${CC:=cc}" "${OBJDUMP:=objdump}" "${READELF:=readelf}"
FLOOR=2.17

# glibc_versions FILE: "VERSION SYMBOL" for each dynamic symbol of FILE that carries a GLIBC_ version.
glibc_versions() {
	"$OBJDUMP" -T "$1" | awk '{
		for (i = 1; i < NF; i++)
			if ($i ~ /^\(?GLIBC_/) { v = $i; gsub(/[()]/, "", v); print v, $NF; break }
	}'
}

# past_floor: of the "VERSION SYMBOL" lines on stdin, SYMBOL@VERSION for each version past the
# floor or not of the form GLIBC_x.y (GLIBC_PRIVATE binds to one build of glibc).
past_floor() {
	awk -v floor="$FLOOR" 'BEGIN { split(floor, f, ".") } {
		v = $1; sub(/^GLIBC_/, "", v)
		if (v !~ /^[0-9]+\.[0-9]+(\.[0-9]+)?$/) { print $2 "@" $1; next }
		split(v, p, ".")
		if (p[1] + 0 > f[1] + 0 || (p[1] + 0 == f[1] + 0 && p[2] + 0 > f[2] + 0)) print $2 "@" $1
	}' | sort -u | tr '\n' ' '
}

# floor_dynamic FILE: 0 when FILE's glibc symbols are all at or below the floor; else prints why and returns 1.
floor_dynamic() {
	if ! list=$(glibc_versions "$1") || [ -z "$list" ]; then
		echo "$1: objdump -T shows no versioned glibc symbol (not linked with glibc, or objdump cannot read it)"
		return 1
	fi
	newer=$(printf '%s\n' "$list" | past_floor)
	if [ -n "$newer" ]; then
		echo "$1 needs glibc past $FLOOR: $newer"
		return 1
	fi
	echo "$1: $(printf '%s\n' "$list" | awk '{ print $1 }' | sort -uV | tr '\n' ' ')- none past $FLOOR"
}

# floor_static FILE: 0 when FILE is a statically linked executable (no loader, no libraries); else prints why and returns 1.
floor_static() {
	if ! ph=$("$READELF" -lW "$1" 2>&1) || ! printf '%s\n' "$ph" | grep -q '^Program Headers:'; then
		echo "$1: readelf -l cannot read its program headers"
		return 1
	fi
	if printf '%s\n' "$ph" | grep -q '^ *INTERP '; then
		echo "$1 is dynamically linked (it names a loader): $(floor_dynamic "$1")"
		return 1
	fi
	if "$READELF" -dW "$1" | grep -q '(NEEDED)'; then
		echo "$1 needs shared libraries"
		return 1
	fi
	echo "$1: statically linked, no glibc symbol version needed"
}

# expect_fail WHAT TEXT CHECK FILE: CHECK must reject FILE with a reason holding TEXT.
expect_fail() {
	if out=$("$3" "$4"); then
		fail "probe $1 passed: $out"
	elif ! printf '%s\n' "$out" | grep -qF -- "$2"; then
		fail "probe $1 failed without naming '$2': $out"
	else
		echo "probe $1 rejected: $out"
	fi
}

cat >"$T/fake.c" <<'SRC'
int fr_fake_new(void) { return 1; }
int fr_fake_old(void) { return 2; }
SRC
cat >"$T/fake.map" <<'SRC'
GLIBC_2.17 { global: fr_fake_old; local: *; };
GLIBC_2.99 { global: fr_fake_new; } GLIBC_2.17;
SRC
cat >"$T/new.c" <<'SRC'
int fr_fake_new(void);
int call(void) { return fr_fake_new(); }
SRC
cat >"$T/old.c" <<'SRC'
int fr_fake_old(void);
int call(void) { return fr_fake_old(); }
SRC
cat >"$T/fstat.c" <<'SRC'
#include <sys/stat.h>
int call(struct stat *st) { return fstat(0, st); }
SRC
cat >"$T/none.c" <<'SRC'
int call(int x) { return x + 1; }
SRC
cat >"$T/main.c" <<'SRC'
int main(void) { return 0; }
SRC
if ! { "$CC" -shared -fPIC -o "$T/libfake.so" "$T/fake.c" -Wl,--version-script="$T/fake.map" &&
	"$CC" -shared -fPIC -o "$T/new.so" "$T/new.c" -L"$T" -lfake &&
	"$CC" -shared -fPIC -o "$T/old.so" "$T/old.c" -L"$T" -lfake &&
	"$CC" -shared -fPIC -o "$T/fstat.so" "$T/fstat.c" &&
	"$CC" -shared -fPIC -nostdlib -o "$T/none.so" "$T/none.c" &&
	"$CC" -o "$T/dynamic" "$T/main.c"; }; then
	fail "$CC cannot build the probes"
	finish
fi

expect_fail "new (GLIBC_2.99)" "fr_fake_new@GLIBC_2.99" floor_dynamic "$T/new.so"
expect_fail "none (no glibc symbol)" "no versioned glibc symbol" floor_dynamic "$T/none.so"
expect_fail "dynamic executable" "is dynamically linked" floor_static "$T/dynamic"
if out=$(floor_dynamic "$T/old.so"); then
	echo "probe old (GLIBC_2.17) accepted: $out"
else
	fail "probe old (GLIBC_2.17) rejected: $out"
fi
# This machine's glibc decides what fstat binds to: GLIBC_2.33 from glibc 2.33 on, the symbol
# libfastraw.so once needed (CHANGELOG); older glibc gives fstat no version past the floor.
if glibc_versions "$T/fstat.so" | grep -q '^GLIBC_2\.33 fstat$'; then
	expect_fail "fstat (this glibc's)" "fstat@GLIBC_2.33" floor_dynamic "$T/fstat.so"
else
	echo "probe fstat: this glibc binds fstat to $(glibc_versions "$T/fstat.so" | awk '$2 == "fstat" { print $1 }'), not GLIBC_2.33"
fi
[ "$failures" -eq 0 ] || { echo "the checks cannot be trusted: not run on the build"; finish; }

floor_dynamic "$LIB" || fail "libfastraw.so is past the floor"
if [ "$LAUNCHER_STATIC" = ON ]; then
	floor_static "$LAUNCHER" || fail "the launcher is past the floor"
else
	finish_msg="the launcher is linked dynamically in this build (a sanitizer build, or no libc.a): its floor is this machine's glibc"
	[ "$failures" -eq 0 ] && skip "$finish_msg"
fi
finish
