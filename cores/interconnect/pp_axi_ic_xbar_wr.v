/*
 * pushpush: the crossbar's write path (pp_axi_ic_xbar): per slave an AW arbiter
 * (pp_axi_ic_xbar_arb) over the masters M_CONNECT connects to it and an AW register, the W
 * path locked from the AW grant to WLAST (W beats follow AW order), and the slave's BREADY;
 * per master a B register fed from the slave the master writes to (pp_axi_ic_xbar_resp). A master's next AW waits for its previous write's
 * WLAST and for the ordering rule (wr_ok, pp_axi_ic_ordering). See pp_axi_ic_xbar.v for the
 * crossbar and README.md for the latencies.
 */

`default_nettype none

module pp_axi_ic_xbar_wr #
(
    // masters (slave ports) and slaves (master ports) of the interconnect
    parameter S_COUNT = 4,
    parameter M_COUNT = 4,
    // ID width on the master side
    parameter S_ID_WIDTH = 4,
    // pp_axi_interconnect's parameters of the same names
    parameter ARBITRATION = 0,
    parameter ARB_QUANTUM = 16,
    parameter SKID_BUFFERS = 1,
    // the layout, as pp_axi_interconnect sets it: slaves incl. the default slave, index
    // widths of a slave and a master, payload widths (address, W, B; the address payload has
    // the ID at bit 0), B bundle width
    parameter MI = M_COUNT+1,
    parameter MW = $clog2(M_COUNT+1),
    parameter SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1,
    parameter AXP = S_ID_WIDTH+$clog2(S_COUNT)+32+29,
    parameter WP = 32+4+1,
    parameter BP = S_ID_WIDTH+2,
    parameter BBW = 1+S_ID_WIDTH+2+SW,
    // the connections and the address map, as pp_axi_ic_xbar derives them (the defaults:
    // every master connected to every slave, every address payload bit kept, none filled)
    // [slave*S_COUNT + master]: the master is connected to the slave (M_CONNECT; the default
    // slave's row all ones)
    parameter [MI*S_COUNT-1:0] CONN = {(MI*S_COUNT){1'b1}},
    // per slave (32 bits each): the number of masters connected to it; the masters connected
    // to it, in order (S_COUNT fields of SW bits each; read only where not all are)
    parameter [MI*32-1:0] SLV_NM = {MI{S_COUNT[31:0]}},
    parameter [MI*S_COUNT*SW-1:0] SLV_MST = {(MI*S_COUNT*SW){1'b0}},
    // per slave (AXP bits each): the address payload bits its register carries, and the
    // constant bits (its window's base) put back after the register
    parameter [MI*AXP-1:0] SLV_KEEP = {(MI*AXP){1'b1}},
    parameter [MI*AXP-1:0] SLV_FILL = {(MI*AXP){1'b0}}
)
(
    input  wire                    clk,
    input  wire                    rst,

    /*
     * The masters' side: AW, W and B handshakes, the decoded slave, payloads and beats of
     * each master's AW, its W beat (wvalid on top), its B payload
     */
    input  wire [S_COUNT-1:0]      s_axi_awvalid,
    output wire [S_COUNT-1:0]      s_axi_awready,
    input  wire [S_COUNT-1:0]      s_axi_wvalid,
    input  wire [S_COUNT-1:0]      s_axi_wlast,
    output wire [S_COUNT-1:0]      s_axi_wready,
    input  wire [S_COUNT-1:0]      s_axi_bready,
    input  wire [S_COUNT*MW-1:0]   aw_sel,
    input  wire [S_COUNT*AXP-1:0]  aw_pay,
    input  wire [S_COUNT*9-1:0]    aw_beats,
    input  wire [S_COUNT*(WP+1)-1:0] w_pay_v,
    output wire [S_COUNT*BP-1:0]   out_b_pay,
    output wire [S_COUNT-1:0]      out_bvalid,
    // the ordering rule (pp_axi_ic_ordering): per master its pending write may go, writes
    // are outstanding, to this slave (read by the B multiplexers over every slave only)
    input  wire [S_COUNT-1:0]      wr_ok,
    input  wire [S_COUNT-1:0]      wr_busy,
    input  wire [S_COUNT*MW-1:0]   wr_dst,

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
    // the master index in each slave's B ID, and the B bundles ({master, resp, id, valid})
    input  wire [MI*SW-1:0]        int_b_mst,
    input  wire [MI*BBW-1:0]       int_b_bun
);

// payload fields used here (the top's layout)
localparam W_LAST = WP - 1;

// the ID's master bits of an address payload (the ID at bit 0), from the grant index
function [AXP-1:0] ax_mst(input [SW-1:0] m);
    ax_mst = (S_COUNT > 1) ? {{(AXP-SW){1'b0}}, m} << S_ID_WIDTH : {AXP{1'b0}};
endfunction

genvar i, j, k;

generate
// a master's AW granted, its WLAST not yet taken (its next AW waits)
wire [S_COUNT-1:0]    w_pend;
// per master the slave it writes to, one-hot [master*MI + slave]
wire [S_COUNT*MI-1:0] wr_dst_oh;
// per master: a write response may be taken (its B register is ready, writes outstanding)
wire [S_COUNT-1:0]    b_ok;
// the same as variables, for the S x M readers below (README.md, "Simulation speed")
reg  [S_COUNT*MI-1:0] wr_dst_oh_q;
reg  [S_COUNT-1:0]    b_ok_q;
always @* begin
    wr_dst_oh_q = wr_dst_oh;
    b_ok_q = b_ok;
end
// one-hot decode of aw_sel, [master*MI + slave]
wire [S_COUNT*MI-1:0] aw_sel_oh;
reg  [S_COUNT-1:0]    aw_ok;
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
    end
end

// the write requests per slave and the masters' AWREADY / WREADY (two texts, pp_axi_ic_req)
pp_axi_ic_req #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .M_CONNECT(CONN[M_COUNT*S_COUNT-1:0]),
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
    localparam [AXP-1:0] KEEP = SLV_KEEP[j*AXP +: AXP];
    localparam [AXP-1:0] FILL = SLV_FILL[j*AXP +: AXP];
    // the masters connected to this slave (M_CONNECT): the arbiter and the multiplexers
    // are built over those only, indexed 0..NM-1 (compact index)
    localparam integer NM = SLV_NM[j*32 +: 32];
    localparam integer CSW = (NM > 1) ? $clog2(NM) : 1;

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

    pp_axi_ic_xbar_arb #(
        .S_COUNT(S_COUNT),
        .SW(SW),
        .ARBITRATION(ARBITRATION),
        .QUANTUM(ARB_QUANTUM),
        .CONN(CONN[j*S_COUNT +: S_COUNT]),
        .NM(NM),
        .C_MAP(SLV_MST[j*S_COUNT*SW +: S_COUNT*SW]),
        .CA(CA)
    )
    aw_arb_inst (
        .clk(clk),
        .rst(rst),
        .req(aw_req[j*S_COUNT +: S_COUNT]),
        .beats(aw_beats),
        .accept(aw_fire),
        .grant(aw_grant[j*S_COUNT +: S_COUNT]),
        .grant_valid(aw_gv),
        .index(aw_idx),
        .cindex(aw_cidx)
    );

    if (NM == S_COUNT) begin : full
        assign c_pay = aw_pay;
        assign c_w = w_pay_v;
        assign c_aw_hold = aw_hold;
        assign c_w_hold = w_hold;
        assign w_cidx = w_sel;
    end else if (NM > 0) begin : part
        localparam [S_COUNT*SW-1:0] C_MAP = SLV_MST[j*S_COUNT*SW +: S_COUNT*SW];
        reg  [CA-1:0]  w_owner_c_reg;
        initial w_owner_c_reg = {CA{1'b0}};

        for (k = 0; k < NM; k = k + 1) begin : c
            localparam [SW-1:0] M = C_MAP[k*SW +: SW];
            assign c_pay[k*AXP +: AXP] = aw_pay[M*AXP +: AXP];
            assign c_w[k*(WP+1) +: WP+1] = w_pay_v[M*(WP+1) +: WP+1];
            assign c_aw_hold[k*AXP +: AXP] = aw_hold[M*AXP +: AXP];
            assign c_w_hold[k*WP +: WP] = w_hold[M*WP +: WP];
        end
        always @(posedge clk) begin
            if (aw_fire) begin
                w_owner_c_reg <= aw_cidx;
            end
        end
        assign w_cidx = w_busy_reg ? w_owner_c_reg : aw_cidx;
    end else begin : none
        // no master is connected to this slave: it is never addressed
        assign c_pay = {AXP{1'b0}};
        assign c_w = {(WP+1){1'b0}};
        assign c_aw_hold = {AXP{1'b0}};
        assign c_w_hold = {WP{1'b0}};
        assign w_cidx = aw_cidx;
    end

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
        pp_axi_ic_mux #(.N(NA), .WIDTH(AXP), .SEL_WIDTH(CA), .HARD(1))
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
        pp_axi_ic_mux #(.N(NA), .WIDTH(WP), .SEL_WIDTH(CA), .HARD(1))
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
    reg [MI-1:0] wr_dst_oh_reg;
    initial wr_dst_oh_reg = {MI{1'b0}};
    reg          w_pend_reg;
    initial w_pend_reg = 1'b0;

    assign wr_dst_oh[i*MI +: MI] = wr_dst_oh_reg;
    assign w_pend[i] = w_pend_reg;
    assign b_ok[i] = b_in_ready[i] && wr_busy[i];

    wire aw_fire = s_axi_awvalid[i] && s_axi_awready[i];
    wire w_last_fire = s_axi_wvalid[i] && s_axi_wready[i] && s_axi_wlast[i];

    always @(posedge clk) begin
        w_pend_reg <= (w_pend_reg || aw_fire) && !w_last_fire;
        if (aw_fire) begin
            wr_dst_oh_reg <= aw_sel_oh[i*MI +: MI];
        end
        if (rst) begin
            w_pend_reg <= 1'b0;
        end
    end

    // write response from the slave this master writes to, over the slaves connected to it
    pp_axi_ic_xbar_resp #(
        .S_COUNT(S_COUNT),
        .MI(MI),
        .MW(MW),
        .SW(SW),
        .IDX(i),
        .PW(BP),
        .SKID_BUFFERS(SKID_BUFFERS),
        .CONN(CONN)
    )
    b_inst (
        .clk(clk),
        .rst(rst),
        .issue(aw_fire),
        .sel(aw_sel[i*MW +: MW]),
        .busy(wr_busy[i]),
        .dst(wr_dst[i*MW +: MW]),
        .bundles(int_b_bun),
        .in_ready(b_in_ready[i]),
        .out_pay(out_b_pay[i*BP +: BP]),
        .out_valid(out_bvalid[i]),
        .out_ready(s_axi_bready[i])
    );
end
endgenerate

endmodule

`default_nettype wire
