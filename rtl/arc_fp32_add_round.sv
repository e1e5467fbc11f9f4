// arc_fp32_add_round: second half of arc_fp32_add: normalize (right by 1 on carry, left by the
// leading-zero count, stopping at the subnormal boundary), round to nearest even, pack with the
// specials last. Takes arc_fp32_add_align's outputs. Combinational.
module arc_fp32_add_round #(
  parameter int FTZ = 1
) (
  input  logic [27:0] raw_i,
  input  logic [7:0]  big_exp_i,
  input  logic        big_sign_i,
  input  logic        zero_sign_i,
  input  logic        result_nan_i,
  input  logic        result_inf_i,
  input  logic        inf_sign_i,
  output logic [31:0] y_o
);

  localparam logic [31:0] CanonicalNaN = 32'h7FFF_FFFF;

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
  assign lz        = lead_zeros27(raw_i[26:0]);
  assign max_left  = big_exp_i - 8'd1;
  assign shift_l   = ({3'd0, lz} > max_left) ? max_left[4:0] : lz;
  assign left_norm = raw_i[26:0] << shift_l;

  // A carry out of the add shifts right by one; otherwise shift left to normalize.
  assign mant     = raw_i[27] ? raw_i[27:4] : left_norm[26:3];
  assign guard    = raw_i[27] ? raw_i[3]    : left_norm[2];
  assign sticky   = raw_i[27] ? |raw_i[2:0] : |left_norm[1:0];
  assign exp_norm = raw_i[27] ? {1'b0, big_exp_i} + 9'd1 : {1'b0, big_exp_i} - {4'd0, shift_l};

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
  assign exact_zero = (raw_i == 28'd0);
  assign overflow   = (exp_rnd >= 9'd255) && (mant_rnd[24] || mant_rnd[23]);
  assign tiny       = (exp_field == 8'd0);

  // Priority: NaN, infinity, exact zero, overflow, flushed subnormal (sign kept), ordinary result.
  assign y_o = result_nan_i           ? CanonicalNaN
             : result_inf_i           ? {inf_sign_i, 8'hFF, 23'd0}
             : exact_zero             ? {zero_sign_i, 31'd0}
             : overflow               ? {big_sign_i, 8'hFF, 23'd0}
             : (tiny && (FTZ != 0))   ? {big_sign_i, 31'd0}
             :                          {big_sign_i, exp_field, frac_out};

endmodule
