/*
 * pushpush: the interconnect's crossbar (pp_axi_interconnect TOPOLOGY = 0), below the top's
 * decoding and payload packing: the write path (pp_axi_ic_xbar_wr: per slave an AW arbiter
 * and register, the W path locked from the AW grant to WLAST; per master a B register) and
 * the read path (pp_axi_ic_xbar_rd: as a crossbar, READ_TOPOLOGY = 0, or shared,
 * READ_TOPOLOGY = 1), side by side; a master issues to one slave per direction at a time
 * (pp_axi_ic_ordering, in the top: its outputs come in as ports), MAX_OUTSTANDING per master
 * and direction. This module derives the
 * tables both paths build their arbiters and multiplexers from (M_CONNECT, the address map).
 * See pp_axi_interconnect.v for the whole and README.md for the latencies.
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
    input  wire [S_COUNT-1:0]      s_axi_wvalid,
    input  wire [S_COUNT-1:0]      s_axi_wlast,
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
    // (read) may go; writes (reads) are outstanding, to the slave wr_dst (rd_dst)
    input  wire [S_COUNT-1:0]      wr_ok,
    input  wire [S_COUNT-1:0]      wr_busy,
    input  wire [S_COUNT*MW-1:0]   wr_dst,
    input  wire [S_COUNT-1:0]      rd_ok,
    input  wire [S_COUNT-1:0]      rd_busy,
    input  wire [S_COUNT*MW-1:0]   rd_dst,

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
    output wire [MI-1:0]           int_bready,
    output wire [MI*AXP-1:0]       int_ar_pay,
    output wire [MI-1:0]           int_arvalid,
    input  wire [MI-1:0]           int_arready,
    input  wire [MI-1:0]           int_rvalid,
    output wire [MI-1:0]           int_rready,
    // the master index in each slave's B / R ID, and the response bundles
    // ({master, resp, id, valid} / {master, last, resp, data, id, valid})
    input  wire [MI*SW-1:0]        int_b_mst,
    input  wire [MI*SW-1:0]        int_r_mst,
    input  wire [MI*BBW-1:0]       int_b_bun,
    input  wire [MI*RBW-1:0]       int_r_bun
);

// the address payload's address field (the top's layout; the ID at bit 0)
localparam AX_ADDR  = M_ID_WIDTH;
// an address payload without the ID's master bits
localparam [AXP-1:0] AX_NO_MST = {AXP{1'b1}} ^ ({{(AXP-M_ID_WIDTH){1'b0}}, {M_ID_WIDTH{1'b1}}} ^
                                                {{(AXP-S_ID_WIDTH){1'b0}}, {S_ID_WIDTH{1'b1}}});

/*
 * The tables both paths build their arbiters and multiplexers from: each slave's arbiter and
 * AW/W (AR) multiplexers are built over the masters M_CONNECT connects to it, indexed 0..n-1
 * (compact index); each master's B (R) multiplexer over the slaves connected to it (derived
 * from CONN by pp_axi_ic_xbar_resp itself)
 */
