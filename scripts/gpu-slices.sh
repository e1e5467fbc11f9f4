#!/usr/bin/env bash
# Issue 17: which 128 B lines share an L2 slice (sw/microbench/slices.cu), on the GPU machine.
#   scripts/gpu-slices.sh OUT_DIR [BINARY [latency|patterns|smslice]]   (BINARY: default .devcarry/slices, built with
#   nvcc -O3 -std=c++17 -arch=sm_90 -Isw/include sw/microbench/slices.cu -o .devcarry/slices)
# Writes OUT_DIR/{gpu.txt,run.log,sets.csv,pairs.csv,classes.csv,map.csv} (with `latency`:
# latency.csv and run-latency.log only; with `patterns`: patterns.csv; with `smslice`: sets,
# pairs, classes and smslice.csv); scripts/slices.py reads them.
set -euo pipefail
out=$1
bin=${2:-.devcarry/slices}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
time timeout -k 5 540 "$bin" "$out" ${3:-} 2>&1 | tee "$out/run${3:+-$3}.log"
