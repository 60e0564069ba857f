/*
 * hls_driver: the Verilog side of examples/hls_callback.
 *
 *   g(x)      = 3*x + 1, answered in the cycle it is called (a Verilog export that is passed
 *               to the HLS function as a function value: its handle g_handle);
 *   run(n, x) : n chained calls x = worker.apply(g, x) (the HLS function calls g back
 *               every time), returns the last x (x itself for n = 0), or 32'h0BAD0BAD
 *               when a call failed.
 */

`default_nettype none

module hls_driver
(
    input  wire        clk,
    input  wire        rst,
    input  wire        run_valid,
    output wire        run_ready,
    input  wire [31:0] run_n,
    input  wire [31:0] run_x,
    output wire        run_result_valid,
    input  wire        run_result_ready,
    output wire [31:0] run_result,
    input  wire        g_valid,
    output wire        g_ready,
    input  wire [31:0] g_x,
    output wire        g_result_valid,
    input  wire        g_result_ready,
    output wire [31:0] g_result,
    input  wire [31:0] g_handle,
    output wire        worker_apply_valid,
    input  wire        worker_apply_ready,
    output wire [31:0] worker_apply_f,
    output wire [31:0] worker_apply_x,
    input  wire        worker_apply_result_valid,
    output wire        worker_apply_result_ready,
    input  wire [31:0] worker_apply_result,
    input  wire        worker_apply_result_error
);

localparam [31:0] ERR = 32'h0BAD_0BAD;
localparam [1:0] S_IDLE = 2'd0, S_CALL = 2'd1, S_WAIT = 2'd2, S_DONE = 2'd3;

// ---------------------------------------------------------------- g: at once, held if not taken
reg        g_hold;
reg [31:0] g_hold_value;
wire [31:0] g_now = g_x * 32'd3 + 32'd1;
assign g_ready = !g_hold;
assign g_result_valid = g_hold || g_valid;
assign g_result = g_hold ? g_hold_value : g_now;
always @(posedge clk) begin
    if (rst) begin
        g_hold <= 1'b0;
        g_hold_value <= 32'd0;
    end else if (g_valid && g_ready && !g_result_ready) begin
        g_hold <= 1'b1;
        g_hold_value <= g_now;
    end else if (g_hold && g_result_ready) begin
        g_hold <= 1'b0;
    end
end

// ---------------------------------------------------------------- run: the chain
reg [1:0]  state;
reg [31:0] left;
reg [31:0] x;
assign run_ready = state == S_IDLE;
assign worker_apply_valid = state == S_CALL;
assign worker_apply_f = g_handle;
assign worker_apply_x = x;
assign worker_apply_result_ready = state == S_WAIT;
assign run_result_valid = state == S_DONE;
assign run_result = x;
always @(posedge clk) begin
    if (rst) begin
        state <= S_IDLE;
        left <= 32'd0;
        x <= 32'd0;
    end else begin
        case (state)
            S_IDLE:
                if (run_valid) begin
                    left <= run_n;
                    x <= run_x;
                    state <= run_n == 32'd0 ? S_DONE : S_CALL;
                end
            S_CALL:
                if (worker_apply_ready)
                    state <= S_WAIT;
            S_WAIT:
                if (worker_apply_result_valid) begin
                    if (worker_apply_result_error) begin
                        x <= ERR;
                        state <= S_DONE;
                    end else begin
                        x <= worker_apply_result;
                        left <= left - 32'd1;
                        state <= left == 32'd1 ? S_DONE : S_CALL;
                    end
                end
            default:
                if (run_result_ready)
                    state <= S_IDLE;
        endcase
    end
end

endmodule

`default_nettype wire
