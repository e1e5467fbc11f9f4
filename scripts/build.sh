#!/usr/bin/env bash
# Configure and build ARCsim into build/ (or $ARCSIM_BUILD_DIR). Assumes setup-deps.sh ran.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_BUILD_DIR:-$root/build}
jobs=${ARCSIM_JOBS:-$(nproc)}
gen=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && gen=(-G Ninja)
# RelWithDebInfo at -O2 with line tables only (-g1): what perf, sanitizer reports and stack
# traces need, and about 30% less compile time than full -g (CI builds everything twice on 2
# cores). Full debug info: ARCSIM_CMAKE_ARGS="-DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g -DNDEBUG'".
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=${ARCSIM_BUILD_TYPE:-RelWithDebInfo} \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  ${ARCSIM_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
