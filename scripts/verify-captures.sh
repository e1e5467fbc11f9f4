#!/usr/bin/env bash
# The small captures of a device run (scripts/gpu-bench-issue20.sh's traces.tar.gz) through
# `arcsim verify` (bit-exact RTL vs golden vs the GPU's own partial sums), the pulsar pair
# through `arcsim trace compare` (issue 23: two captures of one scene must be the same
# workload), and the SW-T capture through `arcsim sim` in sw-b and sw-t modes (the timing
# model reads the transposed reduce-scatter's own trace method). Issue 20 (Adaptive rule v5):
# tex's Baseline and Floor captures (pair calls, flag bit 8) and Adaptive's (the pair send, bit 7)
# through `arcsim sim` in baseline and adaptive mode: the model's regrouping of the Baseline
# capture must send the L2 requests the GPU's pair send did. A timing-only capture (the floor)
# is simulated, not verified (verify needs values).
# Usage: scripts/verify-captures.sh TRACES_TAR_GZ OUT_LOG   (build first: scripts/build.sh)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tarball=${1:?TRACES_TAR_GZ}
log=$(realpath -m "${2:?OUT_LOG}")
arcsim=${ARCSIM_BUILD_DIR:-$root/build}/arcsim
[ -x "$arcsim" ] || { echo "verify-captures.sh: $arcsim not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work" || exit 2
status=0
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
{
  cd "$work"
  for t in $(find . -name '*.arctrace' | sort); do
    if "$arcsim" trace info "$t" 2>/dev/null | grep -q 'timing-only'; then
      echo "== $(basename "$t"): timing-only (no values to verify; simulated below)"
      continue
    fi
    echo "== arcsim verify --trace $(basename "$t")"
    "$arcsim" verify --trace "$t" 2>&1 | sed "s|$work/||g" || status=1
  done
  for n in tex-baseline-96 tex-floor-96 tex-adaptive-96; do
    p=$(find . -name "$n.arctrace" | head -1)
    [ -n "$p" ] || continue
    echo "== arcsim sim --gpu h100 --mode baseline,adaptive --trace $n.arctrace"
    "$arcsim" sim --gpu h100 --mode baseline,adaptive --trace "$p" 2>&1 | sed "s|$work/||g" || status=1
  done
  a=$(find . -name 'pulsar-sws-run1.arctrace' | head -1) b=$(find . -name 'pulsar-sws-run2.arctrace' | head -1)
  if [ -n "$a" ] && [ -n "$b" ]; then
    echo "== arcsim trace compare pulsar-sws-run1 pulsar-sws-run2"
    "$arcsim" trace compare "$a" "$b" || status=1
  fi
  s=$(find . -name 'gs-swt.arctrace' | head -1)
  if [ -n "$s" ]; then
    echo "== arcsim sim --gpu h100 --mode baseline,sw-b,sw-t --threshold 1 --trace gs-swt.arctrace"
    "$arcsim" sim --gpu h100 --mode baseline,sw-b,sw-t --threshold 1 --trace "$s" 2>&1 | sed "s|$work/||g" || status=1
  fi
} > "$log" 2>&1
grep -c '^PASSED' "$log" | sed 's/^/verify PASSED: /'
grep -E '^(FAILED|SAME|DIFFER)' "$log"
exit $status
