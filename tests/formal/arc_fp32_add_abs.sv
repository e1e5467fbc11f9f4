// Formal abstraction of arc_fp32_add (same name and ports; read INSTEAD of rtl/arc_fp32_add.sv by
// tests/formal/run_formal.sh only). The proofs are about which lane values reach the adder and
// in which order, not about binary32 arithmetic (that is checked bit for bit against MPFR and the
// golden model by tests/rtl and tests/fp). The real adder makes the solver time out in minutes;
// this one is a cheap non-commutative, non-associative operator, y_o = rotl(a_i, 1) ^ b_i: a serial
// fold over lanes v0, v1, v2 gives rotl(v0, 2) ^ rotl(v1, 1) ^ v2, so a missing, duplicated or
// reordered lane changes the result for some values, and the solver finds those values.
module arc_fp32_add #(
  parameter int FTZ = 1
) (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);
  assign y_o = {a_i[30:0], a_i[31]} ^ b_i ^ 32'(FTZ);
endmodule
