#!/usr/bin/env bash
# Command (b): install what is missing, build, and run every test (CTest). CI runs exactly this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
"$root/scripts/build.sh"
build=${ARCSIM_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "${ARCSIM_JOBS:-$(nproc)}" "$@"
