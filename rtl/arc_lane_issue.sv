// arc_lane_issue: the LSU route. Turns an address group into per-lane atomics, one per cycle,
// ascending lane order (address, that lane's value, one-hot lane mask), as the baseline
// atomic path would send them to the LSU and the L2 ROP units.
//
// Values come from the operand register through a combinational read port (rf_lane_o ->
// rf_value_i, same cycle).
//
// Cycle behaviour (tests/rtl/test_rtl_units.cpp, cosim/golden/rtl_timing.h):
//   - a group of n lanes accepted in cycle D offers its lanes in D+1 .. D+n (1 lane/cycle);
//   - each lane is held until out_ready_i; in_ready_o is high when idle or in the cycle the
//     last lane is taken, so consecutive groups stream without a gap.
module arc_lane_issue #(
  parameter int Lanes     = 32,
  parameter int AddrWidth = 32,
  parameter int IdxWidth  = $clog2(Lanes)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Group in.
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [AddrWidth-1:0] in_addr_i,
  input  logic [Lanes-1:0]     in_lane_mask_i,
  // Operand read port (combinational).
  output logic [IdxWidth-1:0]  rf_lane_o,
  input  logic [31:0]          rf_value_i,
  // Per-lane atomic out.
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [AddrWidth-1:0] out_addr_o,
  output logic [31:0]          out_value_o,
  output logic [Lanes-1:0]     out_lane_mask_o,
  // No group held.
  output logic                 idle_o
);

  logic [Lanes-1:0]     rem_q;  // lanes not yet issued
  logic [AddrWidth-1:0] addr_q;

  logic [Lanes-1:0] lane_onehot;
  logic             rem_empty;
  arc_find_first #(.Width(Lanes)) u_next (
    .in_i    (rem_q),
    .idx_o   (rf_lane_o),
    .onehot_o(lane_onehot),
    .empty_o (rem_empty)
  );

  logic last;
  assign last            = (rem_q & ~lane_onehot) == '0;
  assign out_valid_o     = !rem_empty;
  assign out_addr_o      = addr_q;
  assign out_value_o     = rf_value_i;
  assign out_lane_mask_o = lane_onehot;
  assign idle_o          = rem_empty;
  assign in_ready_o      = rem_empty || (last && out_ready_i);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rem_q <= '0;
    end else if (in_valid_i && in_ready_o) begin
      rem_q <= in_lane_mask_i;
    end else if (out_valid_o && out_ready_i) begin
      rem_q <= rem_q & ~lane_onehot;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_valid_i && in_ready_o) addr_q <= in_addr_i;
  end

endmodule
