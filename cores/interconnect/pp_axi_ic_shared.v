/*
 * pushpush: the interconnect's shared bus (pp_axi_interconnect TOPOLOGY = 1), below the top's
 * decoding and payload packing: one arbiter over all AW and AR requests and one address
 * register (an address per cycle); one W path serving the granted writes in grant order (the
 * burst streaming now and the next one, granted while it streams); one B and one R register
 * fed round robin from whichever slave has a response (pp_axi_ic_resp) and routed back by
 * the ID's master bits. A master issues to one slave per direction at a time
 * (pp_axi_ic_ordering, in the top: wr_ok and rd_ok come in as ports). See
 * pp_axi_interconnect.v for the whole.
 */

`default_nettype none

module pp_axi_ic_shared #
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
    parameter RBW = 1+S_ID_WIDTH+32+3+SW
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
    // the ordering rule (pp_axi_ic_ordering, in the top): per master its pending write
    // (read) may go (the outstanding transactions' slaves are the crossbar's concern)
    input  wire [S_COUNT-1:0]      wr_ok,
    input  wire [S_COUNT-1:0]      rd_ok,

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
localparam W_LAST   = WP - 1;
localparam BB_ID    = 1;
localparam RB_ID    = 1;

genvar i, j;


generate
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
        aw_req[xi] = s_axi_awvalid[xi] && !w_nxt_valid_reg && wr_ok[xi];
        ar_req[xi] = s_axi_arvalid[xi] && r_open && rd_ok[xi];
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
    wire [8:0] ar_gbeats;
    pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(9), .SEL_WIDTH(SW))
    ar_beats_mux_inst (.in(ar_beats), .sel(g_m), .out(ar_gbeats));
    pp_axi_ic_rd_beats #(.WIDTH(OBW), .AHEAD(ARB_READ_AHEAD))
    rd_beats_inst (.clk(clk), .rst(rst), .fire(fire && !g_write), .beats(ar_gbeats), .beat(r_beat),
                   .open(r_open));
end else begin : g_rd_open
    assign r_open = 1'b1;
end

// write responses: from any slave with one (round robin), to the master in its ID
wire [MI-1:0]    b_grant;
wire             b_gv;
// (bit 0, the slave's valid, is the arbiter's request)
/* verilator lint_off UNUSED */
wire [BBW-1:0]   b_in;
/* verilator lint_on UNUSED */
wire             b_in_ready;
wire [BP+SW-1:0] b_out;
wire             b_out_valid;
wire [SW-1:0]    b_out_m = b_out[BP +: SW];

pp_axi_ic_resp #(.N(MI), .WIDTH(BBW), .INDEX_WIDTH(MW))
b_ret_inst (.clk(clk), .rst(rst), .req(int_bvalid), .bundles(int_b_bun), .accept(b_gv && b_in_ready),
            .grant(b_grant), .grant_valid(b_gv), .out(b_in));

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
// (bit 0, the slave's valid, is the arbiter's request)
/* verilator lint_off UNUSED */
wire [RBW-1:0]   r_in;
/* verilator lint_on UNUSED */
wire             r_in_ready;
wire [RP+SW-1:0] r_out;
wire             r_out_valid;
wire [SW-1:0]    r_out_m = r_out[RP +: SW];

assign r_beat = r_gv && r_in_ready;

pp_axi_ic_resp #(.N(MI), .WIDTH(RBW), .INDEX_WIDTH(MW))
r_ret_inst (.clk(clk), .rst(rst), .req(int_rvalid), .bundles(int_r_bun), .accept(r_beat),
            .grant(r_grant), .grant_valid(r_gv), .out(r_in));

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
end

endgenerate

endmodule

`default_nettype wire
