// arc_fp32_add_align: first half of arc_fp32_add (binary32, round to nearest even): unpack,
// order by magnitude, align the smaller operand (sticky-collecting shift), add or subtract.
// Its outputs are everything the second half (arc_fp32_add_round) needs, so that
// arc_fp32_add_pipe can put a pipeline register between the two. Combinational.
module arc_fp32_add_align #(
  parameter int FTZ = 1
) (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [27:0] raw_o,       // carry, significand[23:0], guard, round, sticky of the sum
  output logic [7:0]  big_exp_o,   // effective exponent of the larger operand
  output logic        big_sign_o,
  output logic        zero_sign_o, // sign of an exact-zero result (RNE: -0 only if both are -0)
  output logic        result_nan_o,
  output logic        result_inf_o,
  output logic        inf_sign_o
);

  // ---------------------------------------------------------------- unpack
  logic       a_sign, b_sign;
  logic [7:0] a_exp, b_exp;
  logic [22:0] a_man, b_man;
  assign {a_sign, a_exp, a_man} = a_i;
  assign {b_sign, b_exp, b_man} = b_i;

  logic a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  assign a_nan  = (a_exp == 8'hFF) && (a_man != 23'd0);
  assign b_nan  = (b_exp == 8'hFF) && (b_man != 23'd0);
  assign a_inf  = (a_exp == 8'hFF) && (a_man == 23'd0);
  assign b_inf  = (b_exp == 8'hFF) && (b_man == 23'd0);
  // A subnormal input counts as zero when flushing.
  assign a_zero = (a_exp == 8'd0) && ((FTZ != 0) || (a_man == 23'd0));
  assign b_zero = (b_exp == 8'd0) && ((FTZ != 0) || (b_man == 23'd0));

  // Effective exponent (subnormals live at exponent 1) and significand with hidden bit.
  logic [7:0]  a_eexp, b_eexp;
  logic [23:0] a_sig, b_sig;
  assign a_eexp = a_zero ? 8'd0 : ((a_exp == 8'd0) ? 8'd1 : a_exp);
  assign b_eexp = b_zero ? 8'd0 : ((b_exp == 8'd0) ? 8'd1 : b_exp);
  assign a_sig  = a_zero ? 24'd0 : {a_exp != 8'd0, a_man};
  assign b_sig  = b_zero ? 24'd0 : {b_exp != 8'd0, b_man};

  // ---------------------------------------------------------------- order by magnitude
  logic        a_ge_b;
  logic        sml_sign;
  logic [7:0]  sml_exp;
  logic [23:0] big_sig, sml_sig;
  assign a_ge_b     = {a_eexp, a_sig} >= {b_eexp, b_sig};
  assign big_sign_o = a_ge_b ? a_sign : b_sign;
  assign sml_sign   = a_ge_b ? b_sign : a_sign;
  assign big_exp_o  = a_ge_b ? a_eexp : b_eexp;
  assign sml_exp    = a_ge_b ? b_eexp : a_eexp;
  assign big_sig    = a_ge_b ? a_sig : b_sig;
  assign sml_sig    = a_ge_b ? b_sig : a_sig;

  // ---------------------------------------------------------------- align
  // A shift of 26 already moves every significand bit below the round bit, so larger gaps
  // clamp to 26 without changing the result.
  logic [7:0]  exp_gap;
  logic [4:0]  shift_r;
  logic [49:0] sml_wide;
  logic [26:0] sml_al;  // {significand[23:0], guard, round, sticky}
  logic [26:0] big_al;
  assign exp_gap  = big_exp_o - sml_exp;
  assign shift_r  = (exp_gap > 8'd26) ? 5'd26 : exp_gap[4:0];
  assign sml_wide = {sml_sig, 26'd0} >> shift_r;
  assign sml_al   = {sml_wide[49:24], |sml_wide[23:0]};
  assign big_al   = {big_sig, 3'b000};

  // ---------------------------------------------------------------- add / subtract
  logic        eff_sub;
  assign eff_sub = big_sign_o ^ sml_sign;
  assign raw_o   = eff_sub ? ({1'b0, big_al} - {1'b0, sml_al})
                           : ({1'b0, big_al} + {1'b0, sml_al});

  assign zero_sign_o  = a_sign & b_sign;
  assign result_nan_o = a_nan || b_nan || (a_inf && b_inf && (a_sign != b_sign));
  assign result_inf_o = a_inf || b_inf;
  assign inf_sign_o   = a_inf ? a_sign : b_sign;

endmodule
