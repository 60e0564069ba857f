/*
 * pingpong_caller: the hardware caller of the PushPush pingpong experiment (paper section V-A).
 *
 * Exports run: "(n: u32) -> u32" and imports callee.f: "(x: i32) -> i32".
 * run(n) calls callee.f n times in a dependency loop: the first argument is n, every later
 * argument is the previous call's result. The next call is issued in the very cycle the
 * previous result arrives. run returns the number of clock cycles from the first call's
 * handshake to the last result's: n times the round-trip time of one call. run(0) returns 0
 * without calling.
 *
 * calls_reg counts every call issued since reset, errors_reg every result that came back
 * with result_error set.
 *
 * Ports follow the pushpush RTL port contract (docs/rtl-ports.md).
 */

`default_nettype none

module pingpong_caller
(
    input  wire        clk,
    input  wire        rst,

    // export run: "(n: u32) -> u32"
    input  wire        run_valid,
    output wire        run_ready,
    input  wire [31:0] run_n,
    output wire        run_result_valid,
    input  wire        run_result_ready,
    output wire [31:0] run_result,

    // import callee.f: "(x: i32) -> i32"
    output wire        callee_f_valid,
    input  wire        callee_f_ready,
    output wire [31:0] callee_f_x,
    input  wire        callee_f_result_valid,
    output wire        callee_f_result_ready,
    input  wire [31:0] callee_f_result,
    input  wire        callee_f_result_error
);

reg        running_reg;     // a run is in progress
reg        done_reg;        // run's result is waiting to be taken
reg [31:0] result_reg;
reg [31:0] left_reg;        // calls of this run not issued yet
reg        issue_reg;       // a call is waiting to be issued with x_reg
reg [31:0] x_reg;
reg [31:0] now_reg;         // free-running cycle counter
reg [31:0] start_reg;       // now_reg at the first call's handshake
reg        first_reg;       // the next call issued is the run's first
reg [31:0] calls_reg;
reg [31:0] errors_reg;

initial begin
    running_reg = 1'b0;
    done_reg = 1'b0;
    result_reg = 32'd0;
    left_reg = 32'd0;
    issue_reg = 1'b0;
    x_reg = 32'd0;
    now_reg = 32'd0;
    start_reg = 32'd0;
    first_reg = 1'b0;
    calls_reg = 32'd0;
    errors_reg = 32'd0;
end

assign run_ready = !running_reg && !done_reg;
assign run_result_valid = done_reg;
assign run_result = result_reg;

wire run_fire = run_valid && run_ready;
wire res_fire = callee_f_result_valid && callee_f_result_ready;
wire more = left_reg != 32'd0;

// the next call goes out in the cycle the previous result arrives
assign callee_f_valid = issue_reg || (running_reg && callee_f_result_valid && more);
assign callee_f_x = issue_reg ? x_reg : callee_f_result;
assign callee_f_result_ready = 1'b1;

wire call_fire = callee_f_valid && callee_f_ready;

always @(posedge clk) begin
    now_reg <= now_reg + 32'd1;

    if (run_fire) begin
        if (run_n == 32'd0) begin
            done_reg <= 1'b1;
            result_reg <= 32'd0;
        end else begin
            running_reg <= 1'b1;
            left_reg <= run_n;
            issue_reg <= 1'b1;
            x_reg <= run_n;
            first_reg <= 1'b1;
        end
    end

    if (call_fire) begin
        issue_reg <= 1'b0;
        left_reg <= left_reg - 32'd1;
        calls_reg <= calls_reg + 32'd1;
        first_reg <= 1'b0;
        if (first_reg) begin
            start_reg <= now_reg;
        end
    end else if (res_fire && more) begin
        // the engine could not take the next call now: keep it until it can
        issue_reg <= 1'b1;
        x_reg <= callee_f_result;
    end

    if (res_fire) begin
        if (callee_f_result_error) begin
            errors_reg <= errors_reg + 32'd1;
        end
        if (!more) begin
            running_reg <= 1'b0;
            done_reg <= 1'b1;
            result_reg <= now_reg - start_reg;
        end
    end

    if (run_result_valid && run_result_ready) begin
        done_reg <= 1'b0;
    end

    if (rst) begin
        running_reg <= 1'b0;
        done_reg <= 1'b0;
        result_reg <= 32'd0;
        left_reg <= 32'd0;
        issue_reg <= 1'b0;
        x_reg <= 32'd0;
        now_reg <= 32'd0;
        start_reg <= 32'd0;
        first_reg <= 1'b0;
        calls_reg <= 32'd0;
        errors_reg <= 32'd0;
    end
end

endmodule

`default_nettype wire
