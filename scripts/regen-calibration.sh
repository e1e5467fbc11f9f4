#!/usr/bin/env bash
# Regenerates the model-vs-H100 microbenchmark tables from the current binary (build first:
# scripts/build.sh): results/h100/calibration/model_vs_microbench.{md,json,png} and the table
# in docs/calibration.md, each stamped with the date and commit. ~1-2 minutes per variant on
# 2 cores. tests/docs checks that the committed JSON agrees with a re-run of its small cases.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_BUILD_DIR:-$root/build}
out=$root/results/h100/calibration
py=${ARCSIM_PYTHON:-}
if [ -z "$py" ]; then  # the first python3 with matplotlib (the plot); Debian's has it
  for c in python3 /usr/bin/python3; do "$c" -c 'import matplotlib' 2>/dev/null && { py=$c; break; }; done
fi
[ -n "$py" ] || { echo "regen-calibration.sh: no python3 with matplotlib (set ARCSIM_PYTHON)" >&2; exit 2; }
cd "$root"
"$py" scripts/calibrate_sim.py --arcsim "$build/arcsim" --raw results/h100/microbench \
  --variant "placeholder h100.toml (before issue 9)|--config results/h100/calibration/h100-placeholders.toml" \
  --variant "issue 9 calibration (no coalescing, in-order ROP, no SW-S cost)|--gpu h100 --set rop_same_line_interval=0 --set coalesce_bytes=0 --set lsu_cycles_per_instruction=0 --set l2_instruction_bytes=0 --set l2_request_header_bytes=-1 --set l2_request_sector_bytes=-1 --set rop_same_addr_interval=1 --set rop_window=1 --set sws_cycles_per_key=0 --set sws_cycles_per_lane=0 --set gpc_of_sm=\"\" --set icnt_gpc_bytes_per_cycle=\"\" --set group_of_sm=\"\" --set icnt_group_bytes_per_cycle=\"\" --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 9 + same-addr interval 3 + ROP window 8|--gpu h100 --set rop_same_line_interval=0 --set rop_same_addr_interval=3 --set coalesce_bytes=0 --set lsu_cycles_per_instruction=0 --set l2_instruction_bytes=0 --set l2_request_header_bytes=-1 --set l2_request_sector_bytes=-1 --set sws_cycles_per_key=0 --set sws_cycles_per_lane=0 --set gpc_of_sm=\"\" --set icnt_gpc_bytes_per_cycle=\"\" --set group_of_sm=\"\" --set icnt_group_bytes_per_cycle=\"\" --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the instruction costs: + line coalescing + SW-S cost|--gpu h100 --set rop_same_line_interval=0 --set rop_same_addr_interval=3 --set lsu_cycles_per_instruction=0 --set l2_instruction_bytes=0 --set l2_request_header_bytes=-1 --set l2_request_sector_bytes=-1 --set gpc_of_sm=\"\" --set icnt_gpc_bytes_per_cycle=\"\" --set group_of_sm=\"\" --set icnt_group_bytes_per_cycle=\"\" --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the GPC links: + 2 cycles per RED instruction per SM, L2-side instruction and round costs|--gpu h100 --set rop_same_line_interval=0 --set rop_same_addr_interval=3 --set l2_instruction_bytes=12 --set gpc_of_sm=\"\" --set icnt_gpc_bytes_per_cycle=\"\" --set group_of_sm=\"\" --set icnt_group_bytes_per_cycle=\"\" --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the fractional interval: + the placement run's GPC links and GPC 0's two groups|--gpu h100 --set rop_same_line_interval=0 --set rop_same_addr_interval=3 --set l2_instruction_bytes=12 --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the launch cost: + the same-address interval kept as the measured fraction, 3.47 cycles|--gpu h100 --set rop_same_line_interval=0 --set l2_instruction_bytes=12 --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the line interval: the launch's measured cost explains the 1-lane rows, no L2-side instruction cost|--gpu h100 --set rop_same_line_interval=0 --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "issue 17 before the slices: + a hot line takes a multi-word request every 4.98 cycles|--gpu h100 --set rop_slices=0 --set rop_line_op_interval=0 --set rop_slice_request_interval=0 --set rop_slice_op_interval=0" \
  --variant "h100.toml as is: + the L2 slices (a line's data path per op, a slice's request pace and in-order queue; issue 17)|--gpu h100" \
  --md "$out/model_vs_microbench.md" --json "$out/model_vs_microbench.json" \
  --plot "$out/model_vs_microbench.png" --doc docs/calibration.md
