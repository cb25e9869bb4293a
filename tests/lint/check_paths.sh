#!/bin/sh
# SPDX-License-Identifier: MIT
# Self-containment: nothing a clone holds may point to a file outside the repository (the
# workplace's ../shared, another checkout, a developer's home), since a clone cannot read it.
#
#   check_paths.sh ROOT          check the tree at ROOT (exit 1 with each offending line)
#   check_paths.sh --self-test   first prove on scratch trees that each kind of violation fails
#
# In src/ include/ tools/ docs/ man/ and README.md:
#   - no ../shared, no ../../, no other ../ path (paths are written from the repository root;
#     ../lib, the library beside an installed tool, is a run-time path and allowed);
#   - an absolute path only into the system (/proc /sys /dev /usr /etc /bin /sbin /lib* /opt
#     /var /run /boot) or the placeholder /path/to/; ~/ and $HOME/ only into a dot folder
#     (~/.cache, $HOME/.local);
#   - a Markdown link target resolves inside the repository to a file or folder that exists;
#   - a named document (NAME.md, docs/NAME.md) exists in the tree.
# In tests/, scripts/, .ci/ and cmake/ too: no ../shared (the kernel matrix may name
# ../shared/kernels/) and no named document that the tree lacks.
set -u
# shellcheck source=tests/lint/selftest.sh
. "$(dirname "$0")/selftest.sh"

# Files under the given folders (and plain files), relative to the root, sorted, one a line.
files_in() {
	for d in "$@"; do
		[ -e "$root/$d" ] || continue
		(cd "$root" && find "$d" -type f ! -path '*/.git/*')
	done | LC_ALL=C sort
}

# grep_all OPTIONS RE LIST: grep over the files named in LIST (from the root), each hit as
# "FILE:LINE:text" (or the match alone with -o).
grep_all() {
	[ -s "$3" ] || return 0
	(cd "$root" && xargs grep -H"$1" -- "$2" <"$3" 2>/dev/null) || true
}

# Whether the repository has a file or folder at P, a path from resolve (never leaving the root).
in_tree() {
	[ -e "$root/$1" ]
}

# Normalises DIR/REL (both relative to the root) to a root-relative path; fails when it leaves
# the root.
resolve() {
	p=$1/$2
	out=
	IFS_old=$IFS
	IFS=/
	# shellcheck disable=SC2086
	set -- $p
	IFS=$IFS_old
	for part in "$@"; do
		case "$part" in
		'' | .) ;;
		..)
			[ -n "$out" ] || return 1
			case "$out" in */*) out=${out%/*} ;; *) out= ;; esac
			;;
		*) out=${out:+$out/}$part ;;
		esac
	done
	echo "${out:-.}"
}

# Reads "FILE:LINE:text" hits and prints each with REASON.
report() {
	while IFS= read -r m; do
		f=${m%%:*}
		rest=${m#*:}
		echo "$f:${rest%%:*}: ${rest#*:} ($1)"
	done
}

# Named documents in the files of LIST: each NAME.md must exist (by path from the root, or from
# the file's folder for a Markdown file, or by file name anywhere when it has no folder).
check_docs() {
	grep_all noE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b' "$1" | while IFS= read -r m; do
		f=${m%%:*}
		rest=${m#*:}
		n=${rest%%:*}
		name=${rest#*:}
		case "$name" in
		*/*)
			r=$(resolve . "$name") && in_tree "$r" && continue
			case "$f" in *.md) r=$(resolve "$(dirname "$f")" "$name") && in_tree "$r" && continue ;; esac
			;;
		*)
			[ -n "$(cd "$root" && find . -name "$name" -type f ! -path './.git/*' | head -n 1)" ] && continue
			;;
		esac
		echo "$f:$n: $name (names a document the repository does not have)"
	done
}

