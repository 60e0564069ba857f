/*
 * pp_fairness_top: the ABE paper's fairness experiment (pushpush bench fairness).
 *
 * N pp_traffic_gen masters, each behind a pp_abe (USE_ABE=1) or connected directly
 * (USE_ABE=0), share one read-only pattern memory (pp_bench_rdmem) through a
 * pp_axi_interconnect (N x 1, TOPOLOGY 0 = crossbar, 1 = shared; ARBITRATION 0 = round robin,
 * 1 = deficit round robin over
 * beats). Everything is in Verilog, so the testbench only configures the generators and
 * reads their counters. Per-master configuration and status ports are flattened: master i
 * at [i*W +: W].
 */

`default_nettype none

module pp_fairness_top #
(
    // Number of masters (traffic generators)
    parameter N = 8,
    // 1: one pp_abe between each generator and the interconnect, 0: direct connection
    parameter USE_ABE = 0,
    // Data width in bits (32 or 64)
    parameter DATA_WIDTH = 32,
    // ABE nominal burst length in beats
    parameter NOMINAL_BURST = 16,
    // ABE outstanding limit (both directions)
    parameter MAX_OUTSTANDING = 4,
    // Interconnect arbitration policy (0 = round robin, 1 = deficit round robin over beats)
    parameter ARBITRATION = 0,
    // Interconnect topology (0 = crossbar, 1 = shared)
    parameter TOPOLOGY = 0,
    // Interconnect ARB_QUANTUM (ARBITRATION = 1): beats of credit per master and round
    parameter ARB_QUANTUM = 16,
    // log2 of the memory's read request queue depth
    parameter MEM_QUEUE_BITS = 5
)
(
    input  wire                     clk,
    input  wire                     rst,

    input  wire [N-1:0]             start,
    input  wire [N-1:0]             stop,
    input  wire [N-1:0]             cfg_write,
    input  wire [N*32-1:0]          cfg_addr,
    input  wire [N*8-1:0]           cfg_len,
    input  wire [N*32-1:0]          cfg_count,
    input  wire [N*8-1:0]           cfg_outstanding,
    input  wire [N*32-1:0]          cfg_span,
    output wire [N-1:0]             busy,
    output wire [N*32-1:0]          cycles,
    output wire [N*32-1:0]          beats,
    output wire [N*32-1:0]          bursts_done,
    output wire [N*32-1:0]          resp_errors,
    output wire [N*32-1:0]          data_errors
);

localparam M_ID_WIDTH = 1 + $clog2(N);

// the interconnect's master port, to the memory
wire [M_ID_WIDTH-1:0] m_axi_awid;
wire [32-1:0] m_axi_awaddr;
wire [8-1:0] m_axi_awlen;
wire [3-1:0] m_axi_awsize;
wire [2-1:0] m_axi_awburst;
wire m_axi_awlock;
wire [4-1:0] m_axi_awcache;
wire [3-1:0] m_axi_awprot;
wire [4-1:0] m_axi_awqos;
wire m_axi_awvalid;
wire m_axi_awready;
wire [M_ID_WIDTH-1:0] m_axi_arid;
wire [DATA_WIDTH-1:0] m_axi_wdata;
wire [DATA_WIDTH/8-1:0] m_axi_wstrb;
wire m_axi_wlast;
wire m_axi_wvalid;
wire m_axi_wready;
wire [M_ID_WIDTH-1:0] m_axi_bid;
wire [2-1:0] m_axi_bresp;
wire m_axi_bvalid;
wire m_axi_bready;
wire [32-1:0] m_axi_araddr;
wire [8-1:0] m_axi_arlen;
wire [3-1:0] m_axi_arsize;
wire [2-1:0] m_axi_arburst;
wire m_axi_arlock;
wire [4-1:0] m_axi_arcache;
wire [3-1:0] m_axi_arprot;
wire [4-1:0] m_axi_arqos;
wire m_axi_arvalid;
wire m_axi_arready;
wire [M_ID_WIDTH-1:0] m_axi_rid;
wire [DATA_WIDTH-1:0] m_axi_rdata;
wire [2-1:0] m_axi_rresp;
wire m_axi_rlast;
wire m_axi_rvalid;
wire m_axi_rready;


// interconnect slave-port side, master i at [i*W +: W]

wire [N-1:0] ic_awid;
wire [N*32-1:0] ic_awaddr;
wire [N*8-1:0] ic_awlen;
wire [N*3-1:0] ic_awsize;
wire [N*2-1:0] ic_awburst;
wire [N-1:0] ic_awlock;
wire [N*4-1:0] ic_awcache;
wire [N*3-1:0] ic_awprot;
wire [N*4-1:0] ic_awqos;
wire [N-1:0] ic_awvalid;
wire [N-1:0] ic_awready;
wire [N-1:0] ic_arid;
wire [N*DATA_WIDTH-1:0] ic_wdata;
wire [N*DATA_WIDTH/8-1:0] ic_wstrb;
wire [N-1:0] ic_wlast;
wire [N-1:0] ic_wvalid;
wire [N-1:0] ic_wready;
wire [N-1:0] ic_bid;
wire [N*2-1:0] ic_bresp;
wire [N-1:0] ic_bvalid;
wire [N-1:0] ic_bready;
wire [N*32-1:0] ic_araddr;
wire [N*8-1:0] ic_arlen;
wire [N*3-1:0] ic_arsize;
wire [N*2-1:0] ic_arburst;
wire [N-1:0] ic_arlock;
wire [N*4-1:0] ic_arcache;
wire [N*3-1:0] ic_arprot;
wire [N*4-1:0] ic_arqos;
wire [N-1:0] ic_arvalid;
wire [N-1:0] ic_arready;
wire [N-1:0] ic_rid;
wire [N*DATA_WIDTH-1:0] ic_rdata;
wire [N*2-1:0] ic_rresp;
wire [N-1:0] ic_rlast;
wire [N-1:0] ic_rvalid;
wire [N-1:0] ic_rready;

genvar i;
generate
    for (i = 0; i < N; i = i + 1) begin : g_master

        wire g_awid;
        wire [32-1:0] g_awaddr;
        wire [8-1:0] g_awlen;
        wire [3-1:0] g_awsize;
        wire [2-1:0] g_awburst;
        wire g_awlock;
        wire [4-1:0] g_awcache;
        wire [3-1:0] g_awprot;
        wire [4-1:0] g_awqos;
        wire g_awvalid;
        wire g_awready;
        wire g_arid;
        wire [DATA_WIDTH-1:0] g_wdata;
        wire [DATA_WIDTH/8-1:0] g_wstrb;
        wire g_wlast;
        wire g_wvalid;
        wire g_wready;
        wire g_bid;
        wire [2-1:0] g_bresp;
        wire g_bvalid;
        wire g_bready;
        wire [32-1:0] g_araddr;
        wire [8-1:0] g_arlen;
        wire [3-1:0] g_arsize;
        wire [2-1:0] g_arburst;
        wire g_arlock;
        wire [4-1:0] g_arcache;
        wire [3-1:0] g_arprot;
        wire [4-1:0] g_arqos;
        wire g_arvalid;
        wire g_arready;
        wire g_rid;
        wire [DATA_WIDTH-1:0] g_rdata;
        wire [2-1:0] g_rresp;
        wire g_rlast;
        wire g_rvalid;
        wire g_rready;
        wire [3:0] g_awregion;
        wire [3:0] g_arregion;

        pp_traffic_gen #(
            .DATA_WIDTH(DATA_WIDTH),
            .ADDR_WIDTH(32),
            .ID_WIDTH(1),
            .AXI_ID(0),
            .COUNT_WIDTH(32)
        ) gen (
            .clk(clk),
            .rst(rst),
            .start(start[i]),
            .stop(stop[i]),
            .cfg_write(cfg_write[i]),
            .cfg_addr(cfg_addr[i*32 +: 32]),
            .cfg_len(cfg_len[i*8 +: 8]),
            .cfg_count(cfg_count[i*32 +: 32]),
            .cfg_outstanding(cfg_outstanding[i*8 +: 8]),
            .cfg_span(cfg_span[i*32 +: 32]),
            .cfg_seed(32'd0),
            .busy(busy[i]),
            .cycles(cycles[i*32 +: 32]),
            .beats(beats[i*32 +: 32]),
            .bursts_done(bursts_done[i*32 +: 32]),
            .resp_errors(resp_errors[i*32 +: 32]),
            .data_errors(data_errors[i*32 +: 32]),

            .m_axi_awregion(g_awregion),
            .m_axi_arregion(g_arregion),
            .m_axi_awid(g_awid),
            .m_axi_awaddr(g_awaddr),
            .m_axi_awlen(g_awlen),
            .m_axi_awsize(g_awsize),
            .m_axi_awburst(g_awburst),
            .m_axi_awlock(g_awlock),
            .m_axi_awcache(g_awcache),
            .m_axi_awprot(g_awprot),
            .m_axi_awqos(g_awqos),
            .m_axi_awvalid(g_awvalid),
            .m_axi_awready(g_awready),
            .m_axi_arid(g_arid),
            .m_axi_wdata(g_wdata),
            .m_axi_wstrb(g_wstrb),
            .m_axi_wlast(g_wlast),
            .m_axi_wvalid(g_wvalid),
            .m_axi_wready(g_wready),
            .m_axi_bid(g_bid),
            .m_axi_bresp(g_bresp),
            .m_axi_bvalid(g_bvalid),
            .m_axi_bready(g_bready),
            .m_axi_araddr(g_araddr),
            .m_axi_arlen(g_arlen),
            .m_axi_arsize(g_arsize),
            .m_axi_arburst(g_arburst),
            .m_axi_arlock(g_arlock),
            .m_axi_arcache(g_arcache),
            .m_axi_arprot(g_arprot),
            .m_axi_arqos(g_arqos),
            .m_axi_arvalid(g_arvalid),
            .m_axi_arready(g_arready),
            .m_axi_rid(g_rid),
            .m_axi_rdata(g_rdata),
            .m_axi_rresp(g_rresp),
            .m_axi_rlast(g_rlast),
            .m_axi_rvalid(g_rvalid),
            .m_axi_rready(g_rready)
        );


        if (USE_ABE != 0) begin : g_abe
            wire [3:0] unused_awregion;
            wire [3:0] unused_arregion;
            wire unused_awuser;
            wire unused_aruser;
            wire unused_wuser;
            wire unused_ruser;
            wire unused_buser;
            wire unused = &{1'b0, unused_awregion, unused_arregion, unused_awuser, unused_aruser,
                unused_wuser, unused_ruser, unused_buser, 1'b0};

            pp_abe #(
                .DATA_WIDTH(DATA_WIDTH),
                .ADDR_WIDTH(32),
                .ID_WIDTH(1),
                .NOMINAL_BURST(NOMINAL_BURST),
                .MAX_OUTSTANDING_W(MAX_OUTSTANDING),
                .MAX_OUTSTANDING_R(MAX_OUTSTANDING)
            ) abe (
                .clk(clk),
                .rst(rst),
                .s_axi_awuser(1'b0),
                .s_axi_aruser(1'b0),
                .s_axi_wuser(1'b0),
                .s_axi_buser(unused_buser),
                .s_axi_ruser(unused_ruser),
                .m_axi_awuser(unused_awuser),
                .m_axi_aruser(unused_aruser),
                .m_axi_wuser(unused_wuser),
                .m_axi_buser(1'b0),
                .m_axi_ruser(1'b0),
                .m_axi_awregion(unused_awregion),
                .m_axi_arregion(unused_arregion),
                .s_axi_awregion(g_awregion),
                .s_axi_arregion(g_arregion),

                .s_axi_awid(g_awid),
                .s_axi_awaddr(g_awaddr),
                .s_axi_awlen(g_awlen),
                .s_axi_awsize(g_awsize),
                .s_axi_awburst(g_awburst),
                .s_axi_awlock(g_awlock),
                .s_axi_awcache(g_awcache),
                .s_axi_awprot(g_awprot),
                .s_axi_awqos(g_awqos),
                .s_axi_awvalid(g_awvalid),
                .s_axi_awready(g_awready),
                .s_axi_arid(g_arid),
                .s_axi_wdata(g_wdata),
                .s_axi_wstrb(g_wstrb),
                .s_axi_wlast(g_wlast),
                .s_axi_wvalid(g_wvalid),
                .s_axi_wready(g_wready),
                .s_axi_bid(g_bid),
                .s_axi_bresp(g_bresp),
                .s_axi_bvalid(g_bvalid),
                .s_axi_bready(g_bready),
                .s_axi_araddr(g_araddr),
                .s_axi_arlen(g_arlen),
                .s_axi_arsize(g_arsize),
                .s_axi_arburst(g_arburst),
                .s_axi_arlock(g_arlock),
                .s_axi_arcache(g_arcache),
                .s_axi_arprot(g_arprot),
                .s_axi_arqos(g_arqos),
                .s_axi_arvalid(g_arvalid),
                .s_axi_arready(g_arready),
                .s_axi_rid(g_rid),
                .s_axi_rdata(g_rdata),
                .s_axi_rresp(g_rresp),
                .s_axi_rlast(g_rlast),
                .s_axi_rvalid(g_rvalid),
                .s_axi_rready(g_rready),
                .m_axi_awid(ic_awid[i]),
                .m_axi_awaddr(ic_awaddr[i*32 +: 32]),
                .m_axi_awlen(ic_awlen[i*8 +: 8]),
                .m_axi_awsize(ic_awsize[i*3 +: 3]),
                .m_axi_awburst(ic_awburst[i*2 +: 2]),
                .m_axi_awlock(ic_awlock[i]),
                .m_axi_awcache(ic_awcache[i*4 +: 4]),
                .m_axi_awprot(ic_awprot[i*3 +: 3]),
                .m_axi_awqos(ic_awqos[i*4 +: 4]),
                .m_axi_awvalid(ic_awvalid[i]),
                .m_axi_awready(ic_awready[i]),
                .m_axi_arid(ic_arid[i]),
                .m_axi_wdata(ic_wdata[i*DATA_WIDTH +: DATA_WIDTH]),
                .m_axi_wstrb(ic_wstrb[i*DATA_WIDTH/8 +: DATA_WIDTH/8]),
                .m_axi_wlast(ic_wlast[i]),
                .m_axi_wvalid(ic_wvalid[i]),
                .m_axi_wready(ic_wready[i]),
                .m_axi_bid(ic_bid[i]),
                .m_axi_bresp(ic_bresp[i*2 +: 2]),
                .m_axi_bvalid(ic_bvalid[i]),
                .m_axi_bready(ic_bready[i]),
                .m_axi_araddr(ic_araddr[i*32 +: 32]),
                .m_axi_arlen(ic_arlen[i*8 +: 8]),
                .m_axi_arsize(ic_arsize[i*3 +: 3]),
                .m_axi_arburst(ic_arburst[i*2 +: 2]),
                .m_axi_arlock(ic_arlock[i]),
                .m_axi_arcache(ic_arcache[i*4 +: 4]),
                .m_axi_arprot(ic_arprot[i*3 +: 3]),
                .m_axi_arqos(ic_arqos[i*4 +: 4]),
                .m_axi_arvalid(ic_arvalid[i]),
                .m_axi_arready(ic_arready[i]),
                .m_axi_rid(ic_rid[i]),
                .m_axi_rdata(ic_rdata[i*DATA_WIDTH +: DATA_WIDTH]),
                .m_axi_rresp(ic_rresp[i*2 +: 2]),
                .m_axi_rlast(ic_rlast[i]),
                .m_axi_rvalid(ic_rvalid[i]),
                .m_axi_rready(ic_rready[i])
            );
        end else begin : g_direct

            wire unused = &{1'b0, g_awregion, g_arregion, 1'b0};
            assign ic_awid[i] = g_awid;
            assign ic_awaddr[i*32 +: 32] = g_awaddr;
            assign ic_awlen[i*8 +: 8] = g_awlen;
            assign ic_awsize[i*3 +: 3] = g_awsize;
            assign ic_awburst[i*2 +: 2] = g_awburst;
            assign ic_awlock[i] = g_awlock;
            assign ic_awcache[i*4 +: 4] = g_awcache;
            assign ic_awprot[i*3 +: 3] = g_awprot;
            assign ic_awqos[i*4 +: 4] = g_awqos;
            assign ic_awvalid[i] = g_awvalid;
            assign g_awready = ic_awready[i];
            assign ic_arid[i] = g_arid;
            assign ic_wdata[i*DATA_WIDTH +: DATA_WIDTH] = g_wdata;
            assign ic_wstrb[i*DATA_WIDTH/8 +: DATA_WIDTH/8] = g_wstrb;
            assign ic_wlast[i] = g_wlast;
            assign ic_wvalid[i] = g_wvalid;
            assign g_wready = ic_wready[i];
            assign g_bid = ic_bid[i];
            assign g_bresp = ic_bresp[i*2 +: 2];
            assign g_bvalid = ic_bvalid[i];
            assign ic_bready[i] = g_bready;
            assign ic_araddr[i*32 +: 32] = g_araddr;
            assign ic_arlen[i*8 +: 8] = g_arlen;
            assign ic_arsize[i*3 +: 3] = g_arsize;
            assign ic_arburst[i*2 +: 2] = g_arburst;
            assign ic_arlock[i] = g_arlock;
            assign ic_arcache[i*4 +: 4] = g_arcache;
            assign ic_arprot[i*3 +: 3] = g_arprot;
            assign ic_arqos[i*4 +: 4] = g_arqos;
            assign ic_arvalid[i] = g_arvalid;
            assign g_arready = ic_arready[i];
            assign g_rid = ic_rid[i];
            assign g_rdata = ic_rdata[i*DATA_WIDTH +: DATA_WIDTH];
            assign g_rresp = ic_rresp[i*2 +: 2];
            assign g_rlast = ic_rlast[i];
            assign g_rvalid = ic_rvalid[i];
            assign ic_rready[i] = g_rready;
        end
    end
endgenerate

pp_axi_interconnect #(
    .S_COUNT(N),
    .M_COUNT(1),
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(32),
    .S_ID_WIDTH(1),
    .M_ID_WIDTH(M_ID_WIDTH),
    .M_BASE_ADDR(32'd0),
    .M_ADDR_WIDTH(32'd24),
    .TOPOLOGY(TOPOLOGY),
    .ARBITRATION(ARBITRATION),
    .ARB_QUANTUM(ARB_QUANTUM)
) ic (
    .clk(clk),
    .rst(rst),

    .s_axi_awid(ic_awid),
    .s_axi_awaddr(ic_awaddr),
    .s_axi_awlen(ic_awlen),
    .s_axi_awsize(ic_awsize),
    .s_axi_awburst(ic_awburst),
    .s_axi_awlock(ic_awlock),
    .s_axi_awcache(ic_awcache),
    .s_axi_awprot(ic_awprot),
    .s_axi_awqos(ic_awqos),
    .s_axi_awvalid(ic_awvalid),
    .s_axi_awready(ic_awready),
    .s_axi_arid(ic_arid),
    .s_axi_wdata(ic_wdata),
    .s_axi_wstrb(ic_wstrb),
    .s_axi_wlast(ic_wlast),
    .s_axi_wvalid(ic_wvalid),
    .s_axi_wready(ic_wready),
    .s_axi_bid(ic_bid),
    .s_axi_bresp(ic_bresp),
    .s_axi_bvalid(ic_bvalid),
    .s_axi_bready(ic_bready),
    .s_axi_araddr(ic_araddr),
    .s_axi_arlen(ic_arlen),
    .s_axi_arsize(ic_arsize),
    .s_axi_arburst(ic_arburst),
    .s_axi_arlock(ic_arlock),
    .s_axi_arcache(ic_arcache),
    .s_axi_arprot(ic_arprot),
    .s_axi_arqos(ic_arqos),
    .s_axi_arvalid(ic_arvalid),
    .s_axi_arready(ic_arready),
    .s_axi_rid(ic_rid),
    .s_axi_rdata(ic_rdata),
    .s_axi_rresp(ic_rresp),
    .s_axi_rlast(ic_rlast),
    .s_axi_rvalid(ic_rvalid),
    .s_axi_rready(ic_rready),
    .m_axi_awid(m_axi_awid),
    .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen),
    .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst),
    .m_axi_awlock(m_axi_awlock),
    .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot),
    .m_axi_awqos(m_axi_awqos),
    .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready),
    .m_axi_arid(m_axi_arid),
    .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb),
    .m_axi_wlast(m_axi_wlast),
    .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid),
    .m_axi_bresp(m_axi_bresp),
    .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen),
    .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst),
    .m_axi_arlock(m_axi_arlock),
    .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot),
    .m_axi_arqos(m_axi_arqos),
    .m_axi_arvalid(m_axi_arvalid),
    .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid),
    .m_axi_rdata(m_axi_rdata),
    .m_axi_rresp(m_axi_rresp),
    .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid),
    .m_axi_rready(m_axi_rready)
);

pp_bench_rdmem #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(32),
    .ID_WIDTH(M_ID_WIDTH),
    .QUEUE_BITS(MEM_QUEUE_BITS)
) mem (
    .clk(clk),
    .rst(rst),
    .s_axi_awid(m_axi_awid),
    .s_axi_awaddr(m_axi_awaddr),
    .s_axi_awlen(m_axi_awlen),
    .s_axi_awsize(m_axi_awsize),
    .s_axi_awburst(m_axi_awburst),
    .s_axi_awlock(m_axi_awlock),
    .s_axi_awcache(m_axi_awcache),
    .s_axi_awprot(m_axi_awprot),
    .s_axi_awqos(m_axi_awqos),
    .s_axi_awvalid(m_axi_awvalid),
    .s_axi_awready(m_axi_awready),
    .s_axi_arid(m_axi_arid),
    .s_axi_wdata(m_axi_wdata),
    .s_axi_wstrb(m_axi_wstrb),
    .s_axi_wlast(m_axi_wlast),
    .s_axi_wvalid(m_axi_wvalid),
    .s_axi_wready(m_axi_wready),
    .s_axi_bid(m_axi_bid),
    .s_axi_bresp(m_axi_bresp),
    .s_axi_bvalid(m_axi_bvalid),
    .s_axi_bready(m_axi_bready),
    .s_axi_araddr(m_axi_araddr),
    .s_axi_arlen(m_axi_arlen),
    .s_axi_arsize(m_axi_arsize),
    .s_axi_arburst(m_axi_arburst),
    .s_axi_arlock(m_axi_arlock),
    .s_axi_arcache(m_axi_arcache),
    .s_axi_arprot(m_axi_arprot),
    .s_axi_arqos(m_axi_arqos),
    .s_axi_arvalid(m_axi_arvalid),
    .s_axi_arready(m_axi_arready),
    .s_axi_rid(m_axi_rid),
    .s_axi_rdata(m_axi_rdata),
    .s_axi_rresp(m_axi_rresp),
    .s_axi_rlast(m_axi_rlast),
    .s_axi_rvalid(m_axi_rvalid),
    .s_axi_rready(m_axi_rready)
);

endmodule

`default_nettype wire
