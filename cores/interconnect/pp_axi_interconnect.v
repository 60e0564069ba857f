/*
 * pushpush: AXI4 interconnect, S_COUNT masters x M_COUNT slaves.
 *
 * Slave ports s_axi_* face the masters (call engines, the ARM's PS-to-PL port); master
 * ports m_axi_* face the slaves (endpoint windows, the ARM's PL-to-PS port). Slave j
 * answers the 2**M_ADDR_WIDTH[j] bytes at M_BASE_ADDR[j] (size aligned; the lowest j
 * wins where windows overlap). Addresses outside every window go to an internal default
 * slave that answers DECERR. IDs are extended on the way to the slaves with the index of
 * the issuing master (upper bits) and the responses are routed back by those bits.
 *
 * This top decodes (pp_axi_ic_decode), packs each master's payloads, adds the default slave
 * (pp_axi_ic_decerr) and unpacks the ports; the datapath is pp_axi_ic_xbar (TOPOLOGY = 0)
 * or pp_axi_ic_shared (TOPOLOGY = 1), built from pp_arbiter, pp_axi_ic_mux, pp_axi_ic_reg,
 * pp_axi_ic_req, pp_axi_ic_rd_beats and pp_axi_ic_resp; both follow the ordering rule of
 * pp_axi_ic_ordering (pp_axi_ic_order per master and direction), instantiated here once.
 *
 * Latency (no contention, target ready): address and write data are registered once
 * (a beat accepted from a master in cycle t is presented to the slave in cycle t+1),
 * responses are registered once (B/R beat accepted from a slave in cycle u is presented
 * to the master in cycle u+1). Arbitration and address decoding are combinational in
 * the cycle of acceptance. All stages are skid buffers: full throughput, registered
 * ready towards the upstream side.
 *
 * TOPOLOGY = 0 (crossbar): per slave one AW and one AR arbiter (pp_arbiter), per slave
 * the W path is locked from the AW grant to WLAST (so W beats follow AW order); per
 * master one B and one R register. A master issues to one slave per direction at a
 * time: while it has writes (reads) outstanding to slave A, a write (read) to slave B
 * waits until they have all completed, so responses per ID stay in order. At most
 * MAX_OUTSTANDING transactions per master and direction.
 *
 * Arbitration (pp_arbiter, combinational grant, no added cycle): ARBITRATION = 0 round robin
 * per transaction, ARBITRATION = 1 deficit round robin over beats (ARB_QUANTUM beats per port
 * and round), fair in data beats between masters with different burst lengths. With
 * ARBITRATION = 1 the crossbar takes a new read at a slave only while fewer than
 * ARB_READ_AHEAD read beats are outstanding there, so that read grants are decided close
 * to when their data moves (otherwise a master whose requests all wait in the slave's
 * queue has no say in the grants, and the data is shared by requests, not by beats).
 *
 * TOPOLOGY = 1 (shared, pipelined): one arbiter over all AW and AR requests and one
 * address register slice (an address per cycle); one W path serving the granted writes in
 * grant order (the burst streaming now and the next one, granted while it streams, whose
 * beats follow its WLAST without a bubble); one B and one R register slice fed round robin
 * from whichever slave has a response and routed back by the ID's master bits, so the bus
 * is never held for a response. Ordering as in the crossbar: a master issues to one slave
 * per direction at a time (MAX_OUTSTANDING per master and direction). ARBITRATION = 1: a
 * read is granted only while fewer than ARB_READ_AHEAD read beats are outstanding.
 */

