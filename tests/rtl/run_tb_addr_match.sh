#!/usr/bin/env bash
# Icarus: tests/rtl/tb_addr_match.sv against arc_addr_match of an RTL folder (default rtl/).
#   run_tb_addr_match.sh [RTL_DIR]      exit 0 iff the testbench prints PASS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rtl=${1:-$here/../../rtl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
iverilog -g2012 -o "$work/tb.vvp" -s tb_addr_match "$here/tb_addr_match.sv" "$rtl/arc_addr_match.sv" \
  "$rtl/arc_find_first.sv"
out=$(timeout 60 vvp -n "$work/tb.vvp" +n=3000 || true)
echo "$out" | tail -n 6
grep -q '^PASS' <<<"$out"
