// arc_fp32_add_pipe: arc_fp32_add with Stages pipeline stages and one add per cycle throughput.
//   Stages = 1: arc_fp32_add itself (combinational: y_o is the sum of this cycle's a_i, b_i);
//   Stages = 2: a register between arc_fp32_add_align and arc_fp32_add_round (41 bits): y_o in
//               cycle t+1 is the sum of a_i, b_i of cycle t; a new pair every cycle.
// The same two halves as arc_fp32_add, so every Stages gives bit-identical sums. The register
// has no enable and no reset: it is a pure delay line (the user tracks which cycle's sum y_o is,
// as arc_reduce does). Logic depth per stage: `arcsim area` (Yosys ltp) prints it.
module arc_fp32_add_pipe #(
  parameter int FTZ    = 1,
  parameter int Stages = 1   // 1 or 2
) (
  input  logic        clk_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  if (Stages == 1) begin : g_comb
    arc_fp32_add #(.FTZ(FTZ)) u_add (.a_i, .b_i, .y_o);
    logic unused_clk;
    assign unused_clk = clk_i;
  end else if (Stages == 2) begin : g_two
    logic [27:0] raw, raw_q;
    logic [7:0]  big_exp, big_exp_q;
    logic        big_sign, zero_sign, result_nan, result_inf, inf_sign;
    logic        big_sign_q, zero_sign_q, result_nan_q, result_inf_q, inf_sign_q;
    arc_fp32_add_align #(.FTZ(FTZ)) u_align (
      .a_i, .b_i, .raw_o(raw), .big_exp_o(big_exp), .big_sign_o(big_sign), .zero_sign_o(zero_sign),
      .result_nan_o(result_nan), .result_inf_o(result_inf), .inf_sign_o(inf_sign)
    );
    always_ff @(posedge clk_i) begin
      raw_q        <= raw;
      big_exp_q    <= big_exp;
      big_sign_q   <= big_sign;
      zero_sign_q  <= zero_sign;
      result_nan_q <= result_nan;
      result_inf_q <= result_inf;
      inf_sign_q   <= inf_sign;
    end
    arc_fp32_add_round #(.FTZ(FTZ)) u_round (
      .raw_i(raw_q), .big_exp_i(big_exp_q), .big_sign_i(big_sign_q), .zero_sign_i(zero_sign_q),
      .result_nan_i(result_nan_q), .result_inf_i(result_inf_q), .inf_sign_i(inf_sign_q), .y_o
    );
  end else begin : g_bad
    // Not implemented: stop any simulation at once (arcsim area rejects Stages > 2 itself).
    initial $fatal(1, "arc_fp32_add_pipe: Stages must be 1 or 2");
    assign y_o = 32'h7FFF_FFFF;
    logic unused_in;
    assign unused_in = clk_i ^ (^a_i) ^ (^b_i);
  end

endmodule
