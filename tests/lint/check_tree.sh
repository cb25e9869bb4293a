#!/bin/sh
# SPDX-License-Identifier: MIT
# The shape of the tree: CPU-specific code only under src/arch/, small folders with a README each,
# unit suites named after the module they test.
#
#   check_tree.sh ROOT          check the tree at ROOT (exit 1 with each offending line)
#   check_tree.sh --self-test   first prove on scratch trees that each kind of violation fails
#
#   - In src/, include/ and tools/, inline assembly, CPU intrinsics and their headers (cpuid.h,
#     the *intrin.h family, arm_neon.h, arm_acle.h) and assembly files appear only under
#     src/arch/: a second architecture then puts its CPU code in a folder there, none in
#     generic files. The one exception is the compiler barrier, an empty template that emits
#     no instruction, in src/base/access.h.
#   - The compiler's CPU macros __x86_64__, __aarch64__ and __arm__ appear only under src/arch/ and
#     tests/oracle/<cpu>/ (C, headers, assembly, CMake, anywhere in src/, include/, tools/,
#     tests/, cmake/ and the top CMakeLists.txt; comments too): a port is one src/arch/<cpu>/, one
#     tests/oracle/<cpu>/ and a matrix configuration, and no generic #else silently means a CPU.
#   - No folder of src/ holds more than 16 files (its README.md counts), so that each stays one
#     job a reader takes in at once.
#   - Every folder below src/ has a README.md: what the layer holds and what it may use.
#   - Every tests/unit/test_X.c tests a module X (src/*/X.c, src/*/X.h or src/arch/*/X.*), is
#     registered by tests/unit.cmake as fr_add_unit_test(X unit/test_X.c ...), and the helper
#     sources a suite links (synth.c, calsim.c ...) are not named test_*.
#   - Every header of src/ that declares a function or an object (a prototype, or extern) wraps
#     its declarations in #pragma GCC visibility push(hidden) ... pop, as src/base/hidden.h
#     says: calls and addresses between the library's files must need no relocation.
set -u
# shellcheck source=tests/lint/selftest.sh
. "$(dirname "$0")/selftest.sh"

MAX_FILES=16
# Spelt through a variable where a path ends in it: check_paths.sh reads a named path as a document
# that must exist, and the scratch trees' ones do not.
README=README.md

# Inline assembly: asm, __asm or __asm__, any qualifiers, then the opening parenthesis.
ASM_RE='(^|[^A-Za-z0-9_])(__asm__|__asm|asm)([[:space:]]*(volatile|__volatile__|goto|inline))*[[:space:]]*\('
# Intrinsics and the headers that declare them.
INTRIN_RE='__builtin_ia32_|__builtin_arm_|__builtin_aarch64_|__rdtsc|(^|[^A-Za-z0-9_])_rdtsc|__cpuid|__get_cpuid|(^|[^A-Za-z0-9_])_mm_[a-z]|#[[:space:]]*include[[:space:]]*<(cpuid|[a-z0-9]*intrin|arm_neon|arm_acle)\.h>'
# The compiler barrier allowed in src/base/access.h: an empty template clobbering memory.
BARRIER_RE='__asm__[[:space:]]+(volatile|__volatile__)[[:space:]]*\([[:space:]]*""[[:space:]]*:[[:space:]]*:[[:space:]]*:[[:space:]]*"memory"[[:space:]]*\)'

