/*
 * pushpush: AXI interconnect N:1 multiplexer.
 *
 * out = in[sel*WIDTH +: WIDTH], written as an AND-OR tree of constant slices so that
 * synthesis builds a plain multiplexer (a variable part-select becomes a barrel shifter
 * over the whole input vector in Yosys). sel >= N gives zero.
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
    output reg  [WIDTH-1:0]     out
);

integer k;

always @* begin
    out = {WIDTH{1'b0}};
    for (k = 0; k < N; k = k + 1) begin
        if (sel == k[SEL_WIDTH-1:0]) begin
            out = out | in[k*WIDTH +: WIDTH];
        end
    end
end

endmodule

`default_nettype wire
