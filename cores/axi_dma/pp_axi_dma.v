// pp_axi_dma: an AXI DMA register-compatible with Xilinx's AXI DMA (PG021) in simple
// (direct register) mode, so that PYNQ's pynq.lib.dma.DMA drives it unchanged.
//
// Registers (AXI4-Lite slave s_axil, PG021's offsets; see README.md for every bit):
//   0x00 MM2S_DMACR  0x04 MM2S_DMASR  0x18 MM2S_SA  0x1C MM2S_SA_MSB  0x28 MM2S_LENGTH
//   0x30 S2MM_DMACR  0x34 S2MM_DMASR  0x48 S2MM_DA  0x4C S2MM_DA_MSB  0x58 S2MM_LENGTH
// One AXI4 master m_axi: its read channels are the MM2S channel's, its write channels the
// S2MM channel's (the two masters of the Xilinx IP on one port: they share no channel).
// m_axis_mm2s: the MM2S stream out; s_axis_s2mm: the S2MM stream in.
// mm2s_introut / s2mm_introut: level interrupts (IOC_Irq & IOC_IrqEn | Err_Irq & Err_IrqEn).
`default_nettype none

module pp_axi_dma #(
    parameter integer DATA_WIDTH = 32,   // memory-map and stream data width: 32 or 64
    parameter integer ADDR_WIDTH = 32,   // m_axi address width: 32 .. 64
    parameter integer LEN_WIDTH  = 26,   // LENGTH register width (c_sg_length_width): 8 .. 26
    parameter integer MAX_BURST  = 16,   // beats per burst (c_*_burst_size): 2 .. 256, a power of 2
    parameter integer FIFO_LOG2  = 6,    // log2 of each channel's data FIFO (words), >= log2(MAX_BURST)
    parameter integer ID_WIDTH   = 1     // m_axi ID width; every transaction uses ID 0 (in order)
) (
    input  wire                      clk,
    input  wire                      rst,      // synchronous, active high (axi_resetn inverted)
    // AXI4-Lite register slave
    input  wire [9:0]                s_axil_awaddr,
    input  wire                      s_axil_awvalid,
    output wire                      s_axil_awready,
    input  wire [31:0]               s_axil_wdata,
    input  wire [3:0]                s_axil_wstrb,
    input  wire                      s_axil_wvalid,
    output wire                      s_axil_wready,
    output wire [1:0]                s_axil_bresp,
    output reg                       s_axil_bvalid,
    input  wire                      s_axil_bready,
    input  wire [9:0]                s_axil_araddr,
    input  wire                      s_axil_arvalid,
    output wire                      s_axil_arready,
    output reg  [31:0]               s_axil_rdata,
    output wire [1:0]                s_axil_rresp,
    output reg                       s_axil_rvalid,
    input  wire                      s_axil_rready,
    // AXI4 master: reads (MM2S) and writes (S2MM)
    output wire [ID_WIDTH-1:0]       m_axi_arid,
    output wire [ADDR_WIDTH-1:0]     m_axi_araddr,
    output wire [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output wire                      m_axi_arvalid,
    input  wire                      m_axi_arready,
    input  wire [ID_WIDTH-1:0]       m_axi_rid,
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready,
    output wire [ID_WIDTH-1:0]       m_axi_awid,
    output wire [ADDR_WIDTH-1:0]     m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]   m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [ID_WIDTH-1:0]       m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,
    // AXI4-Stream
    output wire [DATA_WIDTH-1:0]     m_axis_mm2s_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_axis_mm2s_tkeep,
    output wire                      m_axis_mm2s_tlast,
    output wire                      m_axis_mm2s_tvalid,
    input  wire                      m_axis_mm2s_tready,
    input  wire [DATA_WIDTH-1:0]     s_axis_s2mm_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_s2mm_tkeep,
    input  wire                      s_axis_s2mm_tlast,
    input  wire                      s_axis_s2mm_tvalid,
    output wire                      s_axis_s2mm_tready,
    // interrupts
    output wire                      mm2s_introut,
    output wire                      s2mm_introut
);
    // ---------------------------------------------------------------- registers
    // per channel: index 0 = MM2S, 1 = S2MM
    reg        rs        [0:1];
    reg        ioc_en    [0:1];
    reg        dly_en    [0:1];
    reg        err_en    [0:1];
    reg [7:0]  irq_thr   [0:1];
    reg [7:0]  irq_dly   [0:1];
    reg        idle_q    [0:1];
    reg        int_err   [0:1];
    reg        slv_err   [0:1];
    reg        dec_err   [0:1];
    reg        ioc_irq   [0:1];
    reg        err_irq   [0:1];
    reg [31:0] addr_lo   [0:1];
    reg [31:0] addr_hi   [0:1];
    reg [LEN_WIDTH-1:0] len_q [0:1];
    reg        start_q   [0:1];
    reg        soft_rst;          // DMACR.Reset written: both channels stop, then all resets

    wire       busy      [0:1];
    wire       done      [0:1];
    wire [1:0] done_err  [0:1];
    wire       done_abt  [0:1];
    wire [LEN_WIDTH-1:0] s2mm_bytes;

    wire halted0 = !rs[0] && !busy[0];
    wire halted1 = !rs[1] && !busy[1];

    wire [63:0] addr_full0 = {addr_hi[0], addr_lo[0]};
    wire [63:0] addr_full1 = {addr_hi[1], addr_lo[1]};

    // ---------------------------------------------------------------- AXI4-Lite
    // a write is taken when its address and data are both there; one at a time
    wire wr_take = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
    assign s_axil_awready = wr_take;
    assign s_axil_wready  = wr_take;
    assign s_axil_bresp   = 2'b00;
    wire rd_take = s_axil_arvalid && !s_axil_rvalid;
    assign s_axil_arready = rd_take;
    assign s_axil_rresp   = 2'b00;

    wire [9:0]  wa = {s_axil_awaddr[9:2], 2'b00};
    wire [9:0]  ra = {s_axil_araddr[9:2], 2'b00};
    wire [31:0] wd = s_axil_wdata;   // registers are written whole (WSTRB is ignored, as by the Xilinx IP)

    function [31:0] dmacr;
        input        f_rs, f_rst, f_ioc, f_dly, f_err;
        input [7:0]  f_thr, f_dly_t;
        begin
            dmacr = {f_dly_t, f_thr, 1'b0, f_err, f_dly, f_ioc, 9'b0, f_rst, 1'b1, f_rs};
        end
    endfunction

    function [31:0] dmasr;
        input       f_halted, f_idle, f_int, f_slv, f_dec, f_ioc, f_err;
        input [7:0] f_thr;
        begin
            dmasr = {8'd0, f_thr, 1'b0, f_err, 1'b0, f_ioc, 5'b0, f_dec, f_slv, f_int, 2'b0,
                     f_idle && !f_halted, f_halted};
        end
    endfunction

    function [31:0] lenreg;
        input [LEN_WIDTH-1:0] f_len;
        begin
            lenreg = 32'd0;
            lenreg[LEN_WIDTH-1:0] = f_len;
        end
    endfunction

    always @(posedge clk) begin
        if (rst) begin
            s_axil_rvalid <= 1'b0;
            s_axil_rdata  <= 32'd0;
        end else begin
            if (s_axil_rvalid && s_axil_rready)
                s_axil_rvalid <= 1'b0;
            if (rd_take) begin
                s_axil_rvalid <= 1'b1;
                case (ra)
                10'h000: s_axil_rdata <= dmacr(rs[0], soft_rst, ioc_en[0], dly_en[0], err_en[0], irq_thr[0], irq_dly[0]);
                10'h004: s_axil_rdata <= dmasr(halted0, idle_q[0], int_err[0], slv_err[0], dec_err[0], ioc_irq[0], err_irq[0], irq_thr[0]);
                10'h018: s_axil_rdata <= addr_lo[0];
                10'h01C: s_axil_rdata <= addr_hi[0];
                10'h028: s_axil_rdata <= lenreg(len_q[0]);
                10'h030: s_axil_rdata <= dmacr(rs[1], soft_rst, ioc_en[1], dly_en[1], err_en[1], irq_thr[1], irq_dly[1]);
                10'h034: s_axil_rdata <= dmasr(halted1, idle_q[1], int_err[1], slv_err[1], dec_err[1], ioc_irq[1], err_irq[1], irq_thr[1]);
                10'h048: s_axil_rdata <= addr_lo[1];
                10'h04C: s_axil_rdata <= addr_hi[1];
                10'h058: s_axil_rdata <= lenreg(len_q[1]);
                default: s_axil_rdata <= 32'd0;
                endcase
            end
        end
    end

    // ---------------------------------------------------------------- control
    integer c;
    always @(posedge clk) begin
        start_q[0] <= 1'b0;
        start_q[1] <= 1'b0;
        if (rst || (soft_rst && !busy[0] && !busy[1])) begin
            s_axil_bvalid <= 1'b0;
            soft_rst      <= 1'b0;
            for (c = 0; c < 2; c = c + 1) begin
                rs[c]      <= 1'b0;
                ioc_en[c]  <= 1'b0;
                dly_en[c]  <= 1'b0;
                err_en[c]  <= 1'b0;
                irq_thr[c] <= 8'd1;
                irq_dly[c] <= 8'd0;
                idle_q[c]  <= 1'b0;
                int_err[c] <= 1'b0;
                slv_err[c] <= 1'b0;
                dec_err[c] <= 1'b0;
                ioc_irq[c] <= 1'b0;
                err_irq[c] <= 1'b0;
                addr_lo[c] <= 32'd0;
                addr_hi[c] <= 32'd0;
                len_q[c]   <= {LEN_WIDTH{1'b0}};
            end
        end else begin
            if (s_axil_bvalid && s_axil_bready)
                s_axil_bvalid <= 1'b0;
            // completions
            for (c = 0; c < 2; c = c + 1) begin
                if (done[c] && !done_abt[c]) begin
                    if (done_err[c] == 2'b00) begin
                        ioc_irq[c] <= 1'b1;
                        idle_q[c]  <= 1'b1;
                    end else begin
                        // PG021: an error halts the channel (RS cleared by the hardware)
                        rs[c]      <= 1'b0;
                        err_irq[c] <= 1'b1;
                        int_err[c] <= int_err[c] | (done_err[c] == 2'b01);
                        slv_err[c] <= slv_err[c] | (done_err[c] == 2'b10);
                        dec_err[c] <= dec_err[c] | (done_err[c] == 2'b11);
                    end
                end
                if (!rs[c])
                    idle_q[c] <= 1'b0;
            end
            if (done[1] && !done_abt[1])
                len_q[1] <= s2mm_bytes;
            // register writes
            if (wr_take) begin
                s_axil_bvalid <= 1'b1;
                for (c = 0; c < 2; c = c + 1) begin
                    if (wa == 10'h000 + 10'h030 * c[9:0]) begin
                        // RS can be set only when no error bit is set (a reset clears them)
                        rs[c]      <= wd[0] && !(int_err[c] || slv_err[c] || dec_err[c]) &&
                                      !(done[c] && !done_abt[c] && done_err[c] != 2'b00);
                        ioc_en[c]  <= wd[12];
                        dly_en[c]  <= wd[13];
                        err_en[c]  <= wd[14];
                        irq_thr[c] <= (wd[23:16] == 8'd0) ? irq_thr[c] : wd[23:16];
                        irq_dly[c] <= wd[31:24];
                        if (wd[2])
                            soft_rst <= 1'b1;
                    end
                    if (wa == 10'h004 + 10'h030 * c[9:0]) begin
                        if (wd[12]) ioc_irq[c] <= 1'b0;
                        if (wd[14]) err_irq[c] <= 1'b0;
                    end
                    if (wa == 10'h018 + 10'h030 * c[9:0])
                        addr_lo[c] <= wd;
                    if (wa == 10'h01C + 10'h030 * c[9:0] && ADDR_WIDTH > 32)
                        addr_hi[c] <= wd;
                    if (wa == 10'h028 + 10'h030 * c[9:0]) begin
                        // PG021: writing LENGTH starts the transfer; no effect while halted
                        if (rs[c] && !busy[c] && !soft_rst) begin
                            len_q[c] <= wd[LEN_WIDTH-1:0];
                            if (wd[LEN_WIDTH-1:0] == {LEN_WIDTH{1'b0}}) begin
                                // a zero length: DMA internal error, the channel halts
                                int_err[c] <= 1'b1;
                                err_irq[c] <= 1'b1;
                                rs[c]      <= 1'b0;
                            end else begin
                                start_q[c] <= 1'b1;
                                idle_q[c]  <= 1'b0;
                            end
                        end
                    end
                end
            end
        end
    end

    assign mm2s_introut = (ioc_irq[0] && ioc_en[0]) || (err_irq[0] && err_en[0]);
    assign s2mm_introut = (ioc_irq[1] && ioc_en[1]) || (err_irq[1] && err_en[1]);

    // ---------------------------------------------------------------- channels
    wire unused = &{1'b0, s_axil_awaddr[1:0], s_axil_araddr[1:0],
                    s_axil_wstrb, addr_full0, addr_full1, m_axi_rid, m_axi_bid};
    assign m_axi_arid = {ID_WIDTH{1'b0}};
    assign m_axi_awid = {ID_WIDTH{1'b0}};
    wire [ADDR_WIDTH-1:0] mm2s_addr = addr_full0[ADDR_WIDTH-1:0];
    wire [ADDR_WIDTH-1:0] s2mm_addr = addr_full1[ADDR_WIDTH-1:0];

    pp_axi_dma_mm2s #(
        .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(ADDR_WIDTH), .LEN_WIDTH(LEN_WIDTH),
        .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2)
    ) u_mm2s (
        .clk(clk), .rst(rst),
        .start(start_q[0]), .start_addr(mm2s_addr), .start_len(len_q[0]),
        .cancel(!rs[0] || soft_rst),
        .busy(busy[0]), .done(done[0]), .done_err(done_err[0]), .done_abort(done_abt[0]),
        .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
        .m_axi_arburst(m_axi_arburst), .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axis_tdata(m_axis_mm2s_tdata), .m_axis_tkeep(m_axis_mm2s_tkeep),
        .m_axis_tlast(m_axis_mm2s_tlast), .m_axis_tvalid(m_axis_mm2s_tvalid),
        .m_axis_tready(m_axis_mm2s_tready)
    );

    pp_axi_dma_s2mm #(
        .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(ADDR_WIDTH), .LEN_WIDTH(LEN_WIDTH),
        .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2)
    ) u_s2mm (
        .clk(clk), .rst(rst),
        .start(start_q[1]), .start_addr(s2mm_addr), .start_len(len_q[1]),
        .cancel(!rs[1] || soft_rst),
        .busy(busy[1]), .done(done[1]), .done_err(done_err[1]), .done_abort(done_abt[1]),
        .done_bytes(s2mm_bytes),
        .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
        .m_axi_awburst(m_axi_awburst), .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready),
        .s_axis_tdata(s_axis_s2mm_tdata), .s_axis_tkeep(s_axis_s2mm_tkeep),
        .s_axis_tlast(s_axis_s2mm_tlast), .s_axis_tvalid(s_axis_s2mm_tvalid),
        .s_axis_tready(s_axis_s2mm_tready)
    );
endmodule

`default_nettype wire
