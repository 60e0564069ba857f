// pp_buf_path_tb: the buffer engines' path to PS memory as a generated top has it, for the
// cycle bench tests/cores/test_buf_path.py (not a core): pp_buf_rd (master 0, an `in`
// buffer) and pp_buf_wr (master 1, an `out` buffer) on a 2 x 1 pp_axi_interconnect (the
// top's pp_buf_interconnect: crossbar, round robin) into the simulated board's PS memory
// port pp_sim_mem (S_AXI_HP0), whose Python side (pushpush.simboard.hdl) the bench runs.
// FIREWALL = 1 puts the memory firewall (cores/mem_firewall) between the interconnect and
// pp_sim_mem, as a generated top with `firewall:` has it; its register page is fw_axi_*.
`default_nettype none

module pp_buf_path_tb #(
    parameter integer MAX_BURST = 16,
    parameter integer FIFO_LOG2 = 5,
    parameter integer ACCEPT    = 8,
    parameter integer FIREWALL  = 0
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
    input  wire [1:0]  mem_rd_resp,
    // the firewall's register page (FIREWALL = 1)
    input  wire [3:0]  fw_axi_awid,
    input  wire [31:0] fw_axi_awaddr,
    input  wire [7:0]  fw_axi_awlen,
    input  wire [2:0]  fw_axi_awsize,
    input  wire [1:0]  fw_axi_awburst,
    input  wire        fw_axi_awlock,
    input  wire [3:0]  fw_axi_awcache,
    input  wire [2:0]  fw_axi_awprot,
    input  wire        fw_axi_awvalid,
    output wire        fw_axi_awready,
    input  wire [31:0] fw_axi_wdata,
    input  wire [3:0]  fw_axi_wstrb,
    input  wire        fw_axi_wlast,
    input  wire        fw_axi_wvalid,
    output wire        fw_axi_wready,
    output wire [3:0]  fw_axi_bid,
    output wire [1:0]  fw_axi_bresp,
    output wire        fw_axi_bvalid,
    input  wire        fw_axi_bready,
    input  wire [3:0]  fw_axi_arid,
    input  wire [31:0] fw_axi_araddr,
    input  wire [7:0]  fw_axi_arlen,
    input  wire [2:0]  fw_axi_arsize,
    input  wire [1:0]  fw_axi_arburst,
    input  wire        fw_axi_arlock,
    input  wire [3:0]  fw_axi_arcache,
    input  wire [2:0]  fw_axi_arprot,
    input  wire        fw_axi_arvalid,
    output wire        fw_axi_arready,
    output wire [3:0]  fw_axi_rid,
    output wire [31:0] fw_axi_rdata,
    output wire [1:0]  fw_axi_rresp,
    output wire        fw_axi_rlast,
    output wire        fw_axi_rvalid,
    input  wire        fw_axi_rready
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
    // pp_sim_mem's side: the interconnect's master port, or the firewall's
    wire [1:0]  f_awid, f_bid, f_arid, f_rid;
    wire [31:0] f_awaddr, f_araddr, f_wdata, f_rdata;
    wire [7:0]  f_awlen, f_arlen;
    wire [2:0]  f_awsize, f_arsize, f_awprot, f_arprot;
    wire [1:0]  f_awburst, f_arburst, f_bresp, f_rresp;
    wire [3:0]  f_awcache, f_arcache, f_wstrb;
    wire        f_awlock, f_arlock;
    wire        f_awvalid, f_awready, f_wlast, f_wvalid, f_wready, f_bvalid, f_bready;
    wire        f_arvalid, f_arready, f_rlast, f_rvalid, f_rready;

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

    generate
        if (FIREWALL != 0) begin : fw
            pp_mem_firewall #(.DATA_WIDTH(32), .ID_WIDTH(2), .REG_ID_WIDTH(4), .ENTRIES(2),
                              .TAG_LSB(1), .TAG_BITS(1)) u_fw (
                .clk(clk), .rst(rst),
                .s_axi_awid(m_awid), .m_axi_awid(f_awid),
                .s_axi_awaddr(m_awaddr), .m_axi_awaddr(f_awaddr),
                .s_axi_awlen(m_awlen), .m_axi_awlen(f_awlen),
                .s_axi_awsize(m_awsize), .m_axi_awsize(f_awsize),
                .s_axi_awburst(m_awburst), .m_axi_awburst(f_awburst),
                .s_axi_awlock(m_awlock), .m_axi_awlock(f_awlock),
                .s_axi_awcache(m_awcache), .m_axi_awcache(f_awcache),
                .s_axi_awprot(m_awprot), .m_axi_awprot(f_awprot),
                .s_axi_awvalid(m_awvalid), .m_axi_awvalid(f_awvalid),
                .s_axi_awready(m_awready), .m_axi_awready(f_awready),
                .s_axi_wdata(m_wdata), .m_axi_wdata(f_wdata),
                .s_axi_wstrb(m_wstrb), .m_axi_wstrb(f_wstrb),
                .s_axi_wlast(m_wlast), .m_axi_wlast(f_wlast),
                .s_axi_wvalid(m_wvalid), .m_axi_wvalid(f_wvalid),
                .s_axi_wready(m_wready), .m_axi_wready(f_wready),
                .s_axi_bid(m_bid), .m_axi_bid(f_bid),
                .s_axi_bresp(m_bresp), .m_axi_bresp(f_bresp),
                .s_axi_bvalid(m_bvalid), .m_axi_bvalid(f_bvalid),
                .s_axi_bready(m_bready), .m_axi_bready(f_bready),
                .s_axi_arid(m_arid), .m_axi_arid(f_arid),
                .s_axi_araddr(m_araddr), .m_axi_araddr(f_araddr),
                .s_axi_arlen(m_arlen), .m_axi_arlen(f_arlen),
                .s_axi_arsize(m_arsize), .m_axi_arsize(f_arsize),
                .s_axi_arburst(m_arburst), .m_axi_arburst(f_arburst),
                .s_axi_arlock(m_arlock), .m_axi_arlock(f_arlock),
                .s_axi_arcache(m_arcache), .m_axi_arcache(f_arcache),
                .s_axi_arprot(m_arprot), .m_axi_arprot(f_arprot),
                .s_axi_arvalid(m_arvalid), .m_axi_arvalid(f_arvalid),
                .s_axi_arready(m_arready), .m_axi_arready(f_arready),
                .s_axi_rid(m_rid), .m_axi_rid(f_rid),
                .s_axi_rdata(m_rdata), .m_axi_rdata(f_rdata),
                .s_axi_rresp(m_rresp), .m_axi_rresp(f_rresp),
                .s_axi_rlast(m_rlast), .m_axi_rlast(f_rlast),
                .s_axi_rvalid(m_rvalid), .m_axi_rvalid(f_rvalid),
                .s_axi_rready(m_rready), .m_axi_rready(f_rready),
                .reg_axi_awid(fw_axi_awid),
                .reg_axi_awaddr(fw_axi_awaddr),
                .reg_axi_awlen(fw_axi_awlen),
                .reg_axi_awsize(fw_axi_awsize),
                .reg_axi_awburst(fw_axi_awburst),
                .reg_axi_awlock(fw_axi_awlock),
                .reg_axi_awcache(fw_axi_awcache),
                .reg_axi_awprot(fw_axi_awprot),
                .reg_axi_awvalid(fw_axi_awvalid),
                .reg_axi_awready(fw_axi_awready),
                .reg_axi_wdata(fw_axi_wdata),
                .reg_axi_wstrb(fw_axi_wstrb),
                .reg_axi_wlast(fw_axi_wlast),
                .reg_axi_wvalid(fw_axi_wvalid),
                .reg_axi_wready(fw_axi_wready),
                .reg_axi_bid(fw_axi_bid),
                .reg_axi_bresp(fw_axi_bresp),
                .reg_axi_bvalid(fw_axi_bvalid),
                .reg_axi_bready(fw_axi_bready),
                .reg_axi_arid(fw_axi_arid),
                .reg_axi_araddr(fw_axi_araddr),
                .reg_axi_arlen(fw_axi_arlen),
                .reg_axi_arsize(fw_axi_arsize),
                .reg_axi_arburst(fw_axi_arburst),
                .reg_axi_arlock(fw_axi_arlock),
                .reg_axi_arcache(fw_axi_arcache),
                .reg_axi_arprot(fw_axi_arprot),
                .reg_axi_arvalid(fw_axi_arvalid),
                .reg_axi_arready(fw_axi_arready),
                .reg_axi_rid(fw_axi_rid),
                .reg_axi_rdata(fw_axi_rdata),
                .reg_axi_rresp(fw_axi_rresp),
                .reg_axi_rlast(fw_axi_rlast),
                .reg_axi_rvalid(fw_axi_rvalid),
                .reg_axi_rready(fw_axi_rready),
                .refused()
            );
        end else begin : direct
            assign f_awid = m_awid;
            assign f_awaddr = m_awaddr;
            assign f_awlen = m_awlen;
            assign f_awsize = m_awsize;
            assign f_awburst = m_awburst;
            assign f_awlock = m_awlock;
            assign f_awcache = m_awcache;
            assign f_awprot = m_awprot;
            assign f_awvalid = m_awvalid;
            assign f_wdata = m_wdata;
            assign f_wstrb = m_wstrb;
            assign f_wlast = m_wlast;
            assign f_wvalid = m_wvalid;
            assign f_bready = m_bready;
            assign f_arid = m_arid;
            assign f_araddr = m_araddr;
            assign f_arlen = m_arlen;
            assign f_arsize = m_arsize;
            assign f_arburst = m_arburst;
            assign f_arlock = m_arlock;
            assign f_arcache = m_arcache;
            assign f_arprot = m_arprot;
            assign f_arvalid = m_arvalid;
            assign f_rready = m_rready;
            assign m_awready = f_awready;
            assign m_wready = f_wready;
            assign m_bid = f_bid;
            assign m_bresp = f_bresp;
            assign m_bvalid = f_bvalid;
            assign m_arready = f_arready;
            assign m_rid = f_rid;
            assign m_rdata = f_rdata;
            assign m_rresp = f_rresp;
            assign m_rlast = f_rlast;
            assign m_rvalid = f_rvalid;
            assign fw_axi_awready = 0;
            assign fw_axi_wready = 0;
            assign fw_axi_bid = 0;
            assign fw_axi_bresp = 0;
            assign fw_axi_bvalid = 0;
            assign fw_axi_arready = 0;
            assign fw_axi_rid = 0;
            assign fw_axi_rdata = 0;
            assign fw_axi_rresp = 0;
            assign fw_axi_rlast = 0;
            assign fw_axi_rvalid = 0;
        end
    endgenerate

    pp_sim_mem #(.DATA_WIDTH(32), .ADDR_WIDTH(32), .ID_WIDTH(2), .ACCEPT(ACCEPT)) mem (
        .clk(clk), .rst(rst),
        .wr_toggle(), .wr_slot(), .wr_id(), .wr_addr(), .wr_len(), .wr_size(), .wr_burst(),
        .wr_ack(mem_wr_ack), .wr_resp(mem_wr_resp),
        .rd_toggle(), .rd_slot(), .rd_id(), .rd_addr(), .rd_len(), .rd_size(), .rd_burst(),
        .rd_ack(mem_rd_ack), .rd_resp(mem_rd_resp),
        .s_axi_awid(f_awid), .s_axi_awaddr(f_awaddr), .s_axi_awlen(f_awlen),
        .s_axi_awsize(f_awsize), .s_axi_awburst(f_awburst), .s_axi_awlock(f_awlock),
        .s_axi_awcache(f_awcache), .s_axi_awprot(f_awprot), .s_axi_awvalid(f_awvalid),
        .s_axi_awready(f_awready), .s_axi_wlast(f_wlast),
        .s_axi_wdata(f_wdata), .s_axi_wstrb(f_wstrb), .s_axi_wvalid(f_wvalid),
        .s_axi_wready(f_wready),
        .s_axi_bid(f_bid), .s_axi_bresp(f_bresp), .s_axi_bvalid(f_bvalid), .s_axi_bready(f_bready),
        .s_axi_arid(f_arid), .s_axi_araddr(f_araddr), .s_axi_arlen(f_arlen),
        .s_axi_arsize(f_arsize), .s_axi_arburst(f_arburst), .s_axi_arlock(f_arlock),
        .s_axi_arcache(f_arcache), .s_axi_arprot(f_arprot), .s_axi_arvalid(f_arvalid),
        .s_axi_arready(f_arready),
        .s_axi_rid(f_rid), .s_axi_rdata(f_rdata), .s_axi_rresp(f_rresp), .s_axi_rlast(f_rlast),
        .s_axi_rvalid(f_rvalid), .s_axi_rready(f_rready)
    );
endmodule

`default_nettype wire
