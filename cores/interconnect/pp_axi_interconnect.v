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
// width of a slave's count of outstanding read beats (crossbar, ARBITRATION = 1)
localparam OBW = 10 + $clog2(S_COUNT * (MAX_OUTSTANDING + 2) + 1);
// width of a master index
localparam SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1;
// ID extension bits
localparam XW = $clog2(S_COUNT);
localparam [MW-1:0] DEC_SEL = M_COUNT[MW-1:0];
localparam CW = $clog2(MAX_OUTSTANDING+1);
localparam [CW-1:0] CNT_MAX = MAX_OUTSTANDING;

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
// an address payload without the ID's master bits
localparam [AXP-1:0] AX_NO_MST = {AXP{1'b1}} ^ ({{(AXP-M_ID_WIDTH){1'b0}}, {M_ID_WIDTH{1'b1}}} ^
                                                {{(AXP-S_ID_WIDTH){1'b0}}, {S_ID_WIDTH{1'b1}}});
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

genvar i, j, k;

/*
 * Address decoding and payloads per master
 */
function [ADDR_WIDTH-1:0] win_mask(input integer n);
    win_mask = {ADDR_WIDTH{1'b1}} << M_ADDR_WIDTH[n*32 +: 32];
endfunction

// connectivity including the default slave (row M_COUNT: every master), [slave*S_COUNT + master]
localparam [MI*S_COUNT-1:0] CONN = {{S_COUNT{1'b1}}, M_CONNECT[M_COUNT*S_COUNT-1:0]};

// every master connected to every slave (the full crossbar; read by the synthesis text)
/* verilator lint_off UNUSED */
localparam FULL_CONN = M_CONNECT[M_COUNT*S_COUNT-1:0] == {(M_COUNT*S_COUNT){1'b1}};
/* verilator lint_on UNUSED */

// the slaves master m is connected to (bit j; the default slave is not in this mask)
function [M_COUNT-1:0] conn_row(input integer m);
    integer n;
    begin
        for (n = 0; n < M_COUNT; n = n + 1) begin
            conn_row[n] = CONN[n*S_COUNT+m];
        end
    end
endfunction

// number of masters connected to slave n (n = M_COUNT: the default slave, all)
function integer n_mst(input integer n);
    integer m;
    begin
        n_mst = 0;
        for (m = 0; m < S_COUNT; m = m + 1) begin
            n_mst = n_mst + (CONN[n*S_COUNT+m] ? 1 : 0);
        end
    end
endfunction

// the p-th master connected to slave n
function integer mst_at(input integer n, input integer p);
    integer m, c;
    begin
        mst_at = 0;
        c = 0;
        for (m = 0; m < S_COUNT; m = m + 1) begin
            if (CONN[n*S_COUNT+m]) begin
                if (c == p) begin
                    mst_at = m;
                end
                c = c + 1;
            end
        end
    end
endfunction

// number of slaves connected to master m, the default slave included
function integer n_slv(input integer m);
    integer n;
    begin
        n_slv = 0;
        for (n = 0; n < MI; n = n + 1) begin
            n_slv = n_slv + (CONN[n*S_COUNT+m] ? 1 : 0);
        end
    end
endfunction

// the masters connected to slave n, in order, SW bits each (the compact index's master)
function [S_COUNT*SW-1:0] mst_map(input integer n);
    integer m, c;
    begin
        mst_map = {(S_COUNT*SW){1'b0}};
        c = 0;
        for (m = 0; m < S_COUNT; m = m + 1) begin
            if (CONN[n*S_COUNT+m]) begin
                mst_map[c*SW +: SW] = m[SW-1:0];
                c = c + 1;
            end
        end
    end
endfunction

// the slaves connected to master m, in order (the default slave last), MW bits each
function [MI*MW-1:0] slv_map(input integer m);
    integer n, c;
    begin
        slv_map = {(MI*MW){1'b0}};
        c = 0;
        for (n = 0; n < MI; n = n + 1) begin
            if (CONN[n*S_COUNT+m]) begin
                slv_map[c*MW +: MW] = n[MW-1:0];
                c = c + 1;
            end
        end
    end
endfunction

// the compact index of each slave in master m's list, MW bits each (0 where not connected)
function [MI*MW-1:0] slv_pos(input integer m);
    integer n, c;
    begin
        slv_pos = {(MI*MW){1'b0}};
        c = 0;
        for (n = 0; n < MI; n = n + 1) begin
            if (CONN[n*S_COUNT+m]) begin
                slv_pos[n*MW +: MW] = c[MW-1:0];
                c = c + 1;
            end
        end
    end
endfunction

// width of an index over n items
function integer idx_w(input integer n);
    idx_w = (n > 1) ? $clog2(n) : 1;
endfunction

// address payload bits a slave's register carries (crossbar): the address bits inside the
// slave's window and everything else but the ID's master bits; for the default slave
// (n = M_COUNT) no address bits
function [AXP-1:0] ax_keep(input integer n);
    begin
        ax_keep = AX_NO_MST;
        if (n < M_COUNT) begin
            ax_keep[AX_ADDR +: ADDR_WIDTH] = ~win_mask(n);
        end else begin
            ax_keep[AX_ADDR +: ADDR_WIDTH] = {ADDR_WIDTH{1'b0}};
        end
    end
endfunction

// the constant bits a slave's address payload gets back after its register: the window's
// base above the window's size (the address decoded to this window has exactly those)
function [AXP-1:0] ax_fill(input integer n);
    begin
        ax_fill = {AXP{1'b0}};
        if (n < M_COUNT) begin
            ax_fill[AX_ADDR +: ADDR_WIDTH] = M_BASE_ADDR[n*ADDR_WIDTH +: ADDR_WIDTH] & win_mask(n);
        end
    end
endfunction

// the ID's master bits of an address payload, from the grant index (not multiplexed)
function [AXP-1:0] ax_mst(input [SW-1:0] m);
    begin
        ax_mst = {AXP{1'b0}};
        if (S_COUNT > 1) begin
            ax_mst = {{(AXP-SW){1'b0}}, m} << (AX_ID + S_ID_WIDTH);
        end
    end
endfunction

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

// the decoded slave of each master's AW and AR address: per master and channel a function
// of that address alone (re-evaluated only when it changes), the windows as constants
function [M_COUNT*ADDR_WIDTH-1:0] win_masks(input integer unused);
    integer n;
    begin
        win_masks = {(M_COUNT*ADDR_WIDTH){1'b0}};
        for (n = 0; n < M_COUNT; n = n + 1) begin
            win_masks[n*ADDR_WIDTH +: ADDR_WIDTH] = win_mask(n);
        end
    end
endfunction

localparam [M_COUNT*ADDR_WIDTH-1:0] WIN_MASK = win_masks(0);
localparam [M_COUNT*ADDR_WIDTH-1:0] WIN_BASE = M_BASE_ADDR & WIN_MASK;

// (only the windows of the slaves the master is connected to, conn: the default slave for
// the others)
function [MW-1:0] decode(input [ADDR_WIDTH-1:0] addr, input [M_COUNT-1:0] conn);
    integer n;
    begin
        decode = DEC_SEL;
        for (n = M_COUNT-1; n >= 0; n = n - 1) begin
            if (conn[n] && (addr & WIN_MASK[n*ADDR_WIDTH +: ADDR_WIDTH]) == WIN_BASE[n*ADDR_WIDTH +: ADDR_WIDTH]) begin
                decode = n[MW-1:0];
            end
        end
    end
endfunction

generate
for (i = 0; i < S_COUNT; i = i + 1) begin : dec
    localparam [M_COUNT-1:0] ROW = conn_row(i);
    wire [ADDR_WIDTH-1:0] awaddr = s_axi_awaddr[i*ADDR_WIDTH +: ADDR_WIDTH];
    wire [ADDR_WIDTH-1:0] araddr = s_axi_araddr[i*ADDR_WIDTH +: ADDR_WIDTH];
    assign aw_sel_w[i*MW +: MW] = decode(awaddr, ROW);
    assign ar_sel_w[i*MW +: MW] = decode(araddr, ROW);
end
endgenerate

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
reg  [MI-1:0]            int_bready;
wire [MI*AXP-1:0]        int_ar_pay;
wire [MI-1:0]            int_arvalid;
wire [MI-1:0]            int_arready;
wire [MI*M_ID_WIDTH-1:0] int_rid;
wire [MI*DATA_WIDTH-1:0] int_rdata;
wire [MI*2-1:0]          int_rresp;
wire [MI-1:0]            int_rlast;
wire [MI-1:0]            int_rvalid;
reg  [MI-1:0]            int_rready;
// master index carried in the upper ID bits of each slave's responses
reg  [MI*SW-1:0]         int_b_mst;
reg  [MI*SW-1:0]         int_r_mst;
/* verilator lint_on UNUSED */

// response bundles per slave, for the response multiplexers:
// B: {master index, bresp, bid (lower S_ID_WIDTH bits), bvalid}
localparam BB_VALID = 0;
localparam BB_ID    = 1;
localparam BB_RESP  = BB_ID + S_ID_WIDTH;
localparam BB_MST   = BB_RESP + 2;
localparam BBW      = BB_MST + SW;
// R: {master index, rlast, rresp, rdata, rid (lower bits), rvalid}
localparam RB_VALID = 0;
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

generate
if (TOPOLOGY == 0) begin : xbar

    /*
     * Crossbar
     */
    // per master state
    wire [S_COUNT*CW-1:0] wr_cnt;
    wire [S_COUNT*MW-1:0] wr_dst;
    wire [S_COUNT*CW-1:0] rd_cnt;
    wire [S_COUNT*MW-1:0] rd_dst;
    // a master's AW granted, its WLAST not yet taken (its next AW waits)
    wire [S_COUNT-1:0]    w_pend;
    // per master the slave it writes to, one-hot [master*MI + slave]
    wire [S_COUNT*MI-1:0] wr_dst_oh;
    // per master: a write response may be taken (its B register is ready, writes outstanding)
    wire [S_COUNT-1:0]    b_ok;
    // the same as variables, for the S x M readers below (see "Simulation speed" above)
    reg  [S_COUNT*MI-1:0] wr_dst_oh_q;
    reg  [S_COUNT-1:0]    b_ok_q;
    always @* begin
        wr_dst_oh_q = wr_dst_oh;
        b_ok_q = b_ok;
    end
    // one-hot decode of aw_sel, [master*MI + slave]
    reg  [S_COUNT*MI-1:0] aw_sel_oh;
    reg  [S_COUNT-1:0]    aw_ok;
    reg  [S_COUNT-1:0]    ar_ok;
    reg  [S_COUNT-1:0]    awready;
    reg  [S_COUNT-1:0]    wready;
    // per slave state and requests, transposed: [slave*S_COUNT + master] (the bits of the
    // pairs M_CONNECT does not connect are not read)
    /* verilator lint_off UNUSED */
    reg  [MI*S_COUNT-1:0] aw_req;
    /* verilator lint_on UNUSED */
    wire [MI*S_COUNT-1:0] aw_grant;
    wire [MI-1:0]         aw_in_ready;
    wire [MI-1:0]         w_in_ready;
    wire [MI-1:0]         w_busy;
    wire [MI-1:0]         w_src_valid;
    wire [MI*SW-1:0]      w_src;
    wire [S_COUNT-1:0]    b_in_ready;

`ifdef SYNTHESIS
    // (the same functions as the simulation description below, as synthesis has always
    // read them: Yosys maps this text to fewer LUTs, 18.4k against 20.9k at 16x16)
    integer xi, xj;
    always @* begin
        for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
            aw_ok[xi] = !w_pend[xi] && (wr_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                (wr_dst[xi*MW +: MW] == aw_sel[xi*MW +: MW] && wr_cnt[xi*CW +: CW] != CNT_MAX));
            ar_ok[xi] = rd_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                (rd_dst[xi*MW +: MW] == ar_sel[xi*MW +: MW] && rd_cnt[xi*CW +: CW] != CNT_MAX);
            for (xj = 0; xj < MI; xj = xj + 1) begin
                aw_sel_oh[xi*MI+xj] = aw_sel[xi*MW +: MW] == xj[MW-1:0];
                aw_req[xj*S_COUNT+xi] = s_axi_awvalid[xi] && aw_ok[xi] && aw_sel_oh[xi*MI+xj];
            end
        end
    end

    // (the unconnected pairs' terms of aw_sel_oh and aw_req are not read, and go; a WREADY
    // term compares a slave's W source with the master's index: left out for the pairs
    // M_CONNECT does not connect, a text of its own so the full crossbar's stays as it was:
    // Yosys and ABC map even a constant-folded change of form differently)
    integer ri, rj;
    if (FULL_CONN) begin : rdy_full
        always @* begin
            for (ri = 0; ri < S_COUNT; ri = ri + 1) begin
                awready[ri] = 1'b0;
                wready[ri] = 1'b0;
                for (rj = 0; rj < MI; rj = rj + 1) begin
                    if (aw_grant[rj*S_COUNT+ri] && !w_busy[rj] && aw_in_ready[rj]) begin
                        awready[ri] = 1'b1;
                    end
                    if (w_src_valid[rj] && w_src[rj*SW +: SW] == ri[SW-1:0] && w_in_ready[rj]) begin
                        wready[ri] = 1'b1;
                    end
                end
            end
        end
    end else begin : rdy_part
        always @* begin
            for (ri = 0; ri < S_COUNT; ri = ri + 1) begin
                awready[ri] = 1'b0;
                wready[ri] = 1'b0;
                for (rj = 0; rj < MI; rj = rj + 1) begin
                    if (aw_grant[rj*S_COUNT+ri] && !w_busy[rj] && aw_in_ready[rj]) begin
                        awready[ri] = 1'b1;
                    end
                    if (CONN[rj*S_COUNT+ri] && w_src_valid[rj] && w_src[rj*SW +: SW] == ri[SW-1:0] &&
                            w_in_ready[rj]) begin
                        wready[ri] = 1'b1;
                    end
                end
            end
        end
    end

`else
    // (simulation: the same functions written for Icarus, see "Simulation speed" in the
    // README: no always block loops over S x M bits, no ready glitches through 0)
    localparam [MI-1:0]      ONE_MI = 1;
    localparam [S_COUNT-1:0] ONE_S = 1;

    integer xi;
    always @* begin
        for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
            aw_ok[xi] = !w_pend[xi] && (wr_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                (wr_dst[xi*MW +: MW] == aw_sel[xi*MW +: MW] && wr_cnt[xi*CW +: CW] != CNT_MAX));
            ar_ok[xi] = rd_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                (rd_dst[xi*MW +: MW] == ar_sel[xi*MW +: MW] && rd_cnt[xi*CW +: CW] != CNT_MAX);
            aw_sel_oh[xi*MI +: MI] = ONE_MI << aw_sel[xi*MW +: MW];
        end
    end

    // the requests transposed to [slave*S_COUNT + master], bit by bit as assignments (each
    // evaluated only when its master's inputs change), then passed on as a variable (one
    // always block looping over S x M bits would run whole on every change of any input)
    wire [MI*S_COUNT-1:0] aw_req_w;
    for (i = 0; i < S_COUNT; i = i + 1) begin : req_t
        wire [MI-1:0] req = {MI{s_axi_awvalid[i] && aw_ok[i]}} & aw_sel_oh[i*MI +: MI];
        for (j = 0; j < MI; j = j + 1) begin : s
            assign aw_req_w[j*S_COUNT+i] = req[j];
        end
    end

    always @* begin
        aw_req = aw_req_w;
    end

    // a master's AWREADY: its grant at a slave whose register takes it; its WREADY: the
    // slave whose W path it owns takes the beat (OR over the slaves, a vector per slave,
    // each computed once: no ready glitches through 0)
    integer rj;
    reg [S_COUNT-1:0] awready_acc;
    reg [S_COUNT-1:0] wready_acc;
    always @* begin
        awready_acc = {S_COUNT{1'b0}};
        wready_acc = {S_COUNT{1'b0}};
        for (rj = 0; rj < MI; rj = rj + 1) begin
            if (!w_busy[rj] && aw_in_ready[rj]) begin
                awready_acc = awready_acc | aw_grant[rj*S_COUNT +: S_COUNT];
            end
            if (w_src_valid[rj] && w_in_ready[rj]) begin
                wready_acc = wready_acc | (ONE_S << w_src[rj*SW +: SW]);
            end
        end
        awready = awready_acc;
        wready = wready_acc;
    end

`endif

    assign s_axi_awready = awready;
    assign s_axi_wready = wready;

    // a slave's B is taken when the master named by its ID writes to this slave and can
    // take a response: per slave a 1-bit multiplexer over the masters, selected by the ID
    for (j = 0; j < MI; j = j + 1) begin : b_rdy
        wire [S_COUNT-1:0] col;
        wire               pick;
        for (i = 0; i < S_COUNT; i = i + 1) begin : m
            if (CONN[j*S_COUNT+i]) begin : c
                assign col[i] = b_ok_q[i] && wr_dst_oh_q[i*MI+j];
            end else begin : u
                assign col[i] = 1'b0;
            end
        end
        pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(1), .SEL_WIDTH(SW))
        b_rdy_mux_inst (.in(col), .sel(int_b_mst[j*SW +: SW]), .out(pick));
        // (only with BVALID: the ID is undefined without it; an ID naming no master is
        // never taken)
        if (S_COUNT > 1 && S_COUNT < (1 << SW)) begin : range
            localparam integer LAST_I = S_COUNT - 1;
            localparam [SW-1:0] LAST = LAST_I[SW-1:0];
            always @* begin
                int_bready[j] = int_bvalid[j] && pick && int_b_mst[j*SW +: SW] <= LAST;
            end
        end else begin : all
            always @* begin
                int_bready[j] = int_bvalid[j] && pick;
            end
        end
    end

    for (j = 0; j < MI; j = j + 1) begin : slv

        // address bits the slave's register carries: those inside the slave's window (the
        // ones above are the window's base: the address decoded to it) and not the ID's
        // master bits (the grant index); none for the default slave
        localparam [AXP-1:0] KEEP = ax_keep(j);
        localparam [AXP-1:0] FILL = ax_fill(j);
        // the masters connected to this slave (M_CONNECT): the arbiter and the multiplexers
        // are built over those only, indexed 0..NM-1 (compact index)
        localparam integer NM = n_mst(j);
        localparam integer CSW = idx_w(NM);

        // write data lock: the W path belongs to the granted master from AW grant to WLAST
        reg           w_busy_reg;
        initial w_busy_reg = 1'b0;
        reg  [SW-1:0] w_owner_reg;
        initial w_owner_reg = {SW{1'b0}};

        // write address: aw_idx the granted master
        wire [SW-1:0]  aw_idx;
        wire           aw_gv;
        wire           aw_in_valid = aw_gv && !w_busy_reg;
        wire           aw_fire = aw_in_valid && aw_in_ready[j];
        wire [AXP-1:0] aw_in;
        wire [AXP-1:0] aw_out;
        // the W multiplexer's output (the selected master's W beat, wvalid on top)
        wire [WP:0]    w_in;
        // the W path's master: the owner while busy, else the master granted now
        wire [SW-1:0]  w_sel = w_busy_reg ? w_owner_reg : aw_idx;
        wire           w_sel_valid = w_busy_reg || aw_fire;

        // the arbiter and the multiplexers over the connected masters, compacted (NA
        // ports, compact index aw_cidx, the W path's owner w_cidx); all connected: the
        // masters' own vectors and indices
        localparam integer NA = (NM > 0) ? NM : 1;
        localparam integer CA = (NM == S_COUNT) ? SW : CSW;
        wire [NA-1:0]        c_req;
        wire [NA-1:0]        c_grant;
        wire [NA*AXP-1:0]    c_pay;
        wire [NA*9-1:0]      c_beats;
        wire [NA*(WP+1)-1:0] c_w;
        wire [CA-1:0]        aw_cidx;
        wire [CA-1:0]        w_cidx;
        wire                 c_gv;

        if (NM == S_COUNT) begin : full
            assign c_req = aw_req[j*S_COUNT +: S_COUNT];
            assign aw_grant[j*S_COUNT +: S_COUNT] = c_grant;
            assign c_pay = aw_pay;
            assign c_beats = aw_beats;
            assign c_w = w_pay_v;
            assign aw_idx = aw_cidx;
            assign w_cidx = w_sel;
            assign aw_gv = c_gv;
        end else if (NM > 0) begin : part
            localparam [S_COUNT*SW-1:0] C_MAP = mst_map(j);
            reg  [SW-1:0]  c_idx;
            reg  [CA-1:0]  w_owner_c_reg;
            initial w_owner_c_reg = {CA{1'b0}};

            for (i = 0; i < S_COUNT; i = i + 1) begin : g
                if (!CONN[j*S_COUNT+i]) begin : u
                    assign aw_grant[j*S_COUNT+i] = 1'b0;
                end
            end
            for (k = 0; k < NM; k = k + 1) begin : c
                localparam integer M = mst_at(j, k);
                assign c_req[k] = aw_req[j*S_COUNT+M];
                assign aw_grant[j*S_COUNT+M] = c_grant[k];
                assign c_pay[k*AXP +: AXP] = aw_pay[M*AXP +: AXP];
                assign c_beats[k*9 +: 9] = aw_beats[M*9 +: 9];
                assign c_w[k*(WP+1) +: WP+1] = w_pay_v[M*(WP+1) +: WP+1];
            end
            // the granted master's index from the one-hot grant
            integer ck;
            always @* begin
                c_idx = {SW{1'b0}};
                for (ck = 0; ck < NM; ck = ck + 1) begin
                    if (c_grant[ck]) begin
                        c_idx = C_MAP[ck*SW +: SW];
                    end
                end
            end
            always @(posedge clk) begin
                if (aw_fire) begin
                    w_owner_c_reg <= aw_cidx;
                end
            end
            assign aw_idx = c_idx;
            assign w_cidx = w_busy_reg ? w_owner_c_reg : aw_cidx;
            assign aw_gv = c_gv;
        end else begin : none
            // no master is connected to this slave: it is never addressed (the arbiter's
            // one port never requests)
            assign c_req = 1'b0;
            assign aw_grant[j*S_COUNT +: S_COUNT] = {S_COUNT{1'b0}};
            assign c_pay = {AXP{1'b0}};
            assign c_beats = 9'd0;
            assign c_w = {(WP+1){1'b0}};
            assign aw_idx = {SW{1'b0}};
            assign w_cidx = aw_cidx;
            assign aw_gv = 1'b0;
            /* verilator lint_off UNUSED */
            wire unused_gv = c_gv ^ c_grant[0];
            /* verilator lint_on UNUSED */
        end

        pp_axi_ic_mux #(.N(NA), .WIDTH(AXP), .SEL_WIDTH(CA))
        aw_mux_inst (.in(c_pay), .sel(aw_cidx), .out(aw_in));

        pp_arbiter #(
            .PORTS(NA),
            .ARBITRATION(ARBITRATION),
            .INDEX_WIDTH(CA),
            .BEATS_WIDTH(9),
            .QUANTUM(ARB_QUANTUM)
        )
        aw_arb_inst (
            .clk(clk),
            .rst(rst),
            .req(c_req),
            .grant(c_grant),
            .grant_valid(c_gv),
            .grant_index(aw_cidx),
            .req_beats(c_beats),
            .accept(aw_fire)
        );

        pp_axi_ic_mux #(.N(NA), .WIDTH(WP+1), .SEL_WIDTH(CA))
        w_mux_inst (.in(c_w), .sel(w_cidx), .out(w_in));

        pp_axi_ic_reg #(
            .SKID(SKID_BUFFERS),
            .WIDTH(AXP)
        )
        aw_reg_inst (
            .clk(clk),
            .rst(rst),
            .s_data((aw_in & KEEP) | ax_mst(aw_idx)),
            .s_valid(aw_in_valid),
            .s_ready(aw_in_ready[j]),
            .m_data(aw_out),
            .m_valid(int_awvalid[j]),
            .m_ready(int_awready[j])
        );

        assign int_aw_pay[j*AXP +: AXP] = aw_out | FILL;

        // write data
        wire          w_in_valid = w_sel_valid && w_in[WP];
        wire          w_in_last = w_in[W_LAST];

        assign w_busy[j] = w_busy_reg;
        assign w_src_valid[j] = w_sel_valid;
        assign w_src[j*SW +: SW] = w_sel;

        always @(posedge clk) begin
            if (aw_fire) begin
                w_owner_reg <= aw_idx;
            end
            w_busy_reg <= (w_busy_reg || aw_fire) && !(w_in_valid && w_in_ready[j] && w_in_last);
            if (rst) begin
                w_busy_reg <= 1'b0;
            end
        end

        pp_axi_ic_reg #(
            .SKID(SKID_BUFFERS),
            .WIDTH(WP)
        )
        w_reg_inst (
            .clk(clk),
            .rst(rst),
            .s_data(w_in[WP-1:0]),
            .s_valid(w_in_valid),
            .s_ready(w_in_ready[j]),
            .m_data(int_w_pay[j*WP +: WP]),
            .m_valid(int_wvalid[j]),
            .m_ready(int_wready[j])
        );
    end

    for (i = 0; i < S_COUNT; i = i + 1) begin : mst
        localparam [SW-1:0] IDX = i;

        reg [CW-1:0] wr_cnt_reg;
        initial wr_cnt_reg = {CW{1'b0}};
        reg [MW-1:0] wr_dst_reg;
        initial wr_dst_reg = {MW{1'b0}};
        reg [CW-1:0] rd_cnt_reg;
        initial rd_cnt_reg = {CW{1'b0}};
        reg [MW-1:0] rd_dst_reg;
        initial rd_dst_reg = {MW{1'b0}};
        reg [MI-1:0] wr_dst_oh_reg;
        initial wr_dst_oh_reg = {MI{1'b0}};
        reg          w_pend_reg;
        initial w_pend_reg = 1'b0;

        assign wr_cnt[i*CW +: CW] = wr_cnt_reg;
        assign wr_dst[i*MW +: MW] = wr_dst_reg;
        assign rd_cnt[i*CW +: CW] = rd_cnt_reg;
        assign rd_dst[i*MW +: MW] = rd_dst_reg;
        assign wr_dst_oh[i*MI +: MI] = wr_dst_oh_reg;
        assign w_pend[i] = w_pend_reg;
        assign b_ok[i] = b_in_ready[i] && wr_cnt_reg != {CW{1'b0}};

        wire aw_fire = s_axi_awvalid[i] && s_axi_awready[i];
        wire w_last_fire = s_axi_wvalid[i] && s_axi_wready[i] && s_axi_wlast[i];
        wire b_fire = s_axi_bvalid[i] && s_axi_bready[i];
        wire ar_fire = s_axi_arvalid[i] && s_axi_arready[i];
        wire r_fire = s_axi_rvalid[i] && s_axi_rready[i] && s_axi_rlast[i];

        always @(posedge clk) begin
            w_pend_reg <= (w_pend_reg || aw_fire) && !w_last_fire;
            if (aw_fire) begin
                wr_dst_reg <= aw_sel[i*MW +: MW];
                wr_dst_oh_reg <= aw_sel_oh[i*MI +: MI];
            end
            if (aw_fire && !b_fire) begin
                wr_cnt_reg <= wr_cnt_reg + 1'b1;
            end else if (!aw_fire && b_fire) begin
                wr_cnt_reg <= wr_cnt_reg - 1'b1;
            end
            if (ar_fire) begin
                rd_dst_reg <= ar_sel[i*MW +: MW];
            end
            if (ar_fire && !r_fire) begin
                rd_cnt_reg <= rd_cnt_reg + 1'b1;
            end else if (!ar_fire && r_fire) begin
                rd_cnt_reg <= rd_cnt_reg - 1'b1;
            end
            if (rst) begin
                wr_cnt_reg <= {CW{1'b0}};
                rd_cnt_reg <= {CW{1'b0}};
                w_pend_reg <= 1'b0;
            end
        end

        // write response from the slave this master writes to
        wire [BBW-1:0] b_in;
        wire b_in_valid = b_in[BB_VALID] && b_in[BB_MST +: SW] == IDX && wr_cnt_reg != {CW{1'b0}};

        // the slaves connected to this master (M_CONNECT; the default slave last): the B
        // multiplexer is built over those only, selected by the destination's compact index
        // (all connected: the slaves' own vector and index)
        localparam integer NS = n_slv(i);
        localparam integer CB = (NS == MI) ? MW : idx_w(NS);
        wire [NS*BBW-1:0] b_cand;
        wire [CB-1:0]     b_sel;
        if (NS == MI) begin : b_full
            assign b_cand = int_b_bun;
            assign b_sel = wr_dst_reg;
        end else begin : b_part
            localparam [MI*MW-1:0] S_MAP = slv_map(i);
            localparam [MI*MW-1:0] S_POS = slv_pos(i);
            reg  [CB-1:0]     wr_dst_c_reg;
            initial wr_dst_c_reg = {CB{1'b0}};
            /* verilator lint_off UNUSED */
            wire [MW-1:0]     aw_pos = S_POS[aw_sel[i*MW +: MW]*MW +: MW];
            /* verilator lint_on UNUSED */
            for (k = 0; k < NS; k = k + 1) begin : c
                assign b_cand[k*BBW +: BBW] = int_b_bun[S_MAP[k*MW +: MW]*BBW +: BBW];
            end
            always @(posedge clk) begin
                if (aw_fire) begin
                    wr_dst_c_reg <= aw_pos[CB-1:0];
                end
            end
            assign b_sel = wr_dst_c_reg;
        end

        pp_axi_ic_mux #(.N(NS), .WIDTH(BBW), .SEL_WIDTH(CB))
        b_mux_inst (.in(b_cand), .sel(b_sel), .out(b_in));

        pp_axi_ic_reg #(
            .SKID(SKID_BUFFERS),
            .WIDTH(BP)
        )
        b_reg_inst (
            .clk(clk),
            .rst(rst),
            .s_data(b_in[BB_ID +: BP]),
            .s_valid(b_in_valid),
            .s_ready(b_in_ready[i]),
            .m_data(out_b_pay[i*BP +: BP]),
            .m_valid(out_bvalid[i]),
            .m_ready(s_axi_bready[i])
        );
    end

    if (READ_TOPOLOGY == 0) begin : rd_xbar

        /*
         * Read path as a crossbar: per slave an AR arbiter and register, per master an R
         * register fed from the one slave the master reads from
         */
        /* verilator lint_off UNUSED */
        reg  [MI*S_COUNT-1:0] ar_req;
        /* verilator lint_on UNUSED */
        wire [MI*S_COUNT-1:0] ar_grant;
        wire [MI-1:0]         ar_in_ready;
        // ARBITRATION = 1: the slave may take another read (fewer than ARB_READ_AHEAD beats outstanding)
        wire [MI-1:0]         ar_open;
        wire [S_COUNT-1:0]    r_in_ready;
        reg  [S_COUNT-1:0]    arready;

        integer qi, qj;
        always @* begin
            for (qi = 0; qi < S_COUNT; qi = qi + 1) begin
                for (qj = 0; qj < MI; qj = qj + 1) begin
                    ar_req[qj*S_COUNT+qi] = CONN[qj*S_COUNT+qi] && s_axi_arvalid[qi] && ar_ok[qi] &&
                        ar_sel[qi*MW +: MW] == qj[MW-1:0];
                end
            end
        end

        integer ui, uj;
        always @* begin
            for (ui = 0; ui < S_COUNT; ui = ui + 1) begin
                arready[ui] = 1'b0;
                for (uj = 0; uj < MI; uj = uj + 1) begin
                    if (ar_grant[uj*S_COUNT+ui] && ar_open[uj] && ar_in_ready[uj]) begin
                        arready[ui] = 1'b1;
                    end
                end
            end
        end

        assign s_axi_arready = arready;

        integer ti, tj;
        always @* begin
            for (tj = 0; tj < MI; tj = tj + 1) begin
                int_rready[tj] = 1'b0;
                for (ti = 0; ti < S_COUNT; ti = ti + 1) begin
                    if (CONN[tj*S_COUNT+ti] && r_in_ready[ti] && int_r_mst[tj*SW +: SW] == ti[SW-1:0] &&
                            rd_dst[ti*MW +: MW] == tj[MW-1:0] &&
                            rd_cnt[ti*CW +: CW] != {CW{1'b0}}) begin
                        int_rready[tj] = 1'b1;
                    end
                end
            end
        end

        for (j = 0; j < MI; j = j + 1) begin : slv
            localparam [AXP-1:0] KEEP = ax_keep(j);
            localparam [AXP-1:0] FILL = ax_fill(j);

            localparam integer NM = n_mst(j);
            localparam integer CSW = idx_w(NM);

            wire [SW-1:0]  ar_idx;
            wire           ar_gv;
            // (not read by a slave no master is connected to, under round robin)
            /* verilator lint_off UNUSED */
            wire           ar_fire = ar_gv && ar_open[j] && ar_in_ready[j];
            /* verilator lint_on UNUSED */
            wire [AXP-1:0] ar_in;
            wire [AXP-1:0] ar_out;

            // deficit round robin: read grants run ahead of the read data (a slave queues the
            // requests), and a grant decided while the slave still has a long queue is decided
            // without the masters whose requests are all waiting in that queue. So a read is
            // granted only while fewer than ARB_READ_AHEAD beats are outstanding at this slave:
            // decisions are taken close to when the data moves, as for writes (whose W path is
            // held from AW to WLAST), and the beat credits share the data fairly.
            if (ARBITRATION == 1) begin : g_rd_beats
                reg [OBW-1:0] rd_beats_reg;
                initial rd_beats_reg = {OBW{1'b0}};
                wire [8:0] ar_gbeats = ar_beats[ar_idx*9 +: 9];
                wire r_beat = int_rvalid[j] && int_rready[j];
                always @(posedge clk) begin
                    rd_beats_reg <= rd_beats_reg + (ar_fire ? {{(OBW-9){1'b0}}, ar_gbeats} : {OBW{1'b0}})
                        - {{(OBW-1){1'b0}}, r_beat};
                    if (rst) begin
                        rd_beats_reg <= {OBW{1'b0}};
                    end
                end
                assign ar_open[j] = rd_beats_reg < ARB_READ_AHEAD;
            end else begin : g_rd_open
                assign ar_open[j] = 1'b1;
            end

            if (NM == S_COUNT) begin : full

                pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(AXP), .SEL_WIDTH(SW))
                ar_mux_inst (.in(ar_pay), .sel(ar_idx), .out(ar_in));

                pp_arbiter #(
                    .PORTS(S_COUNT),
                    .ARBITRATION(ARBITRATION),
                    .INDEX_WIDTH(SW),
                    .BEATS_WIDTH(9),
                    .QUANTUM(ARB_QUANTUM)
                )
                ar_arb_inst (
                    .clk(clk),
                    .rst(rst),
                    .req(ar_req[j*S_COUNT +: S_COUNT]),
                    .grant(ar_grant[j*S_COUNT +: S_COUNT]),
                    .grant_valid(ar_gv),
                    .grant_index(ar_idx),
                    .req_beats(ar_beats),
                    .accept(ar_fire)
                );

            end else if (NM > 0) begin : part

                // the connected masters only (compact index ar_cidx), as for writes
                localparam [S_COUNT*SW-1:0] C_MAP = mst_map(j);
                wire [CSW-1:0]     ar_cidx;
                wire [NM-1:0]      c_req;
                wire [NM-1:0]      c_grant;
                wire [NM*AXP-1:0]  c_pay;
                wire [NM*9-1:0]    c_beats;
                reg  [SW-1:0]      c_idx;

                for (i = 0; i < S_COUNT; i = i + 1) begin : g
                    if (!CONN[j*S_COUNT+i]) begin : u
                        assign ar_grant[j*S_COUNT+i] = 1'b0;
                    end
                end

                for (k = 0; k < NM; k = k + 1) begin : c
                    localparam integer M = mst_at(j, k);
                    assign c_req[k] = ar_req[j*S_COUNT+M];
                    assign ar_grant[j*S_COUNT+M] = c_grant[k];
                    assign c_pay[k*AXP +: AXP] = ar_pay[M*AXP +: AXP];
                    assign c_beats[k*9 +: 9] = ar_beats[M*9 +: 9];
                end

                integer ck;
                always @* begin
                    c_idx = {SW{1'b0}};
                    for (ck = 0; ck < NM; ck = ck + 1) begin
                        if (c_grant[ck]) begin
                            c_idx = C_MAP[ck*SW +: SW];
                        end
                    end
                end
                assign ar_idx = c_idx;

                pp_axi_ic_mux #(.N(NM), .WIDTH(AXP), .SEL_WIDTH(CSW))
                ar_mux_inst (.in(c_pay), .sel(ar_cidx), .out(ar_in));

                pp_arbiter #(
                    .PORTS(NM),
                    .ARBITRATION(ARBITRATION),
                    .INDEX_WIDTH(CSW),
                    .BEATS_WIDTH(9),
                    .QUANTUM(ARB_QUANTUM)
                )
                ar_arb_inst (
                    .clk(clk),
                    .rst(rst),
                    .req(c_req),
                    .grant(c_grant),
                    .grant_valid(ar_gv),
                    .grant_index(ar_cidx),
                    .req_beats(c_beats),
                    .accept(ar_fire)
                );

            end else begin : none

                assign ar_grant[j*S_COUNT +: S_COUNT] = {S_COUNT{1'b0}};
                assign ar_idx = {SW{1'b0}};
                assign ar_gv = 1'b0;
                assign ar_in = {AXP{1'b0}};

            end

            pp_axi_ic_reg #(
                .SKID(SKID_BUFFERS),
                .WIDTH(AXP)
            )
            ar_reg_inst (
                .clk(clk),
                .rst(rst),
                .s_data((ar_in & KEEP) | ax_mst(ar_idx)),
                .s_valid(ar_gv && ar_open[j]),
                .s_ready(ar_in_ready[j]),
                .m_data(ar_out),
                .m_valid(int_arvalid[j]),
                .m_ready(int_arready[j])
            );

            assign int_ar_pay[j*AXP +: AXP] = ar_out | FILL;
        end

        for (i = 0; i < S_COUNT; i = i + 1) begin : mst
            localparam [SW-1:0] IDX = i;

            // read data from the slave this master reads from
            wire [RBW-1:0] r_in;
            wire r_in_valid = r_in[RB_VALID] && r_in[RB_MST +: SW] == IDX &&
                rd_cnt[i*CW +: CW] != {CW{1'b0}};

            // over the slaves connected to this master only, as the B multiplexer
            localparam integer NS = n_slv(i);
            if (NS == MI) begin : r_full
                pp_axi_ic_mux #(.N(MI), .WIDTH(RBW), .SEL_WIDTH(MW))
                r_mux_inst (.in(int_r_bun), .sel(rd_dst[i*MW +: MW]), .out(r_in));
            end else begin : r_part
                localparam integer CSW = idx_w(NS);
                localparam [MI*MW-1:0] S_MAP = slv_map(i);
                localparam [MI*MW-1:0] S_POS = slv_pos(i);
                reg  [CSW-1:0]    rd_dst_c_reg;
                initial rd_dst_c_reg = {CSW{1'b0}};
                /* verilator lint_off UNUSED */
                wire [MW-1:0]     ar_pos = S_POS[ar_sel[i*MW +: MW]*MW +: MW];
                /* verilator lint_on UNUSED */
                wire [NS*RBW-1:0] r_cand;
                wire              ar_hs = s_axi_arvalid[i] && s_axi_arready[i];
                for (k = 0; k < NS; k = k + 1) begin : c
                    assign r_cand[k*RBW +: RBW] = int_r_bun[S_MAP[k*MW +: MW]*RBW +: RBW];
                end
                always @(posedge clk) begin
                    if (ar_hs) begin
                        rd_dst_c_reg <= ar_pos[CSW-1:0];
                    end
                end
                pp_axi_ic_mux #(.N(NS), .WIDTH(RBW), .SEL_WIDTH(CSW))
                r_mux_inst (.in(r_cand), .sel(rd_dst_c_reg), .out(r_in));
            end

            pp_axi_ic_reg #(
                .SKID(SKID_BUFFERS),
                .WIDTH(RP)
            )
            r_reg_inst (
                .clk(clk),
                .rst(rst),
                .s_data(r_in[RB_ID +: RP]),
                .s_valid(r_in_valid),
                .s_ready(r_in_ready[i]),
                .m_data(out_r_pay[i*RP +: RP]),
                .m_valid(out_rvalid[i]),
                .m_ready(s_axi_rready[i])
            );
        end

    end else begin : rd_shared

        /*
         * Shared read path: one AR arbiter over the masters' reads (one read granted per
         * cycle, the payload multiplexed once) into an AR register per slave, one R arbiter
         * over the slaves' beats (round robin per beat) into an R register per master,
         * routed back by the ID's master bits. A read is granted only when its slave's AR
         * register can take it and a beat only when its master's R register can, so a
         * slave that stops taking reads (its R beats wait for a master that holds RREADY
         * low) or a master that does not take its data holds up no other master's reads of
         * other slaves. The ordering rule above (one slave per master at a time) keeps each
         * master's responses in order.
         */
        reg  [S_COUNT-1:0] ar_req;
        wire [S_COUNT-1:0] ar_grant;
        wire               ar_gv;
        wire [SW-1:0]      ar_idx;
        // per slave: its AR register takes a read (padded to the select's range)
        wire [MI-1:0]      ar_in_ready;
        reg  [(1<<MW)-1:0] ar_rdy;
        // ARBITRATION = 1: fewer than ARB_READ_AHEAD read beats outstanding
        wire               r_open;
        // (a read is granted only if its register takes it)
        wire               ar_fire = ar_gv;

        always @* begin
            ar_rdy = {(1<<MW){1'b0}};
            ar_rdy[MI-1:0] = ar_in_ready;
        end

        integer qi;
        always @* begin
            for (qi = 0; qi < S_COUNT; qi = qi + 1) begin
                ar_req[qi] = s_axi_arvalid[qi] && ar_ok[qi] && r_open && ar_rdy[ar_sel[qi*MW +: MW]];
            end
        end

        reg [S_COUNT*(AXP+MW)-1:0] ar_cand;
        integer ci;
        always @* begin
            for (ci = 0; ci < S_COUNT; ci = ci + 1) begin
                ar_cand[ci*(AXP+MW) +: AXP+MW] = {ar_sel[ci*MW +: MW], ar_pay[ci*AXP +: AXP]};
            end
        end

        wire [AXP-1:0] g_pay;
        wire [MW-1:0]  g_sel;

        pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(AXP+MW), .SEL_WIDTH(SW))
        ar_mux_inst (.in(ar_cand), .sel(ar_idx), .out({g_sel, g_pay}));

        pp_arbiter #(
            .PORTS(S_COUNT),
            .ARBITRATION(ARBITRATION),
            .INDEX_WIDTH(SW),
            .BEATS_WIDTH(9),
            .QUANTUM(ARB_QUANTUM)
        )
        ar_arb_inst (
            .clk(clk),
            .rst(rst),
            .req(ar_req),
            .grant(ar_grant),
            .grant_valid(ar_gv),
            .grant_index(ar_idx),
            .req_beats(ar_beats),
            .accept(ar_fire)
        );

        assign s_axi_arready = ar_grant;

        // per slave an AR register (its window's constant address bits not stored, as in
        // the crossbar's); a slave no master is connected to never gets a read
        for (j = 0; j < MI; j = j + 1) begin : sel
            localparam [MW-1:0]  JDX = j;
            localparam [AXP-1:0] KEEP = ax_keep(j);
            localparam [AXP-1:0] FILL = ax_fill(j);
            wire [AXP-1:0] ar_out;

            pp_axi_ic_reg #(
                .SKID(SKID_BUFFERS),
                .WIDTH(AXP)
            )
            ar_reg_inst (
                .clk(clk),
                .rst(rst),
                .s_data((g_pay & KEEP) | ax_mst(ar_idx)),
                .s_valid(ar_gv && g_sel == JDX),
                .s_ready(ar_in_ready[j]),
                .m_data(ar_out),
                .m_valid(int_arvalid[j]),
                .m_ready(int_arready[j])
            );

            assign int_ar_pay[j*AXP +: AXP] = ar_out | FILL;
        end

        // reads outstanding in beats (ARBITRATION = 1 only)
        wire r_beat;
        // R beats wait at the slaves and none can move (their masters' R registers are full)
        /* verilator lint_off UNUSED */
        wire r_stuck;
        /* verilator lint_on UNUSED */
        if (ARBITRATION == 1) begin : g_rd_beats
            reg [OBW-1:0] rd_beats_reg;
            initial rd_beats_reg = {OBW{1'b0}};
            wire [8:0] ar_gbeats;
            pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(9), .SEL_WIDTH(SW))
            ar_beats_mux_inst (.in(ar_beats), .sel(ar_idx), .out(ar_gbeats));
            always @(posedge clk) begin
                rd_beats_reg <= rd_beats_reg +
                    (ar_fire ? {{(OBW-9){1'b0}}, ar_gbeats} : {OBW{1'b0}}) -
                    {{(OBW-1){1'b0}}, r_beat};
                if (rst) begin
                    rd_beats_reg <= {OBW{1'b0}};
                end
            end
            // (and while the beats outstanding cannot move because their masters do not take
            // them: the others' reads go on, as with round robin; a cycle late, a register)
            reg r_stuck_reg;
            initial r_stuck_reg = 1'b0;
            always @(posedge clk) begin
                r_stuck_reg <= r_stuck && !rst;
            end
            assign r_open = rd_beats_reg < ARB_READ_AHEAD || r_stuck_reg;
        end else begin : g_rd_open
            assign r_open = 1'b1;
        end

        // read data: from any slave with a beat whose master's R register can take it (round
        // robin per beat), into that master's own R register. A master that holds RREADY low fills
        // only its own register; its next beats then wait at their slave (whose R channel is the
        // slave's own, AXI in order), and the arbiter passes them over while the other slaves'
        // beats keep moving to their masters: no master stalls another's reads from another
        // slave. A beat is offered only to a register that can take it, so a grant is a beat.
        wire [MI-1:0]      r_grant;
        wire               r_gv;
        wire [MW-1:0]      r_idx;
        // (bit 0, the slave's valid, is in r_req)
        /* verilator lint_off UNUSED */
        wire [RBW-1:0]     r_in;
        /* verilator lint_on UNUSED */
        wire [SW-1:0]      r_in_m = r_in[RB_MST +: SW];
        wire [S_COUNT-1:0] r_in_ready;
        wire [MI-1:0]      r_req;

        assign r_beat = r_gv;
        assign r_stuck = |int_rvalid && !r_gv;

        // per slave: its beat's master (the ID's master bits) can take it (M_CONNECT: the masters
        // connected to the slave only; the default slave answers every master)
        for (j = 0; j < MI; j = j + 1) begin : r_rq
            reg [(1<<SW)-1:0] rdy;
            always @* begin
                rdy = {(1<<SW){1'b0}};
                rdy[S_COUNT-1:0] = r_in_ready & CONN[j*S_COUNT +: S_COUNT];
            end
            assign r_req[j] = int_rvalid[j] && rdy[int_r_mst[j*SW +: SW]];
        end

        pp_arbiter #(
            .PORTS(MI),
            .ARBITRATION(0),
            .INDEX_WIDTH(MW)
        )
        r_arb_inst (
            .clk(clk),
            .rst(rst),
            .req(r_req),
            .grant(r_grant),
            .grant_valid(r_gv),
            .grant_index(r_idx),
            .req_beats({(MI*9){1'b0}}),
            .accept(r_beat)
        );

        pp_axi_ic_mux #(.N(MI), .WIDTH(RBW), .SEL_WIDTH(MW))
        r_mux_inst (.in(int_r_bun), .sel(r_idx), .out(r_in));

        for (i = 0; i < S_COUNT; i = i + 1) begin : r_out
            localparam [SW-1:0] IDX = i;
            pp_axi_ic_reg #(
                .SKID(SKID_BUFFERS),
                .WIDTH(RP)
            )
            r_reg_inst (
                .clk(clk),
                .rst(rst),
                .s_data(r_in[RB_ID +: RP]),
                .s_valid(r_gv && r_in_m == IDX),
                .s_ready(r_in_ready[i]),
                .m_data(out_r_pay[i*RP +: RP]),
                .m_valid(out_rvalid[i]),
                .m_ready(s_axi_rready[i])
            );
        end

        integer si;
        always @* begin
            for (si = 0; si < MI; si = si + 1) begin
                int_rready[si] = r_grant[si];
            end
        end
    end
end else begin : shared

    /*
     * Shared, pipelined: one address path (AW and AR, one arbiter, one address per cycle),
     * one W path (one beat per cycle), one B and one R path. The next address is granted
     * while the current burst's data streams (the W path serves the granted writes in
     * grant order: the burst streaming now and the next one), and the bus is not held for
     * responses: B and R are taken from whichever slave has one (round robin) and routed
     * back by the master index in their ID. Ordering as in the crossbar: a master issues to
     * one slave per direction at a time (a write (read) to another slave waits until its
     * outstanding writes (reads) have been answered), so its responses cannot be reordered.
     */
    // per master state
    wire [S_COUNT*CW-1:0] wr_cnt;
    wire [S_COUNT*MW-1:0] wr_dst;
    wire [S_COUNT*CW-1:0] rd_cnt;
    wire [S_COUNT*MW-1:0] rd_dst;
    reg  [S_COUNT-1:0]    aw_req;
    reg  [S_COUNT-1:0]    ar_req;

    // W path: the write whose beats stream now (cur) and the next granted one (nxt)
    reg           w_cur_valid_reg;
    initial w_cur_valid_reg = 1'b0;
    reg  [SW-1:0] w_cur_m_reg;
    initial w_cur_m_reg = {SW{1'b0}};
    reg  [MW-1:0] w_cur_s_reg;
    initial w_cur_s_reg = {MW{1'b0}};
    reg           w_nxt_valid_reg;
    initial w_nxt_valid_reg = 1'b0;
    reg  [SW-1:0] w_nxt_m_reg;
    initial w_nxt_m_reg = {SW{1'b0}};
    reg  [MW-1:0] w_nxt_s_reg;
    initial w_nxt_s_reg = {MW{1'b0}};

    // ARBITRATION = 1: the bus may take another read (fewer than ARB_READ_AHEAD beats
    // outstanding), so that read grants are decided close to when their data moves
    wire          r_open;

    integer xi;
    always @* begin
        for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
            aw_req[xi] = s_axi_awvalid[xi] && !w_nxt_valid_reg &&
                (wr_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                 (wr_dst[xi*MW +: MW] == aw_sel[xi*MW +: MW] && wr_cnt[xi*CW +: CW] != CNT_MAX));
            ar_req[xi] = s_axi_arvalid[xi] && r_open &&
                (rd_cnt[xi*CW +: CW] == {CW{1'b0}} ||
                 (rd_dst[xi*MW +: MW] == ar_sel[xi*MW +: MW] && rd_cnt[xi*CW +: CW] != CNT_MAX));
        end
    end

    // address arbitration over all AW and AR requests
    wire [2*S_COUNT-1:0] grant;
    wire                 grant_valid;
    wire                 a_in_ready;
    reg  [SW-1:0]        g_m;
    wire                 g_write = |grant[S_COUNT-1:0];
    wire                 fire = grant_valid && a_in_ready;
    wire                 aw_fire = fire && g_write;
    reg  [2*S_COUNT*(AXP+MW)-1:0] a_cand;

    integer ci;
    always @* begin
        for (ci = 0; ci < S_COUNT; ci = ci + 1) begin
            a_cand[ci*(AXP+MW) +: AXP+MW] = {aw_sel[ci*MW +: MW], aw_pay[ci*AXP +: AXP]};
            a_cand[(S_COUNT+ci)*(AXP+MW) +: AXP+MW] = {ar_sel[ci*MW +: MW], ar_pay[ci*AXP +: AXP]};
        end
    end

    integer gi;
    always @* begin
        g_m = {SW{1'b0}};
        for (gi = 0; gi < S_COUNT; gi = gi + 1) begin
            if (grant[gi] || grant[S_COUNT+gi]) begin
                g_m = gi[SW-1:0];
            end
        end
    end

    wire [$clog2(2*S_COUNT)-1:0] grant_index;
    // the granted request: address payload and decoded slave
    wire [AXP-1:0] g_pay;
    wire [MW-1:0]  g_sel;

    pp_axi_ic_mux #(.N(2*S_COUNT), .WIDTH(AXP+MW), .SEL_WIDTH($clog2(2*S_COUNT)))
    a_mux_inst (.in(a_cand), .sel(grant_index), .out({g_sel, g_pay}));

    pp_arbiter #(
        .PORTS(2*S_COUNT),
        .ARBITRATION(ARBITRATION),
        .INDEX_WIDTH($clog2(2*S_COUNT)),
        .BEATS_WIDTH(9),
        .QUANTUM(ARB_QUANTUM)
    )
    arb_inst (
        .clk(clk),
        .rst(rst),
        .req({ar_req, aw_req}),
        .grant(grant),
        .grant_valid(grant_valid),
        .grant_index(grant_index),
        .req_beats({ar_beats, aw_beats}),
        .accept(fire)
    );

    assign s_axi_awready = grant[S_COUNT-1:0] & {S_COUNT{a_in_ready}};
    assign s_axi_arready = grant[2*S_COUNT-1:S_COUNT] & {S_COUNT{a_in_ready}};

    // address: one register slice, presented to the selected slave on AW or AR
    wire [AXP-1:0] a_out_pay;
    wire [MW-1:0]  a_out_s;
    wire           a_out_write;
    wire           a_out_valid;
    wire           a_out_ready = a_out_write ? int_awready[a_out_s] : int_arready[a_out_s];

    pp_axi_ic_reg #(
        .SKID(SKID_BUFFERS),
        .WIDTH(1+MW+AXP)
    )
    a_reg_inst (
        .clk(clk),
        .rst(rst),
        .s_data({g_write, g_sel, g_pay}),
        .s_valid(grant_valid),
        .s_ready(a_in_ready),
        .m_data({a_out_write, a_out_s, a_out_pay}),
        .m_valid(a_out_valid),
        .m_ready(a_out_ready)
    );

    assign int_aw_pay = {MI{a_out_pay}};
    assign int_ar_pay = {MI{a_out_pay}};

    // write data: the current write's master, or (W path idle) the write granted now, whose
    // first beat is taken in the cycle of its AW
    wire [SW-1:0] w_sel = w_cur_valid_reg ? w_cur_m_reg : g_m;
    wire [MW-1:0] w_sel_s = w_cur_valid_reg ? w_cur_s_reg : g_sel;
    wire          w_sel_valid = w_cur_valid_reg || aw_fire;
    wire [WP:0]   w_in;
    wire          w_in_valid = w_sel_valid && w_in[WP];
    wire          w_in_ready;
    wire          w_done = w_in_valid && w_in_ready && w_in[W_LAST];
    wire [WP-1:0] w_out;
    wire [MW-1:0] w_out_s;
    wire          w_out_valid;

    pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(WP+1), .SEL_WIDTH(SW))
    w_mux_inst (.in(w_pay_v), .sel(w_sel), .out(w_in));

    pp_axi_ic_reg #(
        .SKID(SKID_BUFFERS),
        .WIDTH(MW+WP)
    )
    w_reg_inst (
        .clk(clk),
        .rst(rst),
        .s_data({w_sel_s, w_in[WP-1:0]}),
        .s_valid(w_in_valid),
        .s_ready(w_in_ready),
        .m_data({w_out_s, w_out}),
        .m_valid(w_out_valid),
        .m_ready(int_wready[w_out_s])
    );

    assign int_w_pay = {MI{w_out}};

    always @(posedge clk) begin
        if (w_cur_valid_reg) begin
            if (w_done) begin
                // the next write takes the W path without a bubble (a write cannot be
                // granted while nxt is occupied)
                if (w_nxt_valid_reg) begin
                    w_cur_m_reg <= w_nxt_m_reg;
                    w_cur_s_reg <= w_nxt_s_reg;
                    w_nxt_valid_reg <= 1'b0;
                end else if (aw_fire) begin
                    w_cur_m_reg <= g_m;
                    w_cur_s_reg <= g_sel;
                end else begin
                    w_cur_valid_reg <= 1'b0;
                end
            end else if (aw_fire) begin
                w_nxt_valid_reg <= 1'b1;
                w_nxt_m_reg <= g_m;
                w_nxt_s_reg <= g_sel;
            end
        end else if (aw_fire && !w_done) begin
            w_cur_valid_reg <= 1'b1;
            w_cur_m_reg <= g_m;
            w_cur_s_reg <= g_sel;
        end
        if (rst) begin
            w_cur_valid_reg <= 1'b0;
            w_nxt_valid_reg <= 1'b0;
        end
    end

    for (j = 0; j < MI; j = j + 1) begin : sel
        localparam [MW-1:0] JDX = j;
        assign int_awvalid[j] = a_out_valid && a_out_write && a_out_s == JDX;
        assign int_arvalid[j] = a_out_valid && !a_out_write && a_out_s == JDX;
        assign int_wvalid[j] = w_out_valid && w_out_s == JDX;
    end

    // reads outstanding in beats (ARBITRATION = 1 only)
    wire r_beat;
    if (ARBITRATION == 1) begin : g_rd_beats
        reg [OBW-1:0] rd_beats_reg;
        initial rd_beats_reg = {OBW{1'b0}};
        wire [8:0] ar_gbeats;
        pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(9), .SEL_WIDTH(SW))
        ar_beats_mux_inst (.in(ar_beats), .sel(g_m), .out(ar_gbeats));
        always @(posedge clk) begin
            rd_beats_reg <= rd_beats_reg +
                ((fire && !g_write) ? {{(OBW-9){1'b0}}, ar_gbeats} : {OBW{1'b0}}) -
                {{(OBW-1){1'b0}}, r_beat};
            if (rst) begin
                rd_beats_reg <= {OBW{1'b0}};
            end
        end
        assign r_open = rd_beats_reg < ARB_READ_AHEAD;
    end else begin : g_rd_open
        assign r_open = 1'b1;
    end

    // write responses: from any slave with one (round robin), to the master in its ID
    wire [MI-1:0]    b_grant;
    wire             b_gv;
    wire [MW-1:0]    b_idx;
    // (bit 0, the slave's valid, is the arbiter's request)
    /* verilator lint_off UNUSED */
    wire [BBW-1:0]   b_in;
    /* verilator lint_on UNUSED */
    wire             b_in_ready;
    wire [BP+SW-1:0] b_out;
    wire             b_out_valid;
    wire [SW-1:0]    b_out_m = b_out[BP +: SW];

    pp_arbiter #(
        .PORTS(MI),
        .ARBITRATION(0),
        .INDEX_WIDTH(MW)
    )
    b_arb_inst (
        .clk(clk),
        .rst(rst),
        .req(int_bvalid),
        .grant(b_grant),
        .grant_valid(b_gv),
        .grant_index(b_idx),
        .req_beats({(MI*9){1'b0}}),
        .accept(b_gv && b_in_ready)
    );

    pp_axi_ic_mux #(.N(MI), .WIDTH(BBW), .SEL_WIDTH(MW))
    b_mux_inst (.in(int_b_bun), .sel(b_idx), .out(b_in));

    pp_axi_ic_reg #(
        .SKID(SKID_BUFFERS),
        .WIDTH(BP+SW)
    )
    b_reg_inst (
        .clk(clk),
        .rst(rst),
        .s_data(b_in[BB_ID +: BP+SW]),
        .s_valid(b_gv),
        .s_ready(b_in_ready),
        .m_data(b_out),
        .m_valid(b_out_valid),
        .m_ready(s_axi_bready[b_out_m])
    );

    // read data: from any slave with a beat (round robin per beat), to the master in its ID
    wire [MI-1:0]    r_grant;
    wire             r_gv;
    wire [MW-1:0]    r_idx;
    // (bit 0, the slave's valid, is the arbiter's request)
    /* verilator lint_off UNUSED */
    wire [RBW-1:0]   r_in;
    /* verilator lint_on UNUSED */
    wire             r_in_ready;
    wire [RP+SW-1:0] r_out;
    wire             r_out_valid;
    wire [SW-1:0]    r_out_m = r_out[RP +: SW];

    assign r_beat = r_gv && r_in_ready;

    pp_arbiter #(
        .PORTS(MI),
        .ARBITRATION(0),
        .INDEX_WIDTH(MW)
    )
    r_arb_inst (
        .clk(clk),
        .rst(rst),
        .req(int_rvalid),
        .grant(r_grant),
        .grant_valid(r_gv),
        .grant_index(r_idx),
        .req_beats({(MI*9){1'b0}}),
        .accept(r_beat)
    );

    pp_axi_ic_mux #(.N(MI), .WIDTH(RBW), .SEL_WIDTH(MW))
    r_mux_inst (.in(int_r_bun), .sel(r_idx), .out(r_in));

    pp_axi_ic_reg #(
        .SKID(SKID_BUFFERS),
        .WIDTH(RP+SW)
    )
    r_reg_inst (
        .clk(clk),
        .rst(rst),
        .s_data(r_in[RB_ID +: RP+SW]),
        .s_valid(r_gv),
        .s_ready(r_in_ready),
        .m_data(r_out),
        .m_valid(r_out_valid),
        .m_ready(s_axi_rready[r_out_m])
    );

    integer si;
    always @* begin
        for (si = 0; si < MI; si = si + 1) begin
            int_bready[si] = b_grant[si] && b_in_ready;
            int_rready[si] = r_grant[si] && r_in_ready;
        end
    end

    assign out_b_pay = {S_COUNT{b_out[BP-1:0]}};
    assign out_r_pay = {S_COUNT{r_out[RP-1:0]}};

    for (i = 0; i < S_COUNT; i = i + 1) begin : mst
        localparam [SW-1:0] IDX = i;

        assign s_axi_wready[i] = w_sel_valid && w_in_ready && w_sel == IDX;
        assign out_bvalid[i] = b_out_valid && b_out_m == IDX;
        assign out_rvalid[i] = r_out_valid && r_out_m == IDX;

        reg [CW-1:0] wr_cnt_reg;
        initial wr_cnt_reg = {CW{1'b0}};
        reg [MW-1:0] wr_dst_reg;
        initial wr_dst_reg = {MW{1'b0}};
        reg [CW-1:0] rd_cnt_reg;
        initial rd_cnt_reg = {CW{1'b0}};
        reg [MW-1:0] rd_dst_reg;
        initial rd_dst_reg = {MW{1'b0}};

        assign wr_cnt[i*CW +: CW] = wr_cnt_reg;
        assign wr_dst[i*MW +: MW] = wr_dst_reg;
        assign rd_cnt[i*CW +: CW] = rd_cnt_reg;
        assign rd_dst[i*MW +: MW] = rd_dst_reg;

        wire aw_hs = s_axi_awvalid[i] && s_axi_awready[i];
        wire b_hs = s_axi_bvalid[i] && s_axi_bready[i];
        wire ar_hs = s_axi_arvalid[i] && s_axi_arready[i];
        wire r_hs = s_axi_rvalid[i] && s_axi_rready[i] && s_axi_rlast[i];

        always @(posedge clk) begin
            if (aw_hs) begin
                wr_dst_reg <= aw_sel[i*MW +: MW];
            end
            if (aw_hs && !b_hs) begin
                wr_cnt_reg <= wr_cnt_reg + 1'b1;
            end else if (!aw_hs && b_hs) begin
                wr_cnt_reg <= wr_cnt_reg - 1'b1;
            end
            if (ar_hs) begin
                rd_dst_reg <= ar_sel[i*MW +: MW];
            end
            if (ar_hs && !r_hs) begin
                rd_cnt_reg <= rd_cnt_reg + 1'b1;
            end else if (!ar_hs && r_hs) begin
                rd_cnt_reg <= rd_cnt_reg - 1'b1;
            end
            if (rst) begin
                wr_cnt_reg <= {CW{1'b0}};
                rd_cnt_reg <= {CW{1'b0}};
            end
        end
    end

end
endgenerate

endmodule

`default_nettype wire
