#!/usr/bin/env bash
# Build ARCsim with AddressSanitizer + UndefinedBehaviorSanitizer (C/C++ only; CUDA off) into
# build-asan/ (or $ARCSIM_ASAN_BUILD_DIR) and run the CTest suite under them (every test that runs our code).
#   scripts/sanitize.sh               configure + build + ctest
#   scripts/sanitize.sh -R trace      extra arguments go to ctest
# The largest random-vector tests run fewer vectors here (instrumented code is ~3-10x
# slower), the others their full counts; each can be overridden from the environment. The full
# counts of all four run in the normal (uninstrumented) build.
#   ARCSIM_ADDER_VECTORS       tests/fp/test_adder_rtl       here 2,000,000 (normal: 10,000,000)
#   ARCSIM_RTL_VECTORS         tests/rtl/test_subcore_random here   250,000 (normal:  1,000,000)
#   ARCSIM_RTL_BP_VECTORS      tests/rtl/test_subcore_backpressure   50,000 (as normal)
#   ARCSIM_RTL_TIMING_VECTORS  tests/rtl/test_rtl_timing            100,000 (as normal)
#   ARCSIM_VERIFY_INSTRUCTIONS tests/verify (arcsim verify, 1M test) here   200,000 (normal: 1,000,000)
# docs.calibration_rerun and docs.micro_sweep_rerun re-run one quick case each here (the hot
# address; the hotspot rows: tests/docs/CMakeLists.txt), the normal build all their cases;
# sim.real_trace_ordering replays Baseline, SW-B and Adaptive (tests/sim/CMakeLists.txt);
# TraceReject runs each corrupt file through trace info and the library reader, sim once per
# test (the normal build: every reader); import.sim makes 25 random mutations (normal: 100).
# The test sources compile at -O0 (tests/CMakeLists.txt says why); the code under test at $opt.
# Sanitizer options, and the one narrow build exemption (a third-party FST writer source), are in
# scripts/sanitize.supp, explained there, with the tool-only tests (Yosys, yosys-smtbmc, Icarus,
# Verilator lint on the RTL) that this build does not register.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${ARCSIM_JOBS:-$(nproc)}
gen=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && gen=(-G Ninja)
# -O1 -g1: the usual sanitizer optimization level, and line tables are all a report's stack
# trace needs; it compiles about twice as fast as -O2 -g, which keeps CI (scripts/test.sh runs
# this script after the normal suite) within its time budget. ARCSIM_SANITIZE_FLAGS overrides it.
# Here the hot libraries (arc_sim, arc_trace) keep this level instead of their -O3, and the glue
# code (the arcsim CLI, arc_area, arc_sweep: CLI11, JSON and report formatting) compiles at -O0
# (cmake/ArcsimHelpers.cmake: arcsim_optimize_hot, arcsim_glue_code): the build's compile time
# 1,121 -> 897 CPU-s.
opt=${ARCSIM_SANITIZE_FLAGS:--O1 -g1 -DNDEBUG}
cmake -S "$root" -B "$build" "${gen[@]}" -DARCSIM_SANITIZE=ON -DARCSIM_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt" >/dev/null
cmake --build "$build" -j "$jobs"

export ARCSIM_ADDER_VECTORS=${ARCSIM_ADDER_VECTORS:-2000000}
export ARCSIM_RTL_VECTORS=${ARCSIM_RTL_VECTORS:-250000}
export ARCSIM_RTL_BP_VECTORS=${ARCSIM_RTL_BP_VECTORS:-50000}
export ARCSIM_RTL_TIMING_VECTORS=${ARCSIM_RTL_TIMING_VECTORS:-100000}
export ARCSIM_VERIFY_INSTRUCTIONS=${ARCSIM_VERIFY_INSTRUCTIONS:-200000}
export ARCSIM_IMPORT_MUTATIONS=${ARCSIM_IMPORT_MUTATIONS:-25}
# shellcheck source=sanitize.supp
source "$root/scripts/sanitize.supp"
cd "$build"
# ARCSIM_SANITIZE_TOOL_BOUND (sanitize.supp): the three tool-bound tests skipped here, and why;
# ARCSIM_SANITIZE_EXCLUDE: empty, a regex skips more tests locally.
pattern=$ARCSIM_SANITIZE_TOOL_BOUND
[ -n "$ARCSIM_SANITIZE_EXCLUDE" ] && pattern="$pattern|$ARCSIM_SANITIZE_EXCLUDE"
exclude=(-E "$pattern")
ctest --output-on-failure -j "$jobs" "${exclude[@]}" "$@"
