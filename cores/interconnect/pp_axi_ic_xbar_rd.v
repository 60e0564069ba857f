/*
 * pushpush: the crossbar's read path (pp_axi_ic_xbar), as a crossbar (READ_TOPOLOGY = 0: per
 * slave an AR arbiter (pp_axi_ic_xbar_arb) over the masters M_CONNECT connects to it and an
 * AR register, per master an R register fed from the slave the master reads from,
 * pp_axi_ic_xbar_resp) or shared
 * (READ_TOPOLOGY = 1: one AR arbiter over the masters into an AR register per slave, the
 * response return path pp_axi_ic_resp over the slaves into an R register per master). A
 * master's next AR waits for the ordering rule (rd_ok, pp_axi_ic_ordering). See
 * pp_axi_ic_xbar.v for the crossbar and README.md for the latencies.
 */

`default_nettype none

module pp_axi_ic_xbar_rd #
(
    // masters (slave ports) and slaves (master ports) of the interconnect
    parameter S_COUNT = 4,
    parameter M_COUNT = 4,
    // ID width on the master side
    parameter S_ID_WIDTH = 4,
    // pp_axi_interconnect's parameters of the same names
    parameter ARBITRATION = 0,
    parameter ARB_QUANTUM = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter ARB_READ_AHEAD = ARB_QUANTUM,
    parameter SKID_BUFFERS = 1,
    parameter READ_TOPOLOGY = 0,
    // the layout, as pp_axi_interconnect sets it: slaves incl. the default slave, index
    // widths of a slave and a master, payload widths (address, R; the address payload has
    // the ID at bit 0), R bundle width
    parameter MI = M_COUNT+1,
    parameter MW = $clog2(M_COUNT+1),
    parameter SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1,
    parameter AXP = S_ID_WIDTH+$clog2(S_COUNT)+32+29,
    parameter RP = S_ID_WIDTH+32+3,
    parameter RBW = 1+S_ID_WIDTH+32+3+SW,
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
     * The masters' side: AR and R handshakes, the decoded slave, payload and beats of each
     * master's AR, its R payload
     */
    input  wire [S_COUNT-1:0]      s_axi_arvalid,
    output wire [S_COUNT-1:0]      s_axi_arready,
    input  wire [S_COUNT-1:0]      s_axi_rready,
    input  wire [S_COUNT*MW-1:0]   ar_sel,
    input  wire [S_COUNT*AXP-1:0]  ar_pay,
    input  wire [S_COUNT*9-1:0]    ar_beats,
    output wire [S_COUNT*RP-1:0]   out_r_pay,
    output wire [S_COUNT-1:0]      out_rvalid,
    // the ordering rule (pp_axi_ic_ordering): per master its pending read may go, reads are
    // outstanding, to this slave (read by the crossbar's read path only)
    input  wire [S_COUNT-1:0]      rd_ok,
    /* verilator lint_off UNUSED */
    input  wire [S_COUNT-1:0]      rd_busy,
    input  wire [S_COUNT*MW-1:0]   rd_dst,
    /* verilator lint_on UNUSED */

    /*
     * The slaves' side: the M_COUNT master ports and the default slave (index M_COUNT)
     */
    output wire [MI*AXP-1:0]       int_ar_pay,
    output wire [MI-1:0]           int_arvalid,
    input  wire [MI-1:0]           int_arready,
    /* verilator lint_off UNUSED */
    input  wire [MI-1:0]           int_rvalid,
    /* verilator lint_on UNUSED */
    output reg  [MI-1:0]           int_rready,
    // the master index in each slave's R ID, and the R bundles
    // ({master, last, resp, data, id, valid})
    input  wire [MI*SW-1:0]        int_r_mst,
    input  wire [MI*RBW-1:0]       int_r_bun
);

// width of a count of outstanding read beats (ARBITRATION = 1)
localparam OBW = 10 + $clog2(S_COUNT * (MAX_OUTSTANDING + 2) + 1);
// R bundle fields used here (the top's layout)
localparam RB_ID    = 1;
localparam RB_MST   = RBW - SW;

// the ID's master bits of an address payload (the ID at bit 0), from the grant index
function [AXP-1:0] ax_mst(input [SW-1:0] m);
    ax_mst = (S_COUNT > 1) ? {{(AXP-SW){1'b0}}, m} << S_ID_WIDTH : {AXP{1'b0}};
endfunction

genvar i, j, k;

generate
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
                ar_req[qj*S_COUNT+qi] = CONN[qj*S_COUNT+qi] && s_axi_arvalid[qi] && rd_ok[qi] &&
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
        localparam [AXP-1:0] KEEP = SLV_KEEP[j*AXP +: AXP];
        localparam [AXP-1:0] FILL = SLV_FILL[j*AXP +: AXP];

        localparam integer NM = SLV_NM[j*32 +: 32];
        localparam integer CSW = (NM > 1) ? $clog2(NM) : 1;

        wire [SW-1:0]  ar_idx;
        wire           ar_gv;
        wire           ar_fire = ar_gv && ar_open[j] && ar_in_ready[j];
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

        // the arbiter and the AR multiplexer over the connected masters only (compact index
        // ar_cidx), as for writes
        localparam integer CA = (NM == S_COUNT) ? SW : CSW;
        wire [CA-1:0]  ar_cidx;

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
        ar_arb_inst (
            .clk(clk),
            .rst(rst),
            .req(ar_req[j*S_COUNT +: S_COUNT]),
            .beats(ar_beats),
            .accept(ar_fire),
            .grant(ar_grant[j*S_COUNT +: S_COUNT]),
            .grant_valid(ar_gv),
            .index(ar_idx),
            .cindex(ar_cidx)
        );

        if (NM == S_COUNT) begin : full
            pp_axi_ic_mux #(.N(S_COUNT), .WIDTH(AXP), .SEL_WIDTH(SW))
            ar_mux_inst (.in(ar_pay), .sel(ar_cidx), .out(ar_in));
        end else if (NM > 0) begin : part
            localparam [S_COUNT*SW-1:0] C_MAP = SLV_MST[j*S_COUNT*SW +: S_COUNT*SW];
            wire [NM*AXP-1:0] c_pay;
            for (k = 0; k < NM; k = k + 1) begin : c
                localparam [SW-1:0] M = C_MAP[k*SW +: SW];
                assign c_pay[k*AXP +: AXP] = ar_pay[M*AXP +: AXP];
            end
            pp_axi_ic_mux #(.N(NM), .WIDTH(AXP), .SEL_WIDTH(CSW))
            ar_mux_inst (.in(c_pay), .sel(ar_cidx), .out(ar_in));
        end else begin : none
            assign ar_in = {AXP{1'b0}};
            /* verilator lint_off UNUSED */
            wire unused_cidx = ^ar_cidx;
            /* verilator lint_on UNUSED */
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
        // read data from the slave this master reads from, over the slaves connected to it
        pp_axi_ic_xbar_resp #(
            .S_COUNT(S_COUNT),
            .MI(MI),
            .MW(MW),
            .SW(SW),
            .IDX(i),
            .PW(RP),
            .SKID_BUFFERS(SKID_BUFFERS),
            .CONN(CONN)
        )
        r_inst (
            .clk(clk),
            .rst(rst),
            .issue(s_axi_arvalid[i] && s_axi_arready[i]),
            .sel(ar_sel[i*MW +: MW]),
            .busy(rd_busy[i]),
            .dst(rd_dst[i*MW +: MW]),
            .bundles(int_r_bun),
            .in_ready(r_in_ready[i]),
            .out_pay(out_r_pay[i*RP +: RP]),
            .out_valid(out_rvalid[i]),
            .out_ready(s_axi_rready[i])
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
            ar_req[qi] = s_axi_arvalid[qi] && rd_ok[qi] && r_open && ar_rdy[ar_sel[qi*MW +: MW]];
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
        localparam [AXP-1:0] KEEP = SLV_KEEP[j*AXP +: AXP];
        localparam [AXP-1:0] FILL = SLV_FILL[j*AXP +: AXP];
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
