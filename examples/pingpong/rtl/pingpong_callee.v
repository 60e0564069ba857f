/*
 * pingpong_callee: the callee of the PushPush pingpong experiment (paper section V-A).
 *
 * Exports f: "(x: i32) -> i32". Each call updates a running 32-bit state with x and returns
 * the new state:
 *
 *     state <= ((state <<< 5) ^ x) + 32'h9E3779B9     (<<< : rotate left)
 *     return  the new state
 *
 * so every call changes what all later calls return: a caller can check that each call
 * happened exactly once and in order. The call completes combinationally, in the cycle it
 * is presented (f_result_valid = f_valid); if the wrapper cannot take the result in that
 * cycle it is held until f_result_ready.
 *
 * Ports follow the pushpush RTL port contract (docs/rtl-ports.md).
 */

`default_nettype none

module pingpong_callee
(
    input  wire        clk,
    input  wire        rst,

    // export f: "(x: i32) -> i32"
    input  wire        f_valid,
    output wire        f_ready,
    input  wire [31:0] f_x,
    output wire        f_result_valid,
    input  wire        f_result_ready,
    output wire [31:0] f_result
);

reg [31:0] state_reg;
reg        hold_reg;        // a result not yet taken by the wrapper
reg [31:0] hold_value_reg;
reg [31:0] calls_reg;       // calls served since reset

initial begin
    state_reg = 32'd0;
    hold_reg = 1'b0;
    hold_value_reg = 32'd0;
    calls_reg = 32'd0;
end

wire [31:0] next_state = ({state_reg[26:0], state_reg[31:27]} ^ f_x) + 32'h9E3779B9;

assign f_ready = !hold_reg;
assign f_result_valid = hold_reg || f_valid;
assign f_result = hold_reg ? hold_value_reg : next_state;

always @(posedge clk) begin
    if (f_valid && f_ready) begin
        state_reg <= next_state;
        calls_reg <= calls_reg + 32'd1;
        if (!f_result_ready) begin
            hold_reg <= 1'b1;
            hold_value_reg <= next_state;
        end
    end else if (hold_reg && f_result_ready) begin
        hold_reg <= 1'b0;
    end

    if (rst) begin
        state_reg <= 32'd0;
        hold_reg <= 1'b0;
        hold_value_reg <= 32'd0;
        calls_reg <= 32'd0;
    end
end

endmodule

`default_nettype wire
