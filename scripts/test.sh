#!/usr/bin/env bash
# Command (b): install what is missing, build, and run every test (CTest). CI runs exactly this.
# Then the suite again (every test that runs our code) in an AddressSanitizer + UndefinedBehaviorSanitizer build
# (scripts/sanitize.sh: build-asan/, no CUDA, fewer random vectors). ARCSIM_SKIP_SANITIZE=1 skips
# that second pass for a quick local run; CI never sets it. Extra arguments go to both ctest runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
"$root/scripts/build.sh"
build=${ARCSIM_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "${ARCSIM_JOBS:-$(nproc)}" "$@"
if [ "${ARCSIM_SKIP_SANITIZE:-0}" = 1 ]; then
  echo "test.sh: ARCSIM_SKIP_SANITIZE=1: sanitizer suite (scripts/sanitize.sh) skipped"
  exit 0
fi
echo "test.sh: the suite again under ASan + UBSan (scripts/sanitize.sh; ARCSIM_SKIP_SANITIZE=1 skips it)"
"$root/scripts/sanitize.sh" "$@"
