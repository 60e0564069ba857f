/*
 * hof_sq: sq(x) = x * x (low 32 bits), answered the cycle after the call.
 */

`default_nettype none

module hof_sq
(
    input  wire        clk,
    input  wire        rst,

    input  wire        sq_valid,
    output wire        sq_ready,
    input  wire [31:0] sq_x,
    output wire        sq_result_valid,
    input  wire        sq_result_ready,
    output wire [31:0] sq_result
);

reg        busy_reg;
reg [31:0] result_reg;

initial begin
    busy_reg = 1'b0;
    result_reg = 32'd0;
end

assign sq_ready = !busy_reg;
assign sq_result_valid = busy_reg;
assign sq_result = result_reg;

always @(posedge clk) begin
    if (sq_valid && sq_ready) begin
        busy_reg <= 1'b1;
        result_reg <= sq_x * sq_x;
    end else if (sq_result_valid && sq_result_ready) begin
        busy_reg <= 1'b0;
    end
    if (rst) begin
        busy_reg <= 1'b0;
    end
end

endmodule

`default_nettype wire
