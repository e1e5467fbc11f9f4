#!/usr/bin/env bash
# Synthesize one rtl/ module with Yosys to a generic CMOS gate set and print `stat -tech cmos`.
#   synth/synth_module.sh [--keep MODULE]... TOP [PARAM=VALUE ...]
# This is the one area flow of ARCsim: `arcsim area` (cosim/area) runs this script as a child
# process, and tests/synth and tests/area call it too.
#
# Flow: read every rtl/*.sv (packages first), override TOP's parameters, flatten, then
#   async2sync                  async set/reset flip-flops become plain flip-flops plus reset
#                               logic (a few transistors per bit more than a real async-reset
#                               flop: the estimate errs high), because
#   dfflegalize -cell $_DFF_P_ 01   every flip-flop must be the one type Yosys has a CMOS
#                               transistor model for (enables and sync resets become gates),
#   abc -g cmos2                NAND/NOR gates (and inverters), each with a transistor count,
#   stat -tech cmos             cell counts and the estimated transistor count. A count that
#                               ends in '+' means an uncounted cell: callers treat it as an error.
#   ltp -noff                   logic depth: gates on the longest path between flip-flops and
#                               ports (printed after the statistics).
# --keep MODULE (repeatable) keeps that module as a separate instance (keep_hierarchy, no
# optimization across its boundary) and prints `stat -json -tech cmos` instead: each module's own
# gates and the design total. cosim/area uses it to split arc_subcore_top into what ARC adds and
# what it reuses (the LSU's coalescer).
# These are estimates from a generic CMOS cell set, not sign-off area.
#
# Environment: YOSYS (default: yosys on PATH); ARCSIM_RTL_DIR (default: ../rtl from here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rtl=${ARCSIM_RTL_DIR:-$here/../rtl}
yosys=${YOSYS:-yosys}
keep=""
while [ $# -ge 2 ] && [ "$1" = "--keep" ]; do
  [[ "$2" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "synth_module.sh: bad module name '$2'" >&2; exit 2; }
  keep+=" *$2"; shift 2
done
[ $# -ge 1 ] || { echo "usage: synth_module.sh [--keep MODULE]... TOP [PARAM=VALUE ...]" >&2; exit 2; }
top=$1; shift
[[ "$top" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "synth_module.sh: bad module name '$top'" >&2; exit 2; }
[ -f "$rtl/$top.sv" ] || { echo "synth_module.sh: no module file $rtl/$top.sv" >&2; exit 2; }
chparam=""
for kv in "$@"; do
  if [[ "$kv" =~ ^([A-Za-z_][A-Za-z0-9_]*)=(-?[0-9]+)$ ]]; then
    chparam+="chparam -set ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $top; "
  else
    echo "synth_module.sh: bad PARAM=VALUE '$kv' (integer values only)" >&2; exit 2
  fi
done
mapfile -t srcs < <(find "$rtl" -maxdepth 1 -name '*_pkg.sv' | sort; find "$rtl" -maxdepth 1 -name '*.sv' ! -name '*_pkg.sv' | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$keep" ]; then
  keepcmd="setattr -mod -set keep_hierarchy 1 $keep;"
  report="tee -q -o $tmp/stat.txt stat -json -tech cmos"
else
  keepcmd=""
  report="tee -q -o $tmp/stat.txt stat -tech cmos; tee -q -a $tmp/stat.txt ltp -noff"
fi
"$yosys" -q -p "read_verilog -sv ${srcs[*]}; ${chparam} hierarchy -check -top $top; ${keepcmd} \
synth -flatten -top $top; async2sync; dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; \
${report}"
if [ -n "$keep" ]; then cat "$tmp/stat.txt"; else grep -v '^ *[0-9]*: ' "$tmp/stat.txt"; fi
