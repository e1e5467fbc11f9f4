// arc_fp32_add: combinational IEEE-754 binary32 adder, round to nearest even.
//
// Fixed interface (independent checks drive it as is): ports a_i, b_i, y_o; parameter FTZ.
//   FTZ = 1: subnormal inputs and results are flushed to a zero of the same sign, as PTX
//            red/atom.add.f32 do (the ROP semantics in ../shared/DESIGN.md).
//   FTZ = 0: full IEEE subnormal support, as plain add.f32 without .ftz.
// Any NaN result is the canonical 0x7FFFFFFF; inf + -inf = NaN; x + (-x) = +0; -0 + -0 = -0.
//
// Data path (one far/near path with guard, round and sticky bits, HardFloat-style), in two
// modules, arc_fp32_add_align then arc_fp32_add_round:
//   unpack -> order by magnitude -> align the smaller operand (sticky-collecting shift)
//   -> add or subtract -> normalize (right by 1 on carry, left by the leading-zero count,
//   stopping at the subnormal boundary) -> round to nearest even -> pack, specials last.
// The exact sum of two binary32 numbers below 2^-126 is itself representable as a subnormal,
// so no rounding happens on a tiny result and FTZ needs no tininess rule.
module arc_fp32_add #(
  parameter int FTZ = 1
) (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  // Two halves (arc_fp32_add_pipe puts a register between them when pipelined).
  logic [27:0] raw;
  logic [7:0]  big_exp;
  logic        big_sign, zero_sign, result_nan, result_inf, inf_sign;
  arc_fp32_add_align #(.FTZ(FTZ)) u_align (
    .a_i, .b_i, .raw_o(raw), .big_exp_o(big_exp), .big_sign_o(big_sign), .zero_sign_o(zero_sign),
    .result_nan_o(result_nan), .result_inf_o(result_inf), .inf_sign_o(inf_sign)
  );
  arc_fp32_add_round #(.FTZ(FTZ)) u_round (
    .raw_i(raw), .big_exp_i(big_exp), .big_sign_i(big_sign), .zero_sign_i(zero_sign),
    .result_nan_i(result_nan), .result_inf_i(result_inf), .inf_sign_i(inf_sign), .y_o
  );

endmodule
