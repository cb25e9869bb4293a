# SPDX-License-Identifier: MIT
# The kernel matrix's report: each guest's console read into its result lines, then the table of all and the total.
# shellcheck shell=bash
#
# Sourced by kernel-matrix.sh, which sets arch, work, the table's CPU_HEAD, W_CLOCK and W_COUNTER
# (matrix_arch), guest_machine (matrix-configs.sh), selected, skipped, t_all, JOBS and say(). A
# configuration passes when its guest printed "FRMATRIX: done" with no suite failed and every
# one of its suites passed.
# shellcheck disable=SC2154 # work, selected, skipped and t_all are the sourcing script's

# What one configuration's console says, as one result line and its details; returns 0 when
# every suite passed.
report_config() {
	local name=$1 suites=$2 cpu=$3 smp=$4 log=$work/$1.log.txt
	local want done_line pass fail machine lib oracle secs why speed status=FAIL shown latency
	tr -d '\r' <"$work/$name.log" >"$log" 2>/dev/null || : >"$log"
	read -r secs why <"$work/$name.time"
	want=$(tr ',' '\n' <<<"$suites" | wc -l)
	done_line=$(grep -o 'FRMATRIX: done pass=[0-9]* fail=[0-9]*' "$log" | tail -n 1 || true)
	{ read -r machine; read -r shown; } < <(guest_machine "$log" "$cpu")
	# The library's view: era (marked when assumed), clock mode, counter and active, or why it passes through.
	lib=$(sed -n -e 's/ era=\([^ ]*\) (assumed: .*) clock=/ era=\1(assumed) clock=/' -e 's/^fastraw\[[0-9]*\] [^:]*: kernel=[^ ]* era=\([^ ]*\) clock=\([^ ]*\) counter=\([^ ]*\) \(.*\)/era=\1 clock=\2 counter=\3 \4/p' "$log" | head -n 1)
	speed=$(sed -n 's/^FRMATRIX: speed .* factor=\([0-9.]*\).*/\1/p' "$log" | head -n 1)
	oracle=$(grep -o 'oracle: counter=.*' "$log" | head -n 1 || true)
	[ -n "$oracle" ] || oracle="oracle: no summary line ($(grep -c '^SKIP: oracle' "$log" || true) SKIP lines)"
	tr ',' '\n' <<<"$suites" | grep -qx oracle || oracle="oracle: not run here"
	pass=$(sed -n 's/.*pass=\([0-9]*\).*/\1/p' <<<"$done_line")
	fail=$(sed -n 's/.*fail=\([0-9]*\).*/\1/p' <<<"$done_line")
	[ -n "$done_line" ] && [ "$fail" = 0 ] && [ "$pass" = "$want" ] && status=PASS
	printf 'matrix: %-16s %s  %s/%s suites  %s -cpu %s -smp %s  %3ds (speed factor %s)%s\n' "$name" "$status" \
		"${pass:-0}" "$want" "${machine:-?}" "$cpu" "$smp" "$secs" "${speed:-?}" \
		"$([ -n "$done_line" ] || echo "  (no result: ${why:-crashed})")"
	printf 'matrix: %-16s   library: %s\n' "" "${lib:-no FASTRAW_DEBUG line}"
	printf 'matrix: %-16s   %s\n' "" "$oracle"
	# The guest's own measurement, where it made one (FR_MATRIX_LATENCY): not part of the verdict.
	latency=$(sed -n 's/^FRMATRIX: \(latency .*\)/\1/p' "$log" | head -n 1)
	[ -z "$latency" ] || printf 'matrix: %-16s   %s\n' "" "$latency"
	printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$name" "$status" "${machine%% *}" "${shown:-?}" \
		"$(sed -n 's/.*clock=\([^ ]*\).*/\1/p' <<<"$lib")" "$(sed -n 's/.*counter=\([^ ]*\).*/\1/p' <<<"$lib")" \
		"${pass:-0}/$want" "$secs" "$oracle" >"$work/$name.row"
	[ "$status" = PASS ] && return 0
	grep '^FRMATRIX: suite .* fail' "$log" | sed 's/^/    /' || true
	echo "    --- last lines of the console ($log):"
	tail -n 80 "$log" | sed 's/^/    /'
	[ -s "$work/$name.qemu" ] && sed 's/^/    qemu: /' "$work/$name.qemu"
	return 1
}

# The table of every selected configuration (rows in $work/table) and the total line, which
# names the configurations skipped and the time since t_all; sets ran and passed.
report_all() {
	local c name status kernel cpu clock counter suites secs oracle
	ran=0 passed=0
	for c in "${selected[@]}"; do
		name=${c%%|*}
		ran=$((ran + 1))
		[ "$(cat "$work/$name.status" 2>/dev/null)" = pass ] && passed=$((passed + 1))
		cat "$work/$name.row" 2>/dev/null >>"$work/table" || echo "$name|FAIL|?|?|?|?|?|?|no report" >>"$work/table"
	done
	echo
	printf "matrix: %-16s %-4s %-28s %-11s %-${W_CLOCK}s %-${W_COUNTER}s %-6s %5s  %s\n" config result kernel "$CPU_HEAD" \
		clock counter suites secs oracle
	while IFS='|' read -r name status kernel cpu clock counter suites secs oracle; do
		printf "matrix: %-16s %-4s %-28s %-11s %-${W_CLOCK}s %-${W_COUNTER}s %-6s %4ss  %s\n" "$name" "$status" "$kernel" "$cpu" \
			"${clock:-?}" "${counter:-?}" "$suites" "$secs" "${oracle#oracle: }"
	done <"$work/table"
	say "$passed/$ran configurations passed in $(($(date +%s) - t_all)) s, $JOBS at a time${skipped[0]:+, ${#skipped[@]} skipped (${skipped[*]})} (logs: $work)"
}
