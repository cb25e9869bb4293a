# SPDX-License-Identifier: MIT
# End-to-end tests: probe programs, never linked with libfastraw, run under LD_PRELOAD by
# Check suites that compare what they see with the kernel's raw syscall.

# fr_add_e2e_probe(NAME SOURCES...): a probe executable e2e_probe_NAME. It may include src/'s
# headers (arch/arch.h: the architecture's vDSO and counter names), never link the library's code.
function(fr_add_e2e_probe name)
  add_executable(e2e_probe_${name} ${ARGN})
  target_include_directories(e2e_probe_${name} PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/support ${CMAKE_CURRENT_SOURCE_DIR}/e2e ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(e2e_probe_${name} PRIVATE
    Threads::Threads ${CMAKE_DL_LIBS} fastraw_warnings)
endfunction()

add_library(e2e_ctor SHARED e2e/ctor_lib.c)
target_include_directories(e2e_ctor PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/support ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
target_link_libraries(e2e_ctor PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)

fr_add_e2e_probe(bracket e2e/probe_bracket.c)
fr_add_e2e_probe(clocks e2e/probe_clocks.c)
fr_add_e2e_probe(life e2e/probe_life.c)
fr_add_e2e_probe(ctor e2e/probe_ctor.c)
target_link_libraries(e2e_probe_ctor PRIVATE e2e_ctor)
fr_add_e2e_probe(preinit e2e/probe_preinit.c)
fr_add_e2e_probe(causality e2e/probe_causality.c)
fr_add_e2e_probe(lookup e2e/probe_lookup.c e2e/elfwalk.c e2e/lookup_common.c)
# The register-level syscall() call, in the architecture's assembly (FR_ARCH: x86_64, aarch64),
# where the CPU's folder has it (FRT_HAS_CALLREGS in oracle/<cpu>/cpu_tests.cmake): the probes
# that make such calls, the register spy and the entries that run them come with it.
if(FRT_HAS_CALLREGS)
set(fr_e2e_callregs e2e/callregs.c oracle/${FR_ARCH}/callregs_asm.c)
fr_add_e2e_probe(sys e2e/probe_sys.c ${fr_e2e_callregs})
endif()
fr_add_e2e_probe(calib e2e/probe_calib.c)
fr_add_e2e_probe(calib_jump e2e/probe_calib_jump.c)
fr_add_e2e_probe(calib_negative e2e/probe_calib_negative.c)
# The single-stepping trace probe decodes x86-64 instructions and registers (PTRACE_GETREGS,
# rip): built where the CPU's folder declares it (FRT_HAS_TRACE_PROBE in
# oracle/<cpu>/cpu_tests.cmake), with e2e_path below. The steps suite is the
# architecture-neutral one. Not with the sanitizers, as e2e_path (and its stepper.h comes from
# steps.cmake, which they skip).
if(FRT_HAS_TRACE_PROBE AND NOT FASTRAW_SANITIZE)
  fr_add_e2e_probe(trace e2e/probe_trace.c)
endif()
fr_add_e2e_probe(unload e2e/probe_unload.c)
if(FRT_HAS_CALLREGS)
fr_add_e2e_probe(efault e2e/probe_efault.c ${fr_e2e_callregs})
fr_add_e2e_probe(regspy e2e/probe_regspy.c ${fr_e2e_callregs})
# A syscall() interposer that records every register, preloaded after libfastraw by e2e_syscall.
add_library(e2e_spy SHARED e2e/spy_lib.c)
target_link_libraries(e2e_spy PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)
endif()
fr_add_e2e_probe(vfork e2e/probe_vfork.c)
fr_add_e2e_probe(sandbox e2e/probe_sandbox.c e2e/elfwalk.c)
fr_add_e2e_probe(stats e2e/probe_stats.c)
fr_add_e2e_probe(served e2e/probe_served.c)
fr_add_e2e_probe(vdso_id e2e/probe_vdso_id.c)
fr_add_e2e_probe(vdso_gone e2e/probe_vdso_gone.c)
# The API probe links the library itself: no preload needed.
fr_add_e2e_probe(api e2e/probe_api.c)
target_link_libraries(e2e_probe_api PRIVATE fastraw)

# fr_add_e2e_test(NAME PROBE...): Check suite e2e/test_NAME.c, told where its probes are.
function(fr_add_e2e_test name)
  set(env "FR_PRELOAD_FIRST=${FR_SANITIZER_RUNTIME}")
  foreach(probe ${ARGN})
    string(TOUPPER ${probe} var)
    list(APPEND env "FR_PROBE_${var}=$<TARGET_FILE:e2e_probe_${probe}>")
  endforeach()
  fr_add_check_test(${name}
    SOURCES e2e/test_${name}.c e2e/harness.c
    ENV ${env}
    LABELS e2e
    TIMEOUT 300)
  target_include_directories(test_${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
  foreach(probe ${ARGN})
    add_dependencies(test_${name} e2e_probe_${probe})
  endforeach()
endfunction()

fr_add_e2e_test(e2e_bracket bracket)
fr_add_e2e_test(e2e_clocks clocks chain)
fr_add_e2e_test(e2e_env bracket)
fr_add_e2e_test(e2e_lifecycle life ctor preinit)
fr_add_e2e_test(e2e_causality causality)
fr_add_e2e_test(e2e_lookup lookup)
if(FRT_HAS_CALLREGS)
fr_add_e2e_test(e2e_api sys api)
endif()
fr_add_e2e_test(e2e_calib calib causality calib_jump calib_negative)
fr_add_e2e_test(e2e_unload unload)
if(FRT_HAS_CALLREGS)
fr_add_e2e_test(e2e_syscall efault sys regspy)
set_property(TEST e2e_syscall APPEND PROPERTY ENVIRONMENT "FR_SPY_LIB=$<TARGET_FILE:e2e_spy>")
add_dependencies(test_e2e_syscall e2e_spy)
endif()
# 20 s of children storming a calibrated parent: the longest e2e entry.
fr_add_e2e_test(e2e_vfork vfork)
fr_add_e2e_test(e2e_sandbox sandbox)
fr_add_e2e_test(e2e_stats stats)
fr_add_e2e_test(e2e_served served)
fr_add_e2e_test(e2e_vdso_id vdso_id)
# Root in a kernel-matrix guest only (it slews and steps the clock; elsewhere it exits 77): the
# served clocks through adjtimex slews, clock_settime steps, a leap second and TAI changes, with
# the oracle on the live pages beside the probe. Where the CPU's oracle folder names its live
# oracle's sources (FRT_LIVE_ORACLE_SOURCES in oracle/<cpu>/oracle.cmake).
if(DEFINED FRT_LIVE_ORACLE_SOURCES)
  fr_add_e2e_probe(settime e2e/probe_settime.c)
  fr_add_e2e_test(e2e_settime settime)
  set(fr_live_sources ${FRT_LIVE_ORACLE_SOURCES})
  list(TRANSFORM fr_live_sources PREPEND oracle/${FR_ARCH}/)
  target_sources(test_e2e_settime PRIVATE ${fr_oracle_live} ${fr_live_sources} ${fr_oracle_shared})
  target_link_libraries(test_e2e_settime PRIVATE fastraw_core)
  set_tests_properties(e2e_settime PROPERTIES SKIP_RETURN_CODE 77)
endif()
# Not with the sanitizers: their runtime calls into the vDSO itself (its own clock reads), so a
# program that unmapped it faults there even without libfastraw.
if(NOT FASTRAW_SANITIZE)
  fr_add_e2e_test(e2e_vdso_gone vdso_gone)
endif()
# A real program that identifies the vDSO by its address (skipped without stress-ng). Not with
# the sanitizers: an instrumented library cannot be preloaded into it alone.
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(e2e_stress_ng_vdso LABELS e2e SKIP TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/stress_ng_vdso.sh $<TARGET_FILE:fastraw>)
endif()
# Single-stepped, an instrumented library takes longer than a timer tick from one seqcount read
# to the next: every round retries until the call passes through. So not with the sanitizers.
if(NOT FASTRAW_SANITIZE AND TARGET e2e_probe_trace)
  fr_add_e2e_test(e2e_path bracket trace)
endif()

# Under valgrind there is no vDSO: calibrated mode where it is eligible as the client sees it,
# else pass-through, with the reason in the debug line. (Valgrind and the sanitizers' runtimes
# do not mix.)
if(NOT FASTRAW_SANITIZE AND TARGET fastraw-info)
  fr_add_script_test(e2e_valgrind LABELS e2e TIMEOUT 300
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/valgrind_no_vdso.sh
            $<TARGET_FILE:fastraw> $<TARGET_FILE:e2e_probe_bracket> $<TARGET_FILE:fastraw-info>)
endif()

# A library after libfastraw whose clock_gettime leads to it (loop_lib.c): an IFUNC answering
# __clock_gettime as glibc 2.17's librt does, a wrapper of __clock_gettime, and a wrapper of the
# global clock_gettime; each linked into its own probe.
foreach(kind ifunc wrapper global)
  add_library(e2e_loop_${kind} SHARED e2e/loop_lib.c)
  target_link_libraries(e2e_loop_${kind} PRIVATE fastraw_warnings)
  fr_add_e2e_probe(loop_${kind} e2e/probe_loop.c)
  target_link_libraries(e2e_probe_loop_${kind} PRIVATE e2e_loop_${kind})
endforeach()
target_compile_definitions(e2e_loop_ifunc PRIVATE FR_LOOP_IFUNC)
target_compile_definitions(e2e_loop_global PRIVATE FR_LOOP_GLOBAL)
target_link_libraries(e2e_loop_global PRIVATE ${CMAKE_DL_LIBS})
# An ordinary interposer after libfastraw that a signal handler siglongjmps out of (probe_jumps.c).
add_library(e2e_loop_raise SHARED e2e/loop_lib.c)
target_compile_definitions(e2e_loop_raise PRIVATE FR_LOOP_RAISE)
target_link_libraries(e2e_loop_raise PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)
fr_add_e2e_probe(jumps e2e/probe_jumps.c)
target_link_libraries(e2e_probe_jumps PRIVATE e2e_loop_raise)
# The same interposer in a coroutine abandoned by siglongjmp, whose stack is then unmapped.
fr_add_e2e_probe(coroutine e2e/probe_coroutine.c)
target_link_libraries(e2e_probe_coroutine PRIVATE e2e_loop_raise)
fr_add_e2e_test(e2e_loop loop_ifunc loop_wrapper loop_global jumps coroutine)

# Beside other interposers: a test interposer of our own (chain_lib.c) in both orders and through
# the launcher; then the real neighbours, faketime and an AddressSanitizer program.
add_library(e2e_chain SHARED e2e/chain_lib.c)
target_link_libraries(e2e_chain PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)
fr_add_e2e_probe(chain e2e/probe_chain.c)
fr_add_script_test(e2e_chain LABELS e2e TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/chain.sh
          $<TARGET_FILE:fastraw> $<TARGET_FILE:e2e_chain> $<TARGET_FILE:e2e_probe_chain> $<TARGET_FILE:fastraw-launcher>)

include(CheckCCompilerFlag)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=address)
check_c_compiler_flag(-fsanitize=address FR_HAVE_ASAN)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
set(fr_asan_probe -)
# Not in a sanitizer build: its runtime is then preloaded in front of every test already.
if(FR_HAVE_ASAN AND NOT FASTRAW_SANITIZE)
  add_executable(e2e_probe_asan e2e/probe_asan.c)
  target_include_directories(e2e_probe_asan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
  target_compile_options(e2e_probe_asan PRIVATE -fsanitize=address)
  target_link_options(e2e_probe_asan PRIVATE -fsanitize=address)
  target_link_libraries(e2e_probe_asan PRIVATE ${CMAKE_DL_LIBS})
  set(fr_asan_probe $<TARGET_FILE:e2e_probe_asan>)
endif()
fr_add_script_test(e2e_neighbours LABELS e2e SKIP TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/neighbours.sh
          $<TARGET_FILE:fastraw> $<TARGET_FILE:fastraw-launcher> ${fr_asan_probe})

# Odd but legal linking: a dependency's IFUNC resolver and the program's own calling every
# export before libfastraw is relocated or initialised; libraries linked at one non-zero base
# (prelink style), so that the loader moves the second with a negative or a positive bias; a
# dlmopen namespace of its own.
add_library(e2e_early SHARED e2e/early_lib.c)
add_library(e2e_early_dep SHARED e2e/early_dep.c)
target_link_libraries(e2e_early_dep PRIVATE e2e_early)
fr_add_e2e_probe(early e2e/probe_early.c)
target_link_libraries(e2e_probe_early PRIVATE e2e_early_dep e2e_early)
# The program's own resolver runs before its PLT is bound: its calls go through GOT entries,
# which the loader fills before it runs resolvers.
target_compile_options(e2e_probe_early PRIVATE -fno-plt)
foreach(kind neg pos)
  if(kind STREQUAL neg)
    set(base 0x7fff00000000)
  else()
    set(base 0x10000000)
  endif()
  foreach(n one two)
    add_library(e2e_bias_${kind}_${n} SHARED e2e/bias_lib.c)
    target_compile_definitions(e2e_bias_${kind}_${n} PRIVATE BIAS_FN=bias_${n} BIAS_VALUE=$<IF:$<STREQUAL:${n},one>,1,2>)
    target_link_options(e2e_bias_${kind}_${n} PRIVATE -Wl,-Ttext-segment=${base})
  endforeach()
  fr_add_e2e_probe(bias_${kind} e2e/probe_bias.c)
  target_link_libraries(e2e_probe_bias_${kind} PRIVATE e2e_bias_${kind}_one e2e_bias_${kind}_two)
endforeach()
fr_add_e2e_probe(dlmopen e2e/probe_dlmopen.c)
# Opens libe2e_ctor.so beside itself in a thread.
fr_add_e2e_probe(firstcall e2e/probe_firstcall.c)
fr_add_e2e_test(e2e_host early bias_neg bias_pos dlmopen firstcall)
# The first RAW read where it can hurt: the environment changed before it, a jump out of it, a
# fork during it, a small stack under it.
fr_add_e2e_probe(firstread e2e/probe_firstread.c ${fr_e2e_callregs})
target_link_libraries(e2e_probe_firstread PRIVATE rt)
fr_add_e2e_test(e2e_firstread firstread)
add_dependencies(test_e2e_host e2e_ctor)

# Two copies of the library (two files) in one process, in every way they meet: one live copy.
fr_add_e2e_probe(copies e2e/probe_copies.c)
target_include_directories(e2e_probe_copies PRIVATE ${PROJECT_SOURCE_DIR}/include)
fr_add_e2e_probe(copies_linked e2e/probe_copies.c)
target_compile_definitions(e2e_probe_copies_linked PRIVATE PROBE_LINKED)
target_link_libraries(e2e_probe_copies_linked PRIVATE fastraw)
fr_add_script_test(e2e_copies LABELS e2e TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/copies.sh
          $<TARGET_FILE:fastraw> $<TARGET_FILE:fastraw-launcher> $<TARGET_FILE:e2e_probe_copies>
          $<TARGET_FILE:e2e_probe_copies_linked> $<TARGET_FILE:e2e_chain>)

# Lookups from a dlopen'd RTLD_LOCAL plugin (plugin_lib.c) and from the program, also built
# without -pie, beside the test interposer and its variant without dlsym; failed lookups' dlerror
# text against glibc's alone, also beside the test interposer and through the launcher.
add_library(e2e_plugin SHARED e2e/plugin_lib.c)
target_include_directories(e2e_plugin PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(e2e_plugin PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)
add_library(e2e_chain_nodlsym SHARED e2e/chain_lib.c)
target_compile_definitions(e2e_chain_nodlsym PRIVATE CHAIN_NO_DLSYM)
target_link_libraries(e2e_chain_nodlsym PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)
fr_add_e2e_probe(plugin e2e/probe_plugin.c)
fr_add_e2e_probe(plugin_nopie e2e/probe_plugin.c)
target_compile_options(e2e_probe_plugin_nopie PRIVATE -fno-pie)
target_link_options(e2e_probe_plugin_nopie PRIVATE -no-pie)
fr_add_e2e_probe(dlerror e2e/probe_dlerror.c)
# RTLD_NEXT lookups from every place in the loader's list (nextpos_lib.c): a library before libc,
# one after it (the probe links libc between them) and a dlopen'd one.
foreach(pos mid late open)
  add_library(e2e_nextpos_${pos} SHARED e2e/nextpos_lib.c)
  target_compile_definitions(e2e_nextpos_${pos} PRIVATE NEXTPOS_FN=nextpos_${pos})
  target_link_libraries(e2e_nextpos_${pos} PRIVATE ${CMAKE_DL_LIBS})
endforeach()
fr_add_e2e_probe(nextpos e2e/probe_nextpos.c)
target_link_libraries(e2e_probe_nextpos PRIVATE e2e_nextpos_mid c e2e_nextpos_late)
fr_add_e2e_test(e2e_plugin plugin plugin_nopie)
fr_add_e2e_test(e2e_dlerror dlerror nextpos)
add_dependencies(test_e2e_dlerror e2e_nextpos_open)
set_property(TEST e2e_dlerror APPEND PROPERTY ENVIRONMENT "FR_NEXTPOS_OPEN=$<TARGET_FILE:e2e_nextpos_open>")
# e2e_clocks' interposer beside the library, in both orders.
add_dependencies(test_e2e_clocks e2e_chain)
set_property(TEST e2e_clocks APPEND PROPERTY ENVIRONMENT "FR_CHAIN_LIB=$<TARGET_FILE:e2e_chain>")
foreach(t e2e_plugin e2e_dlerror)
  add_dependencies(test_${t} e2e_plugin e2e_chain e2e_chain_nodlsym fastraw-launcher)
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
    "FR_PLUGIN=$<TARGET_FILE:e2e_plugin>" "FR_CHAIN_LIB=$<TARGET_FILE:e2e_chain>"
    "FR_CHAIN_NODLSYM_LIB=$<TARGET_FILE:e2e_chain_nodlsym>" "FR_LAUNCHER=$<TARGET_FILE:fastraw-launcher>")
endforeach()

# Start-up: /bin/true under callgrind with libfastraw vs an empty preload, within issue 30's
# budget of 15 k instructions (skipped without valgrind), and, under strace, no file touched but
# the preloads' own (tests/e2e/startup_budget.sh).
if(NOT FASTRAW_SANITIZE)
  fr_add_script_test(e2e_startup_budget LABELS e2e SKIP TIMEOUT 180
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/startup_budget.sh
            $<TARGET_FILE:fastraw> $<TARGET_FILE:bench_empty> 15000)
endif()

# Real runtimes' monotonic clocks under FASTRAW_CLOCKS=all, one entry each (tests/e2e/runtime.sh,
# the programs in tests/e2e/runtimes/): Python, Java, Node and C++'s steady_clock, each skipped
# where the runtime (or a C++ compiler) is not installed. Not with the sanitizers: an
# instrumented library cannot be preloaded into them alone.
if(NOT FASTRAW_SANITIZE)
  fr_add_e2e_probe(runtime e2e/probe_runtime.c)
  foreach(rt python java node cxx)
    fr_add_script_test(e2e_runtime_${rt} LABELS e2e SKIP TIMEOUT 120
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/e2e/runtime.sh ${rt}
              $<TARGET_FILE:fastraw> $<TARGET_FILE:e2e_probe_runtime>)
  endforeach()
endif()
