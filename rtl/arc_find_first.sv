// arc_find_first: the lowest set bit of a vector, as an index and as a one-hot mask.
// Combinational leaf helper (no clock, no handshake) shared by the reduction unit and the LSU
// issue unit, which need the index (the matcher needs only the one-hot and makes it itself):
// "the lowest remaining lane" is how every ARC unit walks a lane mask.
module arc_find_first #(
  parameter int Width    = 32,
  parameter int IdxWidth = $clog2(Width)
) (
  input  logic [Width-1:0]    in_i,
  output logic [IdxWidth-1:0] idx_o,     // index of the lowest set bit (0 when empty)
  output logic [Width-1:0]    onehot_o,  // that bit alone (0 when empty)
  output logic                empty_o    // no bit set
);

  // Two's complement isolates the lowest set bit: x & -x.
  assign onehot_o = in_i & (~in_i + {{(Width - 1){1'b0}}, 1'b1});
  assign empty_o  = ~|in_i;

  // Scanning downwards, the last hit is the lowest set bit.
  always_comb begin
    idx_o = '0;
    for (int i = Width - 1; i >= 0; i--) begin
      if (in_i[i]) idx_o = IdxWidth'(i);
    end
  end

endmodule
