# SPDX-License-Identifier: MIT
# Sourced by the shell tests that count failed checks: the C locale, a scratch folder $T, fail, skip and finish.
# shellcheck shell=sh disable=SC2034  # T and failures are for the scripts that source this file
#
# The sourcing script unsets, first, whatever inherited setting would change what its programs
# report, and ends with finish.
set -u
export LC_ALL=C
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
failures=0

# fail MESSAGE: counts a failed check and goes on, so that one run shows every failure.
fail() {
	echo "  FAIL: $*"
	failures=$((failures + 1))
}

# skip REASON: the test cannot run here (CTest's SKIP_RETURN_CODE).
skip() {
	echo "SKIP: $*"
	exit 77
}

# finish: PASS (0) when no check failed, else the count (1).
finish() {
	if [ "$failures" -eq 0 ]; then
		echo "PASS"
		exit 0
	fi
	echo "FAILED: $failures check(s)"
	exit 1
}
