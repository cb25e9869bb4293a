#!/bin/sh
# SPDX-License-Identifier: MIT
# What LD_PRELOAD=libfastraw adds to /bin/true: instructions under callgrind within a budget, and no file read.
# usage: startup_budget.sh LIBFASTRAW EMPTY_SO [BUDGET]   (BUDGET: instructions, default 15000)
#
# Callgrind's counts are deterministic (no timing is asserted): the same binaries give the same
# numbers run after run. /bin/true never reads a clock, so everything the library adds is the
# loader's work on it (relocations, symbol lookups) and its constructor: issue 30's goal is at
# most 15 k instructions over an empty preload (a constructor and nothing else). The process
# starts with an empty environment (env -i), as the goal was measured; valgrind follows env's
# exec and counts /bin/true alone. Valgrind gives its client no vDSO, so the count leaves out
# the constructor's vDSO work (its ELF lookup and page probes, ~1 k instructions natively).
#
# Then, natively under strace where it is installed: the files and /proc entries the process
# touches (opened, stat'ed, read links) are the empty preload's and the library's own file,
# nothing more: the constructor reads no file before the first RAW read (issue 30).
set -eu
lib=$1 empty=$2 budget=${3:-15000}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 77
fi
[ -x /bin/true ] || { echo "SKIP: no /bin/true"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions /bin/true runs with $1 preloaded (empty: none).
count() {
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$tmp/cg.%p" \
		--log-file="$tmp/log" env -i ${1:+LD_PRELOAD=$1} /bin/true ||
		{ echo "FAIL: /bin/true under callgrind with '$1' exited $?"; cat "$tmp/log"; exit 1; }
	n=$(sed -n 's/.*Collected : *\([0-9][0-9]*\).*/\1/p' "$tmp/log" | tail -1)
	[ -n "$n" ] || { echo "FAIL: no instruction count from callgrind"; cat "$tmp/log"; exit 1; }
	echo "$n"
}

# The library must load: a preload the loader cannot use is skipped with a message, and counts as nothing.
if env -i LD_PRELOAD="$lib" /bin/true 2>&1 | grep -q .; then
	echo "FAIL: /bin/true with LD_PRELOAD=$lib printed something:"
	env -i LD_PRELOAD="$lib" /bin/true 2>&1 | head -5
	exit 1
fi

none=$(count "")
base=$(count "$empty")
with=$(count "$lib")
extra=$((with - base))
echo "/bin/true instructions: no preload $none, empty preload $base, libfastraw $with"
echo "libfastraw adds $extra over the empty preload (budget $budget)"
# The control: the empty preload costs something, so the counts did see LD_PRELOAD.
[ "$base" -gt "$none" ] || { echo "FAIL: the empty preload added nothing: LD_PRELOAD not seen"; exit 1; }
if [ "$extra" -gt "$budget" ]; then
	echo "FAIL: $extra instructions over the empty preload, above the budget of $budget"
	exit 1
fi

# The file names in the %file system calls of /bin/true preloaded with $1, one per line, sorted.
files() {
	strace -f -qq -e trace=%file -o "$tmp/st" env -i LD_PRELOAD="$1" /bin/true >/dev/null 2>&1 || true
	# After env's exec: env's own locale files are not /bin/true's.
	sed -n '/execve("\/bin\/true"/,$p' "$tmp/st" | sed -n 's/^[0-9 ]*[a-z0-9_]*([^"]*"\([^"]*\)".*/\1/p' |
		grep -v -e '^$' -e '^/bin/true$' | sed "s|^$1\$|PRELOAD|" | sort -u
}

if command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null /bin/true 2>/dev/null; then
	files "$empty" >"$tmp/f.empty"
	files "$lib" >"$tmp/f.lib"
	# Control: the trace saw the loader's own files.
	grep -qx PRELOAD "$tmp/f.empty" || { echo "FAIL: strace did not see the preload opened:"; cat "$tmp/f.empty"; exit 1; }
	if ! cmp -s "$tmp/f.empty" "$tmp/f.lib"; then
		echo "FAIL: files touched with libfastraw beyond the empty preload's:"
		diff "$tmp/f.empty" "$tmp/f.lib" || true
		exit 1
	fi
	echo "files touched: $(tr '\n' ' ' <"$tmp/f.empty")(PRELOAD: the preload itself), the same as the empty preload's"
else
	echo "files touched: not checked (strace not installed or not permitted)"
fi
echo "PASS"
