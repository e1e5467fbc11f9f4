#!/usr/bin/env bash
# Reproduces the H100 atomic / warp-collective microbenchmarks of issue 9 in one command:
# builds sw/microbench/atomics.cu (nvcc -arch=sm_90), records the GPU as found (nvidia-smi:
# name, driver, clocks; never set), dumps the SASS (so one can check that the compiler did not
# aggregate the atomics) and runs the benchmarks. Raw CSVs land in OUT_DIR; calibrate with
# `python3 scripts/calibrate.py OUT_DIR`. Usage: scripts/gpu-microbench.sh [OUT_DIR=results/h100/microbench]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/h100/microbench}
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
build=${ARCSIM_BUILD_DIR:-$root/build-microbench}
mkdir -p "$build"
bin=$build/arc_microbench
"$nvcc" -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I"$root/sw/include" -Xptxas -v -o "$bin" \
  "$root/sw/microbench/atomics.cu" > "$build/ptxas.txt" 2>&1 || { cat "$build/ptxas.txt"; exit 1; }

q=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu
{
  echo "# nvidia-smi --query-gpu=$q (before)"
  nvidia-smi --query-gpu=$q --format=csv
  echo "# nvcc: $("$nvcc" --version | tail -1)"
} > "$out/gpu.txt" 2>&1

# SASS: per kernel, instruction counts of interest and the total; then the atomic lines of
# the throughput kernels and the full SASS of the ARC-SW sequence kernels.
if [ -x "$cuobjdump" ]; then
  "$cuobjdump" -sass "$bin" > "$build/sass.full" 2>&1
  {
    echo "# kernel total REDG ATOMG RED ATOM MATCH VOTE SHFL REDUX BRA (cuobjdump -sass; tp_kernelILi0=red PTX, ILi1=atom PTX, ILi2=atomicAdd)"
    awk '/Function :/ { if (f) print f, t+0, n["REDG"]+0, n["ATOMG"]+0, n["RED"]+0, n["ATOM"]+0, n["MATCH"]+0, n["VOTE"]+0, n["SHFL"]+0, n["REDUX"]+0, n["BRA"]+0;
                       f = $3; t = 0; delete n }
         $1 ~ /^\/[*][0-9a-f]+[*]\/$/ { t++; split($0, a, "[*]/"); split(a[2], w, " "); op = w[1]; if (op ~ /^@/) op = w[2];
                                  split(op, o, "."); n[o[1]]++ }
         END { if (f) print f, t+0, n["REDG"]+0, n["ATOMG"]+0, n["RED"]+0, n["ATOM"]+0, n["MATCH"]+0, n["VOTE"]+0, n["SHFL"]+0, n["REDUX"]+0, n["BRA"]+0 }' "$build/sass.full"
    echo "# atomic lines of tp_kernel<red|atom|atomicAdd> (count, instruction)"
    awk '/Function :/ {keep = ($0 ~ /tp_kernel/); name = $3} keep && /REDG|ATOMG|RED\.|ATOM\./ {sub(/^ *\/\*[0-9a-f]+\*\/ */, ""); sub(/ *\/\*.*$/, ""); print name ": " $0}' "$build/sass.full" | sort | uniq -c
    echo "# full SASS of prim_kernel<2..5> (arc::reduce Baseline, SwS, SwB, Adaptive; NP = 1)"
    awk '/Function :/ {keep = ($0 ~ /prim_kernel/)} keep' "$build/sass.full"
  } > "$out/sass.txt"
else
  echo "cuobjdump not found: SASS not checked" > "$out/sass.txt"
fi
cp "$build/ptxas.txt" "$out/ptxas.txt"

"$bin" "$out" 2>&1 | tee "$out/run.log"
status=${PIPESTATUS[0]}
{
  echo "# nvidia-smi --query-gpu=$q (after)"
  nvidia-smi --query-gpu=$q --format=csv,noheader
} >> "$out/gpu.txt" 2>&1
exit "$status"
