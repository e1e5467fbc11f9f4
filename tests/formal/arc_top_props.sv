// Formal properties of arc_subcore_top (yosys-smtbmc bounded proofs; tests/formal/run_formal.sh).
// Every input of the top is free (solver-chosen each cycle): instructions, masks, addresses,
// values, mode/threshold/busy, txn_ready_i back-pressure and, for RfPort = 1, rf_ready_i. The
// only assumptions: reset in the first cycle, and a register-file read returns the accepted
// instruction's register (rf_row_i = its values, all lanes; the top selects rf_lane_o's).
//
// The checker keeps its own reference of the instruction in flight, written from the spec
// (arc::golden::process), not from the RTL: the lanes not yet sent, the addresses and values.
// Prop selects one property group, so that each is proved, and refuted on its planted bug, alone:
//   1 "lanes": every transaction is the reference's next one: the group of the lowest
//     remaining lane (lane mask, address, route); a per-lane atomic carries that lane's value;
//     a reduced atomic carries the serial sum of its lanes' values in ascending lane order
//     (the same arc_fp32_add, lowest lane first); with RfPort = 1 every register-file read is
//     the reference's next lane (each active lane read exactly once, ascending within a group).
//   2 "handshake": under any back-pressure a held transaction stays valid with a stable payload;
//     no transaction without an instruction in flight; the top reports ready for the next
//     instruction only when every lane of the previous one has been sent (nothing lost).
//   3 "bound": an accepted instruction completes within Bound cycles in which txn_ready_i (and
//     rf_ready_i) were high, i.e. once back-pressure releases; Bound = 2*Lanes + 2.
module arc_top_props #(
  parameter int Prop      = 1,
  parameter int RfPort    = 0,
  parameter int Lanes     = 4,
  parameter int AddrWidth = 2,
  parameter int FTZ       = 1,
  parameter int Bound     = 2 * Lanes + 2
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic                       instr_valid_i,
  input logic [Lanes-1:0]           instr_mask_i,
  input logic [Lanes*AddrWidth-1:0] instr_addr_i,
  input logic [Lanes*32-1:0]        instr_value_i,
  input logic                       rf_ready_i,
  input logic [Lanes*32-1:0]        rf_row_i,
  input logic [1:0]                 mode_i,
  input logic [5:0]                 threshold_i,
  input logic                       busy_i,
  input logic                       txn_ready_i
);
  localparam int IdxWidth = $clog2(Lanes);

  logic                 instr_ready, rf_valid, txn_valid, txn_reduced;
  logic [IdxWidth-1:0]  rf_lane;
  logic [AddrWidth-1:0] txn_addr;
  logic [31:0]          txn_value;
  logic [Lanes-1:0]     txn_mask;

  arc_subcore_top #(.AddrWidth(AddrWidth), .FTZ(FTZ), .RfPort(RfPort), .Lanes(Lanes)) dut (
    .clk_i, .rst_ni, .instr_valid_i, .instr_ready_o(instr_ready), .instr_mask_i, .instr_addr_i,
    .instr_value_i, .rf_valid_o(rf_valid), .rf_ready_i, .rf_lane_o(rf_lane), .rf_row_i,
    .mode_i, .threshold_i, .busy_i, .txn_valid_o(txn_valid), .txn_ready_i,
    .txn_reduced_o(txn_reduced), .txn_addr_o(txn_addr), .txn_value_o(txn_value),
    .txn_lane_mask_o(txn_mask)
  );

  // ---------------------------------------------------------------- assumptions
  logic init_q = 1'b1;
  always @(posedge clk_i) init_q <= 1'b0;
  always @(*) begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  // ---------------------------------------------------------------- reference state
  logic                       accept;
  assign accept = instr_valid_i && instr_ready;
  logic [Lanes-1:0]           rem_q;     // lanes not yet sent
  logic [Lanes-1:0]           unread_q;  // lanes not yet read from the RF (RfPort = 1)
  logic [Lanes*AddrWidth-1:0] addr_q;
  logic [Lanes*32-1:0]        val_q;
  logic [1:0]                 mode_q;
  logic [5:0]                 thr_q;
  logic                       busy_q;

  // RF model: a read returns the accepted instruction's register, all lanes (the top selects
  // the lane; a read outside rf_valid returns anything).
  always @(*) if (!init_q && rf_valid) assume (rf_row_i == val_q);

  // The next transaction per the spec: the next lane of the group being sent per lane (grp_q),
  // else the group of the lowest remaining lane, reduced or its first lane per the route.
  logic [Lanes-1:0]     grp_q;     // unsent lanes of the group being sent as per-lane atomics
  logic [IdxWidth-1:0]  lead;
  logic [Lanes-1:0]     group, exp_mask, sel;
  logic [AddrWidth-1:0] lead_addr;
  logic [6:0]           count;
  logic                 exp_reduce;
  always @(*) begin
    sel  = (grp_q != '0) ? grp_q : rem_q;
    lead = '0;
    for (int l = Lanes - 1; l >= 0; l--) if (sel[l]) lead = IdxWidth'(l);
    lead_addr = addr_q[lead*AddrWidth +: AddrWidth];
    count = '0;
    for (int l = 0; l < Lanes; l++) begin
      group[l] = sel[l] && addr_q[l*AddrWidth +: AddrWidth] == lead_addr;
      count = count + 7'(group[l]);
    end
    if (grp_q != '0) exp_reduce = 1'b0;
    else begin
      case (mode_q)
        2'd0: exp_reduce = 1'b0;
        2'd1: exp_reduce = 1'b1;
        2'd2: exp_reduce = {1'b0, count} >= {2'b0, thr_q};
        default: exp_reduce = busy_q;
      endcase
    end
    exp_mask = exp_reduce ? group : (Lanes'(1) << lead);
  end

  // The serial sum of the group: lowest lane's value, then each further lane in ascending order.
  logic [31:0] chain [Lanes];
  logic [31:0] added [Lanes];
  for (genvar l = 0; l < Lanes; l++) begin : g_chain
    if (l == 0) begin : g_first
      assign chain[0] = val_q[31:0];
      assign added[0] = '0;
    end else begin : g_next
      arc_fp32_add #(.FTZ(FTZ)) u_add (.a_i(chain[l-1]), .b_i(val_q[l*32 +: 32]), .y_o(added[l]));
      // Before the group's lowest lane: start from this lane; after it: add; not in it: keep.
      assign chain[l] = !group[l] ? chain[l-1]
                      : ((group & ((Lanes'(1) << l) - Lanes'(1))) == '0) ? val_q[l*32 +: 32]
                      : added[l];
    end
  end

  // The next RF read per the spec: the lowest unread lane of the group being read, the group
  // of the lowest unread lane when none is being read.
  logic [Lanes-1:0] rd_grp_q, rd_group;
  logic [IdxWidth-1:0] rd_lead, exp_rd;
  always @(*) begin
    rd_lead = '0;
    for (int l = Lanes - 1; l >= 0; l--) if (unread_q[l]) rd_lead = IdxWidth'(l);
    for (int l = 0; l < Lanes; l++)
      rd_group[l] = unread_q[l] &&
                    addr_q[l*AddrWidth +: AddrWidth] == addr_q[rd_lead*AddrWidth +: AddrWidth];
    exp_rd = '0;
    for (int l = Lanes - 1; l >= 0; l--)
      if ((rd_grp_q != '0) ? rd_grp_q[l] : rd_group[l]) exp_rd = IdxWidth'(l);
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rem_q    <= '0;
      grp_q    <= '0;
      unread_q <= '0;
      rd_grp_q <= '0;
    end else begin
      if (accept) begin
        rem_q    <= instr_mask_i;
        grp_q    <= '0;
        unread_q <= instr_mask_i;
        rd_grp_q <= '0;
        addr_q   <= instr_addr_i;
        val_q    <= instr_value_i;
        mode_q   <= mode_i;
        thr_q    <= threshold_i;
        busy_q   <= busy_i;
      end
      if (txn_valid && txn_ready_i) begin
        rem_q <= rem_q & ~exp_mask;
        grp_q <= exp_reduce ? '0 : group & ~exp_mask;
      end
      if (rf_valid && rf_ready_i) begin
        unread_q <= unread_q & ~(Lanes'(1) << rf_lane);
        rd_grp_q <= ((rd_grp_q != '0) ? rd_grp_q : rd_group) & ~(Lanes'(1) << rf_lane);
      end
    end
  end

  // ---------------------------------------------------------------- properties
  logic             held_q;  // a transaction was offered and not taken last cycle
  logic             held_red_q;
  logic [AddrWidth-1:0] held_addr_q;
  logic [31:0]      held_value_q;
  logic [Lanes-1:0] held_mask_q;
  logic [7:0]       cnt_q;   // cycles without back-pressure since the accept
  always @(posedge clk_i) begin
    held_q       <= rst_ni && txn_valid && !txn_ready_i;
    held_red_q   <= txn_reduced;
    held_addr_q  <= txn_addr;
    held_value_q <= txn_value;
    held_mask_q  <= txn_mask;
    if (!rst_ni || accept) cnt_q <= '0;
    else if (txn_ready_i && (RfPort == 0 || rf_ready_i) && cnt_q != 8'hFF) cnt_q <= cnt_q + 8'd1;
  end

  always @(*) begin
    if (!init_q && rst_ni) begin
      if (Prop == 1) begin
        if (txn_valid && txn_ready_i) begin
          assert (txn_mask == exp_mask);
          assert (txn_addr == lead_addr);
          assert (txn_reduced == exp_reduce);
          if (!exp_reduce) assert (txn_value == val_q[lead*32 +: 32]);
          else assert (txn_value == chain[Lanes-1]);
        end
        if (RfPort != 0 && rf_valid && rf_ready_i) begin
          assert (unread_q != '0);
          assert (rf_lane == exp_rd);
        end
      end
      if (Prop == 2) begin
        if (held_q) begin
          assert (txn_valid);
          assert (txn_reduced == held_red_q && txn_addr == held_addr_q &&
                  txn_value == held_value_q && txn_mask == held_mask_q);
        end
        if (txn_valid) assert (rem_q != '0 && (txn_mask & ~rem_q) == '0);
        if (instr_ready) assert (rem_q == '0);
      end
      if (Prop == 3) begin
        if (!instr_ready) assert (cnt_q <= 8'(Bound));
      end
    end
  end

endmodule
