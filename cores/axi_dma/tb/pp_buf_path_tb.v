// pp_buf_path_tb: the buffer engines' path to PS memory as a generated top has it, for the
// cycle bench tests/cores/test_buf_path.py (not a core): pp_buf_rd (master 0, an `in`
// buffer) and pp_buf_wr (master 1, an `out` buffer) on a 2 x 1 pp_axi_interconnect (the
// top's pp_buf_interconnect: crossbar, round robin) into the simulated board's PS memory
// port pp_sim_mem (S_AXI_HP0), whose Python side (pushpush.simboard.hdl) the bench runs.
`default_nettype none

module pp_buf_path_tb #(
    parameter integer MAX_BURST = 16,
    parameter integer FIFO_LOG2 = 5,
    parameter integer ACCEPT    = 8
) (
    input  wire        clk,
    input  wire        rst,
    // pp_buf_rd: start, stream out
    input  wire        rd_start,
    input  wire [31:0] rd_addr,
    input  wire [31:0] rd_count,
    output wire        rd_busy,
    output wire        rd_done,
    output wire [2:0]  rd_code,
    output wire [31:0] rd_tdata,
    output wire        rd_tvalid,
    input  wire        rd_tready,
    output wire        rd_tlast,
    // pp_buf_wr: start, stream in
    input  wire        wr_start,
    input  wire [31:0] wr_addr,
    input  wire [31:0] wr_count,
    output wire        wr_busy,
    output wire        wr_done,
    output wire [2:0]  wr_code,
    output wire [31:0] wr_done_count,
    input  wire [31:0] wr_tdata,
    input  wire        wr_tvalid,
    output wire        wr_tready,
    input  wire        wr_tlast,
    // pp_sim_mem's Python side
    input  wire        mem_wr_ack,
    input  wire [1:0]  mem_wr_resp,
    input  wire        mem_rd_ack,
    input  wire [1:0]  mem_rd_resp
);
    // the engines' ports (ID 1 bit), concatenated for the interconnect: {wr, rd}
    wire [1:0]  s_awid, s_arid, s_bid, s_rid;
    wire [63:0] s_awaddr, s_araddr, s_wdata, s_rdata;
    wire [15:0] s_awlen, s_arlen;
    wire [5:0]  s_awsize, s_arsize, s_awprot, s_arprot;
    wire [3:0]  s_awburst, s_arburst, s_bresp, s_rresp;
    wire [7:0]  s_awcache, s_arcache, s_wstrb;
    wire [1:0]  s_awvalid, s_awready, s_wlast, s_wvalid, s_wready, s_bvalid, s_bready;
    wire [1:0]  s_arvalid, s_arready, s_rlast, s_rvalid, s_rready;
    // the interconnect's master port (ID 2 bits) into pp_sim_mem
    wire [1:0]  m_awid, m_bid, m_arid, m_rid;
    wire [31:0] m_awaddr, m_araddr, m_wdata, m_rdata;
    wire [7:0]  m_awlen, m_arlen;
    wire [2:0]  m_awsize, m_arsize, m_awprot, m_arprot;
    wire [1:0]  m_awburst, m_arburst, m_bresp, m_rresp;
    wire [3:0]  m_awcache, m_arcache, m_wstrb, m_awqos, m_arqos;
    wire        m_awlock, m_arlock;
    wire        m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
    wire        m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;

    // unused halves: pp_buf_rd has no write channels, pp_buf_wr no read channels
    assign s_awid[0] = 1'b0;    assign s_awaddr[31:0] = 32'd0; assign s_awlen[7:0] = 8'd0;
    assign s_awsize[2:0] = 3'd0; assign s_awburst[1:0] = 2'd0; assign s_awcache[3:0] = 4'd0;
    assign s_awprot[2:0] = 3'd0; assign s_awvalid[0] = 1'b0;   assign s_wdata[31:0] = 32'd0;
    assign s_wstrb[3:0] = 4'd0;  assign s_wlast[0] = 1'b0;     assign s_wvalid[0] = 1'b0;
    assign s_bready[0] = 1'b1;
    assign s_arid[1] = 1'b0;    assign s_araddr[63:32] = 32'd0; assign s_arlen[15:8] = 8'd0;
    assign s_arsize[5:3] = 3'd0; assign s_arburst[3:2] = 2'd0; assign s_arcache[7:4] = 4'd0;
    assign s_arprot[5:3] = 3'd0; assign s_arvalid[1] = 1'b0;   assign s_rready[1] = 1'b1;

    pp_buf_rd #(.ELEM_BITS(32), .LEN_WIDTH(26), .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2),
                .TIMEOUT(65536)) u_rd (
        .clk(clk), .rst(rst), .start(rd_start), .start_addr(rd_addr), .start_count(rd_count),
        .busy(rd_busy), .done(rd_done), .done_code(rd_code),
        .m_axi_arid(s_arid[0]), .m_axi_araddr(s_araddr[31:0]), .m_axi_arlen(s_arlen[7:0]),
        .m_axi_arsize(s_arsize[2:0]), .m_axi_arburst(s_arburst[1:0]),
        .m_axi_arcache(s_arcache[3:0]), .m_axi_arprot(s_arprot[2:0]),
        .m_axi_arvalid(s_arvalid[0]), .m_axi_arready(s_arready[0]),
        .m_axi_rid(s_rid[0]), .m_axi_rdata(s_rdata[31:0]), .m_axi_rresp(s_rresp[1:0]),
        .m_axi_rlast(s_rlast[0]), .m_axi_rvalid(s_rvalid[0]), .m_axi_rready(s_rready[0]),
        .m_axis_tdata(rd_tdata), .m_axis_tvalid(rd_tvalid), .m_axis_tready(rd_tready),
        .m_axis_tlast(rd_tlast)
    );

    pp_buf_wr #(.ELEM_BITS(32), .LEN_WIDTH(26), .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2),
                .TIMEOUT(65536)) u_wr (
        .clk(clk), .rst(rst), .start(wr_start), .start_addr(wr_addr), .start_count(wr_count),
        .busy(wr_busy), .done(wr_done), .done_code(wr_code), .done_count(wr_done_count),
        .dropped(),
        .m_axi_awid(s_awid[1]), .m_axi_awaddr(s_awaddr[63:32]), .m_axi_awlen(s_awlen[15:8]),
        .m_axi_awsize(s_awsize[5:3]), .m_axi_awburst(s_awburst[3:2]),
        .m_axi_awcache(s_awcache[7:4]), .m_axi_awprot(s_awprot[5:3]),
        .m_axi_awvalid(s_awvalid[1]), .m_axi_awready(s_awready[1]),
        .m_axi_wdata(s_wdata[63:32]), .m_axi_wstrb(s_wstrb[7:4]), .m_axi_wlast(s_wlast[1]),
        .m_axi_wvalid(s_wvalid[1]), .m_axi_wready(s_wready[1]),
        .m_axi_bid(s_bid[1]), .m_axi_bresp(s_bresp[3:2]), .m_axi_bvalid(s_bvalid[1]),
        .m_axi_bready(s_bready[1]),
        .s_axis_tdata(wr_tdata), .s_axis_tvalid(wr_tvalid), .s_axis_tready(wr_tready),
        .s_axis_tlast(wr_tlast)
    );

    pp_axi_interconnect #(
        .S_COUNT(2), .M_COUNT(1), .DATA_WIDTH(32), .ADDR_WIDTH(32), .S_ID_WIDTH(1),
        .M_ID_WIDTH(2), .M_BASE_ADDR(32'h00000000), .M_ADDR_WIDTH(32'd32), .TOPOLOGY(0),
        .ARBITRATION(0)
    ) u_ic (
        .clk(clk), .rst(rst),
        .s_axi_awid(s_awid), .s_axi_awaddr(s_awaddr), .s_axi_awlen(s_awlen),
        .s_axi_awsize(s_awsize), .s_axi_awburst(s_awburst), .s_axi_awlock(2'b00),
        .s_axi_awcache(s_awcache), .s_axi_awprot(s_awprot), .s_axi_awqos(8'd0),
        .s_axi_awvalid(s_awvalid), .s_axi_awready(s_awready),
        .s_axi_wdata(s_wdata), .s_axi_wstrb(s_wstrb), .s_axi_wlast(s_wlast),
        .s_axi_wvalid(s_wvalid), .s_axi_wready(s_wready),
        .s_axi_bid(s_bid), .s_axi_bresp(s_bresp), .s_axi_bvalid(s_bvalid), .s_axi_bready(s_bready),
        .s_axi_arid(s_arid), .s_axi_araddr(s_araddr), .s_axi_arlen(s_arlen),
        .s_axi_arsize(s_arsize), .s_axi_arburst(s_arburst), .s_axi_arlock(2'b00),
        .s_axi_arcache(s_arcache), .s_axi_arprot(s_arprot), .s_axi_arqos(8'd0),
        .s_axi_arvalid(s_arvalid), .s_axi_arready(s_arready),
        .s_axi_rid(s_rid), .s_axi_rdata(s_rdata), .s_axi_rresp(s_rresp), .s_axi_rlast(s_rlast),
        .s_axi_rvalid(s_rvalid), .s_axi_rready(s_rready),
        .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen),
        .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst), .m_axi_awlock(m_awlock),
        .m_axi_awcache(m_awcache), .m_axi_awprot(m_awprot), .m_axi_awqos(m_awqos),
        .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready),
        .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb), .m_axi_wlast(m_wlast),
        .m_axi_wvalid(m_wvalid), .m_axi_wready(m_wready),
        .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready),
        .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen),
        .m_axi_arsize(m_arsize), .m_axi_arburst(m_arburst), .m_axi_arlock(m_arlock),
        .m_axi_arcache(m_arcache), .m_axi_arprot(m_arprot), .m_axi_arqos(m_arqos),
        .m_axi_arvalid(m_arvalid), .m_axi_arready(m_arready),
        .m_axi_rid(m_rid), .m_axi_rdata(m_rdata), .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast),
        .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready)
    );

    pp_sim_mem #(.DATA_WIDTH(32), .ADDR_WIDTH(32), .ID_WIDTH(2), .ACCEPT(ACCEPT)) mem (
        .clk(clk), .rst(rst),
        .wr_toggle(), .wr_slot(), .wr_id(), .wr_addr(), .wr_len(), .wr_size(), .wr_burst(),
        .wr_ack(mem_wr_ack), .wr_resp(mem_wr_resp),
        .rd_toggle(), .rd_slot(), .rd_id(), .rd_addr(), .rd_len(), .rd_size(), .rd_burst(),
        .rd_ack(mem_rd_ack), .rd_resp(mem_rd_resp),
        .s_axi_awid(m_awid), .s_axi_awaddr(m_awaddr), .s_axi_awlen(m_awlen),
        .s_axi_awsize(m_awsize), .s_axi_awburst(m_awburst), .s_axi_awlock(m_awlock),
        .s_axi_awcache(m_awcache), .s_axi_awprot(m_awprot), .s_axi_awvalid(m_awvalid),
        .s_axi_awready(m_awready), .s_axi_wlast(m_wlast),
        .s_axi_wdata(m_wdata), .s_axi_wstrb(m_wstrb), .s_axi_wvalid(m_wvalid),
        .s_axi_wready(m_wready),
        .s_axi_bid(m_bid), .s_axi_bresp(m_bresp), .s_axi_bvalid(m_bvalid), .s_axi_bready(m_bready),
        .s_axi_arid(m_arid), .s_axi_araddr(m_araddr), .s_axi_arlen(m_arlen),
        .s_axi_arsize(m_arsize), .s_axi_arburst(m_arburst), .s_axi_arlock(m_arlock),
        .s_axi_arcache(m_arcache), .s_axi_arprot(m_arprot), .s_axi_arvalid(m_arvalid),
        .s_axi_arready(m_arready),
        .s_axi_rid(m_rid), .s_axi_rdata(m_rdata), .s_axi_rresp(m_rresp), .s_axi_rlast(m_rlast),
        .s_axi_rvalid(m_rvalid), .s_axi_rready(m_rready)
    );
endmodule

`default_nettype wire
