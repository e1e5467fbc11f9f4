// arc_reduce: ARC's reduction unit (paper 4.3 "Warp-level Reduction", 5.1, Figure 12). Sums a
// group's lane values serially, in ascending lane order, through ONE arc_fp32_add, then emits
// one atomic (sum, lane mask; the group's address is held by arc_subcore_top, which owns one
// address register for both units). The first (lowest) lane's value is the start, so the
// sum is bit-exact with SW-S on a GPU (leader starts from its own value) and with
// arc::golden::serial_sum; a one-lane group is its value unchanged.
//
// Values are fetched lane by lane through a register-file read port with a valid/ready
// handshake (rf_valid_o, rf_lane_o -> rf_ready_i, rf_value_i: the value is taken in the
// handshake cycle), as Figure 12's serial register-file fetch. An RF that is not ready delays
// the next add; arc_subcore_top ties rf_ready_i to 1 when the values come from its operand
// register (RfPort = 0).
//
// Cycle behaviour with rf_ready_i = 1 (tests/rtl/test_rtl_units.cpp, cosim/golden/rtl_timing.h):
//   - a group of n lanes accepted in cycle D loads its first lane in D, adds one lane per
//     cycle in D+1 .. D+n-1, and offers the sum in cycle D+n (latency n, 1 lane/cycle);
//   - the sum is held until out_ready_i; in_ready_o is high when idle or in the cycle the sum
//     is taken, so back-to-back groups need no bubble (n cycles per group);
//   - Stages = 1 (default, rtl_timing.h): the adder is combinational, one add per cycle;
//   - Stages = S > 1 (arc_fp32_add_pipe, 1 add/cycle throughput): each add needs the previous
//     sum, so the next lane is read only when it is out: a group of n lanes is offered
//     1 + (n-1)*S cycles after its accept (32 lanes, S = 2: 63 cycles instead of 32). The order
//     of the adds, and so the sum, is the same for every S (tests/rtl/test_rtl_units.cpp).
// Precondition: in_lane_mask_i is not empty (the matcher never emits an empty group).
module arc_reduce #(
  parameter int Lanes     = 32,
  parameter int FTZ       = 1,
  parameter int Stages    = 1,   // adder pipeline stages (arc_fp32_add_pipe): 1 or 2
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
  // Reduced atomic out.
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [31:0]          out_sum_o,
  output logic [Lanes-1:0]     out_lane_mask_o,
  // No group held.
  output logic                 idle_o
);

  logic                busy_q;  // a group is held (adding or waiting to be emitted)
  logic [Lanes-1:0]    mask_q;  // the group's lanes
  logic [IdxWidth:0]   pos_q;   // the lanes of mask_q at index >= pos_q are still to be added
  logic [31:0]         acc_q;
  logic                first_q; // acc_q holds no lane yet (the RF was not ready at accept)

  // Lanes still to be added. Lanes are read in ascending order, so a (log2(Lanes)+1)-bit
  // position after the last lane read replaces a Lanes-bit remaining-lanes register.
  logic [Lanes-1:0] rem;
  always_comb begin
    for (int i = 0; i < Lanes; i++) rem[i] = mask_q[i] && ((IdxWidth + 1)'(i) >= pos_q);
  end

  logic adding;
  assign adding = busy_q && (rem != '0);

  // The lane to read: the lowest remaining lane while adding, else the incoming group's first.
  logic [Lanes-1:0]    scan;
  logic [Lanes-1:0]    scan_onehot;
  logic                scan_empty;
  logic                unused_scan;
  assign unused_scan = scan_empty ^ (^scan_onehot);
  assign scan = adding ? rem : in_lane_mask_i;
  arc_find_first #(.Width(Lanes)) u_next (
    .in_i    (scan),
    .idx_o   (rf_lane_o),
    .onehot_o(scan_onehot),
    .empty_o (scan_empty)
  );

  // The adder. With Stages > 1 its sum of (acc_q, lane) arrives Stages-1 cycles after the lane
  // is read, and the next lane's add needs that sum: a lane is read only while no add is in
  // flight (pending), so every add still follows the previous one in ascending lane order.
  logic [31:0] sum;
  arc_fp32_add_pipe #(.FTZ(FTZ), .Stages(Stages)) u_add (
    .clk_i,
    .a_i(acc_q),
    .b_i(rf_value_i),
    .y_o(sum)
  );
  logic pending;  // an add is in the adder pipeline
  logic sum_ready;  // `sum` is the in-flight add's result this cycle (Stages > 1)

  assign out_valid_o     = busy_q && !adding && !pending;
  assign out_sum_o       = acc_q;
  assign out_lane_mask_o = mask_q;
  assign idle_o          = !busy_q;
  assign in_ready_o      = !busy_q || (out_valid_o && out_ready_i);

  logic accept, rd;
  assign accept     = in_valid_i && in_ready_o;
  assign rf_valid_o = (adding && !pending) || accept;
  assign rd         = rf_valid_o && rf_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
    end else if (accept) begin
      busy_q <= 1'b1;
    end else if (out_valid_o && out_ready_i) begin
      busy_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) begin
      mask_q  <= in_lane_mask_i;
      first_q <= !rd;
    end else if (rd) begin
      first_q <= 1'b0;
    end
    // The lane read is the lowest left, so every lane below it is done.
    if (rd) pos_q <= {1'b0, rf_lane_o} + 1'b1;
    else if (accept) pos_q <= '0;
    if (rd && (accept || first_q)) acc_q <= rf_value_i;
    else if (Stages == 1 ? rd : sum_ready) acc_q <= sum;
  end

  if (Stages > 1) begin : g_pend
    // pend_q[k]: an add issued k+1 cycles ago is still in the pipeline.
    logic [Stages-2:0] pend_q;
    logic              issue;
    assign issue = rd && !(accept || first_q);
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        pend_q <= '0;
      end else begin
        pend_q[0] <= issue;
        for (int k = 1; k < Stages - 1; k++) pend_q[k] <= pend_q[k-1];
      end
    end
    assign pending   = |pend_q;
    assign sum_ready = pend_q[Stages-2];
  end else begin : g_no_pend
    assign pending   = 1'b0;
    assign sum_ready = 1'b0;
  end

endmodule
