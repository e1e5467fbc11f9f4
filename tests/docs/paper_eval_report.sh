#!/usr/bin/env bash
# docs.paper_eval_report: regenerate results/paper-eval's report from its committed raw runs into
# WORK and require the same summary.json and details.json (run from the repository root).
# Usage: tests/docs/paper_eval_report.sh WORK ARCSIM [PYTHON with matplotlib, default python3]
set -euo pipefail
work=${1:?WORK}
arcsim=${2:?ARCSIM}
py=${3:-python3}
rm -rf "$work"
mkdir -p "$work"
cp -r results/paper-eval/raw "$work/"
"$py" scripts/paper_eval_report.py --out "$work" --arcsim "$arcsim" > /dev/null
cmp results/paper-eval/summary.json "$work/summary.json"
cmp results/paper-eval/details.json "$work/details.json"
echo "paper-eval summary.json and details.json reproduced from raw/"
