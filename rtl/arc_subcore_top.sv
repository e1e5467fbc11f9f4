// arc_subcore_top: ARC-HW for one sub-core (paper Figure 9/11/12). One `atomred [addr], f`
// warp instruction in; the ordered stream of atomic transactions to the LSU out, each either a
// per-lane atomic (route LSU) or one reduced atomic per address group (route reduced).
//
//   instr -> [operand + config registers] -> arc_addr_match -> arc_sched -+-> arc_reduce -----+-> txn
//                                                                        +-> arc_lane_issue -+
//                                                    (group address register, shared) ----------+
//
// Two configurations (parameter RfPort), the same transactions and, with rf_ready_i = 1, the
// same cycles:
//   RfPort = 0 (operand register): the instruction's value operand arrives with it, all lanes
//     (32 x 32 bits) in the accept cycle on instr_value_i, as an operand collector delivers a
//     warp register, and is held in an operand register that the units read one lane a cycle;
//     the rf_* port is unused (rf_valid_o = 0).
//   RfPort = 1 (the paper's design, section 5.3): no operand register; arc_reduce and
//     arc_lane_issue read one lane per cycle through the rf_* register-file read port
//     (valid/ready): the register file returns the warp's source register, all lanes, on
//     rf_row_i in the handshake cycle, and arc_lane_select picks the lane (as from the operand
//     register of RfPort = 0: the select is ARC's in both); instr_value_i is unused. The
//     warp's source register must not change until the instruction's last transaction (the
//     warp is held at the scoreboard, as for any instruction still reading its operands).
// In both, arc_addr_match stands for the address-coalescing unit the LSU already has: it turns
// the addresses into the groups' lane masks (cosim/area counts it as reused for RfPort = 1).
// Mode, threshold and the LSU/ROP-busy input are sampled in the accept cycle and hold for all
// of the instruction's groups.
//
// Output order = arc::golden::process(): groups lowest lane first; an LSU group as per-lane
// atomics in ascending lane order, a reduced group as one (addr, serial sum, lane mask).
//
// Cycle behaviour (cosim/golden/rtl_timing.h; tests/rtl/test_rtl_timing.cpp checks it):
//   - one instruction in flight: instr_ready_o is high only when the matcher and both units
//     are idle, i.e. 1 cycle after the previous instruction's last transaction was taken;
//     an instruction with an empty mask occupies 1 cycle;
//   - accept in cycle t; first group dispatched in t+1; a reduced group of n lanes is offered n
//     cycles after its dispatch, per-lane atomics 1..n cycles after; consecutive groups of the
//     same route follow back to back, a route change costs 1 bubble cycle;
//   - txn_ready_i low holds the current transaction (stable payload) and stalls everything
//     behind it; nothing is dropped or duplicated.
module arc_subcore_top #(
  parameter int AddrWidth = 32,
  parameter int FTZ       = 1,   // the reduction adder: 1 flushes subnormals (as red.add.f32)
  parameter int RfPort    = 0,   // 0 operand register, 1 register-file read port (paper)
  parameter int Lanes     = 32,  // warp width (formal proofs use fewer)
  parameter int Stages    = 1,   // reduction adder pipeline stages (1, 2; 1 = rtl_timing.h)
  parameter int IdxWidth  = $clog2(Lanes)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // atomred warp instruction: lane l's address at [l*AddrWidth +: AddrWidth], its value
  // (binary32, RfPort = 0 only) at [l*32 +: 32]; only lanes set in instr_mask_i take part.
  input  logic                       instr_valid_i,
  output logic                       instr_ready_o,
  input  logic [Lanes-1:0]           instr_mask_i,
  input  logic [Lanes*AddrWidth-1:0] instr_addr_i,
  input  logic [Lanes*32-1:0]        instr_value_i,
  // Register-file read port of the value operand (RfPort = 1): a read of the warp's source
  // register, all lanes (lane l at [l*32 +: 32]) on rf_row_i in the cycle rf_valid_o &&
  // rf_ready_i; rf_lane_o is the lane this read is for (ARC selects it from the row).
  output logic                       rf_valid_o,
  input  logic                       rf_ready_i,
  output logic [IdxWidth-1:0]        rf_lane_o,
  input  logic [Lanes*32-1:0]        rf_row_i,
  // Scheduler configuration and LSU/ROP stall status, sampled with the instruction.
  input  logic [1:0]                 mode_i,       // 0 never, 1 always, 2 threshold, 3 dynamic
  input  logic [5:0]                 threshold_i,  // reduce iff group size >= threshold (mode 2)
  input  logic                       busy_i,       // LSU/ROP stalled: reduce (mode 3)
  // Atomic transactions to the LSU.
  output logic                       txn_valid_o,
  input  logic                       txn_ready_i,
  output logic                       txn_reduced_o,  // 1 = reduced group, 0 = per-lane atomic
  output logic [AddrWidth-1:0]       txn_addr_o,
  output logic [31:0]                txn_value_o,
  output logic [Lanes-1:0]           txn_lane_mask_o
);

  // ------------------------------------------------------------ instruction accept
  logic match_idle, red_idle, lsu_idle, match_in_ready;
  assign instr_ready_o = match_idle && red_idle && lsu_idle;

  logic accept;
  assign accept = instr_valid_i && instr_ready_o;

  logic [1:0]       mode_q;
  logic [5:0]       threshold_q;
  logic             busy_q;
  always_ff @(posedge clk_i) begin
    if (accept) begin
      mode_q      <= mode_i;
      threshold_q <= threshold_i;
      busy_q      <= busy_i;
    end
  end
  // ------------------------------------------------------------ address matcher
  logic                 grp_valid, grp_ready, grp_last;
  logic [AddrWidth-1:0] grp_addr;
  logic [Lanes-1:0]     grp_mask;
  arc_addr_match #(.Lanes(Lanes), .AddrWidth(AddrWidth)) u_match (
    .clk_i,
    .rst_ni,
    .in_valid_i     (accept),
    .in_ready_o     (match_in_ready),
    .in_mask_i      (instr_mask_i),
    .in_addr_i      (instr_addr_i),
    .out_valid_o    (grp_valid),
    .out_ready_i    (grp_ready),
    .out_addr_o     (grp_addr),
    .out_lane_mask_o(grp_mask),
    .out_last_o     (grp_last),
    .idle_o         (match_idle)
  );
  // accept implies match_idle, so the matcher is always ready when the top accepts.
  logic unused_match;
  assign unused_match = match_in_ready ^ grp_last;

  // ------------------------------------------------------------ scheduler
  logic                 red_valid, red_ready, lsu_valid, lsu_ready, sched_reduce;
  logic [AddrWidth-1:0] sched_addr;
  logic [Lanes-1:0]     sched_mask;
  arc_sched #(.Lanes(Lanes), .AddrWidth(AddrWidth), .ThrWidth(6)) u_sched (
    .mode_i         (mode_q),
    .threshold_i    (threshold_q),
    .busy_i         (busy_q),
    .in_valid_i     (grp_valid),
    .in_ready_o     (grp_ready),
    .in_addr_i      (grp_addr),
    .in_lane_mask_i (grp_mask),
    .red_valid_o    (red_valid),
    .red_ready_i    (red_ready),
    .red_idle_i     (red_idle),
    .lsu_valid_o    (lsu_valid),
    .lsu_ready_i    (lsu_ready),
    .lsu_idle_i     (lsu_idle),
    .out_addr_o     (sched_addr),
    .out_lane_mask_o(sched_mask),
    .reduce_o       (sched_reduce)
  );
  logic unused_sched;
  assign unused_sched = sched_reduce;

  // ------------------------------------------------------------ operand read port
  // The scheduler never lets both units hold a group, so one read port serves both: each unit
  // requests only while it holds a group or accepts one.
  logic [IdxWidth-1:0] red_lane, lsu_lane, rd_lane;
  logic                red_rf_valid, lsu_rf_valid, rd_ready;
  logic [31:0]         rd_value;
  logic [Lanes*32-1:0] rd_row;  // the value operand, all lanes: from the register file or the operand register
  assign rd_lane = lsu_rf_valid ? lsu_lane : red_lane;

  if (RfPort != 0) begin : g_rf_port
    assign rf_valid_o = red_rf_valid || lsu_rf_valid;
    assign rf_lane_o  = rd_lane;
    assign rd_ready   = rf_ready_i;
    assign rd_row     = rf_row_i;
    logic unused_value;
    assign unused_value = ^instr_value_i;
  end else begin : g_operand_reg
    logic [Lanes*32-1:0] value_q;
    always_ff @(posedge clk_i) begin
      if (accept) value_q <= instr_value_i;
    end
    assign rf_valid_o = 1'b0;
    assign rf_lane_o  = '0;
    assign rd_ready   = 1'b1;
    assign rd_row     = value_q;
    logic unused_rf;
    assign unused_rf = rf_ready_i ^ (^rf_row_i) ^ red_rf_valid;
  end
  arc_lane_select #(.Lanes(Lanes), .Width(32)) u_lane_select (
    .row_i  (rd_row),
    .lane_i (rd_lane),
    .value_o(rd_value)
  );

  // ------------------------------------------------------------ group address
  // One address register for both units: the scheduler gives a group to one unit at a time
  // (the other is idle), and a unit takes its next group only in the cycle its last
  // transaction leaves, so the dispatched group's address is every offered transaction's.
  logic [AddrWidth-1:0] grp_addr_q;
  always_ff @(posedge clk_i) begin
    if ((red_valid && red_ready) || (lsu_valid && lsu_ready)) grp_addr_q <= sched_addr;
  end

  // ------------------------------------------------------------ reduction unit
  logic             red_out_valid;
  logic [31:0]      red_out_sum;
  logic [Lanes-1:0] red_out_mask;
  arc_reduce #(.Lanes(Lanes), .FTZ(FTZ), .Stages(Stages)) u_reduce (
    .clk_i,
    .rst_ni,
    .in_valid_i     (red_valid),
    .in_ready_o     (red_ready),
    .in_lane_mask_i (sched_mask),
    .rf_valid_o     (red_rf_valid),
    .rf_ready_i     (rd_ready),
    .rf_lane_o      (red_lane),
    .rf_value_i     (rd_value),
    .out_valid_o    (red_out_valid),
    .out_ready_i    (txn_ready_i),
    .out_sum_o      (red_out_sum),
    .out_lane_mask_o(red_out_mask),
    .idle_o         (red_idle)
  );

  // ------------------------------------------------------------ LSU route
  logic             lsu_out_valid;
  logic [31:0]      lsu_out_value;
  logic [Lanes-1:0] lsu_out_mask;
  arc_lane_issue #(.Lanes(Lanes)) u_lane_issue (
    .clk_i,
    .rst_ni,
    .in_valid_i     (lsu_valid),
    .in_ready_o     (lsu_ready),
    .in_lane_mask_i (sched_mask),
    .rf_valid_o     (lsu_rf_valid),
    .rf_ready_i     (rd_ready),
    .rf_lane_o      (lsu_lane),
    .rf_value_i     (rd_value),
    .out_valid_o    (lsu_out_valid),
    .out_ready_i    (txn_ready_i),
    .out_value_o    (lsu_out_value),
    .out_lane_mask_o(lsu_out_mask),
    .idle_o         (lsu_idle)
  );

  // ------------------------------------------------------------ output merge
  // At most one unit holds a group, so at most one offers a transaction.
  assign txn_valid_o     = red_out_valid || lsu_out_valid;
  assign txn_reduced_o   = red_out_valid;
  assign txn_addr_o      = grp_addr_q;
  assign txn_value_o     = red_out_valid ? red_out_sum : lsu_out_value;
  assign txn_lane_mask_o = red_out_valid ? red_out_mask : lsu_out_mask;

endmodule
