// arc_addr_match: ARC's address coalescing step. Takes one warp instruction (active mask and
// 32 per-lane addresses) and emits its address groups, the active lanes that share one
// address, lowest lane first (paper 4.3 "Identifying Active Threads", 5.1).
//
// Cycle behaviour (checked by tests/rtl/test_rtl_units.cpp, constants in
// cosim/golden/rtl_timing.h):
//   - latency: an instruction accepted in cycle t offers its first group in cycle t+1;
//   - throughput: one group per cycle while out_ready_i is high (32 comparators of AddrWidth
//     bits against the leader lane's address, all in one cycle);
//   - back-pressure: a group is held (stable payload) until out_ready_i; the instruction
//     registers free up with the last group, so in_ready_o is high when idle or in the cycle
//     the last group is taken (in_ready_o depends combinationally on out_ready_i);
//   - an instruction with an empty mask is accepted and emits no group.
module arc_addr_match #(
  parameter int Lanes     = 32,
  parameter int AddrWidth = 32
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Instruction in: lane l's address is in_addr_i[l*AddrWidth +: AddrWidth].
  input  logic                       in_valid_i,
  output logic                       in_ready_o,
  input  logic [Lanes-1:0]           in_mask_i,
  input  logic [Lanes*AddrWidth-1:0] in_addr_i,
  // Groups out, lowest lane first; out_last_o marks the instruction's last group.
  output logic                       out_valid_o,
  input  logic                       out_ready_i,
  output logic [AddrWidth-1:0]       out_addr_o,
  output logic [Lanes-1:0]           out_lane_mask_o,
  output logic                       out_last_o,
  // No instruction held.
  output logic                       idle_o
);

  logic [Lanes-1:0]           rem_q;   // lanes not yet emitted in a group
  logic [Lanes*AddrWidth-1:0] addr_q;  // the instruction's addresses

  // The leader, the lowest remaining lane, one-hot (x & -x, as arc_find_first makes it; the
  // matcher needs no index: the leader's address is read through the one-hot select below).
  logic [Lanes-1:0] leader_onehot;
  logic             rem_empty;
  assign leader_onehot = rem_q & (~rem_q + {{(Lanes - 1){1'b0}}, 1'b1});
  assign rem_empty     = ~|rem_q;

  logic [AddrWidth-1:0] leader_addr;
  logic [Lanes-1:0]     match;
  // The leader's address by its one-hot select (an AND-OR mux: a variable part-select
  // leader*AddrWidth becomes a barrel shifter where AddrWidth is not a power of two).
  always_comb begin
    leader_addr = '0;
    for (int i = 0; i < Lanes; i++) begin
      leader_addr |= addr_q[i*AddrWidth +: AddrWidth] & {AddrWidth{leader_onehot[i]}};
    end
  end
  always_comb begin
    for (int i = 0; i < Lanes; i++) begin
      match[i] = rem_q[i] && (addr_q[i*AddrWidth +: AddrWidth] == leader_addr);
    end
  end

  assign out_valid_o     = ~rem_empty;
  assign out_addr_o      = leader_addr;
  // The leader always matches itself; OR-ing its one-hot in keeps that visible to synthesis.
  assign out_lane_mask_o = match | leader_onehot;
  assign out_last_o      = (rem_q & ~out_lane_mask_o) == '0;
  assign idle_o          = rem_empty;
  assign in_ready_o      = rem_empty || (out_ready_i && out_last_o);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rem_q <= '0;
    end else if (in_valid_i && in_ready_o) begin
      rem_q <= in_mask_i;
    end else if (out_valid_o && out_ready_i) begin
      rem_q <= rem_q & ~out_lane_mask_o;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_valid_i && in_ready_o) addr_q <= in_addr_i;
  end

endmodule
