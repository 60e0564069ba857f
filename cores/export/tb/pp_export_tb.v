/*
 * Test harness of pp_export (tests/cores/test_export.py).
 *
 * Passes every port through. With TRIG_MEM = 1 it plays the window's memory as well: the
 * bench's `trig_word` (the slots' trigger words, 0 while idle) is what the window's trigger
 * flip-flops would hold; the export does not see it (its trig_word input is 0), only
 * `trig_mem`, the word of the slot `sel` selects, in which the bytes not marked in
 * `trig_bytes` (a byte that is 0 in the stored word: never written since the re-arm, or
 * written 0) hold `junk`, an older value the bench changes every cycle. So the export's
 * return addresses and duplicate decisions are right only if it reads the selected slot's
 * word and masks it by its bytes.
 */

`default_nettype none

module pp_export_tb #
(
    parameter N = 1,
    parameter [N-1:0] STATIC = {N{1'b1}},
    parameter LANES = 1,
    parameter [N-1:0] SLOT_LANE = {N{1'b0}},
    parameter TRIG_MEM = 0
)
(
    input  wire              clk,
    input  wire              rst,
    input  wire [N*32-1:0]   trig_word,
    input  wire [N-1:0]      trig_pulse,
    input  wire [N-1:0]      trig_pending,
    input  wire [31:0]       junk,
    input  wire [LANES*32-1:0] wdata,
    output wire [N-1:0]      rearm,
    output wire [N-1:0]      dup,
    output wire [N-1:0]      sel,
    output wire              call_valid,
    input  wire              call_ready,
    input  wire              result_valid,
    output wire              result_ready,
    output wire              call,
    output wire              active,
    input  wire              result_hold_n,
    output wire              req_valid,
    input  wire              req_ready,
    output wire [31:0]       rep_addr,
    output wire              rep_seq
);

wire [N*4-1:0] bytes;
reg [31:0] mem_sel;
integer k;
genvar g;
generate
    for (g = 0; g < 4 * N; g = g + 1) begin : byte_written
        assign bytes[g] = |trig_word[8*g +: 8];
    end
endgenerate
always @(*) begin
    mem_sel = 32'd0;
    for (k = 0; k < N; k = k + 1) begin
        mem_sel = mem_sel | ({32{sel[k]}} & (trig_word[32*k +: 32] | (junk &
                  ~{{8{bytes[4*k+3]}}, {8{bytes[4*k+2]}}, {8{bytes[4*k+1]}}, {8{bytes[4*k]}}})));
    end
end

pp_export #(
    .N(N), .STATIC(STATIC), .LANES(LANES), .SLOT_LANE(SLOT_LANE), .TRIG_MEM(TRIG_MEM)
) dut (
    .clk(clk), .rst(rst),
    .trig_word((TRIG_MEM != 0) ? {N*32{1'b0}} : trig_word),
    .trig_pulse(trig_pulse), .trig_pending(trig_pending),
    .trig_mem((TRIG_MEM != 0) ? mem_sel : 32'd0),
    .trig_bytes((TRIG_MEM != 0) ? bytes : {N*4{1'b0}}),
    .wdata(wdata), .rearm(rearm), .dup(dup), .sel(sel),
    .call_valid(call_valid), .call_ready(call_ready), .result_valid(result_valid),
    .result_ready(result_ready), .call(call), .active(active), .result_hold_n(result_hold_n),
    .req_valid(req_valid), .req_ready(req_ready), .rep_addr(rep_addr), .rep_seq(rep_seq)
);

endmodule

`default_nettype wire
