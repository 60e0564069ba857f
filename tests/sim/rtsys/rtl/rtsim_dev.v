/*
 * rtsim_dev: the rtl component of tests/sim/rtsys/system.yaml, for the runtime's cocotb tests
 * (tests/sim/test_runtime_sim.py). Answers neg64/inc64/fneg/fneg32/inv/get_neg in the cycle
 * they are called; apply, relay and offer each make one outgoing call (apply: the function
 * value f; relay: host.take; offer: host.use_neg with neg64's own handle) and return its
 * result (apply: + 1), or ERR when the call failed; hang completes only once grant() has
 * given it a credit (so a caller can time out, and the late reply comes when told).
 */

`default_nettype none

module rtsim_dev
(
    input  wire clk,
    input  wire rst,
    input  wire neg64_valid,
    output wire neg64_ready,
    input  wire [63:0] neg64_x,
    output wire neg64_result_valid,
    input  wire neg64_result_ready,
    output wire [63:0] neg64_result,
    input  wire inc64_valid,
    output wire inc64_ready,
    input  wire [63:0] inc64_x,
    output wire inc64_result_valid,
    input  wire inc64_result_ready,
    output wire [63:0] inc64_result,
    input  wire fneg_valid,
    output wire fneg_ready,
    input  wire [63:0] fneg_x,
    output wire fneg_result_valid,
    input  wire fneg_result_ready,
    output wire [63:0] fneg_result,
    input  wire fneg32_valid,
    output wire fneg32_ready,
    input  wire [31:0] fneg32_x,
    output wire fneg32_result_valid,
    input  wire fneg32_result_ready,
    output wire [31:0] fneg32_result,
    input  wire inv_valid,
    output wire inv_ready,
    input  wire inv_x,
    output wire inv_result_valid,
    input  wire inv_result_ready,
    output wire inv_result,
    input  wire get_neg_valid,
    output wire get_neg_ready,
    output wire get_neg_result_valid,
    input  wire get_neg_result_ready,
    output wire [31:0] get_neg_result,
    input  wire apply_valid,
    output wire apply_ready,
    input  wire [31:0] apply_f,
    input  wire [63:0] apply_x,
    output wire apply_result_valid,
    input  wire apply_result_ready,
    output wire [63:0] apply_result,
    output wire apply_f_valid,
    input  wire apply_f_ready,
    output wire [63:0] apply_f_x,
    input  wire apply_f_result_valid,
    output wire apply_f_result_ready,
    input  wire [63:0] apply_f_result,
    input  wire apply_f_result_error,
    input  wire relay_valid,
    output wire relay_ready,
    input  wire [63:0] relay_a,
    input  wire [63:0] relay_b,
    input  wire [31:0] relay_c,
    input  wire [63:0] relay_d,
    input  wire relay_e,
    output wire relay_result_valid,
    input  wire relay_result_ready,
    output wire [63:0] relay_result,
    input  wire offer_valid,
    output wire offer_ready,
    input  wire [63:0] offer_x,
    output wire offer_result_valid,
    input  wire offer_result_ready,
    output wire [63:0] offer_result,
    input  wire hang_valid,
    output wire hang_ready,
    input  wire [31:0] hang_x,
    output wire hang_result_valid,
    input  wire hang_result_ready,
    output wire [31:0] hang_result,
    input  wire grant_valid,
    output wire grant_ready,
    input  wire [31:0] grant_n,
    output wire grant_result_valid,
    input  wire grant_result_ready,
    input  wire [31:0] neg64_handle,
    output wire host_take_valid,
    input  wire host_take_ready,
    output wire [63:0] host_take_a,
    output wire [63:0] host_take_b,
    output wire [31:0] host_take_c,
    output wire [63:0] host_take_d,
    output wire host_take_e,
    input  wire host_take_result_valid,
    output wire host_take_result_ready,
    input  wire [63:0] host_take_result,
    input  wire host_take_result_error,
    output wire host_use_neg_valid,
    input  wire host_use_neg_ready,
    output wire [31:0] host_use_neg_f,
    output wire [63:0] host_use_neg_x,
    input  wire host_use_neg_result_valid,
    output wire host_use_neg_result_ready,
    input  wire [63:0] host_use_neg_result,
    input  wire host_use_neg_result_error
);

// ERR: what apply, relay and offer return when their outgoing call failed
localparam [63:0] ERR = 64'h0BAD_0BAD_0BAD_0BAD;

// states of the three calling exports (apply, relay, offer)
localparam [1:0] S_IDLE = 2'd0, S_CALL = 2'd1, S_WAIT = 2'd2, S_DONE = 2'd3;

// ---------------------------------------------------------------- answered at once
// Each completes in the cycle it is called (result_valid follows valid). When the wrapper
// cannot take the result in that cycle (its call engine is busy with another group's
// burst), the result is held and offered until taken; no new call is accepted meanwhile.
reg [63:0] neg64_hold_value_reg;
reg neg64_hold_reg;
wire [63:0] neg64_now = 64'd0 - neg64_x;

initial begin
    neg64_hold_reg = 1'b0;
    neg64_hold_value_reg = 64'd0;
end

assign neg64_ready = !neg64_hold_reg;
assign neg64_result_valid = neg64_hold_reg || neg64_valid;
assign neg64_result = neg64_hold_reg ? neg64_hold_value_reg : neg64_now;

always @(posedge clk) begin
    if (neg64_valid && neg64_ready && !neg64_result_ready) begin
        neg64_hold_reg <= 1'b1;
        neg64_hold_value_reg <= neg64_now;
    end else if (neg64_hold_reg && neg64_result_ready) begin
        neg64_hold_reg <= 1'b0;
    end
    if (rst) neg64_hold_reg <= 1'b0;
end

reg [63:0] inc64_hold_value_reg;
reg inc64_hold_reg;
wire [63:0] inc64_now = inc64_x + 64'd1;

initial begin
    inc64_hold_reg = 1'b0;
    inc64_hold_value_reg = 64'd0;
end

assign inc64_ready = !inc64_hold_reg;
assign inc64_result_valid = inc64_hold_reg || inc64_valid;
assign inc64_result = inc64_hold_reg ? inc64_hold_value_reg : inc64_now;

always @(posedge clk) begin
    if (inc64_valid && inc64_ready && !inc64_result_ready) begin
        inc64_hold_reg <= 1'b1;
        inc64_hold_value_reg <= inc64_now;
    end else if (inc64_hold_reg && inc64_result_ready) begin
        inc64_hold_reg <= 1'b0;
    end
    if (rst) inc64_hold_reg <= 1'b0;
end

reg [63:0] fneg_hold_value_reg;
reg fneg_hold_reg;
wire [63:0] fneg_now = {~fneg_x[63], fneg_x[62:0]};

initial begin
    fneg_hold_reg = 1'b0;
    fneg_hold_value_reg = 64'd0;
end

assign fneg_ready = !fneg_hold_reg;
assign fneg_result_valid = fneg_hold_reg || fneg_valid;
assign fneg_result = fneg_hold_reg ? fneg_hold_value_reg : fneg_now;

always @(posedge clk) begin
    if (fneg_valid && fneg_ready && !fneg_result_ready) begin
        fneg_hold_reg <= 1'b1;
        fneg_hold_value_reg <= fneg_now;
    end else if (fneg_hold_reg && fneg_result_ready) begin
        fneg_hold_reg <= 1'b0;
    end
    if (rst) fneg_hold_reg <= 1'b0;
end

reg [31:0] fneg32_hold_value_reg;
reg fneg32_hold_reg;
wire [31:0] fneg32_now = {~fneg32_x[31], fneg32_x[30:0]};

initial begin
    fneg32_hold_reg = 1'b0;
    fneg32_hold_value_reg = 32'd0;
end

assign fneg32_ready = !fneg32_hold_reg;
assign fneg32_result_valid = fneg32_hold_reg || fneg32_valid;
assign fneg32_result = fneg32_hold_reg ? fneg32_hold_value_reg : fneg32_now;

always @(posedge clk) begin
    if (fneg32_valid && fneg32_ready && !fneg32_result_ready) begin
        fneg32_hold_reg <= 1'b1;
        fneg32_hold_value_reg <= fneg32_now;
    end else if (fneg32_hold_reg && fneg32_result_ready) begin
        fneg32_hold_reg <= 1'b0;
    end
    if (rst) fneg32_hold_reg <= 1'b0;
end

reg inv_hold_value_reg;
reg inv_hold_reg;
wire inv_now = ~inv_x;

initial begin
    inv_hold_reg = 1'b0;
    inv_hold_value_reg = 1'b0;
end

assign inv_ready = !inv_hold_reg;
assign inv_result_valid = inv_hold_reg || inv_valid;
assign inv_result = inv_hold_reg ? inv_hold_value_reg : inv_now;

always @(posedge clk) begin
    if (inv_valid && inv_ready && !inv_result_ready) begin
        inv_hold_reg <= 1'b1;
        inv_hold_value_reg <= inv_now;
    end else if (inv_hold_reg && inv_result_ready) begin
        inv_hold_reg <= 1'b0;
    end
    if (rst) inv_hold_reg <= 1'b0;
end

reg [31:0] get_neg_hold_value_reg;
reg get_neg_hold_reg;
wire [31:0] get_neg_now = neg64_handle;

initial begin
    get_neg_hold_reg = 1'b0;
    get_neg_hold_value_reg = 32'd0;
end

assign get_neg_ready = !get_neg_hold_reg;
assign get_neg_result_valid = get_neg_hold_reg || get_neg_valid;
assign get_neg_result = get_neg_hold_reg ? get_neg_hold_value_reg : get_neg_now;

always @(posedge clk) begin
    if (get_neg_valid && get_neg_ready && !get_neg_result_ready) begin
        get_neg_hold_reg <= 1'b1;
        get_neg_hold_value_reg <= get_neg_now;
    end else if (get_neg_hold_reg && get_neg_result_ready) begin
        get_neg_hold_reg <= 1'b0;
    end
    if (rst) get_neg_hold_reg <= 1'b0;
end

// ---------------------------------------------------------------- apply(f, x) = f(x) + 1
reg [1:0]  apply_state_reg;
reg [63:0] apply_x_reg;
reg [63:0] apply_result_reg;

initial begin
    apply_state_reg = S_IDLE;
    apply_x_reg = 64'd0;
    apply_result_reg = 64'd0;
end

assign apply_ready = apply_state_reg == S_IDLE;
assign apply_f_valid = apply_state_reg == S_CALL;
assign apply_f_x = apply_x_reg;
assign apply_f_result_ready = apply_state_reg == S_WAIT;
assign apply_result_valid = apply_state_reg == S_DONE;
assign apply_result = apply_result_reg;

always @(posedge clk) begin
    case (apply_state_reg)
        S_IDLE: if (apply_valid) begin
            apply_x_reg <= apply_x;
            apply_state_reg <= S_CALL;
        end
        S_CALL: if (apply_f_ready) apply_state_reg <= S_WAIT;
        S_WAIT: if (apply_f_result_valid) begin
            apply_result_reg <= apply_f_result_error ? ERR : apply_f_result + 64'd1;
            apply_state_reg <= S_DONE;
        end
        default: if (apply_result_ready) apply_state_reg <= S_IDLE;
    endcase
    if (rst) apply_state_reg <= S_IDLE;
end

// ---------------------------------------------------------------- relay(a..e) = host.take(a..e)
reg [1:0]  relay_state_reg;
reg [63:0] relay_a_reg;
reg [63:0] relay_b_reg;
reg [31:0] relay_c_reg;
reg [63:0] relay_d_reg;
reg        relay_e_reg;
reg [63:0] relay_result_reg;

initial begin
    relay_state_reg = S_IDLE;
    relay_a_reg = 64'd0;
    relay_b_reg = 64'd0;
    relay_c_reg = 32'd0;
    relay_d_reg = 64'd0;
    relay_e_reg = 1'b0;
    relay_result_reg = 64'd0;
end

assign relay_ready = relay_state_reg == S_IDLE;
assign host_take_valid = relay_state_reg == S_CALL;
assign host_take_a = relay_a_reg;
assign host_take_b = relay_b_reg;
assign host_take_c = relay_c_reg;
assign host_take_d = relay_d_reg;
assign host_take_e = relay_e_reg;
assign host_take_result_ready = relay_state_reg == S_WAIT;
assign relay_result_valid = relay_state_reg == S_DONE;
assign relay_result = relay_result_reg;

always @(posedge clk) begin
    case (relay_state_reg)
        S_IDLE: if (relay_valid) begin
            relay_a_reg <= relay_a;
            relay_b_reg <= relay_b;
            relay_c_reg <= relay_c;
            relay_d_reg <= relay_d;
            relay_e_reg <= relay_e;
            relay_state_reg <= S_CALL;
        end
        S_CALL: if (host_take_ready) relay_state_reg <= S_WAIT;
        S_WAIT: if (host_take_result_valid) begin
            relay_result_reg <= host_take_result_error ? ERR : host_take_result;
            relay_state_reg <= S_DONE;
        end
        default: if (relay_result_ready) relay_state_reg <= S_IDLE;
    endcase
    if (rst) relay_state_reg <= S_IDLE;
end

// ---------------------------------------------------------------- offer(x) = host.use_neg(neg64, x)
reg [1:0]  offer_state_reg;
reg [63:0] offer_x_reg;
reg [63:0] offer_result_reg;

initial begin
    offer_state_reg = S_IDLE;
    offer_x_reg = 64'd0;
    offer_result_reg = 64'd0;
end

assign offer_ready = offer_state_reg == S_IDLE;
assign host_use_neg_valid = offer_state_reg == S_CALL;
assign host_use_neg_f = neg64_handle;
assign host_use_neg_x = offer_x_reg;
assign host_use_neg_result_ready = offer_state_reg == S_WAIT;
assign offer_result_valid = offer_state_reg == S_DONE;
assign offer_result = offer_result_reg;

always @(posedge clk) begin
    case (offer_state_reg)
        S_IDLE: if (offer_valid) begin
            offer_x_reg <= offer_x;
            offer_state_reg <= S_CALL;
        end
        S_CALL: if (host_use_neg_ready) offer_state_reg <= S_WAIT;
        S_WAIT: if (host_use_neg_result_valid) begin
            offer_result_reg <= host_use_neg_result_error ? ERR : host_use_neg_result;
            offer_state_reg <= S_DONE;
        end
        default: if (offer_result_ready) offer_state_reg <= S_IDLE;
    endcase
    if (rst) offer_state_reg <= S_IDLE;
end

// ---------------------------------------------------------------- hang(x) = x + 1, needs a credit
reg        hang_busy_reg;
reg [31:0] hang_x_reg;
reg [31:0] credits_reg;

initial begin
    hang_busy_reg = 1'b0;
    hang_x_reg = 32'd0;
    credits_reg = 32'd0;
end

wire hang_done = hang_result_valid && hang_result_ready;

assign hang_ready = !hang_busy_reg;
assign hang_result_valid = hang_busy_reg && credits_reg != 32'd0;
assign hang_result = hang_x_reg + 32'd1;

reg        grant_hold_reg;    // grant's completion waits for the wrapper

initial grant_hold_reg = 1'b0;

assign grant_ready = !grant_hold_reg;
assign grant_result_valid = grant_hold_reg || grant_valid;

always @(posedge clk) begin
    if (hang_valid && hang_ready) begin
        hang_x_reg <= hang_x;
        hang_busy_reg <= 1'b1;
    end else if (hang_done) begin
        hang_busy_reg <= 1'b0;
    end
    if (grant_valid && grant_ready && !grant_result_ready) begin
        grant_hold_reg <= 1'b1;
    end else if (grant_hold_reg && grant_result_ready) begin
        grant_hold_reg <= 1'b0;
    end
    credits_reg <= credits_reg + (grant_valid && grant_ready ? grant_n : 32'd0)
                   - (hang_done ? 32'd1 : 32'd0);
    if (rst) begin
        hang_busy_reg <= 1'b0;
        grant_hold_reg <= 1'b0;
        credits_reg <= 32'd0;
    end
end

wire unused = &{1'b0, apply_f};

endmodule

`default_nettype wire
