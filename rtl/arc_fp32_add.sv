// arc_fp32_add: combinational IEEE-754 binary32 adder, round to nearest even.
//
// Fixed interface (independent checks drive it as is): ports a, b, y; parameter FTZ.
//   FTZ = 1: subnormal inputs and results are flushed to a zero of the same sign, as PTX
//            red/atom.add.f32 do (the ROP semantics in ../shared/DESIGN.md).
//   FTZ = 0: full IEEE subnormal support, as plain add.f32 without .ftz.
// Any NaN result is the canonical 0x7FFFFFFF; inf + -inf = NaN; x + (-x) = +0; -0 + -0 = -0.
//
// Data path (one far/near path with guard, round and sticky bits, HardFloat-style):
//   unpack -> order by magnitude -> align the smaller operand (sticky-collecting shift)
//   -> add or subtract -> normalize (right by 1 on carry, left by the leading-zero count,
//   stopping at the subnormal boundary) -> round to nearest even -> pack, specials last.
// The exact sum of two binary32 numbers below 2^-126 is itself representable as a subnormal,
// so no rounding happens on a tiny result and FTZ needs no tininess rule.
module arc_fp32_add #(
  parameter int FTZ = 1
) (
  input  logic [31:0] a,
  input  logic [31:0] b,
  output logic [31:0] y
);

  localparam logic [31:0] CanonicalNaN = 32'h7FFF_FFFF;

  // ---------------------------------------------------------------- unpack
  logic       a_sign, b_sign;
  logic [7:0] a_exp, b_exp;
  logic [22:0] a_man, b_man;
  assign {a_sign, a_exp, a_man} = a;
  assign {b_sign, b_exp, b_man} = b;

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
  logic        big_sign, sml_sign;
  logic [7:0]  big_exp, sml_exp;
  logic [23:0] big_sig, sml_sig;
  assign a_ge_b   = {a_eexp, a_sig} >= {b_eexp, b_sig};
  assign big_sign = a_ge_b ? a_sign : b_sign;
  assign sml_sign = a_ge_b ? b_sign : a_sign;
  assign big_exp  = a_ge_b ? a_eexp : b_eexp;
  assign sml_exp  = a_ge_b ? b_eexp : a_eexp;
  assign big_sig  = a_ge_b ? a_sig : b_sig;
  assign sml_sig  = a_ge_b ? b_sig : a_sig;

  // ---------------------------------------------------------------- align
  // A shift of 26 already moves every significand bit below the round bit, so larger gaps
  // clamp to 26 without changing the result.
  logic [7:0]  exp_gap;
  logic [4:0]  shift_r;
  logic [49:0] sml_wide;
  logic [26:0] sml_al;  // {significand[23:0], guard, round, sticky}
  logic [26:0] big_al;
  assign exp_gap  = big_exp - sml_exp;
  assign shift_r  = (exp_gap > 8'd26) ? 5'd26 : exp_gap[4:0];
  assign sml_wide = {sml_sig, 26'd0} >> shift_r;
  assign sml_al   = {sml_wide[49:24], |sml_wide[23:0]};
  assign big_al   = {big_sig, 3'b000};

  // ---------------------------------------------------------------- add / subtract
  logic        eff_sub;
  logic [27:0] raw;
  assign eff_sub = big_sign ^ sml_sign;
  assign raw     = eff_sub ? ({1'b0, big_al} - {1'b0, sml_al})
                           : ({1'b0, big_al} + {1'b0, sml_al});

  // ---------------------------------------------------------------- normalize
  // Leading zeros of a 27-bit value (27 when it is zero): the highest set bit wins.
  function automatic logic [4:0] lead_zeros27(input logic [26:0] v);
    integer i;
    begin
      lead_zeros27 = 5'd27;
      for (i = 0; i < 27; i = i + 1) begin
        if (v[i]) lead_zeros27 = 5'd26 - i[4:0];
      end
    end
  endfunction

  logic [4:0]  lz;
  logic [7:0]  max_left;   // never shift the exponent below 1 (subnormal boundary)
  logic [4:0]  shift_l;
  logic [26:0] left_norm;
  logic [23:0] mant;       // 24-bit significand before rounding
  logic        guard, sticky;
  logic [8:0]  exp_norm;   // biased exponent of mant when mant[23] is set
  assign lz        = lead_zeros27(raw[26:0]);
  assign max_left  = big_exp - 8'd1;
  assign shift_l   = ({3'd0, lz} > max_left) ? max_left[4:0] : lz;
  assign left_norm = raw[26:0] << shift_l;

  // A carry out of the add shifts right by one; otherwise shift left to normalize.
  assign mant     = raw[27] ? raw[27:4] : left_norm[26:3];
  assign guard    = raw[27] ? raw[3]    : left_norm[2];
  assign sticky   = raw[27] ? |raw[2:0] : |left_norm[1:0];
  assign exp_norm = raw[27] ? {1'b0, big_exp} + 9'd1 : {1'b0, big_exp} - {4'd0, shift_l};

  // ---------------------------------------------------------------- round (nearest even)
  logic        round_up;
  logic [24:0] mant_rnd;
  logic [8:0]  exp_rnd;
  logic [22:0] frac_out;
  logic [7:0]  exp_field;
  assign round_up  = guard & (sticky | mant[0]);
  assign mant_rnd  = {1'b0, mant} + {24'd0, round_up};
  assign exp_rnd   = exp_norm + {8'd0, mant_rnd[24]};
  assign frac_out  = mant_rnd[24] ? mant_rnd[23:1] : mant_rnd[22:0];
  // Hidden bit clear after normalization means the result is subnormal (exponent field 0).
  assign exp_field = (mant_rnd[24] || mant_rnd[23]) ? exp_rnd[7:0] : 8'd0;

  // ---------------------------------------------------------------- pack
  logic exact_zero, overflow, tiny;
  assign exact_zero = (raw == 28'd0);
  assign overflow   = (exp_rnd >= 9'd255) && (mant_rnd[24] || mant_rnd[23]);
  assign tiny       = (exp_field == 8'd0);

  // Priority: NaN, infinity, exact zero (RNE: +0 unless both operands are -0), overflow,
  // flushed subnormal (sign kept), ordinary result.
  logic result_nan, result_inf;
  assign result_nan = a_nan || b_nan || (a_inf && b_inf && (a_sign != b_sign));
  assign result_inf = a_inf || b_inf;
  assign y = result_nan               ? CanonicalNaN
           : result_inf               ? {a_inf ? a_sign : b_sign, 8'hFF, 23'd0}
           : exact_zero               ? {a_sign & b_sign, 31'd0}
           : overflow                 ? {big_sign, 8'hFF, 23'd0}
           : (tiny && (FTZ != 0))     ? {big_sign, 31'd0}
           :                            {big_sign, exp_field, frac_out};

endmodule
