#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the booted guest (fastraw-collect.service): records what tests/system/boot.sh asserts, then powers off.
#
# Everything goes to files under /var/lib/fastraw-boot, which the host reads back from the disk
# image with debugfs: the serial console belongs to a getty, which hangs up earlier writers.
# Files: state (systemctl is-system-running once the boot settled), failed (failed units),
# analyze (systemd-analyze time), procs (pid, whether its maps name libfastraw, command name, for
# every process with a memory map), setuid (FASTRAW_DEBUG=1 set-user-ID runs as a user: exit
# status and what they printed), pending (a set-user-ID sudo caught running: its maps and
# AT_SECURE), su (su -c to a user, as root), raw (the bracket count of clock_gettime RAW in
# python3 against the raw system call), debug (the library's FASTRAW_DEBUG line), journal, done.
O=/var/lib/fastraw-boot
mkdir -p "$O"
exec >"$O/log" 2>&1
set -x
# The boot settles: running, degraded or anything but starting (at most 40 minutes under TCG).
i=0
while :; do
	state=$(systemctl is-system-running 2>/dev/null)
	case "$state" in initializing | starting) ;; *) break ;; esac
	i=$((i + 1))
	[ "$i" -lt 2400 ] || break
	sleep 1
done
echo "$state" >"$O/state"
systemctl list-units --failed --plain --no-legend --full | awk '{ print $1 }' >"$O/failed"
systemd-analyze time >"$O/analyze" 2>&1

# Every process with a memory map (kernel threads and zombies have none): does it map the library?
for d in /proc/[0-9]*; do
	maps=$(cat "$d/maps" 2>/dev/null) || continue
	[ -n "$maps" ] || continue
	case "$maps" in *libfastraw*) has=yes ;; *) has=no ;; esac
	echo "${d#/proc/} $has $(cat "$d/comm" 2>/dev/null)"
done >"$O/procs"

# Set-user-ID programs run by a user, with FASTRAW_DEBUG=1: they must run and print no library
# line (AT_SECURE: FASTRAW_* ignored). python3 (not set-user-ID) is the control: it prints one.
: >"$O/setuid"
for cmd in 'sudo -h' 'su --help' 'passwd --help' 'mount --version' 'python3 -c pass'; do
	# shellcheck disable=SC2086  # cmd is a command and its arguments
	out=$(runuser -u fruser -- env FASTRAW_DEBUG=1 $cmd 2>&1)
	echo "== $cmd: exit $?" >>"$O/setuid"
	printf '%s\n' "$out" | grep 'fastraw' >>"$O/setuid"
done
# A set-user-ID sudo caught while it waits for a password: its maps and its AT_SECURE (23).
# setsid: the pipeline is a process group of its own, ended as a whole once sudo has been read,
# so nothing waits for the rest of its sleep. Looked for every 0.2 s, for up to 15 s.
setsid runuser -u fruser -- sh -c 'sleep 20 | env FASTRAW_DEBUG=1 sudo -S -p "" true' >/dev/null 2>&1 &
group=$!
pid=
i=0
while [ "$i" -lt 75 ]; do
	pid=$(pgrep -x -u 0 -U fruser sudo | head -n 1)
	[ -z "$pid" ] || break
	sleep 0.2
	i=$((i + 1))
done
if [ -n "$pid" ]; then
	secure=$(od -An -v -tu8 "/proc/$pid/auxv" | tr -s ' ' '\n' | grep . | awk 'NR % 2 == 1 { k = $1 } NR % 2 == 0 && k == 23 { print $1 }')
	lib=$(grep -c libfastraw "/proc/$pid/maps")
	echo "pid=$pid at_secure=$secure libfastraw_maps=$lib" >"$O/pending"
	kill "$pid"
else
	echo "no sudo caught" >"$O/pending"
fi
kill -TERM -- "-$group" 2>/dev/null
wait
# su -c, as root, to the user.
su -s /bin/sh -c 'id -un; grep -c libfastraw /proc/self/maps || :' fruser >"$O/su" 2>&1
echo "exit $?" >>"$O/su"

# clock_gettime(CLOCK_MONOTONIC_RAW) through the C library, bracketed by the raw system call.
cat >/tmp/fastraw-raw.py <<'EOF'
import ctypes, platform, time
libc = ctypes.CDLL("libc.so.6")  # its own syscall(), not the preloaded library's
nr = {"x86_64": 228, "aarch64": 113}[platform.machine()]
class Ts(ctypes.Structure):
    _fields_ = [("s", ctypes.c_long), ("ns", ctypes.c_long)]
ts = Ts()
def kernel():
    if libc.syscall(nr, 4, ctypes.byref(ts)) != 0:
        raise OSError("clock_gettime syscall")
    return ts.s * 1000000000 + ts.ns
n, bad, worst = 20000, 0, 0
for _ in range(n):
    a = kernel()
    v = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
    b = kernel()
    if not a <= v <= b:
        bad += 1
        worst = max(worst, a - v, v - b)
mapped = "libfastraw" in open("/proc/self/maps").read()
print("calls=%d outside=%d worst_ns=%d mapped=%s" % (n, bad, worst, mapped))
EOF
python3 /tmp/fastraw-raw.py >"$O/raw" 2>&1
FASTRAW_DEBUG=1 python3 -c 'import time; time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)' >"$O/debug" 2>&1

journalctl -b --no-pager -o short-monotonic >"$O/journal" 2>&1
echo finished >"$O/done"
sync
# Everything is recorded: --force skips stopping the units one by one (seconds under TCG), while
# systemd-shutdown still ends every process and unmounts the disk cleanly for debugfs.
systemctl poweroff --force
