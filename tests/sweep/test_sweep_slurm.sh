#!/usr/bin/env bash
# The same 8-point sweep through the local backend and through a real single-node Slurm
# cluster (scripts/slurm-local.sh: munged + slurmctld + slurmd on localhost), waited for and
# with --no-wait + merge; the merged tables must be identical, byte for byte (the one timing
# field, wall_seconds, lives only in the per-point files and is not merged).
# Exit 77 (CTest SKIP_RETURN_CODE) only when the daemons cannot start, with the reason.
# usage: test_sweep_slurm.sh ARCSIM ROOT
set -uo pipefail
arcsim=$1
root=$2
spec=$root/tests/sweep/small.toml
work=$(mktemp -d "${TMPDIR:-/tmp}/arcsim-sweep-slurm.XXXXXX")
cluster=$work/cluster
passed=0
failed=0

cleanup() {
  "$root/scripts/slurm-local.sh" stop "$cluster" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

check() {  # check "what" command...
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok:   $what"
  else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

env_line=$("$root/scripts/slurm-local.sh" start "$cluster")
rc=$?
if [ $rc -eq 3 ]; then
  echo "SKIP: the Slurm daemons cannot start here (reason above)"
  exit 77
fi
[ $rc -eq 0 ] || { echo "FAIL: scripts/slurm-local.sh start exited $rc"; exit 1; }
eval "$env_line"  # SLURM_CONF

t0=$(date +%s.%N)
"$arcsim" sweep "$spec" --backend local -j 2 --out "$work/local" >"$work/local.log" 2>&1
rc_local=$?
t1=$(date +%s.%N)
"$arcsim" sweep "$spec" --backend slurm --poll 0.5 --time 00:05:00 --partition debug --out "$work/slurm" \
  >"$work/slurm.log" 2>&1
rc_slurm=$?
t2=$(date +%s.%N)
cat "$work/local.log" "$work/slurm.log"
awk -v a="$t0" -v b="$t1" -v c="$t2" \
  'BEGIN { printf "local backend: %.1f s wall; slurm backend (submit + run + poll): %.1f s wall\n", b - a, c - b }'

check "local backend exits 0" test $rc_local -eq 0
check "slurm backend exits 0" test $rc_slurm -eq 0
check "8 points run locally" grep -q '8 points (0 done before, 8 run, 0 failed)' "$work/local.log"
check "8 points run as one Slurm job array" grep -q '8 points (0 done before, 8 run as Slurm job array' "$work/slurm.log"
job=$(cat "$work/slurm/slurm/job_id" 2>/dev/null)
check "one Slurm log per array task of job $job" test "$(ls "$work/slurm/slurm/" | grep -c "^${job}_[0-7]\.out$")" -eq 8
check "8 point results from Slurm" test "$(ls "$work/slurm/points" | grep -c '^[0-9a-f]\{16\}\.json$')" -eq 8
check "merged JSON identical (local vs slurm)" cmp "$work/local/results.json" "$work/slurm/results.json"
check "merged CSV identical (local vs slurm)" cmp "$work/local/results.csv" "$work/slurm/results.csv"
check "every point ok" test "$(grep -c ',ok,' "$work/slurm/results.csv")" -eq 8

# --no-wait: submit and return; merge once Slurm has run the array.
"$arcsim" sweep "$spec" --backend slurm --no-wait --out "$work/nowait" >"$work/nowait.log" 2>&1
check "--no-wait returns at once with the job id" grep -q 'submitted Slurm job array' "$work/nowait.log"
job=$(cat "$work/nowait/slurm/job_id" 2>/dev/null)
for _ in $(seq 240); do
  [ -n "$job" ] && [ -z "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && break
  sleep 0.5
done
"$arcsim" sweep merge "$work/nowait" >"$work/merge.log" 2>&1
check "merge after --no-wait exits 0" test $? -eq 0
check "merged table after --no-wait identical to local" cmp "$work/local/results.json" "$work/nowait/results.json"

# Resume through Slurm: nothing left to submit.
"$arcsim" sweep "$spec" --backend slurm --out "$work/slurm" >"$work/again.log" 2>&1
check "slurm re-run submits nothing" grep -q 'all 8 points done before; nothing submitted' "$work/again.log"

# A point that fails inside its Slurm task is recorded with its error; the other point finishes.
"$arcsim" trace gen -q -n 100 --sms 4 -o "$work/good.arctrace"
echo "not a trace" >"$work/broken.arctrace"
printf '%s\n' 'gpu = "h100"' 'metrics = ["total_cycles"]' '[set]' 'sms = 4' '[trace]' \
  'files = ["good.arctrace", "broken.arctrace"]' >"$work/fail.toml"
"$arcsim" sweep "$work/fail.toml" --backend slurm --poll 0.5 --out "$work/fail" >"$work/fail.log" 2>&1
check "a failed Slurm task makes the sweep exit 1" test $? -eq 1
check "its point is recorded as failed, the other one ok" \
  grep -q '2 points (0 done before, 2 run as Slurm job array [0-9]*, 1 failed)' "$work/fail.log"
check "the error record holds arcsim's message" grep -q '"error": "arcsim: error: ' "$work"/fail/points/*.error.json

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