// connectivity including the default slave (row M_COUNT: every master), [slave*S_COUNT + master]
localparam [MI*S_COUNT-1:0] CONN = {{S_COUNT{1'b1}}, M_CONNECT[M_COUNT*S_COUNT-1:0]};

// per slave n, 32 bits each: the number of masters connected to it
function [MI*32-1:0] slv_nm(input [MI*S_COUNT-1:0] conn);
    integer n, m, c;
    begin
        for (n = 0; n < MI; n = n + 1) begin
            c = 0;
            for (m = 0; m < S_COUNT; m = m + 1) begin
                c = c + (conn[n*S_COUNT+m] ? 1 : 0);
            end
            slv_nm[n*32 +: 32] = c;
        end
    end
endfunction

// per slave n, S_COUNT fields of SW bits: the masters connected to it, in order (the
// master at each compact index)
function [MI*S_COUNT*SW-1:0] slv_mst(input [MI*S_COUNT-1:0] conn);
    integer n, m, c;
    begin
        slv_mst = {(MI*S_COUNT*SW){1'b0}};
        for (n = 0; n < MI; n = n + 1) begin
            c = 0;
            for (m = 0; m < S_COUNT; m = m + 1) begin
                if (conn[n*S_COUNT+m]) begin
                    slv_mst[(n*S_COUNT+c)*SW +: SW] = m[SW-1:0];
                    c = c + 1;
                end
            end
        end
    end
endfunction

// per slave n, AXP bits each: the address payload bits its register carries (fill = 0):
// the address bits inside the slave's window and everything else but the ID's master bits
// (the grant index), for the default slave (n = M_COUNT) no address bits; or (fill = 1) the
// constant bits its payload gets back after the register: the window's base above the
// window's size (the address decoded to this window has exactly those)
function [MI*AXP-1:0] slv_ax(input [M_COUNT*ADDR_WIDTH-1:0] base, input [M_COUNT*32-1:0] bits,
                             input fill);
    integer n;
    reg [ADDR_WIDTH-1:0] mask;
    begin
        for (n = 0; n < MI; n = n + 1) begin
            slv_ax[n*AXP +: AXP] = fill ? {AXP{1'b0}} : AX_NO_MST;
            slv_ax[n*AXP+AX_ADDR +: ADDR_WIDTH] = {ADDR_WIDTH{1'b0}};
            if (n < M_COUNT) begin
                mask = {ADDR_WIDTH{1'b1}} << bits[n*32 +: 32];
                slv_ax[n*AXP+AX_ADDR +: ADDR_WIDTH] = fill ? base[n*ADDR_WIDTH +: ADDR_WIDTH] & mask : ~mask;
            end
        end
    end
endfunction

localparam [MI*32-1:0]           SLV_NM = slv_nm(CONN);
localparam [MI*S_COUNT*SW-1:0]   SLV_MST = slv_mst(CONN);
localparam [MI*AXP-1:0]          SLV_KEEP = slv_ax(M_BASE_ADDR, M_ADDR_WIDTH, 1'b0);
localparam [MI*AXP-1:0]          SLV_FILL = slv_ax(M_BASE_ADDR, M_ADDR_WIDTH, 1'b1);

/*
 * The write path: AW, W, B
 */
pp_axi_ic_xbar_wr #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .S_ID_WIDTH(S_ID_WIDTH),
    .ARBITRATION(ARBITRATION),
    .ARB_QUANTUM(ARB_QUANTUM),
    .SKID_BUFFERS(SKID_BUFFERS),
    .MI(MI),
    .MW(MW),
    .SW(SW),
    .AXP(AXP),
    .WP(WP),
    .BP(BP),
    .BBW(BBW),
    .CONN(CONN),
    .SLV_NM(SLV_NM),
    .SLV_MST(SLV_MST),
    .SLV_KEEP(SLV_KEEP),
    .SLV_FILL(SLV_FILL)
)
wr_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready),
    .s_axi_wvalid(s_axi_wvalid),
    .s_axi_wlast(s_axi_wlast),
    .s_axi_wready(s_axi_wready),
    .s_axi_bready(s_axi_bready),
    .aw_sel(aw_sel),
    .aw_pay(aw_pay),
    .aw_beats(aw_beats),
    .w_pay_v(w_pay_v),
    .out_b_pay(out_b_pay),
    .out_bvalid(out_bvalid),
    .wr_ok(wr_ok),
    .wr_busy(wr_busy),
    .wr_dst(wr_dst),
    .int_aw_pay(int_aw_pay),
    .int_awvalid(int_awvalid),
    .int_awready(int_awready),
    .int_w_pay(int_w_pay),
    .int_wvalid(int_wvalid),
    .int_wready(int_wready),
    .int_bvalid(int_bvalid),
    .int_bready(int_bready),
    .int_b_mst(int_b_mst),
    .int_b_bun(int_b_bun)
);

/*
 * The read path: AR, R
 */
pp_axi_ic_xbar_rd #(
    .S_COUNT(S_COUNT),
    .M_COUNT(M_COUNT),
    .S_ID_WIDTH(S_ID_WIDTH),
    .ARBITRATION(ARBITRATION),
    .ARB_QUANTUM(ARB_QUANTUM),
    .MAX_OUTSTANDING(MAX_OUTSTANDING),
    .ARB_READ_AHEAD(ARB_READ_AHEAD),
    .SKID_BUFFERS(SKID_BUFFERS),
    .READ_TOPOLOGY(READ_TOPOLOGY),
    .MI(MI),
    .MW(MW),
    .SW(SW),
    .AXP(AXP),
    .RP(RP),
    .RBW(RBW),
    .CONN(CONN),
    .SLV_NM(SLV_NM),
    .SLV_MST(SLV_MST),
    .SLV_KEEP(SLV_KEEP),
    .SLV_FILL(SLV_FILL)
)
rd_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_arvalid(s_axi_arvalid),
    .s_axi_arready(s_axi_arready),
    .s_axi_rready(s_axi_rready),
    .ar_sel(ar_sel),
    .ar_pay(ar_pay),
    .ar_beats(ar_beats),
    .out_r_pay(out_r_pay),
    .out_rvalid(out_rvalid),
    .rd_ok(rd_ok),
    .rd_busy(rd_busy),
    .rd_dst(rd_dst),
    .int_ar_pay(int_ar_pay),
    .int_arvalid(int_arvalid),
    .int_arready(int_arready),
    .int_rvalid(int_rvalid),
    .int_rready(int_rready),
    .int_r_mst(int_r_mst),
    .int_r_bun(int_r_bun)
);

endmodule

`default_nettype wire
