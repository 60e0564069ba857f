/*
 * pushpush bench dma: the stream component of the DMA benchmark (bench_stream; a user module, so no pp_ prefix), a user
 * rtl module of a generated system with a dma: (its s_axis_* from the DMA's MM2S, m_axis_*
 * to its S2MM). One export sets what it does with the stream:
 *
 *   mode(m: u32, n: u32) -> void
 *     m = 0: loop-back (the seed paper's first scenario): every input beat goes out
 *            unchanged, TKEEP and TLAST with it, through one register (a beat per cycle)
 *     m = 1: sink: takes every input beat (s_axis_tready = 1), sends nothing
 *     m = 2: source: sends one packet of n bytes (n >= 1): beats of a byte counter, TKEEP
 *            all ones but on the last beat, TLAST on it, as fast as m_axis_tready allows;
 *            input taken and dropped
 *
 * W: the stream width in bits (32 or 64, the DMA's data_width).
 */

`default_nettype none

module bench_stream #(
    parameter W = 64
) (
    input  wire           clk,
    input  wire           rst,

    input  wire           mode_valid,
    output wire           mode_ready,
    input  wire [31:0]    mode_m,
    input  wire [31:0]    mode_n,
    output wire           mode_result_valid,
    input  wire           mode_result_ready,

    input  wire [W-1:0]   s_axis_tdata,
    input  wire [W/8-1:0] s_axis_tkeep,
    input  wire           s_axis_tlast,
    input  wire           s_axis_tvalid,
    output wire           s_axis_tready,

    output wire [W-1:0]   m_axis_tdata,
    output wire [W/8-1:0] m_axis_tkeep,
    output wire           m_axis_tlast,
    output wire           m_axis_tvalid,
    input  wire           m_axis_tready
);

localparam B = W / 8;

reg [1:0]   mode_reg = 2'd0;
reg         done_reg = 1'b0;
reg [31:0]  left_reg = 32'd0;     // source: bytes still to send
reg [31:0]  count_reg = 32'd0;    // source: the byte counter of the next beat

assign mode_ready = !done_reg;
assign mode_result_valid = done_reg;

// loop-back register
reg [W-1:0]   data_reg = {W{1'b0}};
reg [B-1:0]   keep_reg = {B{1'b0}};
reg           last_reg = 1'b0;
reg           valid_reg = 1'b0;

wire src = (mode_reg == 2'd2);
wire src_last = (left_reg <= B);
wire [B-1:0] src_keep;
genvar k;
generate
    for (k = 0; k < B; k = k + 1) begin : g_keep
        assign src_keep[k] = (left_reg > k);
    end
endgenerate
wire [W-1:0] src_data;
generate
    for (k = 0; k < B; k = k + 1) begin : g_data
        assign src_data[8*k +: 8] = count_reg[7:0] + k[7:0];
    end
endgenerate

assign s_axis_tready = (mode_reg == 2'd0) ? (!valid_reg || m_axis_tready) : 1'b1;
assign m_axis_tdata = src ? src_data : data_reg;
assign m_axis_tkeep = src ? src_keep : keep_reg;
assign m_axis_tlast = src ? src_last : last_reg;
assign m_axis_tvalid = src ? (left_reg != 32'd0) : valid_reg;

always @(posedge clk) begin
    if (mode_valid && mode_ready) begin
        mode_reg <= mode_m[1:0];
        left_reg <= (mode_m[1:0] == 2'd2) ? mode_n : 32'd0;
        count_reg <= 32'd0;
        done_reg <= 1'b1;
    end else if (mode_result_ready) begin
        done_reg <= 1'b0;
    end
    if (src && m_axis_tvalid && m_axis_tready) begin
        left_reg <= src_last ? 32'd0 : left_reg - B;
        count_reg <= count_reg + B;
    end
    if (mode_reg == 2'd0 && s_axis_tvalid && s_axis_tready) begin
        data_reg <= s_axis_tdata;
        keep_reg <= s_axis_tkeep;
        last_reg <= s_axis_tlast;
        valid_reg <= 1'b1;
    end else if (m_axis_tready || mode_reg != 2'd0) begin
        valid_reg <= 1'b0;
    end
    if (rst) begin
        mode_reg <= 2'd0;
        done_reg <= 1'b0;
        left_reg <= 32'd0;
        valid_reg <= 1'b0;
    end
end

// the sink and the source drop the input
wire unused = &{1'b0, mode_m[31:2], count_reg[31:8]};

endmodule

`default_nettype wire
