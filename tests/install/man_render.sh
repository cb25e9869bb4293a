#!/bin/sh
# SPDX-License-Identifier: MIT
# Each built man page renders with man and groff without a single warning.
# shellcheck source=tests/install/install_common.sh
. "$(dirname "$0")/install_common.sh"
[ -n "${FR_MAN_PAGES:-}" ] || skip "scdoc was not found at configure time: no man pages were built"
command -v groff >/dev/null 2>&1 || skip "groff is not installed"

for page in $FR_MAN_PAGES; do
	[ -s "$page" ] || { fail "$page is missing or empty"; continue; }
	groff -ww -z -man "$page" >"$T/out" 2>&1 || fail "groff failed on $page"
	[ -s "$T/out" ] && { sed 's/^/  | /' "$T/out"; fail "groff warns on $page"; }
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l --warnings "$page" 2>"$T/out" >"$T/text" || fail "man -l failed on $page"
		[ -s "$T/out" ] && { sed 's/^/  | /' "$T/out"; fail "man -l warns on $page"; }
		grep -q '^NAME' "$T/text" || fail "$page renders without a NAME section"
	fi
	echo "  ${page##*/}: $(wc -l <"$T/text" 2>/dev/null || echo '?') lines, no warnings"
done
finish
