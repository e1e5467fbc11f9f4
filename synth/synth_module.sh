#!/usr/bin/env bash
# Synthesize one rtl/ module with Yosys to a generic CMOS gate set and print its statistics.
#   synth/synth_module.sh TOP [PARAM=VALUE ...]
# Flow: read every rtl/*.sv, override parameters, flatten, legalize flip-flops to $_DFF_P_
# (so every cell has a transistor model), map with abc -g cmos2, then `stat -tech cmos`.
# These are estimates from a generic CMOS cell set, not sign-off area.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rtl="$here/../rtl"
[ $# -ge 1 ] || { echo "usage: synth_module.sh TOP [PARAM=VALUE ...]" >&2; exit 2; }
top=$1; shift
[ -f "$rtl/$top.sv" ] || { echo "synth_module.sh: no module file rtl/$top.sv" >&2; exit 2; }
chparam=""
for kv in "$@"; do
  case "$kv" in *=*) chparam+="chparam -set ${kv%%=*} ${kv#*=} $top; ";; *) echo "bad PARAM=VALUE: $kv" >&2; exit 2;; esac
done
srcs=$(find "$rtl" -name '*_pkg.sv' | sort; find "$rtl" -name '*.sv' ! -name '*_pkg.sv' | sort)
exec yosys -q -p "read_verilog -sv $(echo $srcs); ${chparam} hierarchy -check -top $top; \
synth -flatten -top $top; dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; \
tee -o /dev/stdout stat; tee -o /dev/stdout stat -tech cmos"
