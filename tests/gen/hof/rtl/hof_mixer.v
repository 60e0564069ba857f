/*
 * hof_mixer: mix(a: i8, b: u16, c: i64, d: bool) -> i64 = d ? c + a : c - b (combinational);
 * store(v: u32) -> void: calls host.log(v), then keeps v; load() -> u32: the kept value.
 */

`default_nettype none

module hof_mixer
(
    input  wire        clk,
    input  wire        rst,

    input  wire        mix_valid,
    output wire        mix_ready,
    input  wire [7:0]  mix_a,
    input  wire [15:0] mix_b,
    input  wire [63:0] mix_c,
    input  wire        mix_d,
    output wire        mix_result_valid,
    input  wire        mix_result_ready,
    output wire [63:0] mix_result,

    input  wire        store_valid,
    output wire        store_ready,
    input  wire [31:0] store_v,
    output wire        store_result_valid,
    input  wire        store_result_ready,

    input  wire        load_valid,
    output wire        load_ready,
    output wire        load_result_valid,
    input  wire        load_result_ready,
    output wire [31:0] load_result,

    output wire        host_log_valid,
    input  wire        host_log_ready,
    output wire [31:0] host_log_v,
    input  wire        host_log_result_valid,
    output wire        host_log_result_ready,
    input  wire        host_log_result_error
);

// mix: answered in the cycle of the call (held if the result is not taken at once)
reg        mix_hold_reg;
reg [63:0] mix_hold_value_reg;
wire [63:0] mix_now = mix_d ? mix_c + {{56{mix_a[7]}}, mix_a} : mix_c - {48'd0, mix_b};

assign mix_ready = !mix_hold_reg;
assign mix_result_valid = mix_hold_reg || mix_valid;
assign mix_result = mix_hold_reg ? mix_hold_value_reg : mix_now;

// store / load
localparam [1:0] S_IDLE = 2'd0, S_LOG = 2'd1, S_WAIT = 2'd2, S_DONE = 2'd3;
reg [1:0]  s_state_reg;
reg [31:0] v_reg;
reg [31:0] kept_reg;
reg        load_busy_reg;
reg [31:0] log_errors_reg;

initial begin
    mix_hold_reg = 1'b0;
    mix_hold_value_reg = 64'd0;
    s_state_reg = S_IDLE;
    v_reg = 32'd0;
    kept_reg = 32'd0;
    load_busy_reg = 1'b0;
    log_errors_reg = 32'd0;
end

assign store_ready = s_state_reg == S_IDLE;
assign store_result_valid = s_state_reg == S_DONE;
assign host_log_valid = s_state_reg == S_LOG;
assign host_log_v = v_reg;
assign host_log_result_ready = s_state_reg == S_WAIT;

assign load_ready = !load_busy_reg;
assign load_result_valid = load_busy_reg;
assign load_result = kept_reg;

always @(posedge clk) begin
    if (mix_valid && mix_ready && !mix_result_ready) begin
        mix_hold_reg <= 1'b1;
        mix_hold_value_reg <= mix_now;
    end else if (mix_hold_reg && mix_result_ready) begin
        mix_hold_reg <= 1'b0;
    end

    case (s_state_reg)
        S_IDLE: if (store_valid) begin
            v_reg <= store_v;
            s_state_reg <= S_LOG;
        end
        S_LOG: if (host_log_ready) begin
            s_state_reg <= S_WAIT;
        end
        S_WAIT: if (host_log_result_valid) begin
            kept_reg <= v_reg;
            if (host_log_result_error) begin
                log_errors_reg <= log_errors_reg + 32'd1;
            end
            s_state_reg <= S_DONE;
        end
        default: if (store_result_ready) begin
            s_state_reg <= S_IDLE;
        end
    endcase

    if (load_valid && load_ready) begin
        load_busy_reg <= 1'b1;
    end else if (load_result_valid && load_result_ready) begin
        load_busy_reg <= 1'b0;
    end

    if (rst) begin
        mix_hold_reg <= 1'b0;
        s_state_reg <= S_IDLE;
        kept_reg <= 32'd0;
        load_busy_reg <= 1'b0;
        log_errors_reg <= 32'd0;
    end
end

endmodule

`default_nettype wire