# check_cpu ROOT: CPU-specific code outside src/arch/.
check_cpu() {
	(cd "$1" && find src include tools -type f \( -name '*.[chSs]' -o -name '*.sx' -o -name '*.asm' \) \
		! -path 'src/arch/*' 2>/dev/null) | LC_ALL=C sort >"$tmp/cpu"
	grep -vE '\.[ch]$' "$tmp/cpu" | sed 's|$|: an assembly file outside src/arch/|'
	grep -E '\.[ch]$' "$tmp/cpu" >"$tmp/csrc" || return 0
	(cd "$1" && xargs grep -HnE "$ASM_RE" <"$tmp/csrc") | while IFS= read -r hit; do
		case "$hit" in
		src/base/access.h:*)
			text=${hit#*:}
			text=${text#*:}
			printf '%s\n' "$text" | sed -E "s/$BARRIER_RE//g" | grep -qE "$ASM_RE" || continue
			;;
		esac
		printf '%s\n' "$hit (inline assembly outside src/arch/)"
	done
	(cd "$1" && xargs grep -HnE "$INTRIN_RE" <"$tmp/csrc") | sed 's|$| (a CPU intrinsic outside src/arch/)|'
}

# The CPU macros, as a word: __x86_64__, __aarch64__ or __arm__ (also inside defined(...) and #ifdef).
CPU_MACRO_RE='(^|[^A-Za-z0-9_])__(x86_64|aarch64|arm)__([^A-Za-z0-9_]|$)'

# check_cpu_macros ROOT: a CPU macro outside src/arch/ and tests/oracle/<cpu>/.
check_cpu_macros() {
	(cd "$1" && find src include tools tests cmake -type f \( -name '*.[chSs]' -o -name '*.sx' -o -name '*.asm' \
		-o -name '*.inc' -o -name '*.in' -o -name '*.cmake' -o -name CMakeLists.txt \) 2>/dev/null
		[ -f CMakeLists.txt ] && echo CMakeLists.txt) | grep -vE '^(src/arch/|tests/oracle/[^/]+/)' |
		LC_ALL=C sort >"$tmp/macros"
	[ -s "$tmp/macros" ] || return 0
	(cd "$1" && xargs grep -HnE "$CPU_MACRO_RE" <"$tmp/macros") |
		sed 's|$| (a CPU macro outside src/arch/ and tests/oracle/<cpu>/: name a capability there)|'
}

# check_folders ROOT: the size of every folder of src/ and the README.md of every folder below it.
check_folders() {
	for d in $(cd "$1" && find src -type d | LC_ALL=C sort); do
		n=$(find "$1/$d" -maxdepth 1 -type f | wc -l)
		[ "$n" -le "$MAX_FILES" ] || echo "$d/: $n files (at most $MAX_FILES, README.md included)"
		[ "$d" = src ] || [ -f "$1/$d/$README" ] || echo "$d/: no README.md (what this folder holds, what it may use)"
	done
}

# check_units ROOT: each unit suite, its module and its registration.
check_units() {
	cm=$1/tests/unit.cmake
	# The registrations as "LINE NAME FIRST-SOURCE OTHER-SOURCES...".
	grep -n '^[[:space:]]*fr_add_unit_test(' "$cm" 2>/dev/null |
		sed -E 's/^([0-9]+):[[:space:]]*fr_add_unit_test\(([^)]*)\).*/\1 \2/' >"$tmp/units"
	for f in $(cd "$1" && find tests/unit -maxdepth 1 -name 'test_*.c' | LC_ALL=C sort); do
		x=${f#tests/unit/test_}
		x=${x%.c}
		found=
		for m in "$1"/src/*/"$x".c "$1"/src/*/"$x".h "$1"/src/arch/*/"$x".*; do
			[ -f "$m" ] && found=1 && break
		done
		[ -n "$found" ] || echo "$f: tests no module $x (no src/*/$x.c, src/*/$x.h or src/arch/*/$x.*)"
		grep -qE "^[0-9]+ $x unit/test_$x\.c( |$)" "$tmp/units" ||
			echo "$f: not registered as fr_add_unit_test($x unit/test_$x.c ...) in tests/unit.cmake"
	done
	while read -r line name first rest; do
		[ "$first" = "unit/test_$name.c" ] ||
			echo "tests/unit.cmake:$line: fr_add_unit_test($name $first ...) (the suite of $name is unit/test_$name.c)"
		for s in $rest; do
			case "${s##*/}" in
			test_*) echo "tests/unit.cmake:$line: $s (a helper source named like a suite)" ;;
			esac
		done
	done <"$tmp/units"
}

# check_hidden ROOT: headers of src/ that declare names without the hidden pragma.
check_hidden() {
	for h in $(cd "$1" && find src -name '*.h' | LC_ALL=C sort); do
		grep -qE '^(extern[[:space:]]|[A-Za-z_][A-Za-z0-9_ ]*[ *]+[a-z_][A-Za-z0-9_]*\(.*\);$)' "$1/$h" || continue
		grep -q '^#pragma GCC visibility push(hidden)' "$1/$h" ||
			echo "$h: declares names without #pragma GCC visibility push(hidden) (src/base/hidden.h)"
	done
}

# check ROOT: prints every violation as PATH[:LINE]: text (reason); returns 1 when there was one.
check() {
	{
		check_cpu "$1"
		check_cpu_macros "$1"
		check_folders "$1"
		check_units "$1"
		check_hidden "$1"
	} >"$tmp/out"
	cat "$tmp/out"
	[ ! -s "$tmp/out" ]
}

