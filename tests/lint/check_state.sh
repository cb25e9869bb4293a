#!/bin/sh
# SPDX-License-Identifier: MIT
# The state rule (docs/design.md, "State"): the built library holds at most MAX_OBJECTS mutable
# objects in .data/.bss (and their large and thread-local kinds; .data.rel.ro is RELRO, not
# counted), and src/ headers declare at most MAX_EXTERNS mutable variables. Everything start-up
# decides is one published record, the hot path's copies one record (base/hot.h), the lazily
# computed words one table (base/once.h): a new static or extern belongs in one of those.
#
#   check_state.sh ROOT LIB               check the headers under ROOT/src and the library LIB
#   check_state.sh --self-test ROOT LIB   first prove on scratch trees that each kind of violation fails
set -u
# shellcheck source=tests/lint/selftest.sh
. "$(dirname "$0")/selftest.sh"

MAX_OBJECTS=20
MAX_EXTERNS=3
CC=${CC:-cc}

# objects LIB: the mutable objects of LIB, one "NAME SECTION" a line.
objects() {
	objdump -t "$1" | awk '$3 == "O" && $4 ~ /^\.(data|bss|tdata|tbss|ldata|lbss)$/ { print $NF, $4 }'
}

# externs ROOT: "FILE:LINE: text" for each extern declaration of a mutable variable in ROOT/src's
# headers: not a function, and not const itself (a pointer to const data is still mutable).
externs() {
	(cd "$1" && find src -name '*.h' | LC_ALL=C sort | xargs grep -Hn '^[[:space:]]*extern[[:space:]]' 2>/dev/null) |
		grep -v 'extern "C"' | while IFS= read -r hit; do
			decl=${hit#*:*:}
			decl=$(printf '%s\n' "$decl" | sed -e 's/__attribute__.*//' -e 's/[;=[].*//')
			case "$decl" in
			*'(*'*) ;;          # a pointer to a function: a variable
			*'('*) continue ;;  # a function
			esac
			# The object is const when const follows its last '*', or, with no '*', appears at all.
			case "$decl" in
			*'*'*) after=${decl##*\*} ;;
			*) after=$decl ;;
			esac
			case " $after " in
			*[[:space:]]const[[:space:]]*) continue ;;
			esac
			printf '%s\n' "$hit"
		done
}

# check ROOT: the headers of ROOT/src and the library (LIB, else ROOT/lib.so, the scratch tree's).
check() {
	lib=${LIB:-$1/lib.so} bad=0
	if [ ! -r "$lib" ]; then
		echo "$lib: cannot read the library"
		return 1
	fi
	objects "$lib" >"$tmp/objects"
	n=$(wc -l <"$tmp/objects")
	if [ "$n" -gt "$MAX_OBJECTS" ]; then
		echo "${lib#"$1"/}: $n mutable objects in .data/.bss (at most $MAX_OBJECTS: put the word in base/once.h's table, fr_hot, or its owner's record):"
		sed 's/^/  /' "$tmp/objects"
		bad=1
	fi
	externs "$1" >"$tmp/externs"
	n=$(wc -l <"$tmp/externs")
	if [ "$n" -gt "$MAX_EXTERNS" ]; then
		sed "s|\$| (one of $n extern mutable variables in src/ headers, at most $MAX_EXTERNS)|" "$tmp/externs"
		bad=1
	fi
	return $bad
}

# scratch: a tree with one extern mutable variable and every const form, and a library of two
# mutable objects (and a const one).
scratch() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/src/base"
	cat >"$tmp/tree/src/base/a.h" <<'H'
extern struct fr_hot fr_hot __attribute__((visibility("hidden")));
extern const struct fr_era fr_eras[];
extern const char *const fr_names[3];
extern void *const fr_self_ref;
extern int fr_function(void);
extern "C" {
H
	objs 2
}

# objs N: the scratch library with N mutable objects.
objs() {
	i=0 src=
	while [ "$i" -lt "$1" ]; do
		src="${src}static int v$i; int *p$i(void) { return &v$i; }
"
		i=$((i + 1))
	done
	printf '%sconst int k = 1;\n' "$src" >"$tmp/lib.c"
	"$CC" -shared -fPIC -nostdlib -nostartfiles -o "$tmp/tree/lib.so" "$tmp/lib.c" || { echo "self-test: cannot build a scratch library with $CC"; exit 1; }
}

if [ "${1:-}" = --self-test ]; then
	expect_clean
	expect_fail_after "a 21st mutable object" lib.so objs 21
	expect_fail "a 4th extern mutable variable" src/x/b.h 'extern int a;
extern __thread struct s *b
	__attribute__((tls_model("initial-exec")));
extern const char *c;'
	expect_fail "an extern pointer to a function" src/x/c.h 'extern int (*f)(void);
extern int g[4];
extern long h = 0;'

fi
[ "${1:-}" = --self-test ] && shift
LIB=${2:-}
[ -n "$LIB" ] || { echo "usage: $0 [--self-test] ROOT LIB"; exit 2; }
run_check state "at most $MAX_OBJECTS mutable objects, at most $MAX_EXTERNS extern mutable variables" \
	"the library's state grew back" "${1:-}"
