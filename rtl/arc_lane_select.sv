// arc_lane_select: one lane's value out of a warp register (Lanes x Width bits, lane l at
// [l*Width +: Width]). Combinational. arc_subcore_top reads its value operand through it one
// lane per cycle, from its operand register (RfPort = 0) or from the row the register file
// returns (RfPort = 1): the 1024-to-32 select is ARC's in both, so cosim/area counts it.
module arc_lane_select #(
  parameter int Lanes    = 32,
  parameter int Width    = 32,
  parameter int IdxWidth = $clog2(Lanes)
) (
  input  logic [Lanes*Width-1:0] row_i,
  input  logic [IdxWidth-1:0]    lane_i,
  output logic [Width-1:0]       value_o
);

  assign value_o = row_i[lane_i*Width +: Width];

endmodule
