#!/bin/sh
# SPDX-License-Identifier: MIT
# The front door: README.md stays within its budget and opens with the two commands a newcomer runs.
#
#   check_readme.sh ROOT          check the tree at ROOT (exit 1 with each offending line)
#   check_readme.sh --self-test   first prove on scratch trees that each kind of violation fails
#
# - README.md is at most 30,000 bytes: details belong in docs/ (docs/install.md, testing.md...).
# - Its first code block comes before its first section (`## `), and its first two commands are
#   scripts/demo.sh and scripts/test.sh, in that order; both scripts exist.
# - .ci/run, the CI's entry, runs the README's test command, scripts/test.sh.
set -u
# shellcheck source=tests/lint/selftest.sh
. "$(dirname "$0")/selftest.sh"

budget=30000

# check ROOT: prints every violation as FILE[:LINE]: text (reason); returns 1 when there was one.
check() {
	root=$1
	readme="$root"/README.md
	{
		if [ ! -f "$readme" ]; then
			echo "README.md: missing (the project's front door)"
		else
			size=$(wc -c <"$readme" | tr -d ' ')
			[ "$size" -le "$budget" ] ||
				echo "README.md: $size bytes (over its budget of $budget: move details to docs/)"
			# The commands of the first code block (comments and blank lines aside), each as
			# LINE:FIRST-WORD, unless a section starts before it.
			awk '
				/^## / && !fence { print NR ":section " $0; exit }
				/^```/ { if (fence) exit; fence = 1; next }
				fence && $1 !~ /^#/ && NF { print NR ":" $1 }
			' "$readme" >"$tmp/cmds"
			first=$(sed -n 1p "$tmp/cmds")
			second=$(sed -n 2p "$tmp/cmds")
			case "$first" in
			*:section*) echo "README.md:${first%%:*}: ${first#*:section } (a section before the two commands)" ;;
			*:scripts/demo.sh) ;;
			'') echo "README.md: no code block with the two commands" ;;
			*) echo "README.md:${first%%:*}: ${first#*:} (the first command must be scripts/demo.sh)" ;;
			esac
			case "$second" in
			*:scripts/test.sh) ;;
			'') case "$first" in *:section*|'') ;; *) echo "README.md: no second command (scripts/test.sh)" ;; esac ;;
			*) echo "README.md:${second%%:*}: ${second#*:} (the second command must be scripts/test.sh)" ;;
			esac
		fi
		for s in scripts/demo.sh scripts/test.sh; do
			[ -f "$root/$s" ] || echo "$s: missing (one of the README's two commands)"
		done
		if [ ! -f "$root/.ci/run" ]; then
			echo ".ci/run: missing (the CI runs the README's test command)"
		elif ! grep -q 'scripts/test\.sh' "$root/.ci/run"; then
			echo ".ci/run: does not run scripts/test.sh (the README's test command)"
		fi
	} >"$tmp/out"
	cat "$tmp/out"
	[ ! -s "$tmp/out" ]
}

# A scratch tree with the README's opening as the rules want it.
scratch() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/scripts" "$tmp/tree/.ci"
	cat >"$tmp/tree"/README.md <<-'EOF2'
		# project

		One line on what it is.

		```sh
		# build and show
		scripts/demo.sh    # the demo

		scripts/test.sh -L unit   # the tests
		```

		## What it is

		```sh
		other/command
		```
	EOF2
	: >"$tmp/tree/scripts/demo.sh"
	: >"$tmp/tree/scripts/test.sh"
	printf 'bash scripts/test.sh\n' >"$tmp/tree/.ci/run"
}

# over_budget: grows the README past its budget.
over_budget() {
	head -c "$budget" /dev/zero | tr '\0' x >>README.md
}

# rewrite FILE TEXT: FILE holds TEXT (printf's format) alone.
rewrite() {
	# shellcheck disable=SC2059 # the text is the format
	printf "$2" >"$1"
}

# shellcheck disable=SC2016 # the backquotes below are Markdown's fences, not commands
if [ "${1:-}" = --self-test ]; then
	expect_clean
	expect_fail_after "a README over its budget" README.md over_budget
	expect_fail_after "a section before the commands" README.md \
		rewrite README.md '# p\n\n## Intro\n\n```sh\nscripts/demo.sh\nscripts/test.sh\n```\n'
	expect_fail_after "the commands swapped" README.md \
		rewrite README.md '# p\n\n```sh\nscripts/test.sh\nscripts/demo.sh\n```\n'
	expect_fail_after "another command first" README.md \
		rewrite README.md '# p\n\n```sh\napt-get install cmake\nscripts/demo.sh\nscripts/test.sh\n```\n'
	expect_fail_after "the test command missing" README.md \
		rewrite README.md '# p\n\n```sh\nscripts/demo.sh\n```\n\n```sh\nscripts/test.sh\n```\n'
	expect_fail_after "no code block" README.md rewrite README.md '# p\n\nNo commands.\n'
	expect_fail_after "the demo script gone" scripts/demo.sh rm scripts/demo.sh
	expect_fail_after "the CI not running the test command" .ci/run rewrite .ci/run 'make check\n'
fi
run_check readme "README.md is within its budget and opens with scripts/demo.sh and scripts/test.sh" \
	"a newcomer reads the README first and runs its first two commands" "$@"
