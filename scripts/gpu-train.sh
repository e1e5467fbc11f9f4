#!/usr/bin/env bash
# Reproduces the 3DGS training-quality comparison of issue 11 on an NVIDIA GPU (made for the
# H100): builds arc_train (unless ARC_TRAIN_BIN names a built one), records the GPU, trains
# the same perturbed model on the same hidden procedural scene with each reduce method for a
# fixed wall-clock budget, and plots PSNR vs time (scripts/plot_train.py, when matplotlib is
# there; else run it later on the JSON).
# Usage: scripts/gpu-train.sh [OUT_DIR=results/h100/train] [extra arc_train options]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/h100/train}
shift || true
mkdir -p "$out"
# shellcheck source=gpu-common.sh
source "$root/scripts/gpu-common.sh"
bin=${ARC_TRAIN_BIN:-}
if [ -z "$bin" ]; then
  gpu_sw_build arc_train
  bin=$GPU_BUILD/sw/arc_train
fi
gpu_record_before "$out/gpu.txt" "before training"
status=0
# Baseline, the best ARC-SW method on gs in issue 7's table (SW-B, X=8), CUB, and the
# block-level tree of the 3DGS shader; 25 s of training each at 1280x720, 200K Gaussians.
"$bin" --methods "${ARC_TRAIN_METHODS:-baseline,swb,cub,block}" --threshold 8 --budget "${ARC_TRAIN_BUDGET:-25}" \
       --size 1280x720 --gaussians 200000 --views 4 --seed 7 --out "$out" "$@" 2>&1 | tee "$out/train.log" || status=1
gpu_record_after "$out/gpu.txt" "# nvidia-smi (after training)"
if [ -z "${ARC_NO_PLOT:-}" ] && python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$root/scripts/plot_train.py" "$out/train.json" "$out/psnr_vs_time.png" || status=1
fi
exit $status
