#!/usr/bin/env bash
# Planted bugs for the formal properties (tests/formal/CMakeLists.txt): each is one edit of a
# copy of rtl/ in DIR, and the property it targets must FAIL on it.
#   order     (prop 1) arc_find_first scans upwards: the index is the HIGHEST set lane, so the
#                      reduction and per-lane units read lanes out of ascending order.
#   dup_lane  (prop 1) arc_reduce keeps the first lane in the remaining set at accept (its
#                      position does not move past it): the lowest lane enters the sum twice.
#   drop_held (prop 2) arc_lane_issue clears its output register even when txn_ready_i is low:
#                      a per-lane atomic is lost under back-pressure.
#   dup_txn   (prop 2) arc_lane_issue never clears its output register: a per-lane atomic is
#                      sent again.
#   hang      (prop 3) arc_sched dispatches an LSU group only while the reduction unit is busy:
#                      an instruction with a per-lane group never completes.
set -euo pipefail
bug=$1 dir=$2
edit() {  # edit FILE SED-EXPR: apply, and fail if the file did not change
  local f="$dir/$1"
  cp "$f" "$f.orig"
  sed -i -e "$2" "$f"
  if cmp -s "$f" "$f.orig"; then echo "planted bug $bug: no change in $1" >&2; exit 2; fi
  rm "$f.orig"
}
case "$bug" in
  order)     edit arc_find_first.sv 's/for (int i = Width - 1; i >= 0; i--) begin/for (int i = 0; i < Width; i++) begin/' ;;
  dup_lane)  edit arc_reduce.sv 's/if (rd) pos_q <= {1.b0, rf_lane_o} + 1.b1;/if (rd \&\& !accept) pos_q <= {1'"'"'b0, rf_lane_o} + 1'"'"'b1;/' ;;
  drop_held) edit arc_lane_issue.sv 's/else if (out_ready_i) out_valid_q <= 1.b0;/else out_valid_q <= 1'"'"'b0;/' ;;
  dup_txn)   edit arc_lane_issue.sv 's/else if (out_ready_i) out_valid_q <= 1.b0;//' ;;
  hang)      edit arc_sched.sv 's/lsu_valid_o     = in_valid_i \&\& !reduce_o \&\& red_idle_i;/lsu_valid_o     = in_valid_i \&\& !reduce_o \&\& !red_idle_i;/; s/(lsu_ready_i \&\& red_idle_i)/(lsu_ready_i \&\& !red_idle_i)/' ;;
  *) echo "planted_bugs.sh: unknown bug '$bug'" >&2; exit 2 ;;
esac
