// pingpong_step: a HAND-WRITTEN stand-in for the Verilog Vitis HLS exports from
// pingpong_step.cpp (top function `int pingpong_step(int x)`, ap_ctrl_hs), written to the
// port names and the block-protocol timing of UG1399 ("Block-Level Control Protocols"):
// ap_clk, ap_rst (synchronous, active high), ap_start / ap_done / ap_idle / ap_ready, the
// argument x as an ap_none input, the result on ap_return (valid with ap_done).
//
// Vitis HLS is not used to make it (not on this machine): with Vitis HLS, put the Verilog
// it exports (solution/impl/verilog/*.v) in `sources:` instead; its schedule may differ,
// the adapter follows whatever ap_ready/ap_done say. This one takes 2 cycles, like a
// three-state ap_CS_fsm: state1 reads x, state2 rotates and mixes, state3 adds and is done
// (ap_ready with ap_done: a sequential, non-pipelined function).

`default_nettype none

module pingpong_step (
    input  wire        ap_clk,
    input  wire        ap_rst,
    input  wire        ap_start,
    output wire        ap_done,
    output wire        ap_idle,
    output wire        ap_ready,
    input  wire [31:0] x,
    output wire [31:0] ap_return
);

localparam [2:0] ap_ST_fsm_state1 = 3'd1,
                 ap_ST_fsm_state2 = 3'd2,
                 ap_ST_fsm_state3 = 3'd4;

reg  [2:0]  ap_CS_fsm;
reg  [31:0] state_V;     // the function's static state
reg  [31:0] x_read_reg;
reg  [31:0] mixed_reg;

initial begin
    ap_CS_fsm = ap_ST_fsm_state1;
    state_V = 32'd0;
    x_read_reg = 32'd0;
    mixed_reg = 32'd0;
end

wire ap_CS_fsm_state1 = ap_CS_fsm[0];
wire ap_CS_fsm_state3 = ap_CS_fsm[2];
wire [31:0] sum = mixed_reg + 32'h9E3779B9;

assign ap_idle   = ap_CS_fsm_state1 && !ap_start;
assign ap_done   = ap_CS_fsm_state3;
assign ap_ready  = ap_CS_fsm_state3;
assign ap_return = sum;

always @(posedge ap_clk) begin
    if (ap_rst) begin
        ap_CS_fsm <= ap_ST_fsm_state1;
    end else begin
        case (ap_CS_fsm)
            ap_ST_fsm_state1: if (ap_start) ap_CS_fsm <= ap_ST_fsm_state2;
            ap_ST_fsm_state2: ap_CS_fsm <= ap_ST_fsm_state3;
            default:          ap_CS_fsm <= ap_ST_fsm_state1;
        endcase
    end
end

always @(posedge ap_clk) begin
    if (ap_rst) begin
        state_V <= 32'd0;
    end else if (ap_CS_fsm_state3) begin
        state_V <= sum;
    end
    if (ap_CS_fsm_state1 && ap_start) x_read_reg <= x;
    if (ap_CS_fsm[1]) mixed_reg <= {state_V[26:0], state_V[31:27]} ^ x_read_reg;
end

endmodule

`default_nettype wire