`default_nettype none

module pp_axi_interconnect #
(
    // Number of AXI slave ports (masters attached), 1..64
    parameter S_COUNT = 4,
    // Number of AXI master ports (slaves attached), 1..64
    parameter M_COUNT = 4,
    // Width of the data bus in bits (32 or 64)
    parameter DATA_WIDTH = 32,
    // Width of the address bus in bits
    parameter ADDR_WIDTH = 32,
    // Width of the strobe bus (one bit per byte)
    parameter STRB_WIDTH = (DATA_WIDTH/8),
    // Width of the ID signals on the slave ports (masters' side)
    parameter S_ID_WIDTH = 4,
    // Width of the ID signals on the master ports: must be S_ID_WIDTH + $clog2(S_COUNT)
    parameter M_ID_WIDTH = S_ID_WIDTH+$clog2(S_COUNT),
    // Base address of each slave's window, M_COUNT concatenated ADDR_WIDTH-bit fields
    // (slave 0 in the least significant field)
    parameter M_BASE_ADDR = {M_COUNT{{ADDR_WIDTH{1'b0}}}},
    // Log2 of each slave's window size in bytes, M_COUNT concatenated 32-bit fields
    parameter M_ADDR_WIDTH = {M_COUNT{32'd24}},
    // 0 = crossbar (concurrent paths to distinct slaves), 1 = shared (one pipelined bus)
    parameter TOPOLOGY = 0,
    // Arbitration policy passed to pp_arbiter: 0 = round robin (per transaction),
    // 1 = deficit round robin over beats (fair in data beats whatever the burst lengths)
    parameter ARBITRATION = 0,
    // ARBITRATION = 1: beats of credit per port and round (1..511)
    parameter ARB_QUANTUM = 16,
    // Maximum outstanding transactions per master and direction
    parameter MAX_OUTSTANDING = 8,
    // ARBITRATION = 1: a read is granted only while fewer than this many read beats are
    // outstanding at the slave (crossbar) or on the bus (shared) (keeps decisions fair;
    // raise it for slow slaves)
    parameter ARB_READ_AHEAD = ARB_QUANTUM,
    // TOPOLOGY = 0: the read path. 0 = a crossbar like the write path (an AR arbiter per
    // slave, an R path per master); 1 = one shared AR path (one arbiter over the masters'
    // reads into an AR register per slave) and one shared R path (round robin over the
    // slaves' beats into an R register per master), routed back by the ID's master bits:
    // reads to different slaves no longer proceed in parallel, for a fraction of the area
    // (PushPush's protocol traffic is all writes; reads are counters and register pages).
    // Either way a master that holds RREADY low stalls no other master's reads of other
    // slaves
    parameter READ_TOPOLOGY = 0,
    // 1 = every register stage is a skid buffer (registered ready towards the upstream
    // side); 0 = single registers (half the flip-flops, no multiplexer per bit; each ready
    // is combinational from the downstream ready). Latency and throughput are the same.
    parameter SKID_BUFFERS = 1,
    // Connectivity, M_COUNT x S_COUNT bits: bit [j*S_COUNT+i] = master i (slave port i) may
    // address slave j (master port j). An access of a master to a slave it is not connected
    // to goes to the internal default slave (DECERR), as an address in no window does. The
    // crossbar builds each slave's arbiter and AW/W (AR) multiplexers only over the masters
    // connected to it, and each master's B (R) multiplexer only over the slaves connected to
    // it, so its area follows the number of connections. Default: all connected.
    parameter M_CONNECT = {(M_COUNT*S_COUNT){1'b1}}
)
(
    input  wire                             clk,
    input  wire                             rst,

    /*
     * AXI slave interfaces (masters attach here)
     */
    input  wire [S_COUNT*S_ID_WIDTH-1:0]    s_axi_awid,
    input  wire [S_COUNT*ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [S_COUNT*8-1:0]             s_axi_awlen,
    input  wire [S_COUNT*3-1:0]             s_axi_awsize,
    input  wire [S_COUNT*2-1:0]             s_axi_awburst,
    input  wire [S_COUNT-1:0]               s_axi_awlock,
    input  wire [S_COUNT*4-1:0]             s_axi_awcache,
    input  wire [S_COUNT*3-1:0]             s_axi_awprot,
    input  wire [S_COUNT*4-1:0]             s_axi_awqos,
    input  wire [S_COUNT-1:0]               s_axi_awvalid,
    output wire [S_COUNT-1:0]               s_axi_awready,
    input  wire [S_COUNT*DATA_WIDTH-1:0]    s_axi_wdata,
    input  wire [S_COUNT*STRB_WIDTH-1:0]    s_axi_wstrb,
    input  wire [S_COUNT-1:0]               s_axi_wlast,
    input  wire [S_COUNT-1:0]               s_axi_wvalid,
    output wire [S_COUNT-1:0]               s_axi_wready,
    output wire [S_COUNT*S_ID_WIDTH-1:0]    s_axi_bid,
    output wire [S_COUNT*2-1:0]             s_axi_bresp,
    output wire [S_COUNT-1:0]               s_axi_bvalid,
    input  wire [S_COUNT-1:0]               s_axi_bready,
    input  wire [S_COUNT*S_ID_WIDTH-1:0]    s_axi_arid,
    input  wire [S_COUNT*ADDR_WIDTH-1:0]    s_axi_araddr,
    input  wire [S_COUNT*8-1:0]             s_axi_arlen,
    input  wire [S_COUNT*3-1:0]             s_axi_arsize,
    input  wire [S_COUNT*2-1:0]             s_axi_arburst,
    input  wire [S_COUNT-1:0]               s_axi_arlock,
    input  wire [S_COUNT*4-1:0]             s_axi_arcache,
    input  wire [S_COUNT*3-1:0]             s_axi_arprot,
    input  wire [S_COUNT*4-1:0]             s_axi_arqos,
    input  wire [S_COUNT-1:0]               s_axi_arvalid,
    output wire [S_COUNT-1:0]               s_axi_arready,
    output wire [S_COUNT*S_ID_WIDTH-1:0]    s_axi_rid,
    output wire [S_COUNT*DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [S_COUNT*2-1:0]             s_axi_rresp,
    output wire [S_COUNT-1:0]               s_axi_rlast,
    output wire [S_COUNT-1:0]               s_axi_rvalid,
    input  wire [S_COUNT-1:0]               s_axi_rready,

    /*
     * AXI master interfaces (slaves attach here)
     */
    output wire [M_COUNT*M_ID_WIDTH-1:0]    m_axi_awid,
    output wire [M_COUNT*ADDR_WIDTH-1:0]    m_axi_awaddr,
    output wire [M_COUNT*8-1:0]             m_axi_awlen,
    output wire [M_COUNT*3-1:0]             m_axi_awsize,
    output wire [M_COUNT*2-1:0]             m_axi_awburst,
    output wire [M_COUNT-1:0]               m_axi_awlock,
    output wire [M_COUNT*4-1:0]             m_axi_awcache,
    output wire [M_COUNT*3-1:0]             m_axi_awprot,
    output wire [M_COUNT*4-1:0]             m_axi_awqos,
    output wire [M_COUNT-1:0]               m_axi_awvalid,
    input  wire [M_COUNT-1:0]               m_axi_awready,
    output wire [M_COUNT*DATA_WIDTH-1:0]    m_axi_wdata,
    output wire [M_COUNT*STRB_WIDTH-1:0]    m_axi_wstrb,
    output wire [M_COUNT-1:0]               m_axi_wlast,
    output wire [M_COUNT-1:0]               m_axi_wvalid,
    input  wire [M_COUNT-1:0]               m_axi_wready,
    input  wire [M_COUNT*M_ID_WIDTH-1:0]    m_axi_bid,
    input  wire [M_COUNT*2-1:0]             m_axi_bresp,
    input  wire [M_COUNT-1:0]               m_axi_bvalid,
    output wire [M_COUNT-1:0]               m_axi_bready,
    output wire [M_COUNT*M_ID_WIDTH-1:0]    m_axi_arid,
    output wire [M_COUNT*ADDR_WIDTH-1:0]    m_axi_araddr,
    output wire [M_COUNT*8-1:0]             m_axi_arlen,
    output wire [M_COUNT*3-1:0]             m_axi_arsize,
    output wire [M_COUNT*2-1:0]             m_axi_arburst,
    output wire [M_COUNT-1:0]               m_axi_arlock,
    output wire [M_COUNT*4-1:0]             m_axi_arcache,
    output wire [M_COUNT*3-1:0]             m_axi_arprot,
    output wire [M_COUNT*4-1:0]             m_axi_arqos,
    output wire [M_COUNT-1:0]               m_axi_arvalid,
    input  wire [M_COUNT-1:0]               m_axi_arready,
    input  wire [M_COUNT*M_ID_WIDTH-1:0]    m_axi_rid,
    input  wire [M_COUNT*DATA_WIDTH-1:0]    m_axi_rdata,
    input  wire [M_COUNT*2-1:0]             m_axi_rresp,
    input  wire [M_COUNT-1:0]               m_axi_rlast,
    input  wire [M_COUNT-1:0]               m_axi_rvalid,
    output wire [M_COUNT-1:0]               m_axi_rready
);

// internal slave count: the M_COUNT ports plus the DECERR default slave
localparam MI = M_COUNT+1;
// width of a slave index (0..M_COUNT)
localparam MW = $clog2(M_COUNT+1);
// width of a master index
localparam SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1;
// ID extension bits
localparam XW = $clog2(S_COUNT);

// address channel payload (AW and AR share the layout)
localparam AX_ID    = 0;
localparam AX_ADDR  = AX_ID + M_ID_WIDTH;
localparam AX_LEN   = AX_ADDR + ADDR_WIDTH;
localparam AX_SIZE  = AX_LEN + 8;
localparam AX_BURST = AX_SIZE + 3;
localparam AX_LOCK  = AX_BURST + 2;
localparam AX_CACHE = AX_LOCK + 1;
localparam AX_PROT  = AX_CACHE + 4;
localparam AX_QOS   = AX_PROT + 3;
localparam AXP      = AX_QOS + 4;
// write data payload
localparam W_DATA = 0;
localparam W_STRB = DATA_WIDTH;
localparam W_LAST = DATA_WIDTH + STRB_WIDTH;
localparam WP     = W_LAST + 1;
// write response payload (master side)
localparam B_ID   = 0;
localparam B_RESP = S_ID_WIDTH;
localparam BP     = S_ID_WIDTH + 2;
// read data payload (master side)
localparam R_ID   = 0;
localparam R_DATA = S_ID_WIDTH;
localparam R_RESP = S_ID_WIDTH + DATA_WIDTH;
localparam R_LAST = R_RESP + 2;
localparam RP     = R_LAST + 1;

initial begin
    if (M_ID_WIDTH != S_ID_WIDTH + XW) begin
        $display("pp_axi_interconnect: M_ID_WIDTH must be S_ID_WIDTH + $clog2(S_COUNT)");
        $finish;
    end
    if (S_COUNT < 1 || S_COUNT > 64 || M_COUNT < 1 || M_COUNT > 64) begin
        $display("pp_axi_interconnect: S_COUNT and M_COUNT must be 1..64");
        $finish;
    end
end

/*
 * Address decoding and payloads per master
 */
// (Simulation speed: a vector that many instances read is built in one always block, not
// part by part with an assign per port: Icarus rebuilds a part-driven vector whole, with
// strengths, for every reader on every change of any part, which grows with the square of
// the port count; a variable is passed on as it is.)
wire [S_COUNT*MW-1:0]  aw_sel_w;
wire [S_COUNT*MW-1:0]  ar_sel_w;
reg  [S_COUNT*MW-1:0]  aw_sel;
reg  [S_COUNT*MW-1:0]  ar_sel;
reg  [S_COUNT*AXP-1:0] aw_pay;
reg  [S_COUNT*AXP-1:0] ar_pay;
// beats of each master's pending AW / AR (AxLEN+1), for the arbiters
reg  [S_COUNT*9-1:0]   aw_beats;
reg  [S_COUNT*9-1:0]   ar_beats;
// W payload with wvalid on top, for the W multiplexers
reg  [S_COUNT*(WP+1)-1:0] w_pay_v;

pp_axi_ic_decode #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .ADDR_WIDTH(ADDR_WIDTH),
    .M_BASE_ADDR(M_BASE_ADDR),
    .M_ADDR_WIDTH(M_ADDR_WIDTH),
    .M_CONNECT(M_CONNECT),
    .MW(MW)
)
aw_dec_inst (
    .addr(s_axi_awaddr),
    .sel(aw_sel_w)
);

pp_axi_ic_decode #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .ADDR_WIDTH(ADDR_WIDTH),
    .M_BASE_ADDR(M_BASE_ADDR),
    .M_ADDR_WIDTH(M_ADDR_WIDTH),
    .M_CONNECT(M_CONNECT),
    .MW(MW)
)
ar_dec_inst (
    .addr(s_axi_araddr),
    .sel(ar_sel_w)
);


always @* begin
    aw_sel = aw_sel_w;
    ar_sel = ar_sel_w;
end

// payloads per master, the ID extended by the master index (the upper bits)
integer pa;
always @* begin
    for (pa = 0; pa < S_COUNT; pa = pa + 1) begin
        aw_pay[pa*AXP+AX_ADDR +: AXP-AX_ADDR] = {
            s_axi_awqos[pa*4 +: 4], s_axi_awprot[pa*3 +: 3], s_axi_awcache[pa*4 +: 4],
            s_axi_awlock[pa], s_axi_awburst[pa*2 +: 2], s_axi_awsize[pa*3 +: 3],
            s_axi_awlen[pa*8 +: 8], s_axi_awaddr[pa*ADDR_WIDTH +: ADDR_WIDTH]};
        aw_pay[pa*AXP+AX_ID +: S_ID_WIDTH] = s_axi_awid[pa*S_ID_WIDTH +: S_ID_WIDTH];
        if (S_COUNT > 1) begin
            aw_pay[pa*AXP+AX_ID+S_ID_WIDTH +: SW] = pa[SW-1:0];
        end
        aw_beats[pa*9 +: 9] = {1'b0, s_axi_awlen[pa*8 +: 8]} + 9'd1;
    end
end

integer pr;
always @* begin
    for (pr = 0; pr < S_COUNT; pr = pr + 1) begin
        ar_pay[pr*AXP+AX_ADDR +: AXP-AX_ADDR] = {
            s_axi_arqos[pr*4 +: 4], s_axi_arprot[pr*3 +: 3], s_axi_arcache[pr*4 +: 4],
            s_axi_arlock[pr], s_axi_arburst[pr*2 +: 2], s_axi_arsize[pr*3 +: 3],
            s_axi_arlen[pr*8 +: 8], s_axi_araddr[pr*ADDR_WIDTH +: ADDR_WIDTH]};
        ar_pay[pr*AXP+AX_ID +: S_ID_WIDTH] = s_axi_arid[pr*S_ID_WIDTH +: S_ID_WIDTH];
        if (S_COUNT > 1) begin
            ar_pay[pr*AXP+AX_ID+S_ID_WIDTH +: SW] = pr[SW-1:0];
        end
        ar_beats[pr*9 +: 9] = {1'b0, s_axi_arlen[pr*8 +: 8]} + 9'd1;
    end
end

integer pw;
always @* begin
    for (pw = 0; pw < S_COUNT; pw = pw + 1) begin
        w_pay_v[pw*(WP+1) +: WP+1] = {s_axi_wvalid[pw], s_axi_wlast[pw],
            s_axi_wstrb[pw*STRB_WIDTH +: STRB_WIDTH], s_axi_wdata[pw*DATA_WIDTH +: DATA_WIDTH]};
    end
end

/*
 * Internal slave side: M_COUNT ports plus the default slave at index M_COUNT
 */
/* verilator lint_off UNUSED */
wire [MI*AXP-1:0]        int_aw_pay;
wire [MI-1:0]            int_awvalid;
wire [MI-1:0]            int_awready;
wire [MI*WP-1:0]         int_w_pay;
wire [MI-1:0]            int_wvalid;
wire [MI-1:0]            int_wready;
wire [MI*M_ID_WIDTH-1:0] int_bid;
wire [MI*2-1:0]          int_bresp;
wire [MI-1:0]            int_bvalid;
wire                     dec_awready;
wire                     dec_wready;
wire                     dec_arready;
wire [M_ID_WIDTH-1:0]    dec_bid;
wire                     dec_bvalid;
wire [M_ID_WIDTH-1:0]    dec_rid;
wire                     dec_rlast;
wire                     dec_rvalid;
wire [MI-1:0]            int_bready;
wire [MI*AXP-1:0]        int_ar_pay;
wire [MI-1:0]            int_arvalid;
wire [MI-1:0]            int_arready;
wire [MI*M_ID_WIDTH-1:0] int_rid;
wire [MI*DATA_WIDTH-1:0] int_rdata;
wire [MI*2-1:0]          int_rresp;
wire [MI-1:0]            int_rlast;
wire [MI-1:0]            int_rvalid;
wire [MI-1:0]            int_rready;
// master index carried in the upper ID bits of each slave's responses
reg  [MI*SW-1:0]         int_b_mst;
reg  [MI*SW-1:0]         int_r_mst;
/* verilator lint_on UNUSED */

// response bundles per slave, for the response multiplexers:
// B: {master index, bresp, bid (lower S_ID_WIDTH bits), bvalid (bit 0)}
localparam BB_ID    = 1;
localparam BB_RESP  = BB_ID + S_ID_WIDTH;
localparam BB_MST   = BB_RESP + 2;
localparam BBW      = BB_MST + SW;
// R: {master index, rlast, rresp, rdata, rid (lower bits), rvalid (bit 0)}
localparam RB_ID    = 1;
localparam RB_DATA  = RB_ID + S_ID_WIDTH;
localparam RB_RESP  = RB_DATA + DATA_WIDTH;
localparam RB_LAST  = RB_RESP + 2;
localparam RB_MST   = RB_LAST + 1;
localparam RBW      = RB_MST + SW;
// (a slave no master is connected to, M_CONNECT, has its bundles unread)
/* verilator lint_off UNUSED */
reg  [MI*BBW-1:0]        int_b_bun;
reg  [MI*RBW-1:0]        int_r_bun;
/* verilator lint_on UNUSED */

// the master ports' payload fields, each port's from its slot of int_*_pay (one always
// block per channel: a vector read by the next modules' many part-selects is not built
// part by part, see above)
reg [M_COUNT*M_ID_WIDTH-1:0] mo_awid;
reg [M_COUNT*ADDR_WIDTH-1:0] mo_awaddr;
reg [M_COUNT*8-1:0]          mo_awlen;
reg [M_COUNT*3-1:0]          mo_awsize;
reg [M_COUNT*2-1:0]          mo_awburst;
reg [M_COUNT-1:0]            mo_awlock;
reg [M_COUNT*4-1:0]          mo_awcache;
reg [M_COUNT*3-1:0]          mo_awprot;
reg [M_COUNT*4-1:0]          mo_awqos;
reg [M_COUNT*DATA_WIDTH-1:0] mo_wdata;
reg [M_COUNT*STRB_WIDTH-1:0] mo_wstrb;
reg [M_COUNT-1:0]            mo_wlast;
reg [M_COUNT*M_ID_WIDTH-1:0] mo_arid;
reg [M_COUNT*ADDR_WIDTH-1:0] mo_araddr;
reg [M_COUNT*8-1:0]          mo_arlen;
reg [M_COUNT*3-1:0]          mo_arsize;
reg [M_COUNT*2-1:0]          mo_arburst;
reg [M_COUNT-1:0]            mo_arlock;
reg [M_COUNT*4-1:0]          mo_arcache;
reg [M_COUNT*3-1:0]          mo_arprot;
reg [M_COUNT*4-1:0]          mo_arqos;

integer oa;
always @* begin
    for (oa = 0; oa < M_COUNT; oa = oa + 1) begin
        mo_awid[oa*M_ID_WIDTH +: M_ID_WIDTH] = int_aw_pay[oa*AXP+AX_ID +: M_ID_WIDTH];
        mo_awaddr[oa*ADDR_WIDTH +: ADDR_WIDTH] = int_aw_pay[oa*AXP+AX_ADDR +: ADDR_WIDTH];
        mo_awlen[oa*8 +: 8] = int_aw_pay[oa*AXP+AX_LEN +: 8];
        mo_awsize[oa*3 +: 3] = int_aw_pay[oa*AXP+AX_SIZE +: 3];
        mo_awburst[oa*2 +: 2] = int_aw_pay[oa*AXP+AX_BURST +: 2];
        mo_awlock[oa] = int_aw_pay[oa*AXP+AX_LOCK];
        mo_awcache[oa*4 +: 4] = int_aw_pay[oa*AXP+AX_CACHE +: 4];
        mo_awprot[oa*3 +: 3] = int_aw_pay[oa*AXP+AX_PROT +: 3];
        mo_awqos[oa*4 +: 4] = int_aw_pay[oa*AXP+AX_QOS +: 4];
    end
end

integer ow;
always @* begin
    for (ow = 0; ow < M_COUNT; ow = ow + 1) begin
        mo_wdata[ow*DATA_WIDTH +: DATA_WIDTH] = int_w_pay[ow*WP+W_DATA +: DATA_WIDTH];
        mo_wstrb[ow*STRB_WIDTH +: STRB_WIDTH] = int_w_pay[ow*WP+W_STRB +: STRB_WIDTH];
        mo_wlast[ow] = int_w_pay[ow*WP+W_LAST];
    end
end

integer oq;
always @* begin
    for (oq = 0; oq < M_COUNT; oq = oq + 1) begin
        mo_arid[oq*M_ID_WIDTH +: M_ID_WIDTH] = int_ar_pay[oq*AXP+AX_ID +: M_ID_WIDTH];
        mo_araddr[oq*ADDR_WIDTH +: ADDR_WIDTH] = int_ar_pay[oq*AXP+AX_ADDR +: ADDR_WIDTH];
        mo_arlen[oq*8 +: 8] = int_ar_pay[oq*AXP+AX_LEN +: 8];
        mo_arsize[oq*3 +: 3] = int_ar_pay[oq*AXP+AX_SIZE +: 3];
        mo_arburst[oq*2 +: 2] = int_ar_pay[oq*AXP+AX_BURST +: 2];
        mo_arlock[oq] = int_ar_pay[oq*AXP+AX_LOCK];
        mo_arcache[oq*4 +: 4] = int_ar_pay[oq*AXP+AX_CACHE +: 4];
        mo_arprot[oq*3 +: 3] = int_ar_pay[oq*AXP+AX_PROT +: 3];
        mo_arqos[oq*4 +: 4] = int_ar_pay[oq*AXP+AX_QOS +: 4];
    end
end

assign m_axi_awid = mo_awid;
assign m_axi_awaddr = mo_awaddr;
assign m_axi_awlen = mo_awlen;
assign m_axi_awsize = mo_awsize;
assign m_axi_awburst = mo_awburst;
assign m_axi_awlock = mo_awlock;
assign m_axi_awcache = mo_awcache;
assign m_axi_awprot = mo_awprot;
assign m_axi_awqos = mo_awqos;
assign m_axi_awvalid = int_awvalid[M_COUNT-1:0];
assign int_awready = {dec_awready, m_axi_awready};
assign m_axi_wdata = mo_wdata;
assign m_axi_wstrb = mo_wstrb;
assign m_axi_wlast = mo_wlast;
assign m_axi_wvalid = int_wvalid[M_COUNT-1:0];
assign int_wready = {dec_wready, m_axi_wready};
assign m_axi_bready = int_bready[M_COUNT-1:0];
assign m_axi_arid = mo_arid;
assign m_axi_araddr = mo_araddr;
assign m_axi_arlen = mo_arlen;
assign m_axi_arsize = mo_arsize;
assign m_axi_arburst = mo_arburst;
assign m_axi_arlock = mo_arlock;
assign m_axi_arcache = mo_arcache;
assign m_axi_arprot = mo_arprot;
assign m_axi_arqos = mo_arqos;
assign m_axi_arvalid = int_arvalid[M_COUNT-1:0];
assign int_arready = {dec_arready, m_axi_arready};
assign m_axi_rready = int_rready[M_COUNT-1:0];

pp_axi_ic_decerr #(
    .ID_WIDTH(M_ID_WIDTH)
)
decerr_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_awid(int_aw_pay[M_COUNT*AXP+AX_ID +: M_ID_WIDTH]),
    .s_axi_awvalid(int_awvalid[M_COUNT]),
    .s_axi_awready(dec_awready),
    .s_axi_wlast(int_w_pay[M_COUNT*WP+W_LAST]),
    .s_axi_wvalid(int_wvalid[M_COUNT]),
    .s_axi_wready(dec_wready),
    .s_axi_bid(dec_bid),
    .s_axi_bvalid(dec_bvalid),
    .s_axi_bready(int_bready[M_COUNT]),
    .s_axi_arid(int_ar_pay[M_COUNT*AXP+AX_ID +: M_ID_WIDTH]),
    .s_axi_arlen(int_ar_pay[M_COUNT*AXP+AX_LEN +: 8]),
    .s_axi_arvalid(int_arvalid[M_COUNT]),
    .s_axi_arready(dec_arready),
    .s_axi_rid(dec_rid),
    .s_axi_rlast(dec_rlast),
    .s_axi_rvalid(dec_rvalid),
    .s_axi_rready(int_rready[M_COUNT])
);

// the slaves' responses, the default slave's last (one concatenation each, see above)
assign int_bid = {dec_bid, m_axi_bid};
assign int_bresp = {2'b11, m_axi_bresp};
assign int_bvalid = {dec_bvalid, m_axi_bvalid};
assign int_rid = {dec_rid, m_axi_rid};
assign int_rdata = {{DATA_WIDTH{1'b0}}, m_axi_rdata};
assign int_rresp = {2'b11, m_axi_rresp};
assign int_rlast = {dec_rlast, m_axi_rlast};
assign int_rvalid = {dec_rvalid, m_axi_rvalid};

integer bj;
always @* begin
    for (bj = 0; bj < MI; bj = bj + 1) begin
        int_b_mst[bj*SW +: SW] = {SW{1'b0}};
        int_r_mst[bj*SW +: SW] = {SW{1'b0}};
        if (S_COUNT > 1) begin
            int_b_mst[bj*SW +: SW] = int_bid[bj*M_ID_WIDTH+S_ID_WIDTH +: SW];
            int_r_mst[bj*SW +: SW] = int_rid[bj*M_ID_WIDTH+S_ID_WIDTH +: SW];
        end
        int_b_bun[bj*BBW +: BBW] = {int_b_mst[bj*SW +: SW], int_bresp[bj*2 +: 2],
            int_bid[bj*M_ID_WIDTH +: S_ID_WIDTH], int_bvalid[bj]};
        int_r_bun[bj*RBW +: RBW] = {int_r_mst[bj*SW +: SW], int_rlast[bj], int_rresp[bj*2 +: 2],
            int_rdata[bj*DATA_WIDTH +: DATA_WIDTH], int_rid[bj*M_ID_WIDTH +: S_ID_WIDTH], int_rvalid[bj]};
    end
end

/*
 * Master side response outputs
 */
wire [S_COUNT*BP-1:0] out_b_pay;
wire [S_COUNT-1:0]    out_bvalid;
wire [S_COUNT*RP-1:0] out_r_pay;
wire [S_COUNT-1:0]    out_rvalid;

reg [S_COUNT*S_ID_WIDTH-1:0] so_bid;
reg [S_COUNT*2-1:0]          so_bresp;
reg [S_COUNT*S_ID_WIDTH-1:0] so_rid;
reg [S_COUNT*DATA_WIDTH-1:0] so_rdata;
reg [S_COUNT*2-1:0]          so_rresp;
reg [S_COUNT-1:0]            so_rlast;

integer ob;
always @* begin
    for (ob = 0; ob < S_COUNT; ob = ob + 1) begin
        so_bid[ob*S_ID_WIDTH +: S_ID_WIDTH] = out_b_pay[ob*BP+B_ID +: S_ID_WIDTH];
        so_bresp[ob*2 +: 2] = out_b_pay[ob*BP+B_RESP +: 2];
    end
end

integer orr;
always @* begin
    for (orr = 0; orr < S_COUNT; orr = orr + 1) begin
        so_rid[orr*S_ID_WIDTH +: S_ID_WIDTH] = out_r_pay[orr*RP+R_ID +: S_ID_WIDTH];
        so_rdata[orr*DATA_WIDTH +: DATA_WIDTH] = out_r_pay[orr*RP+R_DATA +: DATA_WIDTH];
        so_rresp[orr*2 +: 2] = out_r_pay[orr*RP+R_RESP +: 2];
        so_rlast[orr] = out_r_pay[orr*RP+R_LAST];
    end
end

assign s_axi_bid = so_bid;
assign s_axi_bresp = so_bresp;
assign s_axi_bvalid = out_bvalid;
assign s_axi_rid = so_rid;
assign s_axi_rdata = so_rdata;
assign s_axi_rresp = so_rresp;
assign s_axi_rlast = so_rlast;
assign s_axi_rvalid = out_rvalid;

/*
 * The ordering rule of every master, both directions, for either datapath: a master issues to
 * one slave per direction at a time, MAX_OUTSTANDING per master and direction
 */
wire [S_COUNT-1:0]    wr_ok;
wire [S_COUNT-1:0]    rd_ok;
// (the outstanding transactions' slaves: read by the crossbar only)
/* verilator lint_off UNUSED */
wire [S_COUNT-1:0]    wr_busy;
wire [S_COUNT*MW-1:0] wr_dst;
wire [S_COUNT-1:0]    rd_busy;
wire [S_COUNT*MW-1:0] rd_dst;
/* verilator lint_on UNUSED */

pp_axi_ic_ordering #(
    .S_COUNT(S_COUNT),
    .MAX_OUTSTANDING(MAX_OUTSTANDING),
    .MW(MW),
    .RP(RP)
)
ordering_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready),
    .s_axi_bvalid(out_bvalid),
    .s_axi_bready(s_axi_bready),
    .s_axi_arvalid(s_axi_arvalid),
    .s_axi_arready(s_axi_arready),
    .s_axi_rvalid(out_rvalid),
    .s_axi_rready(s_axi_rready),
    .out_r_pay(out_r_pay),
    .aw_sel(aw_sel),
    .ar_sel(ar_sel),
    .wr_ok(wr_ok),
    .wr_busy(wr_busy),
    .wr_dst(wr_dst),
    .rd_ok(rd_ok),
    .rd_busy(rd_busy),
    .rd_dst(rd_dst)
);

/*
 * The datapath: crossbar or shared bus, with the same ports (the shared bus reads only the
 * ordering rule's wr_ok and rd_ok)
 */
generate
if (TOPOLOGY == 0) begin : xbar
    pp_axi_ic_xbar #(
        .S_COUNT(S_COUNT),
        .M_COUNT(M_COUNT),
        .S_ID_WIDTH(S_ID_WIDTH),
        .M_ID_WIDTH(M_ID_WIDTH),
        .ARBITRATION(ARBITRATION),
        .ARB_QUANTUM(ARB_QUANTUM),
        .MAX_OUTSTANDING(MAX_OUTSTANDING),
        .ARB_READ_AHEAD(ARB_READ_AHEAD),
        .SKID_BUFFERS(SKID_BUFFERS),
        .MI(MI),
        .MW(MW),
        .SW(SW),
        .AXP(AXP),
        .WP(WP),
        .BP(BP),
        .RP(RP),
        .BBW(BBW),
        .RBW(RBW),
        .ADDR_WIDTH(ADDR_WIDTH),
        .M_BASE_ADDR(M_BASE_ADDR),
        .M_ADDR_WIDTH(M_ADDR_WIDTH),
        .READ_TOPOLOGY(READ_TOPOLOGY),
        .M_CONNECT(M_CONNECT)
    )
    xbar_inst (
        .clk(clk),
        .rst(rst),
        .s_axi_awvalid(s_axi_awvalid),
        .s_axi_awready(s_axi_awready),
        .s_axi_wvalid(s_axi_wvalid),
        .s_axi_wlast(s_axi_wlast),
        .s_axi_wready(s_axi_wready),
        .s_axi_bready(s_axi_bready),
        .s_axi_arvalid(s_axi_arvalid),
        .s_axi_arready(s_axi_arready),
        .s_axi_rready(s_axi_rready),
        .aw_sel(aw_sel),
        .ar_sel(ar_sel),
        .aw_pay(aw_pay),
        .ar_pay(ar_pay),
        .aw_beats(aw_beats),
        .ar_beats(ar_beats),
        .w_pay_v(w_pay_v),
        .out_b_pay(out_b_pay),
        .out_bvalid(out_bvalid),
        .out_r_pay(out_r_pay),
        .out_rvalid(out_rvalid),
        .wr_ok(wr_ok),
        .wr_busy(wr_busy),
        .wr_dst(wr_dst),
        .rd_ok(rd_ok),
        .rd_busy(rd_busy),
        .rd_dst(rd_dst),
        .int_aw_pay(int_aw_pay),
        .int_awvalid(int_awvalid),
        .int_awready(int_awready),
        .int_w_pay(int_w_pay),
        .int_wvalid(int_wvalid),
        .int_wready(int_wready),
        .int_bvalid(int_bvalid),
        .int_bready(int_bready),
        .int_ar_pay(int_ar_pay),
        .int_arvalid(int_arvalid),
        .int_arready(int_arready),
        .int_rvalid(int_rvalid),
        .int_rready(int_rready),
        .int_b_mst(int_b_mst),
        .int_r_mst(int_r_mst),
        .int_b_bun(int_b_bun),
        .int_r_bun(int_r_bun)
    );
end else begin : shared
    pp_axi_ic_shared #(
        .S_COUNT(S_COUNT),
        .M_COUNT(M_COUNT),
        .S_ID_WIDTH(S_ID_WIDTH),
        .M_ID_WIDTH(M_ID_WIDTH),
        .ARBITRATION(ARBITRATION),
        .ARB_QUANTUM(ARB_QUANTUM),
        .MAX_OUTSTANDING(MAX_OUTSTANDING),
        .ARB_READ_AHEAD(ARB_READ_AHEAD),
        .SKID_BUFFERS(SKID_BUFFERS),
        .MI(MI),
        .MW(MW),
        .SW(SW),
        .AXP(AXP),
        .WP(WP),
        .BP(BP),
        .RP(RP),
        .BBW(BBW),
        .RBW(RBW)
    )
    shared_inst (
        .clk(clk),
        .rst(rst),
        .s_axi_awvalid(s_axi_awvalid),
        .s_axi_awready(s_axi_awready),
        .s_axi_wvalid(s_axi_wvalid),
        .s_axi_wlast(s_axi_wlast),
        .s_axi_wready(s_axi_wready),
        .s_axi_bready(s_axi_bready),
        .s_axi_arvalid(s_axi_arvalid),
        .s_axi_arready(s_axi_arready),
        .s_axi_rready(s_axi_rready),
        .aw_sel(aw_sel),
        .ar_sel(ar_sel),
        .aw_pay(aw_pay),
        .ar_pay(ar_pay),
        .aw_beats(aw_beats),
        .ar_beats(ar_beats),
        .w_pay_v(w_pay_v),
        .out_b_pay(out_b_pay),
        .out_bvalid(out_bvalid),
        .out_r_pay(out_r_pay),
        .out_rvalid(out_rvalid),
        .wr_ok(wr_ok),
        .rd_ok(rd_ok),
        .int_aw_pay(int_aw_pay),
        .int_awvalid(int_awvalid),
        .int_awready(int_awready),
        .int_w_pay(int_w_pay),
        .int_wvalid(int_wvalid),
        .int_wready(int_wready),
        .int_bvalid(int_bvalid),
        .int_bready(int_bready),
        .int_ar_pay(int_ar_pay),
        .int_arvalid(int_arvalid),
        .int_arready(int_arready),
        .int_rvalid(int_rvalid),
        .int_rready(int_rready),
        .int_b_mst(int_b_mst),
        .int_r_mst(int_r_mst),
        .int_b_bun(int_b_bun),
        .int_r_bun(int_r_bun)
    );
end
endgenerate

endmodule

`default_nettype wire
