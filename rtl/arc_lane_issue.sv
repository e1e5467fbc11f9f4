// arc_lane_issue: the LSU route. Turns an address group into per-lane atomics, one per cycle,
// ascending lane order (that lane's value and one-hot lane mask; the group's address is held by
// arc_subcore_top, which owns one address register for both units), as the baseline atomic
// path would send them to the LSU and the L2 ROP units.
//
// Values come through a register-file read port with a valid/ready handshake (rf_valid_o,
// rf_lane_o -> rf_ready_i, rf_value_i: the value is taken in the handshake cycle). A lane is
// read into the output register, so an RF that is not ready (bank conflict) delays the lane but
// never drops the transaction offered on out_*. arc_subcore_top ties rf_ready_i to 1 when the
// values come from its operand register (RfPort = 0).
//
// Cycle behaviour with rf_ready_i = 1 (tests/rtl/test_rtl_units.cpp, cosim/golden/rtl_timing.h):
//   - a group of n lanes accepted in cycle D reads its first lane in D and offers its lanes in
//     D+1 .. D+n (1 lane/cycle);
//   - each lane is held until out_ready_i; in_ready_o is high when every lane has been read and
//     the output register is free or being taken, so consecutive groups stream without a gap.
module arc_lane_issue #(
  parameter int Lanes     = 32,
  parameter int IdxWidth  = $clog2(Lanes)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Group in.
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [Lanes-1:0]     in_lane_mask_i,
  // Operand read port (valid/ready; the value is taken in the handshake cycle).
  output logic                 rf_valid_o,
  input  logic                 rf_ready_i,
  output logic [IdxWidth-1:0]  rf_lane_o,
  input  logic [31:0]          rf_value_i,
  // Per-lane atomic out.
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [31:0]          out_value_o,
  output logic [Lanes-1:0]     out_lane_mask_o,
  // No group held.
  output logic                 idle_o
);

  logic [Lanes-1:0]    rem_q;  // lanes not yet read
  logic                out_valid_q;
  logic [31:0]         out_value_q;
  logic [IdxWidth-1:0] out_lane_q;  // the lane offered, as an index (decoded to one-hot below)

  logic out_free, accept, rd;
  assign out_free   = !out_valid_q || out_ready_i;
  assign in_ready_o = (rem_q == '0) && out_free;
  assign accept     = in_valid_i && in_ready_o;

  // The lane to read: the incoming group's first in its accept cycle, else the lowest unread.
  logic [Lanes-1:0] scan, lane_onehot;
  logic             scan_empty;
  assign scan = accept ? in_lane_mask_i : rem_q;
  arc_find_first #(.Width(Lanes)) u_next (
    .in_i    (scan),
    .idx_o   (rf_lane_o),
    .onehot_o(lane_onehot),
    .empty_o (scan_empty)
  );

  assign rf_valid_o = out_free && !scan_empty;
  assign rd         = rf_valid_o && rf_ready_i;

  assign out_valid_o     = out_valid_q;
  assign out_value_o     = out_value_q;
  assign out_lane_mask_o = Lanes'(1) << out_lane_q;
  assign idle_o          = (rem_q == '0) && !out_valid_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rem_q       <= '0;
      out_valid_q <= 1'b0;
    end else begin
      if (rd) rem_q <= scan & ~lane_onehot;
      else if (accept) rem_q <= in_lane_mask_i;
      if (rd) out_valid_q <= 1'b1;
      else if (out_ready_i) out_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd) begin
      out_value_q <= rf_value_i;
      out_lane_q  <= rf_lane_o;
    end
  end

endmodule
