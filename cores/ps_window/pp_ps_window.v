/*
 * pushpush: the software windows' base register (pp_ps_window)
 *
 * With `software_windows: ddr` the software components' windows live in a pynq.allocate
 * buffer in DDR, whose physical address is known only at run time. The PL keeps addressing
 * them by their link addresses (region ps: LINK_BASE .. LINK_BASE + 2**LINK_BITS - 1); this
 * core translates the top's PL-to-PS master addresses to the buffer and holds its base:
 *
 *   out_awaddr = BASE + in_awaddr[LINK_BITS-1:0]   (same for AR)
 *
 * The register block (an AXI4 slave on the interconnect, 4 KiB):
 *   0x0  BASE   bits 31:12 the buffer's physical address (4 KiB aligned), bit 0 ENABLE;
 *               bits 11:1 read 0. Written by the runtime at load (address | 1) and cleared
 *               (0) before the buffer is freed.
 *   0x4  LINK   LINK_BASE (read only)
 *   0x8  SIZE   2**LINK_BITS (read only)
 *   other offsets read 0, writes to them are ignored; every response is OKAY.
 *
 * While ENABLE is 0 the master path holds AWVALID/ARVALID low toward PS memory, so the PL
 * never writes into memory the runtime has not given it (a PL call into software before the
 * runtime started waits; with ENABLE cleared later, an address already presented is kept
 * until its handshake, as AXI requires). Write the register only while no burst is under
 * way toward PS memory (at load, at free): the address of a presented AW/AR follows BASE.
 *
 * Only AW/AR addresses and valid/ready pass through here; the W, B and R channels and the
 * other AW/AR fields go straight from the interconnect to the top's m_axi.
 */

