/*
 * pushpush: AXI interconnect N:1 multiplexer.
 *
 * out = in[sel*WIDTH +: WIDTH] for sel < N (sel >= N gives in[N-1]), written as a binary
 * tree of 2:1 multiplexers (sel's most significant bit at the root), which Yosys maps onto
 * LUT6 + MUXF7/MUXF8 (a variable part-select becomes a barrel shifter over the whole input
 * vector in Yosys; an AND-OR tree of sel == k terms costs about half as much again). The
 * tree is padded to 2**SEL_WIDTH leaves with copies of the last input, whose 2:1
 * multiplexers then fold away.
 */

`default_nettype none

module pp_axi_ic_mux #
(
    // Number of inputs
    parameter N = 2,
    // Width of each input
    parameter WIDTH = 8,
    // Width of the select input
    parameter SEL_WIDTH = 1
)
(
    input  wire [N*WIDTH-1:0]   in,
    input  wire [SEL_WIDTH-1:0] sel,
    output wire [WIDTH-1:0]     out
);

// level l of the tree (l = 0: the root, l = SEL_WIDTH: the 2**SEL_WIDTH leaves) has 2**l
// nodes; node k of level l selects between nodes 2k and 2k+1 of level l+1 by
// sel[SEL_WIDTH-1-l]. Every node is a wire of its own with one driver (not a part of a
// level-wide vector): Icarus then propagates a change only along the path it takes, in
// 4-state vectors, where a vector driven part by part is rebuilt whole, with strengths,
// for every receiver on every change of any part.

genvar l, k;
generate
for (l = 0; l <= SEL_WIDTH; l = l + 1) begin : lvl
    for (k = 0; k < (1<<l); k = k + 1) begin : node
        wire [WIDTH-1:0] v;
        if (l == SEL_WIDTH) begin : leaf
            if (k < N) begin : used
                assign v = in[k*WIDTH +: WIDTH];
            end else begin : pad
                assign v = in[(N-1)*WIDTH +: WIDTH];
            end
        end else begin : mux
            assign v = sel[SEL_WIDTH-1-l] ? lvl[l+1].node[2*k+1].v : lvl[l+1].node[2*k].v;
        end
    end
end
endgenerate

assign out = lvl[0].node[0].v;

endmodule

`default_nettype wire
