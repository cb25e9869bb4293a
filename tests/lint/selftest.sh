# SPDX-License-Identifier: MIT
# Sourced by the tree checks: a scratch folder, the proof on scratch trees that a check catches each kind of violation, and the run on the real tree.
# shellcheck shell=sh
#
# The sourcing script defines
#   check ROOT   prints every violation as "PATH[:LINE]: text (reason)" and returns 1 when there was one;
#   scratch      builds at $tmp/tree a small tree that check accepts, using every allowed form.
# A self-test runs expect_clean, then one expect_fail (or expect_fail_after) per kind of violation.
# A check that trusts its rules without such proof would pass silently once a rule stops matching.

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# expect_clean: the scratch tree passes the check.
expect_clean() {
	scratch
	if ! st_out=$(check "$tmp/tree"); then
		printf '%s\n' "self-test FAILED: a clean tree was refused: $st_out"
		exit 1
	fi
}

# expect_fail_after DESCRIPTION NAMED COMMAND...: COMMAND, run in a fresh scratch tree, makes the
# check fail with a report that names NAMED (a path from the tree's root, followed by ":").
expect_fail_after() {
	st_what=$1 st_named=$2
	shift 2
	scratch
	(cd "$tmp/tree" && "$@") || { echo "self-test FAILED: $st_what: could not edit the scratch tree"; exit 1; }
	if st_out=$(check "$tmp/tree"); then
		echo "self-test FAILED: $st_what was not caught"
		exit 1
	fi
	case "$st_out" in
	*"$st_named:"*) printf '%s\n' "self-test: $st_what: caught: $st_out" ;;
	*) printf '%s\n' "self-test FAILED: $st_what was reported elsewhere: $st_out"; exit 1 ;;
	esac
}

# append FILE LINE: adds LINE to FILE (relative to the current folder), creating its folders.
append() {
	mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" >>"$1"
}

# expect_fail DESCRIPTION FILE LINE: the line added to FILE makes the check fail, naming FILE.
expect_fail() {
	expect_fail_after "$1" "$2" append "$2" "$3"
}

# run_check NAME PASSED FAILED [--self-test] [ROOT]: checks ROOT (by default the tree holding the
# script) and exits with "NAME: PASSED" (0) or "NAME: FAILED (FAILED)" (1). A --self-test argument
# is skipped: the script runs its cases before it calls this.
run_check() {
	st_name=$1 st_passed=$2 st_failed=$3
	shift 3
	[ "${1:-}" = --self-test ] && shift
	if check "${1:-$(cd "$(dirname "$0")/../.." && pwd)}"; then
		echo "$st_name: $st_passed"
		exit 0
	fi
	echo "$st_name: FAILED ($st_failed)"
	exit 1
}
