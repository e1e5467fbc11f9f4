#!/usr/bin/env bash
# Build ARCsim with AddressSanitizer + UndefinedBehaviorSanitizer (C/C++ only; CUDA off) into
# build-asan/ (or $ARCSIM_ASAN_BUILD_DIR) and run the whole CTest suite under them.
#   scripts/sanitize.sh               configure + build + ctest
#   scripts/sanitize.sh -R trace      extra arguments go to ctest
# The heavy random-vector tests run fewer vectors here (instrumented code is ~3-10x slower);
# each default below can be overridden from the environment. The full counts run in the
# normal (uninstrumented) CI build.
#   ARCSIM_ADDER_VECTORS       tests/fp/test_adder_rtl          (normal build: 10,000,000)
#   ARCSIM_RTL_VECTORS         tests/rtl/test_subcore_random    (normal build:  1,000,000)
#   ARCSIM_RTL_BP_VECTORS      tests/rtl/test_subcore_backpressure (normal:       50,000)
#   ARCSIM_RTL_TIMING_VECTORS  tests/rtl/test_rtl_timing        (normal build:    100,000)
# Sanitizer options and the (only) suppressions: scripts/sanitize.supp, explained there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${ARCSIM_JOBS:-$(nproc)}
gen=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && gen=(-G Ninja)
cmake -S "$root" -B "$build" "${gen[@]}" -DARCSIM_SANITIZE=ON -DARCSIM_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs"

export ARCSIM_ADDER_VECTORS=${ARCSIM_ADDER_VECTORS:-200000}
export ARCSIM_RTL_VECTORS=${ARCSIM_RTL_VECTORS:-50000}
export ARCSIM_RTL_BP_VECTORS=${ARCSIM_RTL_BP_VECTORS:-10000}
export ARCSIM_RTL_TIMING_VECTORS=${ARCSIM_RTL_TIMING_VECTORS:-20000}
# shellcheck source=sanitize.supp
source "$root/scripts/sanitize.supp"
cd "$build"
# ARCSIM_SANITIZE_EXCLUDE (set in sanitize.supp): the tests excluded here, and why.
ctest --output-on-failure -j "$jobs" -E "$ARCSIM_SANITIZE_EXCLUDE" "$@"
