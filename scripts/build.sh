#!/usr/bin/env bash
# Configure and build ARCsim into build/ (or $ARCSIM_BUILD_DIR). Assumes setup-deps.sh ran.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_BUILD_DIR:-$root/build}
jobs=${ARCSIM_JOBS:-$(nproc)}
gen=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && gen=(-G Ninja)
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=${ARCSIM_BUILD_TYPE:-RelWithDebInfo} ${ARCSIM_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
