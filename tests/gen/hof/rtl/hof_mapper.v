/*
 * hof_mapper: apply(f, x) = f(f(x)) + 1, or 32'hDEAD0000 if a call of f failed.
 * Calls the function value f through the wrapper's apply_f group.
 */

`default_nettype none

module hof_mapper
(
    input  wire        clk,
    input  wire        rst,

    input  wire        apply_valid,
    output wire        apply_ready,
    input  wire [31:0] apply_f,
    input  wire [31:0] apply_x,
    output wire        apply_result_valid,
    input  wire        apply_result_ready,
    output wire [31:0] apply_result,

    output wire        apply_f_valid,
    input  wire        apply_f_ready,
    output wire [31:0] apply_f_x,
    input  wire        apply_f_result_valid,
    output wire        apply_f_result_ready,
    input  wire [31:0] apply_f_result,
    input  wire        apply_f_result_error
);

localparam [2:0] IDLE = 3'd0, CALL = 3'd1, WAIT = 3'd2, DONE = 3'd3;

reg [2:0]  state_reg;
reg        second_reg;   // the second call of f
reg [31:0] x_reg;
reg [31:0] result_reg;

initial begin
    state_reg = IDLE;
    second_reg = 1'b0;
    x_reg = 32'd0;
    result_reg = 32'd0;
end

assign apply_ready = state_reg == IDLE;
assign apply_result_valid = state_reg == DONE;
assign apply_result = result_reg;
assign apply_f_valid = state_reg == CALL;
assign apply_f_x = x_reg;
assign apply_f_result_ready = state_reg == WAIT;

always @(posedge clk) begin
    case (state_reg)
        IDLE: begin
            if (apply_valid) begin
                x_reg <= apply_x;
                second_reg <= 1'b0;
                state_reg <= CALL;
            end
        end
        CALL: begin
            if (apply_f_ready) begin
                state_reg <= WAIT;
            end
        end
        WAIT: begin
            if (apply_f_result_valid) begin
                if (apply_f_result_error) begin
                    result_reg <= 32'hDEAD0000;
                    state_reg <= DONE;
                end else if (second_reg) begin
                    result_reg <= apply_f_result + 32'd1;
                    state_reg <= DONE;
                end else begin
                    x_reg <= apply_f_result;
                    second_reg <= 1'b1;
                    state_reg <= CALL;
                end
            end
        end
        default: begin
            if (apply_result_ready) begin
                state_reg <= IDLE;
            end
        end
    endcase

    if (rst) begin
        state_reg <= IDLE;
        second_reg <= 1'b0;
    end
end

// the handle itself is not needed: the wrapper routes apply_f calls to it
wire unused = &{1'b0, apply_f};

endmodule

`default_nettype wire
