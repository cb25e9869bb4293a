#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages document exactly the code's own lists: every FASTRAW_ variable of src/proc/env.c
# in libfastraw(7), every option of each tool's getopt_long tables in its page, nothing more.
#
#   man_sync.sh ROOT              check the tree at ROOT (exit 1 naming each difference)
#   man_sync.sh --self-test ROOT  first prove on scratch copies that each kind of drift fails
set -u
export LC_ALL=C

# The variables the library reads: each match(e, "FASTRAW_...") in env.c.
code_vars() {
	grep -o 'match(e, "FASTRAW_[A-Z_]*")' "$1/src/proc/env.c" | sed 's/.*"\(.*\)")/\1/' | sort -u
}

# The variables named anywhere in the man pages (the bare prefix "FASTRAW_" is not one).
man_vars() {
	cat "$1"/man/*.scd | grep -o 'FASTRAW_[A-Z][A-Z_]*' | sort -u
}

# The variables libfastraw(7) describes: its entries "*FASTRAW_X*=...".
man_var_entries() {
	sed -n 's/^\*\(FASTRAW_[A-Z_]*\)\*.*/\1/p' "$1/man/libfastraw.7.scd" | sort -u
}

# The options of a tool's source: long names from its struct option tables, short ones from
# the optstring given to getopt_long; one a line, with their dashes.
code_opts() {
	grep -o '{ *"[a-z0-9-]*", *[a-z_]*_argument' "$1" | sed 's/{ *"\([^"]*\)".*/--\1/'
	grep -o 'getopt_long([^"]*"[^"]*"' "$1" | sed 's/.*"\([^"]*\)"$/\1/' | tr -d '+:' |
		fold -w 1 | sed 's/^/-/'
}

# The options a page documents: the bold words of its entries (lines "*-x*, *--long* _arg_").
man_opts() {
	grep '^\*-' "$1" | grep -o '\*-[^*]*\*' | tr -d '*'
}

# check ROOT: prints each difference; returns 1 when there was one.
check() {
	r=$1 bad=0 tmp=$(mktemp -d)
	code_vars "$r" >"$tmp/cv"
	[ -s "$tmp/cv" ] || { echo "no FASTRAW_ variable found in $r/src/proc/env.c"; bad=1; }
	man_var_entries "$r" >"$tmp/mv"
	man_vars "$r" >"$tmp/all"
	for v in $(comm -23 "$tmp/cv" "$tmp/mv"); do
		echo "libfastraw.7: variable $v (src/proc/env.c) is not documented"
		bad=1
	done
	for v in $(comm -13 "$tmp/cv" "$tmp/all"); do
		echo "man pages: $v is not a variable the library reads (src/proc/env.c)"
		bad=1
	done
	for page in "$r"/man/*.1.scd; do
		name=${page##*/}
		name=${name%.1.scd}
		src=$(ls "$r"/tools/*/"$name".c 2>/dev/null | head -n 1)
		if [ -z "$src" ]; then
			echo "$name.1: no tools/*/$name.c holds its options"
			bad=1
			continue
		fi
		code_opts "$src" | sort -u >"$tmp/co"
		man_opts "$page" | sort -u >"$tmp/mo"
		[ -s "$tmp/co" ] || { echo "$name.1: no option found in ${src#"$r"/}"; bad=1; }
		for o in $(comm -23 "$tmp/co" "$tmp/mo"); do
			echo "$name.1: option $o (${src#"$r"/}) is not documented"
			bad=1
		done
		for o in $(comm -13 "$tmp/co" "$tmp/mo"); do
			echo "$name.1: documents $o, which ${src#"$r"/} does not accept"
			bad=1
		done
	done
	for src in "$r"/tools/*/fastraw*.c; do
		name=${src##*/}
		[ -f "$r/man/${name%.c}.1.scd" ] || { echo "${src#"$r"/}: no man page man/${name%.c}.1.scd"; bad=1; }
	done
	rm -rf "$tmp"
	return $bad
}

# expect_fail WHAT ROOT TEXT: the check of ROOT fails and names TEXT.
expect_fail() {
	if out=$(check "$2"); then
		echo "self-test: $1: the check passed"
		return 1
	fi
	case "$out" in
	*"$3"*) echo "self-test: $1: caught ($out)" ;;
	*) echo "self-test: $1: failed without naming $3: $out"; return 1 ;;
	esac
}

self_test() {
	src_root=$1 st=$(mktemp -d) ok=0
	copy() {
		rm -rf "$st/t"
		mkdir -p "$st/t/src/proc" "$st/t/tools" "$st/t/man"
		cp "$src_root/src/proc/env.c" "$st/t/src/proc/"
		cp -r "$src_root"/tools/* "$st/t/tools/"
		cp "$src_root"/man/*.scd "$st/t/man/"
	}
	copy
	check "$st/t" >/dev/null || { echo "self-test: the unchanged copy fails"; ok=1; }
	copy
	sed -i 's/"FASTRAW_STATS"/"FASTRAW_NEWVAR"/' "$st/t/src/proc/env.c"
	expect_fail "a new variable" "$st/t" "variable FASTRAW_NEWVAR" || ok=1
	copy
	sed -i '/^\*--against-kernel\*/d' "$st/t/man/fastraw-check.1.scd"
	expect_fail "an undocumented option" "$st/t" "option --against-kernel" || ok=1
	copy
	sed -i 's/"mc:n:r:dh"/"mc:n:r:dhx"/' "$st/t/tools/latency/fastraw-latency.c"
	expect_fail "a new short option" "$st/t" "option -x" || ok=1
	copy
	printf '*--gone*\n\tRemoved.\n' >>"$st/t/man/fastraw-info.1.scd"
	expect_fail "a stale option" "$st/t" "documents --gone" || ok=1
	copy
	sed -i 's/FASTRAW_DEBUG=1/FASTRAW_VERBOSE=1/' "$st/t/man/fastraw.1.scd"
	expect_fail "a stale variable" "$st/t" "FASTRAW_VERBOSE is not a variable" || ok=1
	rm -rf "$st"
	return $ok
}

if [ "${1:-}" = --self-test ]; then
	self_test "$2" || { echo "FAILED: the self-test"; exit 1; }
	shift
fi
root=${1:?usage: man_sync.sh [--self-test] ROOT}
if check "$root"; then
	echo "PASS: $(code_vars "$root" | wc -l) variables, options of $(ls "$root"/man/*.1.scd | wc -l) tools"
	exit 0
fi
echo "FAILED"
exit 1