`default_nettype none

module pp_ps_window #
(
    // AXI data width of the register slave (32 or 64)
    parameter DATA_WIDTH = 32,
    // AXI ID width of the register slave
    parameter ID_WIDTH = 12,
    // the ps region's link base address and its size (log2, bytes; at least 12)
    parameter [31:0] LINK_BASE = 32'hFFFC0000,
    parameter LINK_BITS = 16
)
(
    input  wire                      clk,
    input  wire                      rst,

    /*
     * AXI4 slave: the register block
     */
    input  wire [ID_WIDTH-1:0]       s_axi_awid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               s_axi_awaddr,   // bits 11:0 decoded (a 4 KiB block)
    input  wire [7:0]                s_axi_awlen,    // W ends at wlast
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]                s_axi_awsize,
    input  wire [1:0]                s_axi_awburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      s_axi_awlock,
    input  wire [3:0]                s_axi_awcache,
    input  wire [2:0]                s_axi_awprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_awvalid,
    output wire                      s_axi_awready,
    input  wire [DATA_WIDTH-1:0]     s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axi_wstrb,
    input  wire                      s_axi_wlast,
    input  wire                      s_axi_wvalid,
    output wire                      s_axi_wready,
    output wire [ID_WIDTH-1:0]       s_axi_bid,
    output wire [1:0]                s_axi_bresp,
    output wire                      s_axi_bvalid,
    input  wire                      s_axi_bready,
    input  wire [ID_WIDTH-1:0]       s_axi_arid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               s_axi_araddr,   // bits 11:0 decoded
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [7:0]                s_axi_arlen,
    input  wire [2:0]                s_axi_arsize,
    input  wire [1:0]                s_axi_arburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      s_axi_arlock,
    input  wire [3:0]                s_axi_arcache,
    input  wire [2:0]                s_axi_arprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_arvalid,
    output wire                      s_axi_arready,
    output wire [ID_WIDTH-1:0]       s_axi_rid,
    output wire [DATA_WIDTH-1:0]     s_axi_rdata,
    output wire [1:0]                s_axi_rresp,
    output wire                      s_axi_rlast,
    output wire                      s_axi_rvalid,
    input  wire                      s_axi_rready,

    /*
     * The PL-to-PS master path: addresses in (link), out (physical)
     */
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               in_awaddr,
    input  wire [31:0]               in_araddr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      in_awvalid,
    output wire                      in_awready,
    input  wire                      in_arvalid,
    output wire                      in_arready,
    output wire [31:0]               out_awaddr,
    output wire                      out_awvalid,
    input  wire                      out_awready,
    output wire [31:0]               out_araddr,
    output wire                      out_arvalid,
    input  wire                      out_arready
);

localparam LANES = DATA_WIDTH / 32;
localparam [11:0] BEAT_MASK = DATA_WIDTH == 64 ? 12'hFF8 : 12'hFFC;

// BASE register: [31:12] address, enable
reg  [19:0] base;
reg         enable;

/*
 * The master path
 */
wire [31:0] offset_mask = (32'd1 << LINK_BITS) - 32'd1;
reg aw_held, ar_held;   // an address is presented and not yet taken
wire aw_open = enable | aw_held;
wire ar_open = enable | ar_held;

assign out_awaddr  = {base, 12'd0} + (in_awaddr & offset_mask);
assign out_araddr  = {base, 12'd0} + (in_araddr & offset_mask);
assign out_awvalid = in_awvalid & aw_open;
assign in_awready  = out_awready & aw_open;
assign out_arvalid = in_arvalid & ar_open;
assign in_arready  = out_arready & ar_open;

always @(posedge clk) begin
    if (rst) begin
        aw_held <= 1'b0;
        ar_held <= 1'b0;
    end else begin
        aw_held <= out_awvalid & ~out_awready;
        ar_held <= out_arvalid & ~out_arready;
    end
end

/*
 * Register reads: the 32-bit word at byte offset off
 */
// (word 0 is an argument: a continuous assignment re-evaluates only on its arguments)
function [31:0] reg_word;
    /* verilator lint_off UNUSEDSIGNAL */
    input [11:0] off;   // word aligned
    /* verilator lint_on UNUSEDSIGNAL */
    input [31:0] word0;
    begin
        case (off[11:2])
            10'd0:   reg_word = word0;
            10'd1:   reg_word = LINK_BASE;
            10'd2:   reg_word = 32'd1 << LINK_BITS;
            default: reg_word = 32'd0;
        endcase
    end
endfunction

/*
 * The register slave: the AXI4 front end (cores/axi_slave), one write and one read burst at
 * a time, one beat at a time
 */
wire        w_en;
wire [11:0] w_addr;
wire [11:0] r_addr;
/* verilator lint_off UNUSEDSIGNAL */
wire [DATA_WIDTH-1:0] w_data;     // bits 31:12 and 0 of lane 0 are stored
wire [DATA_WIDTH/8-1:0] w_strb;
wire        w_ovf, w_bad, w_last, r_en, r_ovf, r_bad;
wire [2:0]  w_size, r_size;
/* verilator lint_on UNUSEDSIGNAL */
wire [DATA_WIDTH-1:0] r_data;

pp_axi_slave #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(32), .ID_WIDTH(ID_WIDTH),
    .WR_ADDR_BITS(12), .RD_ADDR_BITS(12)
) fe (
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
    .wr_en(w_en), .wr_addr(w_addr), .wr_ovf(w_ovf), .wr_size(w_size), .wr_bad(w_bad),
    .wr_data(w_data), .wr_strb(w_strb), .wr_last(w_last), .wr_ready(1'b1), .wr_err(1'b0),
    .wr_resp_valid(1'b0), .wr_resp(2'b00),
    .rd_en(r_en), .rd_addr(r_addr), .rd_ovf(r_ovf), .rd_size(r_size), .rd_bad(r_bad),
    .rd_data(r_data), .rd_err(1'b0), .rd_zero(1'b0)
);

/*
 * Register writes: word 0 (BASE, ENABLE) in lane 0 of a beat at offset 0
 */
wire [11:0] w_beat_base = w_addr & BEAT_MASK;

always @(posedge clk) begin
    if (rst) begin
        base <= 20'd0;
        enable <= 1'b0;
    end else if (w_en && w_beat_base == 12'd0) begin
        if (w_strb[0]) enable <= w_data[0];
        if (w_strb[1]) base[3:0] <= w_data[15 -: 4];
        if (w_strb[2]) base[11:4] <= w_data[23 -: 8];
        if (w_strb[3]) base[19:12] <= w_data[31 -: 8];
    end
end

/*
 * Register reads: each 32-bit lane of the beat
 */
wire [11:0] r_beat_base = r_addr & BEAT_MASK;
genvar g;
generate
    for (g = 0; g < LANES; g = g + 1) begin : lane
        assign r_data[32 * g +: 32] = reg_word(r_beat_base + 4 * g, {base, 11'd0, enable});
    end
endgenerate

endmodule

`default_nettype wire
