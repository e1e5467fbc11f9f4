#!/usr/bin/env bash
# verilator --lint-only -Wall over every module in rtl/ (each file's module as the top).
# Waivers, if any, live in rtl/lint/verilator_waivers.vlt, each scoped and explained.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
waiver=()
[ -f rtl/lint/verilator_waivers.vlt ] && waiver=(rtl/lint/verilator_waivers.vlt)
pkgs=$(find rtl -name '*_pkg.sv' | sort | tr '\n' ' ')
fail=0; n=0
for f in $(find rtl -name '*.sv' ! -name '*_pkg.sv' | sort); do
  top=$(basename "$f" .sv)
  n=$((n + 1))
  if ! out=$(verilator --lint-only -Wall -Irtl "${waiver[@]}" $pkgs "$f" --top-module "$top" 2>&1); then
    echo "LINT FAIL $f"; echo "$out"; fail=$((fail + 1))
  else
    echo "lint ok   $f"
  fi
done
echo "rtl lint: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
