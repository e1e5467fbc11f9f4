// Icarus Verilog testbench for arc_subcore_top (run by test_icarus.cpp; plain SV that
// `iverilog -g2012` reads). Reads instructions from a hex file, offers each in turn on
// instr_valid_i with txn_ready_i held high, and writes every handshake to a text file:
//   A <instr> <cycle>                                   instruction accepted
//   T <instr> <cycle> <reduced> <addr> <value> <mask>   transaction taken (hex payload)
// Input: 66 hex words per instruction: mask, {busy[8], threshold[7:2], mode[1:0]},
// 32 addresses, 32 values. Plusargs: +in=<file> +out=<file> +n=<instructions>.
// Cycle 0 is the first cycle after two reset cycles, as in arc::dut::SubcoreDut.
`timescale 1ns / 1ps
module tb_subcore_top;
  parameter int FTZ = 1;
  parameter int Stages = 1;  // the reduction adder's pipeline stages (test_icarus runs 1 and 2)
  localparam int Words    = 66;
  localparam int MaxInstr = 8192;

  logic            clk_i = 1'b0;
  logic            rst_ni = 1'b0;
  logic            instr_valid_i = 1'b0;
  logic            instr_ready_o;
  logic [31:0]     instr_mask_i = '0;
  logic [1023:0]   instr_addr_i = '0;
  logic [1023:0]   instr_value_i = '0;
  logic [1:0]      mode_i = '0;
  logic [5:0]      threshold_i = '0;
  logic            busy_i = 1'b0;
  logic            txn_valid_o;
  logic            txn_ready_i = 1'b1;
  logic            txn_reduced_o;
  logic [31:0]     txn_addr_o;
  logic [31:0]     txn_value_o;
  logic [31:0]     txn_lane_mask_o;

  arc_subcore_top #(.AddrWidth(32), .FTZ(FTZ), .Stages(Stages)) dut (
    .clk_i, .rst_ni, .instr_valid_i, .instr_ready_o, .instr_mask_i, .instr_addr_i,
    .instr_value_i, .mode_i, .threshold_i, .busy_i, .txn_valid_o, .txn_ready_i,
    .txn_reduced_o, .txn_addr_o, .txn_value_o, .txn_lane_mask_o
  );

  always #5 clk_i = ~clk_i;

  logic [31:0] mem [0:Words*MaxInstr-1];
  string  in_file, out_file;
  integer n, idx, cyc, fd, accepted, l;
  logic   accept;

  task automatic load(input integer i);
    integer base;
    base = i * Words;
    instr_mask_i = mem[base];
    mode_i       = mem[base + 1][1:0];
    threshold_i  = mem[base + 1][7:2];
    busy_i       = mem[base + 1][8];
    for (l = 0; l < 32; l = l + 1) begin
      instr_addr_i[l*32 +: 32]  = mem[base + 2 + l];
      instr_value_i[l*32 +: 32] = mem[base + 34 + l];
    end
  endtask

  initial begin
    if (!$value$plusargs("in=%s", in_file) || !$value$plusargs("out=%s", out_file) ||
        !$value$plusargs("n=%d", n)) begin
      $display("usage: +in=<hex> +out=<txt> +n=<count>");
      $fatal(1);
    end
    if (n > MaxInstr) begin
      $display("at most %0d instructions", MaxInstr);
      $fatal(1);
    end
    $readmemh(in_file, mem, 0, n * Words - 1);
    fd = $fopen(out_file, "w");
    idx = 0;
    cyc = 0;
    accepted = 0;
    repeat (2) @(posedge clk_i);
    #1 rst_ni = 1'b1;
    if (n > 0) load(0);
    while (idx < n || !instr_ready_o || txn_valid_o) begin
      instr_valid_i = (idx < n);
      #1;  // combinational outputs settle
      if (txn_valid_o && txn_ready_i)
        $fwrite(fd, "T %0d %0d %0d %h %h %h\n", accepted - 1, cyc, txn_reduced_o, txn_addr_o,
                txn_value_o, txn_lane_mask_o);
      accept = instr_valid_i && instr_ready_o;
      if (accept) $fwrite(fd, "A %0d %0d\n", idx, cyc);
      @(posedge clk_i);
      #1;
      if (accept) begin
        accepted = accepted + 1;
        idx = idx + 1;
        if (idx < n) load(idx);
      end
      cyc = cyc + 1;
    end
    $fclose(fd);
    $finish;
  end
endmodule
