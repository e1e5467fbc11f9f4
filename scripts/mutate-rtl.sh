#!/usr/bin/env bash
# Mutation testing of rtl/: each mutant is ONE single-point edit (an operator, a constant, a
# condition, rounding, lane order) applied to a temporary copy of rtl/ (rtl/ itself is never
# written), then the RTL tests run on that copy until one fails (the mutant is killed):
#   1. lint     verilator --lint-only -Wall of every module (as scripts/lint-rtl.sh)
#   2. icarus   tests/rtl/test_icarus on the copy: directed + 400 random instructions per FTZ
#               mode under Icarus, every transaction vs arc::golden and every cycle vs the
#               Verilated ORIGINAL (ARCSIM_RTL_DIR points the test at the copy)
#   3. units    tests/rtl/tb_addr_match.sv under Icarus (the matcher's own handshake, which the
#               top does not exercise: it starts the matcher only when idle)
#   4. formal   the six bounded proofs of tests/formal (both RfPort configurations, lanes,
#               handshake under back-pressure, completion bound; ARCSIM_RTL_DIR likewise)
# A mutant no stage kills survives; rtl/README.md gives each survivor's reason or test. A stage
# kills only by failing a check (a lint warning, a failed test, a failed proof, or a time-out: a
# mutant that hangs the simulation is caught); a stage that cannot run (a missing tool or binary,
# a crash with no failed check) stops the script with exit 2, and before any mutant counts as
# killed by a stage, that stage must pass on the unmutated rtl/ (so a broken test set-up cannot
# score kills).
#
#   scripts/mutate-rtl.sh [--list] [--only ID[,ID...]] [--no-lint] [--out DIR]
#     --list   check that every mutant applies (its edit changes its file) and print them; no tests
#     --only   run only these mutant ids
#     --no-lint  skip stage 1 (does a functional test also kill what lint kills?)
#     --out    folder for mutants.csv and mutants.json (default: $ARCSIM_BUILD_DIR/mutation)
# The icarus stage's random instructions come from ARCSIM_TEST_SEED (default 1 here, so a
# score is repeatable; the test alone draws a fresh one each run).
# Needs a build with test_icarus (ARCSIM_BUILD_DIR, default build/). Not run by CI (a full run
# takes many minutes); tests/rtl registers `rtl.mutate_list` (--list) and `rtl.mutate_one`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_BUILD_DIR:-$root/build}
export ARCSIM_TEST_SEED=${ARCSIM_TEST_SEED:-1}
list=0 only="" out="" nolint=0
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1; shift ;;
    --no-lint) nolint=1; shift ;;
    --only) [ $# -ge 2 ] || { echo "arcsim: error: --only needs mutant ids (e.g. --only 1,7)" >&2; exit 2; }
            only=",$2,"; shift 2 ;;
    --out)  [ $# -ge 2 ] || { echo "arcsim: error: --out needs a folder" >&2; exit 2; }
            out=$2; shift 2 ;;
    *) echo "arcsim: error: mutate-rtl.sh: unknown argument '$1' (--list, --only IDS, --no-lint, --out DIR)" >&2; exit 2 ;;
  esac
done
out=${out:-$build/mutation}

