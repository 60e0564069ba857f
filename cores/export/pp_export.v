/*
 * pushpush: export (pp_export)
 *
 * The state of one exported function of an RTL component (docs/architecture.md §2, §2.2):
 * it watches the function's N call endpoint slots in the component's window (static slots,
 * one per statically linked importer, and dynamic slots), drops duplicate triggers, picks
 * one pending call round robin and presents it to the module (held until taken), keeps the
 * caller's return address while the module works, and hands the result write (result words
 * and status, to that address) to the component's request arbiter. One call at a time.
 *
 * Timing: no cycle of its own. A trigger beat accepted in cycle t (trig_pulse) is presented
 * in t; a module that completes in t has its result request in t (the engine's burst starts
 * in t+1); the slot is re-armed in t+1 (rearm is a register).
 */

`default_nettype none

module pp_export #
(
    // Number of call endpoint slots (>= 1)
    parameter N = 1,
    // Bit k = 1: slot k is static (one caller; a duplicate repeats the last SEQ taken from
    // it); 0: dynamic (any caller; a duplicate repeats the trigger of the call executing)
    parameter [N-1:0] STATIC = {N{1'b1}},
    // 32-bit lanes of the window's data bus (1: 32 bits, 2: 64 bits)
    parameter LANES = 1,
    // Bit k: the bus lane of slot k's trigger word (64-bit bus: trigger word offset % 2)
    parameter [N-1:0] SLOT_LANE = {N{1'b0}},
    // Where a pending trigger word is read: 0 from trig_word (the window's flip-flops, one
    // 32-bit input per slot); 1 from trig_mem, the window's memory read at the selected
    // slot's trigger word (a read port whose address follows sel), of which only the bytes
    // written since the slot was re-armed count (trig_bytes; the others read 0, as in
    // trig_word). 1 leaves the slot multiplexer to the memory's read port: one LUT per bit
    // for the return address instead of two or three, and the window's trigger word
    // flip-flops above the SEQ bit unread (Yosys removes them)
    parameter TRIG_MEM = 0
)
(
    input  wire              clk,
    input  wire              rst,

    /*
     * The slots in the window (pp_endpoint_mem), slot k at bit k / [32*k +: 32]
     */
    input  wire [N*32-1:0]   trig_word,
    input  wire [N-1:0]      trig_pulse,
    input  wire [N-1:0]      trig_pending,
    // (TRIG_MEM = 1) the stored trigger word of the slot selected by sel, and per slot k the
    // bytes of its trigger word written since it was last re-armed, [4*k +: 4]
    input  wire [31:0]       trig_mem,
    input  wire [N*4-1:0]    trig_bytes,
    // the W beat's data: a slot's trigger word is taken from its lane in the pulse cycle
    input  wire [LANES*32-1:0] wdata,
    // re-arm slot k (registered: the cycle after its call was taken or its duplicate seen)
    output wire [N-1:0]      rearm,
    // one-cycle pulses: slot k's trigger was dropped as a duplicate
    output wire [N-1:0]      dup,
    // the slot of the call presented (one-hot, or 0; meaningful with call_valid): the wrapper
    // reads its arguments with it
    output wire [N-1:0]      sel,

    /*
     * The module's call group
     */
    output wire              call_valid,
    input  wire              call_ready,
    input  wire              result_valid,
    output wire              result_ready,
    // the call is taken this cycle / a call is taken and not completed (this cycle included)
    output wire              call,
    output wire              active,

    /*
     * The result write, through the request arbiter
     */
    // 0 holds the result back (buffer engines still moving the call's data)
    input  wire              result_hold_n,
    output wire              req_valid,
    input  wire              req_ready,
    // the caller's return address (trigger bits 31..2, 00) and the call's SEQ (trigger bit 1,
    // the status word's echo)
    output wire [31:0]       rep_addr,
    output wire              rep_seq
);

genvar k;

reg busy_reg;
reg [31:0] rep_reg;
reg hold_reg;
reg [N-1:0] hold_sel_reg;
reg [N-1:0] mask_reg;
reg [N-1:0] rearm_reg;

initial begin
    busy_reg = 1'b0;
    rep_reg = 32'd0;
    hold_reg = 1'b0;
    hold_sel_reg = {N{1'b0}};
    mask_reg = {N{1'b0}};
    rearm_reg = {N{1'b0}};
end

// a trigger arrives: written now, or pending and not being re-armed
wire [N-1:0] arrive = trig_pulse | (trig_pending & ~rearm_reg);
// the candidates: arrived, not duplicates. A dynamic slot's duplicate needs busy, and while
// busy no call is presented, so only the static slots' duplicates are taken out here: the
// pick then does not wait for the dynamic slots' 32-bit comparisons
wire [N-1:0] cand = arrive & ~(dup & STATIC);
wire [N-1:0] pick;
// the trigger word of the selected slot (below)
wire [31:0] rep_now;
wire [31:0] rep;

// per slot: duplicate detection and its state
generate
    for (k = 0; k < N; k = k + 1) begin : slot
        localparam integer L = SLOT_LANE[k] ? 1 : 0;
        if (STATIC[k]) begin : st
            // SEQ (bit 1) of the last call taken from the slot (when it is taken, sel is this
            // slot alone and busy_reg is low, so rep is its trigger: from the bus in its pulse
            // cycle, else stored)
            reg seen_reg;
            reg seq_reg;
            initial begin
                seen_reg = 1'b0;
                seq_reg = 1'b0;
            end
            always @(posedge clk) begin
                if (call && sel[k]) begin
                    seen_reg <= 1'b1;
                    seq_reg <= rep[1];
                end
                if (rst) begin
                    seen_reg <= 1'b0;
                end
            end
            // only a trigger on the bus can be a duplicate: one that stays pending was
            // compared in its pulse cycle against the same state (seen/seq change only when
            // a call is taken from this slot, which takes the pending trigger itself)
            assign dup[k] = trig_pulse[k] && seen_reg && (wdata[32*L+1] == seq_reg);
        end else begin : dy
            // the trigger on the bus, whole, against the trigger of the call executing from
            // this slot. Only a trigger in its pulse cycle can be a duplicate: the slot is
            // re-armed right after its call is taken, so a trigger pending on it arrived
            // during that call and was compared then, against the same rep_reg and from_reg
            // (they change only when a call is taken, which ends the execution or takes the
            // pending trigger itself)
            wire same = wdata[32*L +: 32] == rep_reg;
            reg from_reg;
            initial begin
                from_reg = 1'b0;
            end
            always @(posedge clk) begin
                if (call) begin
                    from_reg <= sel[k];
                end
            end
            assign dup[k] = trig_pulse[k] && busy_reg && from_reg && same;
        end
    end
endgenerate

// round robin: the lowest candidate above the last slot taken, else the lowest (a prefix OR
// finds the lowest: no carry chain on the call path)
generate
    if (N == 1) begin : one
        assign pick = cand;
    end else begin : rr
        wire [N-1:0] hi = cand & mask_reg;
        wire [N-1:0] pool = (|hi) ? hi : cand;
        // below[j]: some candidate of the pool under slot j
        reg [N-1:0] below;
        reg acc;
        integer j;
        always @(*) begin
            acc = 1'b0;
            for (j = 0; j < N; j = j + 1) begin
                below[j] = acc;
                acc = acc | pool[j];
            end
        end
        assign pick = pool & ~below;
    end
endgenerate

// a presented call stays presented (same slot, same arguments) until taken
assign sel = hold_reg ? hold_sel_reg : pick;

// the selected slot's trigger word: from the bus in its pulse cycle (one multiplexer per
// lane after the slots' multiplexer), else from the window
reg [31:0] tw_sel;
reg [LANES-1:0] lane_hit;
reg [3:0] bytes_sel;
integer m;
always @(*) begin
    tw_sel = 32'd0;
    lane_hit = {LANES{1'b0}};
    bytes_sel = 4'd0;
    for (m = 0; m < N; m = m + 1) begin
        tw_sel = tw_sel | ({32{sel[m]}} & trig_word[32*m +: 32]);
        lane_hit[SLOT_LANE[m]] = lane_hit[SLOT_LANE[m]] | (sel[m] & trig_pulse[m]);
        bytes_sel = bytes_sel | ({4{sel[m]}} & trig_bytes[4*m +: 4]);
    end
    if (TRIG_MEM != 0) begin
        tw_sel = trig_mem & {{8{bytes_sel[3]}}, {8{bytes_sel[2]}}, {8{bytes_sel[1]}}, {8{bytes_sel[0]}}};
    end
end
generate
    if (LANES == 1) begin : l1
        assign rep_now = lane_hit[0] ? wdata[31:0] : tw_sel;
    end else begin : l2
        assign rep_now = lane_hit[0] ? wdata[31:0] : lane_hit[1] ? wdata[63:32] : tw_sel;
    end
endgenerate

assign call_valid = !busy_reg && (|cand);
assign call = call_valid && call_ready;
assign active = busy_reg || call;
assign rep = busy_reg ? rep_reg : rep_now;
// trigger bit 0: one-way call, no result is written
wire oneway = rep[0];
assign rep_addr = {rep[31:2], 2'b00};
assign rep_seq = rep[1];
assign req_valid = result_valid && active && !oneway && result_hold_n;
assign result_ready = active && result_hold_n && (oneway || req_ready);
wire done = result_valid && result_ready;
assign rearm = rearm_reg;
// the slots at and below the one taken: the next round starts above it
wire [N:0] sel_below = {sel, 1'b0} - {{N{1'b0}}, 1'b1};
// (one slot: no round robin; the top bit of sel_below is never needed)
wire unused_rr = &{1'b0, mask_reg, sel_below[N]};
// the trigger words' inputs the TRIG_MEM setting does not read
wire unused_tw = &{1'b0, trig_word, trig_mem, trig_bytes};

always @(posedge clk) begin
    busy_reg <= active && !done;
    hold_reg <= call_valid && !call_ready;
    hold_sel_reg <= sel;
    rearm_reg <= ({N{call}} & sel) | dup;
    if (call) begin
        // (a call is taken only while not busy: rep is rep_now; one function per bit feeds
        // both the output and this register, not two)
        rep_reg <= rep;
        mask_reg <= ~sel_below[N-1:0];
    end
    if (rst) begin
        busy_reg <= 1'b0;
        hold_reg <= 1'b0;
        mask_reg <= {N{1'b0}};
        rearm_reg <= {N{1'b0}};
    end
end

endmodule

`default_nettype wire
