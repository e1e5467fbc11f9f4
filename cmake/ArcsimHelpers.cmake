# Helpers shared by every folder's CMakeLists.txt.

# Warnings for our own code (never for Verilator's generated sources). Verilator's runtime
# headers are marked as system headers so their own warnings stay out of our builds.
function(arcsim_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -isystem ${VERILATOR_ROOT}/include>)
endfunction()

# add_subdirectory() for every child folder of DIR that has a CMakeLists.txt, in name order,
# so that each area owns its own folder and no shared list needs editing.
function(arcsim_add_children dir)
  file(GLOB children RELATIVE "${dir}" CONFIGURE_DEPENDS "${dir}/*/CMakeLists.txt")
  list(SORT children)
  foreach(c IN LISTS children)
    get_filename_component(sub "${c}" DIRECTORY)
    add_subdirectory("${dir}/${sub}")
  endforeach()
endfunction()

# A GoogleTest executable: arcsim_gtest(NAME SOURCES ... LIBS ...).
function(arcsim_gtest name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  # tests/common: what tests share (test_seed.h: the fresh seed of random vectors)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common)
  arcsim_warnings(${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}")
endfunction()

# A test that runs only external tools on the RTL (Yosys, yosys-smtbmc, Icarus, Verilator lint),
# no code of ours: registered in the normal build only. Under ARCSIM_SANITIZE it would be the
# same run again with nothing for the sanitizers to check (scripts/sanitize.supp).
#   arcsim_tool_test(NAME n COMMAND cmd args.. [LABELS l..] [TIMEOUT s])
function(arcsim_tool_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "COMMAND;LABELS" ${ARGN})
  if(ARCSIM_SANITIZE)
    return()
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  if(T_TIMEOUT)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()

# Verilate TOP (from rtl/) into library LIB under class name PREFIX, with optional
# parameter overrides (PARAMS FTZ=1 ...). Every .sv under rtl/ is visible to Verilator;
# only what TOP instantiates is compiled. Tracing (FST) is compiled in and switched on at
# run time, as in Verilator's examples/cmake_tracing_sc.
function(arcsim_verilate_model lib)
  cmake_parse_arguments(V "SYSTEMC" "PREFIX;TOP" "PARAMS" ${ARGN})
  set(args --x-assign fast --x-initial fast -Wno-fatal -I${ARCSIM_RTL_DIR})
  foreach(p IN LISTS V_PARAMS)
    list(APPEND args -G${p})
  endforeach()
  if(V_SYSTEMC)
    set(sc SYSTEMC)
  else()
    set(sc "")
  endif()
  get_target_property(before ${lib} SOURCES)
  verilate(${lib} ${sc} TRACE_FST PREFIX ${V_PREFIX} TOP_MODULE ${V_TOP}
    SOURCES ${ARCSIM_RTL_DIR}/${V_TOP}.sv VERILATOR_ARGS ${args})
  # Each generated .cpp spends most of its ~1.5 s compile parsing verilated.h and the FST
  # writer's header: the model's files compile as one unity file (a group per model: two
  # models' files define the same file-local names). Verilator's runtime sources stay apart.
  get_target_property(after ${lib} SOURCES)
  foreach(src IN LISTS after)
    if(NOT src IN_LIST before AND src MATCHES "/${V_PREFIX}\\.dir/.*\\.cpp$")
      set_source_files_properties(${src} TARGET_DIRECTORY ${lib} PROPERTIES UNITY_GROUP ${V_PREFIX})
    endif()
  endforeach()
  set_target_properties(${lib} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()

# ARCSIM_PLOT_PYTHON: a Python that can import matplotlib, for the plotting scripts the CLI
# runs. Debian's python3-matplotlib lives under /usr/bin/python3, which a pyenv shim earlier on
# PATH may hide, so both are tried; found once here for every folder.
function(arcsim_find_plot_python)
  set(found "")
  foreach(py IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
    if(NOT found AND EXISTS "${py}")
      execute_process(COMMAND "${py}" -c "import matplotlib" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(found "${py}")
      endif()
    endif()
  endforeach()
  if(NOT found)
    message(STATUS "arcsim: no Python with matplotlib; the --plot options will report it")
    set(found /usr/bin/python3)
  endif()
  set(ARCSIM_PLOT_PYTHON "${found}" PARENT_SCOPE)
endfunction()

# The simulator's hot paths count lanes with __builtin_popcount on every warp instruction:
# without -mpopcnt GCC calls libgcc's __popcountdi2 for it (3-4% of a baseline run under
# callgrind). POPCNT is in every x86-64 CPU since 2008 (x86-64-v2), the device machine's too.
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag(-mpopcnt ARCSIM_HAS_MPOPCNT)
function(arcsim_hot_path target)
  if(ARCSIM_HAS_MPOPCNT AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-mpopcnt>)
  endif()
endfunction()

# -O3 on a hot library (the model's step() code, the trace decode: more inlining and unrolling
# in the hot loops). Not in a Debug build (it stays unoptimized) and not in the sanitizer build
# (scripts/sanitize.sh), which keeps its own level (-O1): there -O3 only made the instrumented
# compile slower (arc_sim's sources took 30-40% longer than at -O1) for tests that do not time.
function(arcsim_optimize_hot target)
  if(NOT ARCSIM_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O3>)
  endif()
endfunction()

# Glue code: command-line parsing, JSON and report formatting, Yosys and Slurm drivers (the
# arcsim executable, arc_area, arc_sweep). Its speed never matters (the work is in the model,
# the RTL and the external tools), so the sanitizer build compiles it at -O0: CLI11,
# nlohmann-json and fmt templates instrumented at -O1 were the slowest sources of that build
# (a unity batch of four cmd_*.cpp: 36 s at -O1, 22 s at -O0). The normal build keeps its level.
function(arcsim_glue_code target)
  if(ARCSIM_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-O0>)
  endif()
endfunction()
