#!/bin/sh
# SPDX-License-Identifier: MIT
# What the program run by the launcher gets: LD_PRELOAD with the library after the entries already there, the FASTRAW_ settings, the binding.
. "$(dirname "$0")/launcher_common.sh"

run 0 env LD_PRELOAD=libm.so.6 "$L" --lib "$LIB" --tsc "$ctr_uno" --debug "$PROBE" one "two words"
out_has "argv[0]=$PROBE"
out_has "argv[1]=one"
out_has "argv[2]=two words"
out_has "LD_PRELOAD=libm.so.6:$LIB"
out_has "FASTRAW_TSC=$ctr_uno"
out_has "FASTRAW_DEBUG=1"
out_has "FASTRAW_STATS=(unset)"
out_has "clock_gettime in $LIB"
out_has "clock_gettime calls ok"
err_has "fastraw: launching $PROBE with LD_PRELOAD=libm.so.6:$LIB"
# The library's own start-up line shows the setting reached it.
err_matches "^fastraw\[[0-9]+\] [^:]+: kernel=.* counter=$ctr_uno (active|passthrough)"

for mode in "$ctr_ord" "$ctr_fen"; do
	run 0 "$L" --lib "$LIB" --tsc "$mode" "$PROBE"
	out_has "FASTRAW_TSC=$mode"
	out_has "FASTRAW_DEBUG=(unset)"
	err_lacks ": kernel="
done

# Settings not asked for are inherited untouched.
run 0 env FASTRAW_TSC="$ctr_fen" FASTRAW_DEBUG=0 "$L" --lib "$LIB" "$PROBE"
out_has "FASTRAW_TSC=$ctr_fen"
out_has "FASTRAW_DEBUG=0"

# The library is never listed twice, whatever name the existing entry uses; an entry that names it
# keeps its place (the user chose the order), else it goes after the entries already there.
ln -s "$LIB" "$T/alias.so"
run 0 env LD_PRELOAD="libm.so.6:$LIB" "$L" --lib "$LIB" "$PROBE"
out_has "LD_PRELOAD=libm.so.6:$LIB"
run 0 env LD_PRELOAD="$T/alias.so libm.so.6" "$L" --lib "$T/alias.so" "$PROBE"
out_has "LD_PRELOAD=$LIB:libm.so.6"
run 0 env LD_PRELOAD="libm.so.6 $LIB libdl.so.2:$T/alias.so" "$L" --lib "$LIB" "$PROBE"
out_has "LD_PRELOAD=libm.so.6:$LIB:libdl.so.2"
out_has "clock_gettime in $LIB"
run 0 env LD_PRELOAD=":$LIB::" "$L" --lib "$LIB" "$PROBE"
out_has "LD_PRELOAD=$LIB"

# LD_PRELOAD listed twice (an execve can pass that): glibc's loader reads the last, getenv the
# first. The program gets exactly one, holding every copy's entries in order and then the
# library, so that whichever its loader reads, the library is loaded.
run 0 "$PROBE" --execve LD_PRELOAD=libm.so.6 LD_PRELOAD=libdl.so.2 -- "$L" --lib "$LIB" --debug "$PROBE"
out_has "LD_PRELOAD entries=1"
out_has "LD_PRELOAD=libm.so.6:libdl.so.2:$LIB"
out_has "clock_gettime in $LIB"
err_has "fastraw: LD_PRELOAD was set 2 times; their entries go on in one, in order"
err_has "fastraw: launching $PROBE with LD_PRELOAD=libm.so.6:libdl.so.2:$LIB"
run 0 "$PROBE" --execve LD_PRELOAD="$LIB" LD_PRELOAD= LD_PRELOAD=libm.so.6 -- "$L" --lib "$LIB" "$PROBE"
out_has "LD_PRELOAD entries=1"
out_has "LD_PRELOAD=$LIB:libm.so.6"
out_has "clock_gettime in $LIB"
[ ! -s "$T/err" ] || fail "stderr is not empty without --debug"
# One copy: nothing said about it.
run 0 "$PROBE" --execve LD_PRELOAD=libm.so.6 -- "$L" --lib "$LIB" --debug "$PROBE"
out_has "LD_PRELOAD entries=1"
err_lacks "LD_PRELOAD was set"

# PATH is searched like execvp: a non-executable match is passed over, argv[0] kept as typed.
mkdir "$T/noexec" "$T/bin"
cp "$PROBE" "$T/noexec/fr-probe"
chmod 644 "$T/noexec/fr-probe"
cp "$PROBE" "$T/bin/fr-probe"
run 0 env PATH="$T/missing:$T/noexec:$T/bin" "$L" --lib "$LIB" fr-probe
out_has "argv[0]=fr-probe"
out_has "clock_gettime in $LIB"

# A #! script runs: the loader preloads into its interpreter, which passes the environment on.
printf '#!/bin/sh\nexec "%s" from-script\n' "$PROBE" >"$T/script"
chmod 755 "$T/script"
run 0 "$L" --lib "$LIB" "$T/script"
out_has "argv[1]=from-script"
out_has "LD_PRELOAD=$LIB"
out_has "clock_gettime in $LIB"

# Without --lib: the installed library when there is one, else the one beside the launcher.
run 0 "$L" "$PROBE"
if [ -f "$LAUNCHER_INSTALL_LIBDIR/libfastraw.so" ]; then
	echo "  (an installed $LAUNCHER_INSTALL_LIBDIR/libfastraw.so comes first)"
	out_has "LD_PRELOAD=$(readlink -f "$LAUNCHER_INSTALL_LIBDIR/libfastraw.so")"
else
	out_has "LD_PRELOAD=$LIB"
	out_has "clock_gettime in $LIB"
fi

finish