# A scratch tree with what the rules allow: assembly and intrinsics under src/arch/, the barrier
# in src/base/access.h, words like "asm" and "rdtsc" in prose, a folder of exactly 16 files.
scratch() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/src/arch/x86_64" "$tmp/tree/src/base" "$tmp/tree/src/math" \
		"$tmp/tree/include" "$tmp/tree/tools/one" "$tmp/tree/tests/unit"
	for d in arch arch/x86_64 base math; do
		printf '# %s\n\nOne paragraph.\n' "$d" >"$tmp/tree/src/$d/$README"
	done
	printf '#include "arch/x86_64/cpu.h"\n' >"$tmp/tree/src/arch/arch.h"
	cat >"$tmp/tree/src/arch/x86_64/cpu.h" <<-'EOF'
		#include <cpuid.h>
		#include <x86intrin.h>
		static inline unsigned long long fr_arch_counter(void) { return __rdtsc(); }
		static inline void fr_arch_pause(void) { __asm__ volatile("pause" ::: "memory"); }
		static inline void fr_arch_id(unsigned *a, unsigned *b, unsigned *c, unsigned *d) { __cpuid(0, *a, *b, *c, *d); }
	EOF
	printf '.text\nfr_stub:\n\tret\n' >"$tmp/tree/src/arch/x86_64/stub.S"
	printf '#if defined(__x86_64__)\n#include "arch/x86_64/cpu.h"\n#elif defined(__aarch64__)\n#endif\n' \
		>>"$tmp/tree/src/arch/arch.h"
	mkdir -p "$tmp/tree/tests/oracle/x86_64" "$tmp/tree/tests/oracle/aarch64"
	printf '#ifdef __x86_64__\n#define FRT_HAS_X 1\n#endif\n' >"$tmp/tree/tests/oracle/x86_64/cpu_test.h"
	printf '#if defined(__aarch64__) /* arm64 only */\n#endif\n' >"$tmp/tree/tests/oracle/aarch64/cpu_test.h"
	printf '/* Words that only look like the macros: x86_64, __x86_64, __aarch64__x, my__aarch64__. */\n' \
		>"$tmp/tree/tests/oracle/rng.c"
	printf 'int main(void) { return FRT_HAS_X; }\n' >"$tmp/tree/tests/unit/uses_cpu.c"
	printf 'set(FR_ARCH x86_64)\n' >"$tmp/tree/CMakeLists.txt"
	cat >"$tmp/tree/src/base/access.h" <<-'EOF'
		/* The compiler barrier: no instruction, only an order the compiler keeps. */
		#define FR_BARRIER() __asm__ volatile("" ::: "memory")
		static inline void fr_barrier(void) { __asm__ __volatile__ ( "" : : : "memory" ); }
	EOF
	cat >"$tmp/tree/src/math/rawmath.c" <<-'EOF'
		/* The counter (rdtsc on x86, cntvct on arm64) comes through arch.h; no asm here, see
		   arch/x86/include/asm/vgtod.h for the layout. The assembly stubs live in arch/. */
		#include "arch/arch.h"
		int fr_cpu_idle_guess(int asm_ok) { return asm_ok; }
	EOF
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
		: >"$tmp/tree/src/math/part$i.h"
	done
	cat >"$tmp/tree/src/math/rawmath.h" <<-'EOF'
		#include <stdint.h>
		#pragma GCC visibility push(hidden)
		extern const uint64_t fr_table[4];
		uint64_t fr_raw_ns(uint64_t cycles);
		#pragma GCC visibility pop
	EOF
	printf '/* Public: no assembly. */\n' >"$tmp/tree/include/fastraw.h"
	printf '#include "arch/arch.h"\nint main(void) { return 0; }\n' >"$tmp/tree/tools/one/one.c"
	for m in rawmath cpu; do
		printf 'int main(void) { return 0; }\n' >"$tmp/tree/tests/unit/test_$m.c"
	done
	: >"$tmp/tree/tests/unit/synth.c"
	cat >"$tmp/tree/tests/unit.cmake" <<-'EOF'
		# fr_add_unit_test(NAME SOURCES...)
		fr_add_unit_test(rawmath unit/test_rawmath.c unit/synth.c)
		  fr_add_unit_test(cpu unit/test_cpu.c)
	EOF
}

# rename_unit FROM TO: the suite and its registration change name together.
rename_unit() {
	mv "tests/unit/test_$1.c" "tests/unit/test_$2.c" &&
		sed -i "s/($1 unit\/test_$1\.c/($2 unit\/test_$2.c/" tests/unit.cmake
}

