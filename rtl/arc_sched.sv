// arc_sched: the ARC scheduler (paper 4.3 "Scheduling Atomic Updates", 5.1, Figure 11). For
// each address group it decides reduce-in-core (to arc_reduce) or per-lane atomics (to
// arc_lane_issue, then the LSU / L2 ROP units), and hands the group to that unit.
//
// Modes (mode_i, run-time): 0 never reduce (baseline), 1 always reduce, 2 static balancing
// threshold (reduce iff popcount(lane mask) >= threshold_i), 3 dynamic greedy policy (reduce
// iff busy_i, the LSU/ROP-stalled signal). The top samples mode, threshold and busy when it
// accepts an instruction and holds them for all of that instruction's groups.
//
// Cycle behaviour: combinational (latency 0, one group per cycle). Order across the two units
// is kept by dispatching a group only while the other unit is idle (red_idle_i / lsu_idle_i):
// a group whose route differs from the previous group's waits until that unit has drained
// (one bubble cycle, kRouteSwitchBubble in cosim/golden/rtl_timing.h).
module arc_sched #(
  parameter int Lanes     = 32,
  parameter int AddrWidth = 32,
  // Threshold width: enough for 0..Lanes (6 bits for 32 lanes; values > Lanes never reduce).
  parameter int ThrWidth  = $clog2(Lanes + 1)
) (
  // Run-time configuration, stable while a group is offered.
  input  logic [1:0]           mode_i,
  input  logic [ThrWidth-1:0]  threshold_i,
  input  logic                 busy_i,
  // Group in.
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [AddrWidth-1:0] in_addr_i,
  input  logic [Lanes-1:0]     in_lane_mask_i,
  // To the reduction unit.
  output logic                 red_valid_o,
  input  logic                 red_ready_i,
  input  logic                 red_idle_i,
  // To the per-lane (LSU) issue unit.
  output logic                 lsu_valid_o,
  input  logic                 lsu_ready_i,
  input  logic                 lsu_idle_i,
  // Group payload for both units, and the decision.
  output logic [AddrWidth-1:0] out_addr_o,
  output logic [Lanes-1:0]     out_lane_mask_o,
  output logic                 reduce_o
);

  localparam logic [1:0] ModeNever     = 2'd0;
  localparam logic [1:0] ModeAlways    = 2'd1;
  localparam logic [1:0] ModeThreshold = 2'd2;
  localparam logic [1:0] ModeDynamic   = 2'd3;

  // Popcount of the group's lane mask, in the threshold's width (ThrWidth >= $clog2(Lanes+1)).
  logic [ThrWidth-1:0] count;
  always_comb begin
    count = '0;
    for (int i = 0; i < Lanes; i++) begin
      count = count + {{(ThrWidth - 1){1'b0}}, in_lane_mask_i[i]};
    end
  end

  always_comb begin
    case (mode_i)
      ModeNever:     reduce_o = 1'b0;
      ModeAlways:    reduce_o = 1'b1;
      ModeThreshold: reduce_o = count >= threshold_i;
      ModeDynamic:   reduce_o = busy_i;
      default:       reduce_o = 1'b0;
    endcase
  end

  assign red_valid_o     = in_valid_i && reduce_o && lsu_idle_i;
  assign lsu_valid_o     = in_valid_i && !reduce_o && red_idle_i;
  assign in_ready_o      = reduce_o ? (red_ready_i && lsu_idle_i) : (lsu_ready_i && red_idle_i);
  assign out_addr_o      = in_addr_i;
  assign out_lane_mask_o = in_lane_mask_i;

endmodule
