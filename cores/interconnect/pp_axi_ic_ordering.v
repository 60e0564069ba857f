/*
 * pushpush: the interconnect's ordering rule for every master, both directions: per master a
 * pp_axi_ic_order for its writes (a write is issued at its AW handshake, done at its B
 * handshake) and one for its reads (issued at the AR handshake, done at the R beat with
 * RLAST). The top (pp_axi_interconnect) instantiates it once and gives its outputs to either
 * datapath (pp_axi_ic_xbar, pp_axi_ic_shared): a master issues to one slave per direction at
 * a time, MAX_OUTSTANDING per master and direction.
 */

`default_nettype none

module pp_axi_ic_ordering #
(
    // masters (the interconnect's slave ports)
    parameter S_COUNT = 4,
    // transactions outstanding per master and direction
    parameter MAX_OUTSTANDING = 8,
    // width of a slave index (the default slave included)
    parameter MW = 3,
    // width of an R payload per master (the top's layout: RLAST its top bit)
    parameter RP = 39
)
(
    input  wire                  clk,
    input  wire                  rst,

    // the masters' handshakes, as the masters see them
    input  wire [S_COUNT-1:0]    s_axi_awvalid,
    input  wire [S_COUNT-1:0]    s_axi_awready,
    input  wire [S_COUNT-1:0]    s_axi_bvalid,
    input  wire [S_COUNT-1:0]    s_axi_bready,
    input  wire [S_COUNT-1:0]    s_axi_arvalid,
    input  wire [S_COUNT-1:0]    s_axi_arready,
    input  wire [S_COUNT-1:0]    s_axi_rvalid,
    input  wire [S_COUNT-1:0]    s_axi_rready,
    // the R payloads (only RLAST is read)
    /* verilator lint_off UNUSED */
    input  wire [S_COUNT*RP-1:0] out_r_pay,
    /* verilator lint_on UNUSED */
    // decoded slave of each master's AW / AR address (pp_axi_ic_decode)
    input  wire [S_COUNT*MW-1:0] aw_sel,
    input  wire [S_COUNT*MW-1:0] ar_sel,

    // per master: its pending write (read) may go; writes (reads) are outstanding, to the
    // slave wr_dst (rd_dst)
    output wire [S_COUNT-1:0]    wr_ok,
    output wire [S_COUNT-1:0]    wr_busy,
    output wire [S_COUNT*MW-1:0] wr_dst,
    output wire [S_COUNT-1:0]    rd_ok,
    output wire [S_COUNT-1:0]    rd_busy,
    output wire [S_COUNT*MW-1:0] rd_dst
);

// RLAST in an R payload (the top's layout)
localparam R_LAST = RP - 1;

genvar i;

generate
for (i = 0; i < S_COUNT; i = i + 1) begin : mst
    pp_axi_ic_order #(.MAX_OUTSTANDING(MAX_OUTSTANDING), .MW(MW))
    wr_order_inst (.clk(clk), .rst(rst), .sel(aw_sel[i*MW +: MW]),
                   .issue(s_axi_awvalid[i] && s_axi_awready[i]),
                   .done(s_axi_bvalid[i] && s_axi_bready[i]),
                   .ok(wr_ok[i]), .busy(wr_busy[i]), .dst(wr_dst[i*MW +: MW]));

    pp_axi_ic_order #(.MAX_OUTSTANDING(MAX_OUTSTANDING), .MW(MW))
    rd_order_inst (.clk(clk), .rst(rst), .sel(ar_sel[i*MW +: MW]),
                   .issue(s_axi_arvalid[i] && s_axi_arready[i]),
                   .done(s_axi_rvalid[i] && s_axi_rready[i] && out_r_pay[i*RP+R_LAST]),
                   .ok(rd_ok[i]), .busy(rd_busy[i]), .dst(rd_dst[i*MW +: MW]));
end
endgenerate

endmodule

`default_nettype wire
