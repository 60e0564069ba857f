/*
 * stream_scale: y = gain * x + offset on every 32-bit word of an AXI4-Stream (int32,
 * wrapping), TKEEP and TLAST passed through with the word. A user's stream core for the
 * dma_stream example: s_axis_* comes from the DMA's MM2S channel, m_axis_* goes to its
 * S2MM channel (the pushpush wrapper connects both, see system.yaml's dma:).
 *
 * Exports (PushPush calls from software):
 *   set_gain(gain, offset)  the coefficients for the words that follow (reset: 1, 0)
 *   set_stall(mask)         test hook: s_axis_tready is held low in the cycles where
 *                           (lfsr & mask) != 0 (a 32-bit Galois LFSR: with k bits in mask it
 *                           stalls in about 1 - 2**-k of the cycles; mask 0: never)
 *
 * One register stage: full throughput (a word per cycle) while m_axis_tready is high.
 */

`default_nettype none

module stream_scale (
    input  wire        clk,
    input  wire        rst,

    // set_gain(gain: i32, offset: i32) -> void
    input  wire        set_gain_valid,
    output wire        set_gain_ready,
    input  wire [31:0] set_gain_gain,
    input  wire [31:0] set_gain_offset,
    output wire        set_gain_result_valid,
    input  wire        set_gain_result_ready,

    // set_stall(mask: u32) -> void
    input  wire        set_stall_valid,
    output wire        set_stall_ready,
    input  wire [31:0] set_stall_mask,
    output wire        set_stall_result_valid,
    input  wire        set_stall_result_ready,

    // the stream in (from the DMA's MM2S)
    input  wire [31:0] s_axis_tdata,
    input  wire [3:0]  s_axis_tkeep,
    input  wire        s_axis_tlast,
    input  wire        s_axis_tvalid,
    output wire        s_axis_tready,

    // the stream out (to the DMA's S2MM)
    output wire [31:0] m_axis_tdata,
    output wire [3:0]  m_axis_tkeep,
    output wire        m_axis_tlast,
    output wire        m_axis_tvalid,
    input  wire        m_axis_tready
);

reg [31:0] gain_reg = 32'd1;
reg [31:0] offset_reg = 32'd0;
reg [31:0] mask_reg = 32'd0;
reg [31:0] lfsr_reg = 32'hACE1_2468;
reg        gain_done_reg = 1'b0;
reg        stall_done_reg = 1'b0;

// calls: taken at once, answered (void) in the next cycle
assign set_gain_ready = !gain_done_reg;
assign set_gain_result_valid = gain_done_reg;
assign set_stall_ready = !stall_done_reg;
assign set_stall_result_valid = stall_done_reg;

always @(posedge clk) begin
    if (set_gain_valid && set_gain_ready) begin
        gain_reg <= set_gain_gain;
        offset_reg <= set_gain_offset;
        gain_done_reg <= 1'b1;
    end else if (set_gain_result_ready) begin
        gain_done_reg <= 1'b0;
    end
    if (set_stall_valid && set_stall_ready) begin
        mask_reg <= set_stall_mask;
        stall_done_reg <= 1'b1;
    end else if (set_stall_result_ready) begin
        stall_done_reg <= 1'b0;
    end
    lfsr_reg <= {1'b0, lfsr_reg[31:1]} ^ (lfsr_reg[0] ? 32'h8020_0003 : 32'd0);
    if (rst) begin
        gain_reg <= 32'd1;
        offset_reg <= 32'd0;
        mask_reg <= 32'd0;
        gain_done_reg <= 1'b0;
        stall_done_reg <= 1'b0;
    end
end

// the stream: one output register
reg [31:0] data_reg = 32'd0;
reg [3:0]  keep_reg = 4'd0;
reg        last_reg = 1'b0;
reg        valid_reg = 1'b0;

wire stall = |(lfsr_reg & mask_reg);
assign s_axis_tready = (!valid_reg || m_axis_tready) && !stall;

always @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) begin
        data_reg <= gain_reg * s_axis_tdata + offset_reg;
        keep_reg <= s_axis_tkeep;
        last_reg <= s_axis_tlast;
        valid_reg <= 1'b1;
    end else if (m_axis_tready) begin
        valid_reg <= 1'b0;
    end
    if (rst) valid_reg <= 1'b0;
end

assign m_axis_tdata = data_reg;
assign m_axis_tkeep = keep_reg;
assign m_axis_tlast = last_reg;
assign m_axis_tvalid = valid_reg;

endmodule

`default_nettype wire
