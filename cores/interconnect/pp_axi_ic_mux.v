/*
 * pushpush: AXI interconnect N:1 multiplexer.
 *
 * out = in[sel*WIDTH +: WIDTH] for sel < N (sel >= N gives in[N-1]), written as a binary
 * tree of 2:1 multiplexers (sel's most significant bit at the root), which Yosys maps onto
 * LUTs (a variable part-select becomes a barrel shifter over the whole input vector in
 * Yosys; an AND-OR tree of sel == k terms costs about half as much again). With HARD = 1
 * the levels selected by sel[2] and sel[3] are the slice's MUXF7 and MUXF8 (as Vivado
 * builds a wide multiplexer; Yosys's synth_xilinx without -widemux maps a 16:1 to five
 * LUT6 per bit, two levels, these four LUT6 and one level: README.md, "Resources"). The
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
    parameter SEL_WIDTH = 1,
    // synthesis: 1 = the levels selected by sel[2] and sel[3] are the slice's MUXF7 and
    // MUXF8 (a 16:1 is 4 LUT6 per bit, one LUT level), for payloads whose select comes
    // from a register; 0 = LUTs only, left to the mapper to merge with the logic around
    // (simulators read the part-select below, whatever HARD)
    /* verilator lint_off UNUSEDPARAM */
    parameter HARD = 0
    /* verilator lint_on UNUSEDPARAM */
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

genvar l, k, b;
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
    end else if (HARD != 0 && SEL_WIDTH >= 3 && l == SEL_WIDTH-3) begin : f7
        // selected by sel[2]: two 4:1 multiplexers (one LUT6 each) into a MUXF7
        for (k = 0; k < (1<<l); k = k + 1) begin : node
            if (k*8+7 < N) begin : prim
                for (b = 0; b < WIDTH; b = b + 1) begin : bt
                    MUXF7 mux_inst (.O(v[k*WIDTH+b]), .I0(lvl[l+1].v[(2*k)*WIDTH+b]),
                                    .I1(lvl[l+1].v[(2*k+1)*WIDTH+b]), .S(sel[2]));
                end
            end else begin : gen
                assign v[k*WIDTH +: WIDTH] = sel[2] ? lvl[l+1].v[(2*k+1)*WIDTH +: WIDTH]
                                                    : lvl[l+1].v[(2*k)*WIDTH +: WIDTH];
            end
        end
    end else if (HARD != 0 && SEL_WIDTH >= 4 && l == SEL_WIDTH-4) begin : f8
        // selected by sel[3]: two MUXF7 into a MUXF8
        for (k = 0; k < (1<<l); k = k + 1) begin : node
            if (k*16+15 < N) begin : prim
                for (b = 0; b < WIDTH; b = b + 1) begin : bt
                    MUXF8 mux_inst (.O(v[k*WIDTH+b]), .I0(lvl[l+1].v[(2*k)*WIDTH+b]),
                                    .I1(lvl[l+1].v[(2*k+1)*WIDTH+b]), .S(sel[3]));
                end
            end else begin : gen
                assign v[k*WIDTH +: WIDTH] = sel[3] ? lvl[l+1].v[(2*k+1)*WIDTH +: WIDTH]
                                                    : lvl[l+1].v[(2*k)*WIDTH +: WIDTH];
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
