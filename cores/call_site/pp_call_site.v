/*
 * pushpush: call site (pp_call_site)
 *
 * The state of one place from which an RTL component calls (an import, or a function-typed
 * parameter of one of its exports): it issues one call at a time through the component's
 * request arbiter and call engine, watches the call's return slot (rep) in the component's
 * window, and delivers the result to the module (docs/architecture.md §2, §2.2):
 *
 * - every call flips the site's SEQ bit (trigger bit 1, req_seq); the first call's SEQ is 0;
 * - a status arriving in the rep slot while the site waits, with its echo (bit 30) equal to
 *   the outstanding SEQ, is the result: presented on result_valid (bit 31 -> result_error)
 *   until the module takes it, then the slot is re-armed;
 * - any other status is a stray: re-armed at once, never delivered, counted (stray pulse);
 * - a write error of the call (req_err, from the engine through the arbiter) completes the
 *   call with result_error, since no reply will come;
 * - a reply that does not come: a call taken in cycle t whose result was not presented by
 *   cycle t + REPLY_TIMEOUT - 1 completes with result_error in cycle t + REPLY_TIMEOUT (the
 *   timeout); a status arriving from then on is a stray, also the call's late reply (after
 *   the next call, its echo is not the new SEQ).
 *
 * Timing: no cycle of its own. A status beat accepted in cycle t (rep_pulse) is presented in
 * t; the next call may be issued in the cycle the result is taken (call_ready depends on
 * result_ready); rearm is a register (the cycle after).
 */

`default_nettype none

module pp_call_site #
(
    // cycles after the call is taken until it ends with a timeout error (1 .. 2**31-1)
    parameter integer REPLY_TIMEOUT = 1073741824
)
(
    input  wire       clk,
    input  wire       rst,

    /*
     * The rep slot in the window (pp_endpoint_mem)
     */
    // its trig_pulse bit: the status word is being written now (its value on status_bus)
    input  wire       rep_pulse,
    // its trig_pending bit: a status word is stored (its value on status_reg)
    input  wire       rep_pending,
    // bits 31..30 (error, echo) of the status word on the bus and in the window
    input  wire [1:0] status_bus,
    input  wire [1:0] status_reg,
    // re-arm the slot (to the window's rearm input; registered)
    output wire       rearm,
    // one-cycle pulse: a stray status was dropped
    output wire       stray,

    /*
     * The module's call group
     */
    // calls may be issued (an import: 1; a function parameter: while its export is active)
    input  wire       enable,
    input  wire       call_valid,
    output wire       call_ready,
    output wire       result_valid,
    input  wire       result_ready,
    output wire       result_error,

    /*
     * The request arbiter (in front of the call engine)
     */
    output wire       req_valid,
    // the request is taken this cycle
    input  wire       req_ready,
    // SEQ of the call being issued: trigger bit 1
    output wire       req_seq,
    // pulse: the engine reported that this site's call write failed
    input  wire       req_err
);

reg wait_reg;     // a call is outstanding
reg werr_reg;     // its write failed: deliver an error, no reply will come
reg seq_reg;      // SEQ of the last call issued (of the outstanding one while waiting)
reg rearm_reg;
reg tmo_reg;      // the outstanding call timed out: deliver an error, a late reply is a stray

// the timeout's counter: the cycles the call has waited without a result, less one; cleared
// when the call is taken; tmo_reg is set at the end of the cycle in which it reaches
// REPLY_TIMEOUT - 2, so the error is presented REPLY_TIMEOUT cycles after the call's cycle
// (REPLY_TIMEOUT 1: tmo_reg is set with the call). Counting up from a clear (a synchronous
// reset of the flip-flops) to a constant is cheaper than loading a down-counter.
function integer width_of;
    input integer v;
    integer k;
    begin
        width_of = 1;
        for (k = 1; k < 31; k = k + 1) begin
            if (v >= (1 << k)) begin
                width_of = k + 1;
            end
        end
    end
endfunction
localparam integer TW = width_of(REPLY_TIMEOUT > 2 ? REPLY_TIMEOUT - 2 : 1);
localparam [31:0] TLAST = REPLY_TIMEOUT > 2 ? REPLY_TIMEOUT - 2 : 0;
reg [TW-1:0] tcnt_reg;

initial begin
    wait_reg = 1'b0;
    werr_reg = 1'b0;
    seq_reg = 1'b1;
    rearm_reg = 1'b0;
    tmo_reg = 1'b0;
    tcnt_reg = {TW{1'b0}};
end

// a status arrives: written now, or stored and not being re-armed
wire arrive = rep_pulse || (rep_pending && !rearm_reg);
wire [1:0] status = rep_pulse ? status_bus : status_reg;
// the answer of the outstanding call: waiting, and the echo is its SEQ
wire evt = arrive && wait_reg && !tmo_reg && (status[0] == seq_reg);

assign stray = arrive && !evt;
assign rearm = rearm_reg;

assign result_valid = wait_reg && (evt || werr_reg || tmo_reg);
assign result_error = werr_reg || tmo_reg || (evt && status[1]);
wire res_fire = result_valid && result_ready;

wire free = (!wait_reg || res_fire) && enable;
assign req_valid = call_valid && free;
assign call_ready = free && req_ready;
assign req_seq = !seq_reg;
wire call = call_valid && call_ready;

// the call waits for its reply in this cycle: no result presented yet
wire unanswered = wait_reg && !evt && !werr_reg && !tmo_reg;
wire fire = unanswered && tcnt_reg == TLAST[TW-1:0] && REPLY_TIMEOUT > 1;

always @(posedge clk) begin
    wait_reg <= call || (wait_reg && !res_fire);
    if (call || res_fire) begin
        werr_reg <= 1'b0;
        tmo_reg <= 1'b0;
    end
    if (fire) begin
        tmo_reg <= 1'b1;
    end
    if (unanswered) begin
        tcnt_reg <= tcnt_reg + 1'b1;
    end
    if (call) begin
        seq_reg <= !seq_reg;
        tmo_reg <= REPLY_TIMEOUT == 1;
        tcnt_reg <= {TW{1'b0}};
    end
    if (req_err) begin
        werr_reg <= 1'b1;
    end
    rearm_reg <= (res_fire && evt) || stray;
    if (rst) begin
        wait_reg <= 1'b0;
        werr_reg <= 1'b0;
        seq_reg <= 1'b1;
        rearm_reg <= 1'b0;
        tmo_reg <= 1'b0;
        tcnt_reg <= {TW{1'b0}};
    end
end

endmodule

`default_nettype wire