# id|file|category|sed expression|what it breaks (the expression may hold '|': the first three
# and the last '|' separate the fields)
mutants=$(cat <<'EOF'
1|arc_find_first.sv|lane order|s/for (int i = Width - 1; i >= 0; i--) begin/for (int i = 0; i < Width; i++) begin/|index of the highest set lane instead of the lowest
2|arc_find_first.sv|operator|s/(~in_i + {{(Width - 1){1'b0}}, 1'b1})/(~in_i)/|one-hot of the lowest lane becomes in & ~in (0)
3|arc_find_first.sv|operator|s/assign empty_o  = ~|in_i;/assign empty_o  = ~\&in_i;/|empty only when all lanes are clear becomes "not all set"
4|arc_addr_match.sv|operator|s/AddrWidth] == leader_addr);/AddrWidth] != leader_addr);/|lanes with a different address join the group
5|arc_addr_match.sv|condition|s/match\[i\] = rem_q\[i\] \&\& /match[i] = /|already-emitted lanes match again
6|arc_addr_match.sv|operator|s/assign out_last_o      = (rem_q \& ~out_lane_mask_o) == '0;/assign out_last_o      = (rem_q \& out_lane_mask_o) == '0;/|last-group flag inverted in meaning
7|arc_addr_match.sv|condition|s/assign in_ready_o      = rem_empty || (out_ready_i \&\& out_last_o);/assign in_ready_o      = rem_empty || out_last_o;/|next instruction taken while the last group is stalled
8|arc_addr_match.sv|operator|s/rem_q <= rem_q \& ~out_lane_mask_o;/rem_q <= rem_q \& ~leader_onehot;/|only the leader lane is retired: lanes emitted twice
9|arc_sched.sv|operator|s/ModeThreshold: reduce_o = count >= threshold_i;/ModeThreshold: reduce_o = count > threshold_i;/|threshold off by one
10|arc_sched.sv|condition|s/ModeDynamic:   reduce_o = busy_i;/ModeDynamic:   reduce_o = !busy_i;/|dynamic policy inverted
11|arc_sched.sv|constant|s/ModeAlways:    reduce_o = 1'b1;/ModeAlways:    reduce_o = 1'b0;/|mode "always reduce" never reduces
12|arc_sched.sv|condition|s/assign red_valid_o     = in_valid_i \&\& reduce_o \&\& lsu_idle_i;/assign red_valid_o     = in_valid_i \&\& reduce_o;/|reduced group overtakes per-lane atomics
13|arc_sched.sv|condition|s/assign in_ready_o      = reduce_o ? (red_ready_i \&\& lsu_idle_i)/assign in_ready_o      = reduce_o ? red_ready_i/|group retired before the reduction unit takes it
14|arc_reduce.sv|operator|s/((IdxWidth + 1)'(i) >= pos_q)/((IdxWidth + 1)'(i) > pos_q)/|the lane at the read position is skipped
15|arc_reduce.sv|constant|s/if (rd) pos_q <= {1'b0, rf_lane_o} + 1'b1;/if (rd) pos_q <= {1'b0, rf_lane_o};/|position does not pass the lane read: lanes added again
16|arc_reduce.sv|condition|s/      first_q <= !rd;/      first_q <= 1'b0;/|RF not ready at accept: the first lane is added to a stale sum
17|arc_reduce.sv|condition|s/if (rd \&\& (accept || first_q)) acc_q <= rf_value_i;/if (rd \&\& accept) acc_q <= rf_value_i;/|a late first lane is added to a stale sum
18|arc_reduce.sv|condition|s/assign out_valid_o     = busy_q \&\& !adding \&\& !pending;/assign out_valid_o     = busy_q \&\& !pending;/|sum offered before all lanes are added
19|arc_reduce.sv|condition|s/assign in_ready_o      = !busy_q || (out_valid_o \&\& out_ready_i);/assign in_ready_o      = !busy_q || out_valid_o;/|a stalled sum is overwritten
20|arc_reduce.sv|condition|s/assign scan = adding ? rem : in_lane_mask_i;/assign scan = adding ? in_lane_mask_i : rem;/|lanes read from the wrong mask
21|arc_lane_issue.sv|constant|s/assign out_free   = !out_valid_q || out_ready_i;/assign out_free   = 1'b1;/|a held per-lane atomic is overwritten
22|arc_lane_issue.sv|condition|s/assign in_ready_o = (rem_q == '0) \&\& out_free;/assign in_ready_o = (rem_q == '0);/|next group taken while the output is stalled
23|arc_lane_issue.sv|operator|s/if (rd) rem_q <= scan \& ~lane_onehot;/if (rd) rem_q <= scan;/|a lane is never retired
24|arc_lane_issue.sv|constant|s/assign out_lane_mask_o = Lanes'(1) << out_lane_q;/assign out_lane_mask_o = Lanes'(2) << out_lane_q;/|lane mask names the next lane
25|arc_subcore_top.sv|condition|s/assign instr_ready_o = match_idle \&\& red_idle \&\& lsu_idle;/assign instr_ready_o = match_idle \&\& red_idle;/|next instruction while per-lane atomics are pending
26|arc_subcore_top.sv|condition|s/if ((red_valid \&\& red_ready) || (lsu_valid \&\& lsu_ready)) grp_addr_q <= sched_addr;/if (red_valid \&\& red_ready) grp_addr_q <= sched_addr;/|per-lane groups keep a stale address
27|arc_subcore_top.sv|operator|s/assign txn_reduced_o   = red_out_valid;/assign txn_reduced_o   = lsu_out_valid;/|route flag inverted
28|arc_lane_select.sv|lane order|s/assign value_o = row_i\[lane_i\*Width +: Width\];/assign value_o = row_i[(lane_i ^ IdxWidth'(1))*Width +: Width];/|value operand read at the neighbouring lane
29|arc_subcore_top.sv|condition|s/assign rd_lane = lsu_rf_valid ? lsu_lane : red_lane;/assign rd_lane = red_rf_valid ? lsu_lane : red_lane;/|read port serves the wrong unit
30|arc_subcore_top.sv|constant|s/      busy_q      <= busy_i;/      busy_q      <= 1'b0;/|LSU-busy input ignored (dynamic mode)
31|arc_fp32_add_align.sv|constant|s/assign shift_r  = (exp_gap > 8'd26) ? 5'd26 : exp_gap\[4:0\];/assign shift_r  = (exp_gap > 8'd26) ? 5'd0 : exp_gap[4:0];/|huge exponent gaps not aligned
32|arc_fp32_add_align.sv|rounding|s/assign sml_al   = {sml_wide\[49:24\], |sml_wide\[23:0\]};/assign sml_al   = {sml_wide[49:24], 1'b0};/|sticky bits of the alignment shift dropped
33|arc_fp32_add_align.sv|operator|s/assign a_ge_b     = {a_eexp, a_sig} >= {b_eexp, b_sig};/assign a_ge_b     = {a_eexp, a_sig} <= {b_eexp, b_sig};/|operands ordered by the wrong magnitude
34|arc_fp32_add_align.sv|operator|s/assign eff_sub = big_sign_o ^ sml_sign;/assign eff_sub = big_sign_o \& sml_sign;/|effective subtraction decided wrongly
35|arc_fp32_add_align.sv|condition|s/assign a_zero = (a_exp == 8'd0) \&\& ((FTZ != 0) || (a_man == 23'd0));/assign a_zero = (a_exp == 8'd0) \&\& ((FTZ == 0) || (a_man == 23'd0));/|subnormal input flushing inverted
36|arc_fp32_add_align.sv|operator|s/assign b_nan  = (b_exp == 8'hFF) \&\& (b_man != 23'd0);/assign b_nan  = (b_exp == 8'hFF) \&\& (b_man == 23'd0);/|infinity taken for NaN
37|arc_fp32_add_round.sv|rounding|s/assign round_up  = guard \& (sticky | mant\[0\]);/assign round_up  = guard \& sticky;/|ties round down instead of to even
38|arc_fp32_add_round.sv|rounding|s/assign round_up  = guard \& (sticky | mant\[0\]);/assign round_up  = guard;/|ties round away from zero
39|arc_fp32_add_round.sv|constant|s/assign max_left  = big_exp_i - 8'd1;/assign max_left  = big_exp_i - 8'd2;/|subnormal boundary of the left shift off by one
40|arc_fp32_add_round.sv|constant|s/assign exp_norm = raw_i\[27\] ? {1'b0, big_exp_i} + 9'd1/assign exp_norm = raw_i[27] ? {1'b0, big_exp_i} + 9'd0/|carry-out does not raise the exponent
41|arc_fp32_add_round.sv|operator|s/assign overflow   = (exp_rnd >= 9'd255)/assign overflow   = (exp_rnd > 9'd255)/|exponent 255 not treated as overflow
42|arc_fp32_add_round.sv|condition|s/(tiny \&\& (FTZ != 0))/(tiny \&\& (FTZ == 0))/|tiny results flushed in the wrong mode
43|arc_fp32_add_round.sv|rounding|s/assign sticky   = raw_i\[27\] ? |raw_i\[2:0\] : |left_norm\[1:0\];/assign sticky   = raw_i[27] ? |raw_i[1:0] : |left_norm[1:0];/|round bit left out of sticky after a carry
EOF
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

apply() {  # apply FILE EXPR DIR: edit a fresh copy of rtl/ in DIR; fail if nothing changed
  local file=$1 expr=$2 dir=$3
  rm -rf "$dir"; mkdir -p "$dir"; cp "$root"/rtl/*.sv "$dir/"
  [ -f "$dir/$file" ] || { echo "arcsim: error: mutant names $file, which is not in rtl/" >&2; return 2; }
  sed -i -e "$expr" "$dir/$file"
  if cmp -s "$dir/$file" "$root/rtl/$file"; then
    echo "arcsim: error: mutant edit '$expr' does not change rtl/$file (the RTL moved on: update the mutant)" >&2
    return 2
  fi
}

lint() {  # lint DIR: every module of the copy, as scripts/lint-rtl.sh
  local dir=$1 f
  for f in "$dir"/*.sv; do
    verilator --lint-only -Wall -I"$dir" "$f" --top-module "$(basename "$f" .sv)" >>"$dir/lint.log" 2>&1 || return 1
  done
}

# Each stage returns 0 (passed), 1 (a check failed: the mutant is killed), or exits the script
# with 2 when it could not judge (the log's tail is printed).
keep_log() {  # keep_log LOG NAME: a copy in the --out folder (the temporary copies of rtl/ go at exit)
  mkdir -p "$out"
  cp "$1" "$out/$2" 2>/dev/null && echo "$out/$2" || echo "$1 (gone)"
}

cannot_judge() {  # cannot_judge STAGE LOG STATUS
  echo "arcsim: error: mutate-rtl.sh: stage $1 ended with status $3 without a failed check (log: $(keep_log "$2" "cannot-judge-$1.log")):" >&2
  tail -n 5 "$2" >&2 || true
  exit 2
}

icarus() {  # icarus DIR
  local bin=$build/tests/rtl/test_icarus rc=0
  [ -x "$bin" ] || { echo "arcsim: error: $bin not built (cmake --build build --target test_icarus)" >&2; exit 2; }
  ARCSIM_RTL_DIR=$1 timeout 60 "$bin" --gtest_brief=1 >"$1/icarus.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] && return 0
  { [ "$rc" = 124 ] || grep -q '^\[  FAILED  \]' "$1/icarus.log"; } && return 1
  cannot_judge icarus "$1/icarus.log" "$rc"
}

units() {  # units DIR
  local rc=0
  "$root/tests/rtl/run_tb_addr_match.sh" "$1" >"$1/units.log" 2>&1 || rc=$?
  [ "$rc" = 0 ] && return 0
  [ "$rc" = 1 ] && return 1  # run_tb_addr_match.sh: 1 = the testbench reported no PASS
  cannot_judge units "$1/units.log" "$rc"
}

formal() {  # formal DIR: the six proofs of tests/formal/CMakeLists.txt
  local spec rc
  for spec in "1 0 6" "1 1 7" "2 0 8" "2 1 10" "3 0 14" "3 1 14"; do
    rc=0
    # shellcheck disable=SC2086
    ARCSIM_RTL_DIR=$1 timeout 300 "$root/tests/formal/run_formal.sh" $spec >"$1/formal.log" 2>&1 || rc=$?
    [ "$rc" = 0 ] && continue
    # A kill is a counterexample (smtbmc's "Assert failed", which run_formal.sh prints from its
    # log) or a time-out; any other failure (a solver crash, a Yosys error) cannot judge.
    { [ "$rc" = 124 ] || grep -q 'Assert failed' "$1/formal.log"; } && return 1
    cannot_judge formal "$1/formal.log" "$rc"
  done
}

# The unmutated rtl/ must pass a stage before a mutant counts as killed by it (checked once per
# stage, when a mutant first fails it).
declare -A pristine_ok=()
pristine() {  # pristine STAGE
  [ -n "${pristine_ok[$1]:-}" ] && return 0
  local dir=$tmp/pristine
  rm -rf "$dir"; mkdir -p "$dir"; cp "$root"/rtl/*.sv "$dir/"
  if ! "$1" "$dir"; then
    echo "arcsim: error: mutate-rtl.sh: the unmutated rtl/ fails stage $1 (log: $(keep_log "$dir/$1.log" "pristine-$1.log")): the tests, not a mutant, are broken" >&2
    tail -n 5 "$dir/$1.log" >&2 || true
    exit 2
  fi
  pristine_ok[$1]=1
}

n=0 killed=0 survived=0
rows=()
printf '%-3s %-22s %-10s %-9s %s\n' id file category result "what it breaks"
while IFS= read -r line; do
  [ -n "$line" ] || continue
  rest=$line
  id=${rest%%|*}; rest=${rest#*|}
  file=${rest%%|*}; rest=${rest#*|}
  cat=${rest%%|*}; rest=${rest#*|}
  why=${rest##*|}; expr=${rest%|*}
  if [ -n "$only" ] && [[ "$only" != *",$id,"* ]]; then continue; fi
  dir=$tmp/m$id
  apply "$file" "$expr" "$dir" || exit 2
  n=$((n + 1))
  if [ "$list" = 1 ]; then
    printf '%-3s %-22s %-10s %-9s %s\n' "$id" "$file" "$cat" applies "$why"
    continue
  fi
  t0=$(date +%s)
  res="SURVIVED" by="-"
  for stage in lint icarus units formal; do
    [ "$stage" = lint ] && [ "$nolint" = 1 ] && continue
    if ! "$stage" "$dir"; then
      res="killed" by=$stage
      break
    fi
  done
  secs=$(( $(date +%s) - t0 ))
  [ "$res" = killed ] && pristine "$by"
  [ "$res" = killed ] && killed=$((killed + 1)) || survived=$((survived + 1))
  printf '%-3s %-22s %-10s %-9s %s (%s, %ss)\n' "$id" "$file" "$cat" "$res" "$why" "$by" "$secs"
  rows+=("$id	$file	$cat	$res	$by	$secs	$why")
  rm -rf "$dir"
done <<<"$mutants"

[ "$n" -gt 0 ] || { echo "arcsim: error: no mutant matches --only ${only//,/ }" >&2; exit 2; }
if [ "$list" = 1 ]; then echo "$n mutants, each applies to a copy of rtl/"; exit 0; fi

mkdir -p "$out"
{
  echo "id,file,category,result,killed_by,seconds,breaks"
  for r in "${rows[@]}"; do IFS=$'\t' read -r id file cat res by secs why <<<"$r"; echo "$id,$file,$cat,$res,$by,$secs,\"$why\""; done
} >"$out/mutants.csv"
score=$(awk -v k="$killed" -v n="$n" 'BEGIN { printf "%.1f", 100 * k / n }')
{
  printf '{\n  "mutants": %d,\n  "killed": %d,\n  "survived": %d,\n  "score_percent": %s,\n  "rows": [\n' "$n" "$killed" "$survived" "$score"
  i=0
  for r in "${rows[@]}"; do
    IFS=$'\t' read -r id file cat res by secs why <<<"$r"
    i=$((i + 1)); sep=","; [ "$i" -eq "${#rows[@]}" ] && sep=""
    printf '    {"id": %s, "file": "%s", "category": "%s", "result": "%s", "killed_by": "%s", "seconds": %s, "breaks": "%s"}%s\n' \
      "$id" "$file" "$cat" "$res" "$by" "$secs" "$why" "$sep"
  done
  printf '  ]\n}\n'
} >"$out/mutants.json"
echo "mutants: $n, killed: $killed, survived: $survived, score: $score%"
echo "wrote $out/mutants.csv and $out/mutants.json"
