#!/bin/sh
# SPDX-License-Identifier: MIT
# The layering rule, from the #include lines: a file under src/ includes only its own layer or
# lower ones; a tool includes the library's layers, tools/common and its own folder, but none of
# start-up, the exact reader, the kernel data pages or calibrated mode (src/startup, src/exact,
# src/kdata, src/calib): it reaches those through interpose/tools.h, the tools' one door
# (docs/internals.md, "The tools' door"). The
# pass-through's private headers, which hold its vDSO-convention pointers, stay with it:
# passthru/real.h in src/passthru/ only, passthru/direct.h there and in src/interpose/interpose.c.
#
#   check_layers.sh ROOT          check the tree at ROOT (exit 1 with each offending line)
#   check_layers.sh --self-test   first prove on scratch trees that each kind of violation fails
set -u
# shellcheck source=tests/lint/selftest.sh
. "$(dirname "$0")/selftest.sh"

# Lowest first. Keep in step with src/CMakeLists.txt and docs/design.md, "Architecture".
LAYERS="arch base math report proc elf passthru kdata exact calib startup interpose"
# The layers a tool reaches only through interpose/tools.h.
TOOLS_BEHIND_DOOR="startup exact kdata calib"

rank() {
	r=0
	for l in $LAYERS; do
		[ "$l" = "$1" ] && { echo "$r"; return 0; }
		r=$((r + 1))
	done
	echo -1
}

