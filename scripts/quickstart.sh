#!/usr/bin/env bash
# Command (a): install what is missing, build, and run ARCsim's main job on the bundled default.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
"$root/scripts/build.sh"
build=${ARCSIM_BUILD_DIR:-$root/build}
echo
echo "== arcsim check-adder: the Verilated FP32 adder vs the MPFR reference =="
"$build/arcsim" check-adder --vectors 1000000