if [ "${1:-}" = --self-test ]; then
	expect_clean
	expect_fail "inline assembly in a generic source" src/math/rawmath.c \
		'static unsigned long long t(void) { unsigned lo, hi; __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); return lo; }'
	expect_fail "asm( in a tool" tools/one/one.c 'static void p(void) { asm("pause"); }'
	expect_fail "asm volatile in the public header" include/fastraw.h 'static inline void p(void) { asm volatile ("pause"); }'
	expect_fail "__asm goto" src/math/rawmath.c 'static int g(void) { __asm goto("" :::: out); return 0; out: return 1; }'
	expect_fail "a top-level assembly stub" src/math/rawmath.c '__asm__(".text\nstub: ret\n");'
	expect_fail "a builtin intrinsic" src/math/rawmath.c 'unsigned long long t(void) { return __builtin_ia32_rdtsc(); }'
	expect_fail "cpuid.h" src/base/pages.h '#include <cpuid.h>'
	expect_fail "x86intrin.h" tools/one/one.c '#include <x86intrin.h>'
	expect_fail "immintrin.h" src/math/rawmath.c '# include <immintrin.h>'
	expect_fail "__rdtsc" src/math/rawmath.c 'unsigned long long t(void) { return __rdtsc(); }'
	expect_fail "__rdtscp" tools/one/one.c 'unsigned long long t(unsigned *a) { return __rdtscp(a); }'
	expect_fail "__cpuid" src/math/rawmath.c 'void c(unsigned *r) { __cpuid(1, r[0], r[1], r[2], r[3]); }'
	expect_fail "__get_cpuid" tools/one/one.c 'int c(unsigned *r) { return __get_cpuid(0, r, r + 1, r + 2, r + 3); }'
	expect_fail "an _mm_ intrinsic" src/math/rawmath.c 'void f(void) { _mm_lfence(); }'
	expect_fail "an instruction in src/base/access.h" src/base/access.h 'static inline void p(void) { __asm__ volatile("pause" ::: "memory"); }'
	expect_fail "a barrier and an instruction on one line of access.h" src/base/access.h \
		'#define B() do { __asm__ volatile("" ::: "memory"); __asm__ volatile("lfence"); } while (0)'
	expect_fail "the barrier outside src/base/access.h" src/math/rawmath.c 'static void b(void) { __asm__ volatile("" ::: "memory"); }'
	expect_fail "an assembly file outside src/arch/" src/base/stub.S '.text'
	expect_fail_after "a 17th file in a folder" src/math/ touch src/math/part14.h
	expect_fail_after "a 17th file in an architecture folder" src/arch/x86_64/ \
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do : >src/arch/x86_64/p$i.h; done'
	expect_fail_after "a folder without README.md" src/math/ rm "src/math/$README"
	expect_fail_after "an architecture folder without README.md" src/arch/x86_64/ rm "src/arch/x86_64/$README"
	expect_fail_after "a new folder without README.md" src/calib/ append src/calib/calib_math.c ''
	expect_fail "a prototype in a header without the hidden pragma" src/base/pages.h 'void fr_page_touch(void *p);'
	expect_fail "an extern object in a header without the hidden pragma" src/base/pages.h 'extern int fr_pages;'
	expect_fail "__x86_64__ in a generic source" src/math/rawmath.c '#if defined(__x86_64__)'
	expect_fail "__aarch64__ in a generic header" src/base/pages.h '#ifdef __aarch64__'
	expect_fail "a CPU macro in a tool" tools/one/one.c '#if !defined(__x86_64__) /* arm64 */'
	expect_fail "a CPU macro in the public header" include/fastraw.h '#if __aarch64__'
	expect_fail "a CPU macro in a test" tests/unit/test_cpu.c '#elif defined(__aarch64__)'
	expect_fail "a CPU macro in a test helper" tests/e2e/harness.c '#if defined(__x86_64__) && 1'
	expect_fail "a CPU macro in the oracle's shared files" tests/oracle/rng.c '#if defined(__x86_64__)'
	expect_fail "a CPU macro in an assembly file" tests/e2e/stub.S '#ifdef __x86_64__'
	expect_fail "a CPU macro in CMake" tests/unit.cmake 'add_compile_definitions(HAVE=__aarch64__)'
	expect_fail "a CPU macro in the top CMakeLists.txt" CMakeLists.txt 'string(FIND "${X}" "__x86_64__" at)'
	expect_fail "a suite of no module" tests/unit/test_gone.c 'int main(void) { return 0; }'
	expect_fail_after "a suite registered under another name" tests/unit/test_rawmath.c \
		sed -i 's/(rawmath unit/(raw unit/' tests/unit.cmake
	expect_fail_after "a suite named after no module, registered so" tests/unit/test_calib.c rename_unit rawmath calib
	expect_fail_after "a helper source named like a suite" tests/unit.cmake \
		sed -i 's/unit\/synth\.c/unit\/test_synth.c/' tests/unit.cmake
	expect_fail_after "a registration whose first source is not its suite" tests/unit.cmake \
		sed -i 's/(cpu unit\/test_cpu\.c)/(cpu unit\/synth.c unit\/test_cpu.c)/' tests/unit.cmake
fi
run_check tree "CPU code only under src/arch/, small folders with a README, unit suites named after their modules" \
	"see each line above" "$@"