# check ROOT: prints every violation as FILE:LINE: text (reason); returns 1 when there was one.
check() {
	root=$1 bad=0
	for f in $(cd "$root" && find src tools -name '*.[ch]' | LC_ALL=C sort); do
		dir=${f%/*}
		case "$dir" in
		src/arch/*/*) echo "$f: nested below an architecture folder"; bad=1; continue ;;
		src/arch/*) kind=src; own=arch; own_rank=0 ;;
		src/*/*) echo "$f: nested below a layer folder"; bad=1; continue ;;
		src/*) kind=src; own=${dir#src/}; own_rank=$(rank "$own") ;;
		tools/*/*) echo "$f: nested below a tool folder"; bad=1; continue ;;
		tools/*) kind=tool; own=${dir#tools/} ;;
		*) echo "$f: not in a layer or tool folder"; bad=1; continue ;;
		esac
		if [ "$kind" = src ] && [ "$own_rank" -lt 0 ]; then
			echo "$f: src/$own is not a layer ($LAYERS)"
			bad=1
			continue
		fi
		# Every quoted include with its line number: "N path".
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$root/$f" |
			sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' >"$tmp/incs"
		while read -r line inc; do
			why=
			case "$inc" in
			fastraw.h)
				[ "$kind" = tool ] || [ "$own" = interpose ] ||
					why="the public header belongs to the interpose layer and the tools"
				;;
			arch/*/*/*) why="names a path below an architecture folder" ;;
			arch/*/*)
				[ -f "$root/src/$inc" ] || why="no such file src/$inc"
				[ "$kind" = src ] && [ "$own" = arch ] ||
					why="an architecture folder's header outside src/arch: generic code includes arch/arch.h"
				;;
			*/*/*) why="names a path below a folder" ;;
			*/*)
				to=${inc%%/*}
				if [ "$kind" = tool ] && { [ "$to" = common ] || [ "$to" = "$own" ]; }; then
					[ -f "$root/tools/$inc" ] || why="no such file tools/$inc"
					[ "$own" = common ] && [ "$to" != common ] && why="tools/common includes a tool"
				elif [ "$(rank "$to")" -lt 0 ]; then
					if [ "$kind" = src ]; then
						why="src/$to is not a layer"
					else
						why="tool $own includes another tool's folder $to"
					fi
				elif [ "$kind" = src ] && [ "$(rank "$to")" -gt "$own_rank" ]; then
					why="layer $own includes the higher layer $to"
				elif [ ! -f "$root/src/$inc" ]; then
					why="no such file src/$inc"
				fi
				;;
			*) why="names no layer folder (write LAYER/$inc)" ;;
			esac
			if [ "$kind" = tool ] && [ -z "$why" ]; then
				for d in $TOOLS_BEHIND_DOOR; do
					[ "${inc%%/*}" = "$d" ] && why="a tool reaches src/$d only through interpose/tools.h"
				done
			fi
			# The unit tests include passthru/real.h as their seam; tests/ is not scanned here.
			case "$inc" in
			passthru/real.h)
				[ "$kind" = src ] && [ "$own" = passthru ] ||
					why=${why:-"a header private to src/passthru"}
				;;
			passthru/direct.h)
				{ [ "$kind" = src ] && [ "$own" = passthru ]; } || [ "$f" = src/interpose/interpose.c ] ||
					why=${why:-"a header private to src/passthru and src/interpose/interpose.c"}
				;;
			esac
			if [ -n "$why" ]; then
				echo "$f:$line: #include \"$inc\" ($why)"
				bad=1
			fi
		done <"$tmp/incs"
	done
	return "$bad"
}

# A scratch tree with one file per layer and two tools, each including what the rule allows.
scratch() {
	rm -rf "$tmp/tree"
	for l in $LAYERS; do
		mkdir -p "$tmp/tree/src/$l"
		echo '#include "arch/a.h"' >"$tmp/tree/src/$l/$l.h"
	done
	: >"$tmp/tree/src/arch/a.h"
	: >"$tmp/tree/src/math/m.h"
	mkdir -p "$tmp/tree/src/arch/cpu"
	: >"$tmp/tree/src/arch/cpu/c.h"
	echo '#include "arch/cpu/c.h"' >>"$tmp/tree/src/arch/arch.h"
	mkdir -p "$tmp/tree/tools/common" "$tmp/tree/tools/one" "$tmp/tree/tools/two"
	printf '#include "interpose/interpose.h"\n' >"$tmp/tree/tools/common/args.h"
	printf '#include "common/args.h"\n#include "one/one.h"\n#include "fastraw.h"\n' >"$tmp/tree/tools/one/one.h"
	printf '#include "interpose/interpose.h"\n#include "proc/proc.h"\n' >"$tmp/tree/tools/two/two.h"
	printf '#include "interpose/interpose.h"\n#include "fastraw.h"\n' >"$tmp/tree/src/interpose/api.c"
	printf '#include "math/m.h"\n' >"$tmp/tree/src/startup/r.c"
	: >"$tmp/tree/src/passthru/real.h"
	: >"$tmp/tree/src/passthru/direct.h"
	printf '#include "passthru/real.h"\n#include "passthru/direct.h"\n' >"$tmp/tree/src/passthru/passthru.c"
	printf '#include "passthru/direct.h"\n' >"$tmp/tree/src/interpose/interpose.c"
}

if [ "${1:-}" = --self-test ]; then
	expect_clean
	expect_fail "an upward include" src/exact/exact.h '#include "startup/runtime.h"'
	expect_fail "an include with no layer" src/proc/proc.h '#include "m.h"'
	expect_fail "a missing header" src/startup/r.c '#include "kdata/gone.h"'
	expect_fail "the public header below interpose" src/kdata/kdata.h '#include "fastraw.h"'
	expect_fail "a tool including another tool" tools/two/two.h '#include "one/one.h"'
	expect_fail "common including a tool" tools/common/args.h '#include "two/two.h"'
	for d in $TOOLS_BEHIND_DOOR; do
		expect_fail "a tool including src/$d past the tools' door" tools/two/two.h "#include \"$d/$d.h\""
	done
	expect_fail "a file outside the layers" src/loose.c '#include "math/m.h"'
	expect_fail "a file below an architecture folder" src/arch/cpu/deep/d.h '#include "arch/a.h"'
	expect_fail "the lowest layer including another" src/arch/cpu/c.h '#include "base/base.h"'
	expect_fail "an architecture folder's header outside src/arch" src/exact/exact.h '#include "arch/cpu/c.h"'
	expect_fail "the pass-through's private real.h above it" src/startup/r.c '#include "passthru/real.h"'
	expect_fail "the pass-through's private real.h in a tool" tools/two/two.h '#include "passthru/real.h"'
	expect_fail "the pass-through's private direct.h elsewhere in interpose" src/interpose/api.c '#include "passthru/direct.h"'
fi
run_check layers "every include in src/ and tools/ points to its own layer or a lower one" \
	"layers, lowest first: $LAYERS" "$@"
