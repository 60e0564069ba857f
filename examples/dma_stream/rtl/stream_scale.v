/*
 * stream_scale: y = gain * x + offset on every 32-bit word of an AXI4-Stream (int32,
 * wrapping), TKEEP and TLAST passed through with the word. A user's stream core for the
 * dma_stream example: s_axis_* comes from the DMA's MM2S channel, m_axis_* goes to its
 * S2MM channel (the pushpush wrapper connects both, see system.yaml's dma:).
 *
 * Exports (PushPush calls from software):
 *   set_gain(gain, offset)  the coefficients for the words that follow (reset: 1, 0)
 *   scale(src, dst)         the same transform with buffer parameters (docs/rtl-ports.md,
 *                           "Buffer parameter"): the wrapper's DMA engines stream the
 *                           buffer src in (scale_src_*) and dst out (scale_dst_*, over the
 *                           top's buf_axi on S_AXI_HP0); dst[i] = gain * src[i] + offset
 *                           until src's last element; returns the number of elements
 *   stuck(src)              test hook: answers len at once and never reads its stream, so
 *                           the buffer engine times out (BUFFER_TIMEOUT cycles) and the
 *                           call fails with the BUFFER status
 *   set_stall(mask)         test hook: s_axis_tready is held low in the cycles where
 *                           (lfsr & mask) != 0 (a 32-bit Galois LFSR: with k bits in mask it
 *                           stalls in about 1 - 2**-k of the cycles; mask 0: never);
 *                           it stalls scale's streams alike
 *
 * The DMA stream: one register stage, full throughput (a word per cycle) while
 * m_axis_tready is high. scale: combinational from scale_src to scale_dst, a word per
 * cycle; it runs alongside a DMA transfer (separate paths, the same coefficients).
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

    // scale(src: in i32[], dst: out i32[]) -> u32
    input  wire        scale_valid,
    output wire        scale_ready,
    input  wire [31:0] scale_src_len,
    input  wire [31:0] scale_dst_len,
    output wire        scale_result_valid,
    input  wire        scale_result_ready,
    output wire [31:0] scale_result,
    input  wire [31:0] scale_src_tdata,
    input  wire        scale_src_tvalid,
    output wire        scale_src_tready,
    input  wire        scale_src_tlast,
    output wire [31:0] scale_dst_tdata,
    output wire        scale_dst_tvalid,
    input  wire        scale_dst_tready,
    output wire        scale_dst_tlast,

    // stuck(src: in i32[]) -> u32
    input  wire        stuck_valid,
    output wire        stuck_ready,
    input  wire [31:0] stuck_src_len,
    output wire        stuck_result_valid,
    input  wire        stuck_result_ready,
    output wire [31:0] stuck_result,
    input  wire [31:0] stuck_src_tdata,
    input  wire        stuck_src_tvalid,
    output wire        stuck_src_tready,
    input  wire        stuck_src_tlast,

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

reg [31:0] gain_reg;
reg [31:0] offset_reg;
reg [31:0] mask_reg;
reg [31:0] lfsr_reg;
reg        gain_done_reg;
reg        stall_done_reg;
initial begin
    gain_reg = 32'd1;
    offset_reg = 32'd0;
    mask_reg = 32'd0;
    lfsr_reg = 32'hACE1_2468;
    gain_done_reg = 1'b0;
    stall_done_reg = 1'b0;
end

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
reg [31:0] data_reg;
reg [3:0]  keep_reg;
reg        last_reg;
reg        valid_reg;
initial begin
    data_reg = 32'd0;
    keep_reg = 4'd0;
    last_reg = 1'b0;
    valid_reg = 1'b0;
end

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

// scale: the buffer form, a word per cycle from scale_src to scale_dst
reg        scale_busy_reg;
reg        scale_done_reg;
reg [31:0] scale_count_reg;
initial begin
    scale_busy_reg = 1'b0;
    scale_done_reg = 1'b0;
    scale_count_reg = 32'd0;
end

assign scale_ready = !scale_busy_reg && !scale_done_reg;
assign scale_result_valid = scale_done_reg;
assign scale_result = scale_count_reg;
assign scale_dst_tdata = gain_reg * scale_src_tdata + offset_reg;
assign scale_dst_tlast = scale_src_tlast;
assign scale_dst_tvalid = scale_busy_reg && scale_src_tvalid && !stall;
assign scale_src_tready = scale_busy_reg && scale_dst_tready && !stall;

wire scale_fire = scale_src_tvalid && scale_src_tready;
// dst's length is the engine's business: it stops writing at dst_len elements and drops the rest
wire unused_scale = &{1'b0, scale_dst_len};

always @(posedge clk) begin
    if (scale_valid && scale_ready) begin
        scale_count_reg <= 32'd0;
        scale_busy_reg <= (scale_src_len != 32'd0);
        scale_done_reg <= (scale_src_len == 32'd0);
    end
    if (scale_fire) begin
        scale_count_reg <= scale_count_reg + 32'd1;
        if (scale_src_tlast) begin
            scale_busy_reg <= 1'b0;
            scale_done_reg <= 1'b1;
        end
    end
    if (scale_done_reg && scale_result_ready) scale_done_reg <= 1'b0;
    if (rst) begin
        scale_busy_reg <= 1'b0;
        scale_done_reg <= 1'b0;
    end
end

// stuck: answered (len) in the next cycle, its stream never taken
reg        stuck_done_reg;
reg [31:0] stuck_len_reg;
initial begin
    stuck_done_reg = 1'b0;
    stuck_len_reg = 32'd0;
end

assign stuck_ready = !stuck_done_reg;
assign stuck_result_valid = stuck_done_reg;
assign stuck_result = stuck_len_reg;
assign stuck_src_tready = 1'b0;
wire unused_stuck = &{1'b0, stuck_src_tdata, stuck_src_tvalid, stuck_src_tlast};

always @(posedge clk) begin
    if (stuck_valid && stuck_ready) begin
        stuck_len_reg <= stuck_src_len;
        stuck_done_reg <= 1'b1;
    end else if (stuck_result_ready) begin
        stuck_done_reg <= 1'b0;
    end
    if (rst) stuck_done_reg <= 1'b0;
end

endmodule

`default_nettype wire
