#!/usr/bin/env bash
# The ARC paper's simulation study, reproduced on ARCsim (issue 19): ARC-SW (SW-S, SW-B at the
# best balancing threshold), ARC-HW (best threshold, dynamic), LAB, LAB-ideal and PHI against
# Baseline on 4090-Sim, 3060-Sim and the H100 config, per workload trace; atomic-stall reduction;
# sensitivity to the ROP unit count and to the threshold; Figures 18-23 redrawn; a report beside
# the paper's numbers.
#
# Usage: scripts/paper_eval.sh [OUT_DIR]     (default results/paper-eval)
#   ARCSIM=path       the arcsim binary (default build/arcsim)
#   GS_TRACE, PULSAR_TRACE, TEX_TRACE   the traces (below); a missing one is skipped, said so
#   PAPER_EVAL_JOBS   simulations at once (default 2)
#   PAPER_EVAL_GPUS   comma-separated configs (default rtx4090,rtx3060,h100)
#   PAPER_EVAL_REUSE=1  keep raw JSON already in OUT_DIR/raw (re-plot without re-simulating)
set -euo pipefail
cd "$(dirname "$0")/.."

# The traces: the one place to change them (tests/data/paper/README.md says how each was made).
#  gs:     real H100 capture, 3DGS gs-il backward at 480x270 (floor gaps, timing-only)
#  pulsar: real H100 capture, pulsar backward at 960x540 (floor gaps, timing-only)
#  tex:    real H100 capture, texture backward at 1920x1080 (floor gaps, timing-only)
GS_TRACE=${GS_TRACE:-tests/data/gs-il-floor-h100.arctrace}
PULSAR_TRACE=${PULSAR_TRACE:-tests/data/paper/pulsar.arctrace}
TEX_TRACE=${TEX_TRACE:-tests/data/paper/tex.arctrace}

OUT=${1:-results/paper-eval}
ARCSIM=${ARCSIM:-build/arcsim}
[[ -x "$ARCSIM" ]] || { echo "paper_eval: no arcsim at $ARCSIM (build first: scripts/build.sh)" >&2; exit 2; }
PY=/usr/bin/python3
[[ -x "$PY" ]] || PY=python3
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

start=$(date +%s)
"$PY" scripts/paper_eval.py --arcsim "$ARCSIM" --out "$OUT" --jobs "${PAPER_EVAL_JOBS:-2}" \
  --gpus "${PAPER_EVAL_GPUS:-rtx4090,rtx3060,h100}" \
  --trace "gs=$GS_TRACE" --trace "pulsar=$PULSAR_TRACE" --trace "tex=$TEX_TRACE"
"$PY" scripts/paper_eval_report.py --out "$OUT" --arcsim "$ARCSIM"
echo "paper_eval: done in $(( $(date +%s) - start )) s: $OUT/README.md, $OUT/summary.json, $OUT/*.png"