# Markdown link targets in the files of LIST: inside the repository and present.
check_links() {
	grep_all noE '\]\([^) ]+' "$1" | while IFS= read -r m; do
		f=${m%%:*}
		rest=${m#*:}
		n=${rest%%:*}
		target=${rest#*](}
		case "$target" in
		'#'* | *://* | mailto:*) continue ;;
		esac
		target=${target%%#*}
		if ! r=$(resolve "$(dirname "$f")" "$target"); then
			echo "$f:$n: ($target) (a link that leaves the repository)"
		elif ! in_tree "$r"; then
			echo "$f:$n: ($target) (a link to a file the repository does not have)"
		fi
	done
}

# Absolute and home paths in the files of LIST.
check_absolute() {
	grep_all noE "(^|[[:space:]\"'(=<,;:[])\`?(/|~/|\\\$HOME/|\\\$\\{HOME\\}/)[A-Za-z0-9_.~{}\$-][^[:space:]\"'\`)>,;:]*" \
		"$1" | while IFS= read -r m; do
		f=${m%%:*}
		rest=${m#*:}
		n=${rest%%:*}
		p=${rest#*:}
		# Drop the character before the path (none at the start of a line), then a backtick.
		case "$p" in /* | '~'* | '$'* | '`'*) ;; *) p=${p#?} ;; esac
		p=${p#\`}
		case "$p" in
		/proc | /proc/* | /sys | /sys/* | /dev | /dev/* | /usr | /usr/* | /etc | /etc/* | \
			/bin | /bin/* | /sbin | /sbin/* | /lib | /lib/* | /lib32 | /lib32/* | /lib64 | /lib64/* | \
			/libx32 | /libx32/* | /opt | /opt/* | /var | /var/* | /run | /run/* | /boot | /boot/* | \
			/path/to/*)
			;;
		'~/.'* | "\$HOME/."* | "\${HOME}/."*) ;;
		/work | /work/* | /home/* | /root | /root/*)
			echo "$f:$n: $p (an absolute path into a workplace or a home folder)"
			;;
		'~/'* | "\$HOME/"* | "\${HOME}/"*)
			echo "$f:$n: $p (a path into a home folder other than its dot folders)"
			;;
		*)
			echo "$f:$n: $p (an absolute path outside the system folders)"
			;;
		esac
	done
}

# check ROOT: prints every violation as FILE:LINE: text (reason); returns 1 when there was one.
check() {
	root=$1
	files_in src include tools docs man README.md >"$tmp/docs"
	files_in tests scripts .ci cmake CMakeLists.txt | grep -vx 'tests/lint/check_paths.sh' >"$tmp/rest"
	grep -E '\.md$' "$tmp/docs" >"$tmp/md" || true
	{
		grep_all nE '\.\./shared' "$tmp/docs" | report "names the workplace's shared folder"
		# The kernel matrix may take its kernel images from ../shared/kernels/.
		grep_all nE '\.\./shared' "$tmp/rest" |
			grep -vE '^(tests/matrix[^:]*|scripts/kernel-matrix\.sh|scripts/matrix-kernels\.sh):[0-9]+:.*\.\./shared/kernels/' |
			report "names the workplace's shared folder"
		grep_all nE '\.\./\.\.' "$tmp/docs" | report "climbs out of the repository"
		# Other ../ paths, but not ../lib (a run-time path), an ellipsis (.../x) nor Markdown
		# link targets (checked below).
		grep_all nE '(^|[^.])\.\./' "$tmp/docs" | grep -vE '\.\./shared|\.\./\.\.' |
			sed -E 's/\]\([^)]*\)//g' | grep -E '(^|[^.])\.\./' | grep -vE '\.\./lib(64)?([^A-Za-z0-9]|$)' |
			report "a relative path leaving its folder; write paths from the repository root"
		check_absolute "$tmp/docs"
		check_docs "$tmp/docs"
		check_docs "$tmp/rest"
		check_links "$tmp/md"
	} >"$tmp/out"
	cat "$tmp/out"
	[ ! -s "$tmp/out" ]
}

# A scratch tree with what the rules allow in each place, and a shared folder beside it as in
# the workplace, so that a path into it would find a file if the check let it out of the tree.
scratch() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/shared" && : >"$tmp/shared/KERNEL-DATA.md"
	mkdir -p "$tmp/tree/src/proc" "$tmp/tree/tools/one" "$tmp/tree/docs" "$tmp/tree/man" \
		"$tmp/tree/include" "$tmp/tree/tests/unit" "$tmp/tree/tests/matrix" "$tmp/tree/scripts"
	cat >"$tmp/tree/src/proc/maps.c" <<-'EOF'
		#include <stdio.h>
		#include "proc/maps.h"
		/* Reads /proc/self/maps (see docs/notes.md, section 2); a / b is a division. */
		static const char *where = "/proc/self/maps", *ld = "/etc/ld.so.preload";
	EOF
	printf '/* %s */\n' 'The library sits in /usr/lib/x86_64-linux-gnu, or ../lib beside the tool.' \
		'PATH=/bin:/usr/bin, cache under ~/.cache/x and $HOME/.local; 5.3/5.6 eras.' \
		>"$tmp/tree/tools/one/one.c"
	printf '# Notes\n\nSee [the README](../README.md), [maps](../src/proc/maps.c), [top](#notes),\n' \
		>"$tmp/tree/docs/notes.md"
	printf 'and <https://example.org/a/b>. Run `/bin/true` with `LD_PRELOAD=/path/to/lib.so` or `.../lib.so`.\n' \
		>>"$tmp/tree/docs/notes.md"
	printf 'Kernel facts: docs/notes.md.\n' >"$tmp/tree/README.md"
	printf 'fastraw(1)\n\n_/etc/ld.so.preload_ and _../lib_ beside the tool\n' >"$tmp/tree/man/fastraw.1.scd"
	printf '/* A public header: no paths. */\n' >"$tmp/tree/include/fastraw.h"
	printf '/* Offsets as docs/notes.md states them. */\n' >"$tmp/tree/tests/unit/t.c"
	printf '# Kernel images from %s when present.\n' "$dots/shared/kernels/" >"$tmp/tree/tests/matrix/m.sh"
	printf 'cd "$(dirname "$0")" && mktemp -d /tmp/x.XXXXXX\n' >"$tmp/tree/scripts/s.sh"
}

# The violations are spelt through variables so that this file itself names none.
dots=..
work=/work
if [ "${1:-}" = --self-test ]; then
	expect_clean
	expect_fail "the shared folder in a source" src/proc/maps.c "/* see $dots/shared/KERNEL-DATA.md */"
	expect_fail "the shared folder in a header" include/fastraw.h "/* $dots/shared/STYLE.md */"
	expect_fail "the shared folder in a test" tests/unit/t.c "/* layouts of $dots/shared/notes */"
	expect_fail "the shared folder outside kernels/ in the matrix" tests/matrix/m.sh "# $dots/shared/other"
	expect_fail "a climb out of the repository" docs/notes.md "Data in $dots/$dots/elsewhere/file."
	expect_fail "another relative path" tools/one/one.c "/* from $dots/other-checkout/x.c */"
	expect_fail "an absolute path into the workplace" README.md "Built at $work/main/build/libfastraw.so."
	expect_fail "an absolute path into a home" man/fastraw.1.scd "See /home/someone/notes."
	expect_fail "an absolute path outside the system" src/proc/maps.c "/* images in /srv/kernels */"
	expect_fail "a home path other than a dot folder" tools/one/one.c "/* ~/work/shared/x */"
	expect_fail "a link leaving the repository" README.md "[x]($dots/outside)"
	expect_fail "a link to a missing file" docs/notes.md "[x]($dots/src/gone.c)"
	expect_fail "a missing document under docs" src/proc/maps.c "/* docs/gone.md section 3 */"
	expect_fail "a missing document by name" tests/unit/t.c "/* KERNEL-DATA.md section 12 */"
fi
run_check paths "nothing in the tree names a file outside the repository" \
	"a clone cannot read what these lines point to" "$@"
