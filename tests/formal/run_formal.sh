#!/usr/bin/env bash
# One bounded proof of tests/formal/arc_top_props.sv with yosys-smtbmc.
#   run_formal.sh PROP RFPORT DEPTH [BUG]
# PROP 1 lanes, 2 handshake, 3 bound; RFPORT 0 operand register, 1 register-file port (paper).
# BUG (optional) names a planted bug (tests/formal/planted_bugs.sh): the RTL is copied, the bug
# applied to the copy, and the script then succeeds only if the proof FAILS (a counterexample).
# Lanes = 4, AddrWidth = 2 (the properties are parametric in both; see tests/formal/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prop=$1 rfport=$2 depth=$3 bug=${4:-}
lanes=${ARCSIM_FORMAL_LANES:-3}
solver=${ARCSIM_SMT_SOLVER:-z3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ARCSIM_RTL_DIR proves another copy of rtl/ (scripts/mutate-rtl.sh runs its mutants this way).
cp "${ARCSIM_RTL_DIR:-$root/rtl}"/*.sv "$work/"
# The binary32 adder is replaced by its abstraction (arc_fp32_add_abs.sv says why).
cp "$here/arc_fp32_add_abs.sv" "$work/arc_fp32_add.sv"
if [ -n "$bug" ]; then
  "$here/planted_bugs.sh" "$bug" "$work"
fi
yosys -q -l "$work/yosys.log" -p "
  read_verilog -sv -formal $work/arc_*.sv $here/arc_top_props.sv
  chparam -set Prop $prop -set RfPort $rfport -set Lanes $lanes -set AddrWidth 1 arc_top_props
  prep -top arc_top_props
  flatten
  opt -full
  wreduce
  opt_clean
  async2sync
  dffunmap
  write_smt2 -wires $work/model.smt2" || { cat "$work/yosys.log"; exit 2; }
set +e
yosys-smtbmc -s "$solver" --unroll -t "$depth" "$work/model.smt2" > "$work/bmc.log" 2>&1
rc=$?
set -e
tail -n 3 "$work/bmc.log"
if [ -z "$bug" ]; then
  [ $rc -eq 0 ] && echo "PROVED prop=$prop rfport=$rfport depth=$depth" && exit 0
  echo "FAILED prop=$prop rfport=$rfport depth=$depth (expected a proof)"; cat "$work/bmc.log"; exit 1
fi
if [ $rc -ne 0 ] && grep -q "Assert failed" "$work/bmc.log"; then
  echo "REFUTED as expected: prop=$prop rfport=$rfport bug=$bug"; exit 0
fi
echo "planted bug $bug NOT caught by prop=$prop rfport=$rfport depth=$depth"; exit 1
