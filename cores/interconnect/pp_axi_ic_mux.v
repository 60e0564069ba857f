/*
 * pushpush: AXI interconnect N:1 multiplexer.
 *
 * out = in[sel*WIDTH +: WIDTH] for sel < N (sel >= N gives in[N-1]), written as a binary
 * tree of 2:1 multiplexers (sel's most significant bit at the root), which Yosys maps onto
 * LUT6 + MUXF7/MUXF8 (a variable part-select becomes a barrel shifter over the whole input
 * vector in Yosys; an AND-OR tree of sel == k terms costs about half as much again). The
 * tree is padded to 2**SEL_WIDTH leaves with copies of the last input, whose 2:1
 * multiplexers then fold away. The tree is what synthesis reads (`SYNTHESIS, defined by
 * Yosys and Vivado); simulators read the same function as one indexed part-select, which
 * Icarus evaluates in time independent of N (see the end of this file).
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

`ifdef SYNTHESIS

// level l of the tree (l = 0: the root, l = SEL_WIDTH: the 2**SEL_WIDTH leaves) has 2**l
// nodes; node k of level l selects between nodes 2k and 2k+1 of level l+1 by
// sel[SEL_WIDTH-1-l]
localparam P = 1 << SEL_WIDTH;

genvar l, k;
generate
for (l = 0; l <= SEL_WIDTH; l = l + 1) begin : lvl
    wire [(1<<l)*WIDTH-1:0] v;
    if (l == SEL_WIDTH) begin : leaves
        for (k = 0; k < P; k = k + 1) begin : leaf
            if (k < N) begin : used
                assign v[k*WIDTH +: WIDTH] = in[k*WIDTH +: WIDTH];
            end else begin : pad
                assign v[k*WIDTH +: WIDTH] = in[(N-1)*WIDTH +: WIDTH];
            end
        end
    end else begin : nodes
        for (k = 0; k < (1<<l); k = k + 1) begin : node
            assign v[k*WIDTH +: WIDTH] = sel[SEL_WIDTH-1-l] ? lvl[l+1].v[(2*k+1)*WIDTH +: WIDTH]
                                                            : lvl[l+1].v[(2*k)*WIDTH +: WIDTH];
        end
    end
end
endgenerate

assign out = lvl[0].v;

`else

// The same function for simulators: one indexed part-select. (The tree above, a vector
// per level driven part by part, is slow in Icarus: a part-driven vector is rebuilt whole,
// with strengths, for each of its readers on every change of any part, so each change of
// one input costs the whole tree, in every multiplexer reading that input.)
localparam integer NUM_I = N;
localparam [SEL_WIDTH:0] NUM = NUM_I[SEL_WIDTH:0];

assign out = ({1'b0, sel} < NUM) ? in[sel*WIDTH +: WIDTH] : in[(N-1)*WIDTH +: WIDTH];

`endif

endmodule

`default_nettype wire
