/*
 * Bench harness of pp_axi_slave (tests/cores/test_axi_slave.py): the front end with a small
 * byte-strobed memory behind it, as a core would put one.
 *
 * - Memory: 2**(AB-2) 32-bit words at byte addresses 0 .. 2**AB - 1.
 * - Write beats: refused (wr_err) when the burst is bad (USE_BAD = 1), the beat is at 2**AB
 *   or above, or it has strobes in word REFUSE_WORD; a refused beat writes nothing.
 *   `hold` (from the bench) holds beats back (wr_ready low).
 * - With WR_RESP_WAIT = 1 the harness answers a burst when the bench raises `resp_go`, DECERR
 *   when a beat of the burst was at word DEC_WORD (its lane 0), else OKAY.
 * - Read beats: SLVERR when the burst is bad (USE_BAD = 1) or the beat is at 2**AB or above;
 *   a beat whose lane 0 is word ZERO_WORD reads 0 (rd_zero); else the memory words.
 */

`default_nettype none
/* verilator lint_off WIDTH */   // a bench harness: word indices wrap in the memory

module pp_axi_slave_tb #
(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 12,
    parameter ID_WIDTH = 4,
    parameter AB = 8,
    parameter W_WITH_AW = 0,
    parameter B_DEPTH = 1,
    parameter WR_RESP_WAIT = 0,
    parameter R_REG = 0,
    parameter AR_EARLY = 0,
    parameter SIZE_MIN = 0,
    parameter SIZE_MAX = 7,
    parameter INCR_ONLY = 0,
    parameter FULL_BEATS = 0,
    parameter USE_BAD = 1,
    parameter REFUSE_WORD = 5,
    parameter DEC_WORD = 8,
    parameter ZERO_WORD = 12
)
(
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     hold,
    input  wire                     resp_go,

    input  wire [ID_WIDTH-1:0]      s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [7:0]               s_axi_awlen,
    input  wire [2:0]               s_axi_awsize,
    input  wire [1:0]               s_axi_awburst,
    input  wire                     s_axi_awlock,
    input  wire [3:0]               s_axi_awcache,
    input  wire [2:0]               s_axi_awprot,
    input  wire                     s_axi_awvalid,
    output wire                     s_axi_awready,
    input  wire [DATA_WIDTH-1:0]    s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axi_wstrb,
    input  wire                     s_axi_wlast,
    input  wire                     s_axi_wvalid,
    output wire                     s_axi_wready,
    output wire [ID_WIDTH-1:0]      s_axi_bid,
    output wire [1:0]               s_axi_bresp,
    output wire                     s_axi_bvalid,
    input  wire                     s_axi_bready,
    input  wire [ID_WIDTH-1:0]      s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_araddr,
    input  wire [7:0]               s_axi_arlen,
    input  wire [2:0]               s_axi_arsize,
    input  wire [1:0]               s_axi_arburst,
    input  wire                     s_axi_arlock,
    input  wire [3:0]               s_axi_arcache,
    input  wire [2:0]               s_axi_arprot,
    input  wire                     s_axi_arvalid,
    output wire                     s_axi_arready,
    output wire [ID_WIDTH-1:0]      s_axi_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [1:0]               s_axi_rresp,
    output wire                     s_axi_rlast,
    output wire                     s_axi_rvalid,
    input  wire                     s_axi_rready
);

localparam NW = DATA_WIDTH / 32;
localparam WORDS = 1 << (AB - 2);

wire                    wr_en, wr_ovf, wr_bad, wr_last, rd_en, rd_ovf, rd_bad;
wire [AB-1:0]           wr_addr, rd_addr;
wire [2:0]              wr_size, rd_size;
wire [DATA_WIDTH-1:0]   wr_data, rd_data;
wire [DATA_WIDTH/8-1:0] wr_strb;
wire                    wr_err;
wire                    rd_err = (USE_BAD != 0 && rd_bad) || rd_ovf;
wire                    rd_zero;
reg                     waiting;
reg                     dec;

pp_axi_slave #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(ADDR_WIDTH), .ID_WIDTH(ID_WIDTH),
    .WR_ADDR_BITS(AB), .RD_ADDR_BITS(AB), .W_WITH_AW(W_WITH_AW), .B_DEPTH(B_DEPTH),
    .WR_RESP_WAIT(WR_RESP_WAIT), .R_REG(R_REG), .AR_EARLY(AR_EARLY),
    .SIZE_MIN(SIZE_MIN), .SIZE_MAX(SIZE_MAX), .INCR_ONLY(INCR_ONLY), .FULL_BEATS(FULL_BEATS)
) dut (
    .clk(clk), .rst(rst),
    .s_axi_awid(s_axi_awid), .s_axi_awaddr(s_axi_awaddr), .s_axi_awlen(s_axi_awlen),
    .s_axi_awsize(s_axi_awsize), .s_axi_awburst(s_axi_awburst), .s_axi_awlock(s_axi_awlock),
    .s_axi_awcache(s_axi_awcache), .s_axi_awprot(s_axi_awprot), .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready), .s_axi_wdata(s_axi_wdata), .s_axi_wstrb(s_axi_wstrb),
    .s_axi_wlast(s_axi_wlast), .s_axi_wvalid(s_axi_wvalid), .s_axi_wready(s_axi_wready),
    .s_axi_bid(s_axi_bid), .s_axi_bresp(s_axi_bresp), .s_axi_bvalid(s_axi_bvalid),
    .s_axi_bready(s_axi_bready), .s_axi_arid(s_axi_arid), .s_axi_araddr(s_axi_araddr),
    .s_axi_arlen(s_axi_arlen), .s_axi_arsize(s_axi_arsize), .s_axi_arburst(s_axi_arburst),
    .s_axi_arlock(s_axi_arlock), .s_axi_arcache(s_axi_arcache), .s_axi_arprot(s_axi_arprot),
    .s_axi_arvalid(s_axi_arvalid), .s_axi_arready(s_axi_arready), .s_axi_rid(s_axi_rid),
    .s_axi_rdata(s_axi_rdata), .s_axi_rresp(s_axi_rresp), .s_axi_rlast(s_axi_rlast),
    .s_axi_rvalid(s_axi_rvalid), .s_axi_rready(s_axi_rready),
    .wr_en(wr_en), .wr_addr(wr_addr), .wr_ovf(wr_ovf), .wr_size(wr_size), .wr_bad(wr_bad),
    .wr_data(wr_data), .wr_strb(wr_strb), .wr_last(wr_last), .wr_ready(!hold), .wr_err(wr_err),
    .wr_resp_valid(waiting && resp_go), .wr_resp(dec ? 2'b11 : 2'b00),
    .rd_en(rd_en), .rd_addr(rd_addr), .rd_ovf(rd_ovf), .rd_size(rd_size), .rd_bad(rd_bad),
    .rd_data(rd_data), .rd_err(rd_err), .rd_zero(rd_zero)
);

reg [31:0] mem [0:WORDS-1];
integer k;
initial begin
    for (k = 0; k < WORDS; k = k + 1)
        mem[k] = 32'd0;
    waiting = 1'b0;
    dec = 1'b0;
end

wire [AB-3:0] w_word0 = wr_addr[AB-1:2] & ~(NW - 1);
wire [AB-3:0] r_word0 = rd_addr[AB-1:2] & ~(NW - 1);
wire [NW-1:0] w_refuse;
genvar j;
generate
    for (j = 0; j < NW; j = j + 1) begin : lane
        assign w_refuse[j] = (w_word0 + j == REFUSE_WORD) && |wr_strb[4*j +: 4];
        assign rd_data[32*j +: 32] = mem[r_word0 + j];
    end
endgenerate
assign wr_err = (USE_BAD != 0 && wr_bad) || wr_ovf || |w_refuse;
assign rd_zero = r_word0 == ZERO_WORD;

integer b;
always @(posedge clk) begin
    if (wr_en && !wr_err) begin
        for (b = 0; b < DATA_WIDTH / 8; b = b + 1)
            if (wr_strb[b])
                mem[w_word0 + b / 4][8 * (b % 4) +: 8] <= wr_data[8 * b +: 8];
    end
    // WR_RESP_WAIT: the burst's answer, when the bench says so
    if (wr_en && wr_last)
        waiting <= 1'b1;
    if (waiting && resp_go)
        waiting <= 1'b0;
    if (wr_en && w_word0 == DEC_WORD)
        dec <= 1'b1;
    if (waiting && resp_go)
        dec <= 1'b0;
    if (rst) begin
        waiting <= 1'b0;
        dec <= 1'b0;
    end
end

wire unused = &{1'b0, wr_size, rd_size, rd_en, wr_addr[1:0], rd_addr[1:0]};

endmodule

/* verilator lint_on WIDTH */
`default_nettype wire
