// Self-checking Icarus testbench of arc_addr_match alone (ctest rtl.icarus_addr_match, and a stage
// of scripts/mutate-rtl.sh): random instructions (masks, addresses from a set of 4 so lanes
// share them) under random out_ready_i, against a reference model written here: the groups
// lowest lane first, each lane mask, address and out_last_o exact, and in_ready_o high only when
// the matcher is idle or its last group is taken this cycle. In arc_subcore_top the matcher is
// started only when idle, so its in_ready_o / out_last_o are checked here and nowhere else.
// Prints "PASS <groups>" or the first mismatch and "FAIL"; `vvp` exits 0 either way, the caller
// greps. Plusargs: +n=<instructions> (default 3000), +seed=<int>.
`timescale 1ns / 1ps
module tb_addr_match;
  localparam int Lanes = 32;
  localparam int AW    = 32;

  logic                  clk_i = 1'b0;
  logic                  rst_ni = 1'b0;
  logic                  in_valid_i = 1'b0;
  logic                  in_ready_o;
  logic [Lanes-1:0]      in_mask_i = '0;
  logic [Lanes*AW-1:0]   in_addr_i = '0;
  logic                  out_valid_o;
  logic                  out_ready_i = 1'b0;
  logic [AW-1:0]         out_addr_o;
  logic [Lanes-1:0]      out_lane_mask_o;
  logic                  out_last_o;
  logic                  idle_o;

  arc_addr_match #(.Lanes(Lanes), .AddrWidth(AW)) dut (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o, .in_mask_i, .in_addr_i, .out_valid_o,
    .out_ready_i, .out_addr_o, .out_lane_mask_o, .out_last_o, .idle_o
  );

  always #5 clk_i = ~clk_i;

  // Expected groups of accepted instructions, in order.
  localparam int QMax = 65536;
  logic [AW-1:0]    q_addr [0:QMax-1];
  logic [Lanes-1:0] q_mask [0:QMax-1];
  logic             q_last [0:QMax-1];
  int head = 0, tail = 0, errors = 0, groups = 0;

  task automatic expect_groups(input logic [Lanes-1:0] mask, input logic [Lanes*AW-1:0] addr);
    logic [Lanes-1:0] rem, grp;
    logic [AW-1:0] lead;
    int l, i;
    rem = mask;
    while (rem != '0) begin
      l = 0;
      while (!rem[l]) l = l + 1;
      lead = addr[l*AW +: AW];
      grp = '0;
      for (i = 0; i < Lanes; i = i + 1) if (rem[i] && addr[i*AW +: AW] == lead) grp[i] = 1'b1;
      rem = rem & ~grp;
      q_addr[tail] = lead;
      q_mask[tail] = grp;
      q_last[tail] = (rem == '0);
      tail = tail + 1;
    end
  endtask

  int n, seed, accepted, i, cycles;
  logic take;
  initial begin
    if (!$value$plusargs("n=%d", n)) n = 3000;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    i = $urandom(seed);  // seeds the generator
    repeat (2) @(posedge clk_i);
    rst_ni = 1'b1;
    accepted = 0;
    cycles = 0;
    while ((accepted < n || head != tail) && cycles < 50 * n + 1000) begin
      @(negedge clk_i);
      cycles = cycles + 1;
      out_ready_i = ($urandom % 2) == 0;
      if (!in_valid_i && accepted < n && ($urandom % 4) != 0) begin
        in_valid_i = 1'b1;
        in_mask_i = $urandom;
        if (($urandom % 8) == 0) in_mask_i = '0;
        for (i = 0; i < Lanes; i = i + 1) in_addr_i[i*AW +: AW] = 32'h100 + ($urandom % 4);
      end
      #1;
      // in_ready_o: idle, or the last group leaves in this cycle.
      if (in_ready_o && out_valid_o && !(out_ready_i && out_last_o)) begin
        if (errors < 5) $display("in_ready_o high while a non-final or stalled group is held (cycle %0d)", cycles);
        errors = errors + 1;
      end
      if (!in_ready_o && !out_valid_o) begin
        if (errors < 5) $display("in_ready_o low while idle (cycle %0d)", cycles);
        errors = errors + 1;
      end
      if (idle_o != !out_valid_o) begin
        if (errors < 5) $display("idle_o wrong (cycle %0d)", cycles);
        errors = errors + 1;
      end
      if (out_valid_o && out_ready_i) begin
        if (head == tail || out_addr_o != q_addr[head] || out_lane_mask_o != q_mask[head] ||
            out_last_o != q_last[head]) begin
          if (errors < 5) $display("group %0d: got %h %h last %b", groups, out_addr_o, out_lane_mask_o, out_last_o);
          errors = errors + 1;
        end
        if (head != tail) head = head + 1;
        groups = groups + 1;
      end
      take = in_valid_i && in_ready_o;  // decided before the edge (in_ready_o is combinational)
      @(posedge clk_i);
      if (take) begin
        expect_groups(in_mask_i, in_addr_i);
        accepted = accepted + 1;
        #1 in_valid_i = 1'b0;
      end
    end
    if (accepted < n || head != tail) begin
      $display("stuck: %0d of %0d instructions accepted, %0d groups pending", accepted, n, tail - head);
      errors = errors + 1;
    end
    if (errors == 0) $display("PASS %0d groups", groups);
    else $display("FAIL %0d errors", errors);
    $finish;
  end
endmodule
