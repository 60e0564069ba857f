/*
 * pushpush: the interconnect's response return path: a round-robin pp_arbiter over the
 * slaves' responses (B or R beats, one per cycle) and the multiplexer of their bundles
 * ({master index, payload, valid}, valid at bit 0). The caller registers the chosen bundle
 * and routes it back by its master index; accept is the cycle the chosen beat is taken.
 *
 * Used by the shared bus (its B and R paths) and by the crossbar's shared read path.
 */

`default_nettype none

module pp_axi_ic_resp #
(
    // slaves (the default slave included)
    parameter N = 5,
    // width of a response bundle
    parameter WIDTH = 8,
    // width of a slave index
    parameter INDEX_WIDTH = (N > 1) ? $clog2(N) : 1
)
(
    input  wire                   clk,
    input  wire                   rst,
    // per slave: a beat to return (its valid, or a narrower condition)
    input  wire [N-1:0]           req,
    input  wire [N*WIDTH-1:0]     bundles,
    input  wire                   accept,
    output wire [N-1:0]           grant,
    output wire                   grant_valid,
    output wire [WIDTH-1:0]       out
);

wire [INDEX_WIDTH-1:0] idx;

pp_arbiter #(
    .PORTS(N),
    .ARBITRATION(0),
    .INDEX_WIDTH(INDEX_WIDTH)
)
arb_inst (
    .clk(clk),
    .rst(rst),
    .req(req),
    .grant(grant),
    .grant_valid(grant_valid),
    .grant_index(idx),
    .req_beats({(N*9){1'b0}}),
    .accept(accept)
);

pp_axi_ic_mux #(.N(N), .WIDTH(WIDTH), .SEL_WIDTH(INDEX_WIDTH))
mux_inst (.in(bundles), .sel(idx), .out(out));

endmodule

`default_nettype wire
