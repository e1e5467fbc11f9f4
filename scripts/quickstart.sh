#!/usr/bin/env bash
# Command (a): install what is missing, build, and run ARCsim's three jobs on bundled defaults:
#   1. verify: the real H100 trace in tests/data through the Verilated ARC RTL, bit for bit
#   2. sim:    a seeded synthetic trace, cycle by cycle on the H100 config, every mode
#   3. area:   Yosys transistor estimates of the ARC RTL for an RTX 4090
# (plus the FP32 adder check every other check stands on). Outputs go to build/quickstart/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-deps.sh"
"$root/scripts/build.sh"
build=${ARCSIM_BUILD_DIR:-$root/build}
arcsim="$build/arcsim"
out="$build/quickstart"
mkdir -p "$out"

echo; echo "== 0. arcsim check-adder: the Verilated FP32 adder vs the MPFR reference =="
"$arcsim" check-adder --vectors 1000000

echo; echo "== 1. arcsim verify: a real H100 SW-S trace through the ARC RTL =="
"$arcsim" verify --trace "$root/tests/data/gs-sws-h100.arctrace"

echo; echo "== 2. arcsim sim: a synthetic 3DGS-like trace on the H100 model, every mode =="
"$arcsim" trace gen --out "$out/synthetic.arctrace" -n 100000 --seed 1 --sms 132 \
  --warps-per-subcore 16 --buffer-words 1048576 --gap-mean 400 --p-same 0.7
"$arcsim" sim --gpu h100 --trace "$out/synthetic.arctrace" --mode baseline,sw-s,sw-b,arc-hw \
  --sched never,always,threshold,dynamic --threshold 8 --set sw_overhead=40

echo; echo "== 3. arcsim area: the ARC RTL synthesized with Yosys, for an RTX 4090 =="
"$arcsim" area --gpu rtx4090
echo; echo "Each job prints JSON instead of its table with --json; 'arcsim <job> --help' explains every flag."
