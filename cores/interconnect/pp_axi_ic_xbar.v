/*
 * pushpush: the interconnect's crossbar (pp_axi_interconnect TOPOLOGY = 0), below the top's
 * decoding and payload packing: per slave an AW arbiter (pp_arbiter) and register, the W path
 * locked from the AW grant to WLAST (W beats follow AW order); per master a B and an R
 * register; the read path as a crossbar (READ_TOPOLOGY = 0: an AR arbiter per slave, an R
 * path per master) or shared (READ_TOPOLOGY = 1: one AR arbiter over the masters, the
 * response return path pp_axi_ic_resp over the slaves). A master issues to one slave per
 * direction at a time (pp_axi_ic_order), MAX_OUTSTANDING per master and direction. See
 * pp_axi_interconnect.v for the whole and README.md for the latencies.
 */

`default_nettype none

module pp_axi_ic_xbar #
(
    // masters (slave ports) and slaves (master ports) of the interconnect
    parameter S_COUNT = 4,
    parameter M_COUNT = 4,
    // ID widths: master side, slave side (S_ID_WIDTH + clog2(S_COUNT))
    parameter S_ID_WIDTH = 4,
    parameter M_ID_WIDTH = S_ID_WIDTH+$clog2(S_COUNT),
    // pp_axi_interconnect's parameters of the same names
    parameter ARBITRATION = 0,
    parameter ARB_QUANTUM = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter ARB_READ_AHEAD = ARB_QUANTUM,
    parameter SKID_BUFFERS = 1,
    // the layout, as pp_axi_interconnect sets it: slaves incl. the default slave, index
    // widths of a slave and a master, payload widths (address, W, B, R; the address
    // payload has the ID at bit 0 and the address at bit M_ID_WIDTH), response bundle widths
    parameter MI = M_COUNT+1,
    parameter MW = $clog2(M_COUNT+1),
    parameter SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1,
    parameter AXP = M_ID_WIDTH+32+29,
    parameter WP = 32+4+1,
    parameter BP = S_ID_WIDTH+2,
    parameter RP = S_ID_WIDTH+32+3,
    parameter BBW = 1+S_ID_WIDTH+2+SW,
    parameter RBW = 1+S_ID_WIDTH+32+3+SW,
    // address map and connectivity (pp_axi_interconnect's parameters)
    parameter ADDR_WIDTH = 32,
    parameter M_BASE_ADDR = {M_COUNT{{ADDR_WIDTH{1'b0}}}},
    parameter M_ADDR_WIDTH = {M_COUNT{32'd24}},
    parameter READ_TOPOLOGY = 0,
    parameter M_CONNECT = {(M_COUNT*S_COUNT){1'b1}}
)
(
    input  wire                    clk,
    input  wire                    rst,

    /*
     * The masters' side: handshakes of the interconnect's slave ports, the address and
     * W payloads packed per master (the top's layout), the B and R payloads per master
     */
    input  wire [S_COUNT-1:0]      s_axi_awvalid,
    output wire [S_COUNT-1:0]      s_axi_awready,
    // (one datapath reads some inputs the other does not: WVALID and WLAST also come in
    // w_pay_v; the responses' master indices also in the bundles)
    /* verilator lint_off UNUSED */
    input  wire [S_COUNT-1:0]      s_axi_wvalid,
    input  wire [S_COUNT-1:0]      s_axi_wlast,
    /* verilator lint_on UNUSED */
    output wire [S_COUNT-1:0]      s_axi_wready,
    input  wire [S_COUNT-1:0]      s_axi_bready,
    input  wire [S_COUNT-1:0]      s_axi_arvalid,
    output wire [S_COUNT-1:0]      s_axi_arready,
    input  wire [S_COUNT-1:0]      s_axi_rready,
    // decoded slave of each master's AW / AR address (pp_axi_ic_decode)
    input  wire [S_COUNT*MW-1:0]   aw_sel,
    input  wire [S_COUNT*MW-1:0]   ar_sel,
    // address payloads (ID extended by the master index), beats (AxLEN+1), W payload + wvalid
    input  wire [S_COUNT*AXP-1:0]  aw_pay,
    input  wire [S_COUNT*AXP-1:0]  ar_pay,
    input  wire [S_COUNT*9-1:0]    aw_beats,
    input  wire [S_COUNT*9-1:0]    ar_beats,
    input  wire [S_COUNT*(WP+1)-1:0] w_pay_v,
    output wire [S_COUNT*BP-1:0]   out_b_pay,
    output wire [S_COUNT-1:0]      out_bvalid,
    output wire [S_COUNT*RP-1:0]   out_r_pay,
    output wire [S_COUNT-1:0]      out_rvalid,

    /*
     * The slaves' side: the M_COUNT master ports and the default slave (index M_COUNT)
     */
    output wire [MI*AXP-1:0]       int_aw_pay,
    output wire [MI-1:0]           int_awvalid,
    input  wire [MI-1:0]           int_awready,
    output wire [MI*WP-1:0]        int_w_pay,
    output wire [MI-1:0]           int_wvalid,
    input  wire [MI-1:0]           int_wready,
    input  wire [MI-1:0]           int_bvalid,
    output reg  [MI-1:0]           int_bready,
    output wire [MI*AXP-1:0]       int_ar_pay,
    output wire [MI-1:0]           int_arvalid,
    input  wire [MI-1:0]           int_arready,
    /* verilator lint_off UNUSED */
    input  wire [MI-1:0]           int_rvalid,
    /* verilator lint_on UNUSED */
    output reg  [MI-1:0]           int_rready,
    // the master index in each slave's B / R ID, and the response bundles
    // ({master, resp, id, valid} / {master, last, resp, data, id, valid})
    /* verilator lint_off UNUSED */
    input  wire [MI*SW-1:0]        int_b_mst,
    input  wire [MI*SW-1:0]        int_r_mst,
    /* verilator lint_on UNUSED */
    input  wire [MI*BBW-1:0]       int_b_bun,
    input  wire [MI*RBW-1:0]       int_r_bun
);

// width of a count of outstanding read beats (ARBITRATION = 1)
localparam OBW = 10 + $clog2(S_COUNT * (MAX_OUTSTANDING + 2) + 1);
// payload fields used here (the top's layout)
/* verilator lint_off UNUSED */
localparam W_LAST   = WP - 1;
localparam R_LAST   = RP - 1;
localparam BB_VALID = 0;
localparam BB_ID    = 1;
localparam BB_MST   = BBW - SW;
localparam RB_VALID = 0;
localparam RB_ID    = 1;
localparam RB_MST   = RBW - SW;
/* verilator lint_on UNUSED */

// the masters' B / R handshakes, as the masters see them
wire [S_COUNT-1:0] s_axi_bvalid = out_bvalid;
wire [S_COUNT-1:0] s_axi_rvalid = out_rvalid;
reg  [S_COUNT-1:0] s_axi_rlast;
integer rl;
always @* begin
    for (rl = 0; rl < S_COUNT; rl = rl + 1) begin
        s_axi_rlast[rl] = out_r_pay[rl*RP+R_LAST];
    end
end
genvar i, j, k;

// the address payload's ID and address fields (the top's layout)
localparam AX_ID    = 0;
localparam AX_ADDR  = M_ID_WIDTH;
// an address payload without the ID's master bits
localparam [AXP-1:0] AX_NO_MST = {AXP{1'b1}} ^ ({{(AXP-M_ID_WIDTH){1'b0}}, {M_ID_WIDTH{1'b1}}} ^
                                                {{(AXP-S_ID_WIDTH){1'b0}}, {S_ID_WIDTH{1'b1}}});


function [ADDR_WIDTH-1:0] win_mask(input integer n);
    win_mask = {ADDR_WIDTH{1'b1}} << M_ADDR_WIDTH[n*32 +: 32];
endfunction

// connectivity including the default slave (row M_COUNT: every master), [slave*S_COUNT + master]
localparam [MI*S_COUNT-1:0] CONN = {{S_COUNT{1'b1}}, M_CONNECT[M_COUNT*S_COUNT-1:0]};

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

generate
/*
 * Crossbar
 */
// per master state: the ordering rule (pp_axi_ic_order): the pending write (read) may go,
// writes (reads) are outstanding, to this slave
wire [S_COUNT-1:0]    wr_ok;
wire [S_COUNT-1:0]    rd_ok;
wire [S_COUNT-1:0]    wr_busy;
// (the destinations are read by the crossbar's read path and the B multiplexers over every
// slave only)
/* verilator lint_off UNUSED */
wire [S_COUNT-1:0]    rd_busy;
wire [S_COUNT*MW-1:0] wr_dst;
wire [S_COUNT*MW-1:0] rd_dst;
/* verilator lint_on UNUSED */
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
wire [S_COUNT*MI-1:0] aw_sel_oh;
reg  [S_COUNT-1:0]    aw_ok;
reg  [S_COUNT-1:0]    ar_ok;
wire [S_COUNT-1:0]    awready;
wire [S_COUNT-1:0]    wready;
// per slave state and requests, transposed: [slave*S_COUNT + master] (the bits of the
// pairs M_CONNECT does not connect are not read)
/* verilator lint_off UNUSED */
wire [MI*S_COUNT-1:0] aw_req;
/* verilator lint_on UNUSED */
wire [MI*S_COUNT-1:0] aw_grant;
wire [MI-1:0]         aw_in_ready;
wire [MI-1:0]         w_in_ready;
wire [MI-1:0]         w_busy;
wire [MI-1:0]         w_src_valid;
wire [MI*SW-1:0]      w_src;
wire [S_COUNT-1:0]    b_in_ready;

// a master's pending AW may go: the ordering rule, and its previous write's WLAST taken
integer xi;
always @* begin
    for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
        aw_ok[xi] = !w_pend[xi] && wr_ok[xi];
        ar_ok[xi] = rd_ok[xi];
    end
end

// the write requests per slave and the masters' AWREADY / WREADY (two texts, pp_axi_ic_req)
pp_axi_ic_req #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .M_CONNECT(M_CONNECT),
    .MW(MW),
    .SW(SW)
)
req_inst (
    .aw_go(s_axi_awvalid & aw_ok),
    .aw_sel(aw_sel),
    .aw_sel_oh(aw_sel_oh),
    .aw_req(aw_req),
    .aw_grant(aw_grant),
    .w_busy(w_busy),
    .aw_in_ready(aw_in_ready),
    .w_src_valid(w_src_valid),
    .w_src(w_src),
    .w_in_ready(w_in_ready),
    .awready(awready),
    .wready(wready)
);

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

// SKID_BUFFERS = 0: each master's AW payload and W beat are held in a register of the
// master's own, loaded at the master's handshake, and a slave's AW and W registers hold only
// the index of the master whose request (beat) they carry: the payload multiplexers come
// after the registers, their selects straight from registers (README.md, "Resources"). A
// held payload is not overwritten while a slave presents it: the master's next AW (W beat)
// is taken either by the same slave, whose register takes it only in the cycle the one it
// presents leaves, or by another slave only after the responses (the ordering rule), which
// come after the slave took it.
reg [S_COUNT*AXP-1:0] aw_hold;
reg [S_COUNT*WP-1:0]  w_hold;
initial begin
    aw_hold = {(S_COUNT*AXP){1'b0}};
    w_hold = {(S_COUNT*WP){1'b0}};
end
if (SKID_BUFFERS == 0) begin : hold
    integer hi;
    always @(posedge clk) begin
        for (hi = 0; hi < S_COUNT; hi = hi + 1) begin
            if (s_axi_awvalid[hi] && s_axi_awready[hi]) begin
                aw_hold[hi*AXP +: AXP] <= aw_pay[hi*AXP +: AXP];
            end
            if (s_axi_wvalid[hi] && s_axi_wready[hi]) begin
                w_hold[hi*WP +: WP] <= w_pay_v[hi*(WP+1) +: WP];
            end
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
    wire [NA*9-1:0]      c_beats;
    // the masters' AW payloads and W beats (wvalid on top), and (SKID_BUFFERS = 0) their
    // held AW payloads and W beats (each datapath reads two of these, and of c_w with
    // SKID_BUFFERS = 0 only WVALID and WLAST)
    /* verilator lint_off UNUSED */
    wire [NA*AXP-1:0]    c_pay;
    wire [NA*(WP+1)-1:0] c_w;
    wire [NA*AXP-1:0]    c_aw_hold;
    wire [NA*WP-1:0]     c_w_hold;
    /* verilator lint_on UNUSED */
    wire [CA-1:0]        aw_cidx;
    wire [CA-1:0]        w_cidx;
    wire                 c_gv;

    if (NM == S_COUNT) begin : full
        assign c_req = aw_req[j*S_COUNT +: S_COUNT];
        assign aw_grant[j*S_COUNT +: S_COUNT] = c_grant;
        assign c_pay = aw_pay;
        assign c_beats = aw_beats;
        assign c_w = w_pay_v;
        assign c_aw_hold = aw_hold;
        assign c_w_hold = w_hold;
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
            assign c_aw_hold[k*AXP +: AXP] = aw_hold[M*AXP +: AXP];
            assign c_w_hold[k*WP +: WP] = w_hold[M*WP +: WP];
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
        assign c_aw_hold = {AXP{1'b0}};
        assign c_w_hold = {WP{1'b0}};
        assign aw_idx = {SW{1'b0}};
        assign w_cidx = aw_cidx;
        assign aw_gv = 1'b0;
        /* verilator lint_off UNUSED */
        wire unused_gv = c_gv ^ c_grant[0];
        /* verilator lint_on UNUSED */
    end

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

    // write data
    wire          w_in_valid;
    wire          w_in_last;

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

    if (SKID_BUFFERS == 0) begin : held
        // the registers hold the granted master's index; the payloads are the masters'
        // held ones, multiplexed after the registers by the registered index. Only WVALID
        // and WLAST are multiplexed by the W path's select in the cycle
        wire [SW+CA-1:0] aw_q;
        wire [CA-1:0]    w_q;
        wire [AXP-1:0]   aw_q_pay;
        wire [NA*2-1:0]  c_w_ctl;
        wire [1:0]       w_ctl;
        for (k = 0; k < NA; k = k + 1) begin : ctl
            assign c_w_ctl[k*2 +: 2] = {c_w[k*(WP+1)+WP], c_w[k*(WP+1)+W_LAST]};
        end
        pp_axi_ic_mux #(.N(NA), .WIDTH(2), .SEL_WIDTH(CA))
        w_mux_inst (.in(c_w_ctl), .sel(w_cidx), .out(w_ctl));
        assign w_in_valid = w_sel_valid && w_ctl[1];
        assign w_in_last = w_ctl[0];

        pp_axi_ic_reg #(.SKID(0), .WIDTH(SW+CA))
        aw_reg_inst (
            .clk(clk),
            .rst(rst),
            .s_data({aw_idx, aw_cidx}),
            .s_valid(aw_in_valid),
            .s_ready(aw_in_ready[j]),
            .m_data(aw_q),
            .m_valid(int_awvalid[j]),
            .m_ready(int_awready[j])
        );
        pp_axi_ic_mux #(.N(NA), .WIDTH(AXP), .SEL_WIDTH(CA))
        aw_mux_inst (.in(c_aw_hold), .sel(aw_q[CA-1:0]), .out(aw_q_pay));
        assign int_aw_pay[j*AXP +: AXP] = (aw_q_pay & KEEP) | ax_mst(aw_q[CA +: SW]) | FILL;

        pp_axi_ic_reg #(.SKID(0), .WIDTH(CA))
        w_reg_inst (
            .clk(clk),
            .rst(rst),
            .s_data(w_cidx),
            .s_valid(w_in_valid),
            .s_ready(w_in_ready[j]),
            .m_data(w_q),
            .m_valid(int_wvalid[j]),
            .m_ready(int_wready[j])
        );
        pp_axi_ic_mux #(.N(NA), .WIDTH(WP), .SEL_WIDTH(CA))
        w_out_mux_inst (.in(c_w_hold), .sel(w_q), .out(int_w_pay[j*WP +: WP]));
    end else begin : regd
        // the payloads multiplexed into the registers (the W multiplexer's output: the
        // selected master's W beat, wvalid on top)
        wire [AXP-1:0] aw_in;
        wire [AXP-1:0] aw_out;
        wire [WP:0]    w_in;
        pp_axi_ic_mux #(.N(NA), .WIDTH(AXP), .SEL_WIDTH(CA))
        aw_mux_inst (.in(c_pay), .sel(aw_cidx), .out(aw_in));

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
        assign w_in_valid = w_sel_valid && w_in[WP];
        assign w_in_last = w_in[W_LAST];
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
end

for (i = 0; i < S_COUNT; i = i + 1) begin : mst
    localparam [SW-1:0] IDX = i;

    reg [MI-1:0] wr_dst_oh_reg;
    initial wr_dst_oh_reg = {MI{1'b0}};
    reg          w_pend_reg;
    initial w_pend_reg = 1'b0;

    assign wr_dst_oh[i*MI +: MI] = wr_dst_oh_reg;
    assign w_pend[i] = w_pend_reg;
    assign b_ok[i] = b_in_ready[i] && wr_busy[i];

    wire aw_fire = s_axi_awvalid[i] && s_axi_awready[i];
    wire w_last_fire = s_axi_wvalid[i] && s_axi_wready[i] && s_axi_wlast[i];
    wire b_fire = s_axi_bvalid[i] && s_axi_bready[i];
    wire ar_fire = s_axi_arvalid[i] && s_axi_arready[i];
    wire r_fire = s_axi_rvalid[i] && s_axi_rready[i] && s_axi_rlast[i];

    pp_axi_ic_order #(.MAX_OUTSTANDING(MAX_OUTSTANDING), .MW(MW))
    wr_order_inst (.clk(clk), .rst(rst), .sel(aw_sel[i*MW +: MW]), .issue(aw_fire), .done(b_fire),
                   .ok(wr_ok[i]), .busy(wr_busy[i]), .dst(wr_dst[i*MW +: MW]));

    pp_axi_ic_order #(.MAX_OUTSTANDING(MAX_OUTSTANDING), .MW(MW))
    rd_order_inst (.clk(clk), .rst(rst), .sel(ar_sel[i*MW +: MW]), .issue(ar_fire), .done(r_fire),
                   .ok(rd_ok[i]), .busy(rd_busy[i]), .dst(rd_dst[i*MW +: MW]));

    always @(posedge clk) begin
        w_pend_reg <= (w_pend_reg || aw_fire) && !w_last_fire;
        if (aw_fire) begin
            wr_dst_oh_reg <= aw_sel_oh[i*MI +: MI];
        end
        if (rst) begin
            w_pend_reg <= 1'b0;
        end
    end

    // write response from the slave this master writes to
    wire [BBW-1:0] b_in;
    wire b_in_valid = b_in[BB_VALID] && b_in[BB_MST +: SW] == IDX && wr_busy[i];

    // the slaves connected to this master (M_CONNECT; the default slave last): the B
    // multiplexer is built over those only, selected by the destination's compact index
    // (all connected: the slaves' own vector and index)
    localparam integer NS = n_slv(i);
    localparam integer CB = (NS == MI) ? MW : idx_w(NS);
    wire [NS*BBW-1:0] b_cand;
    wire [CB-1:0]     b_sel;
    if (NS == MI) begin : b_full
        assign b_cand = int_b_bun;
        assign b_sel = wr_dst[i*MW +: MW];
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
                        rd_busy[ti]) begin
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

        // deficit round robin: a read is granted only while fewer than ARB_READ_AHEAD
        // beats are outstanding at this slave (pp_axi_ic_rd_beats)
        if (ARBITRATION == 1) begin : g_rd_beats
            pp_axi_ic_rd_beats #(.WIDTH(OBW), .AHEAD(ARB_READ_AHEAD))
            rd_beats_inst (.clk(clk), .rst(rst), .fire(ar_fire), .beats(ar_beats[ar_idx*9 +: 9]),
                           .beat(int_rvalid[j] && int_rready[j]), .open(ar_open[j]));
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
            rd_busy[i];

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
        wire [8:0] ar_gbeats;
        wire       beats_open;
        pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(9), .SEL_WIDTH(SW))
        ar_beats_mux_inst (.in(ar_beats), .sel(ar_idx), .out(ar_gbeats));
        pp_axi_ic_rd_beats #(.WIDTH(OBW), .AHEAD(ARB_READ_AHEAD))
        rd_beats_inst (.clk(clk), .rst(rst), .fire(ar_fire), .beats(ar_gbeats), .beat(r_beat),
                       .open(beats_open));
        // (and while the beats outstanding cannot move because their masters do not take
        // them: the others' reads go on, as with round robin; a cycle late, a register)
        reg r_stuck_reg;
        initial r_stuck_reg = 1'b0;
        always @(posedge clk) begin
            r_stuck_reg <= r_stuck && !rst;
        end
        assign r_open = beats_open || r_stuck_reg;
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

    pp_axi_ic_resp #(.N(MI), .WIDTH(RBW), .INDEX_WIDTH(MW))
    r_ret_inst (.clk(clk), .rst(rst), .req(r_req), .bundles(int_r_bun), .accept(r_beat),
                .grant(r_grant), .grant_valid(r_gv), .out(r_in));

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
endgenerate

endmodule

`default_nettype wire
