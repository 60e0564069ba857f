/*
 * pushpush: one master's response path in the crossbar, for writes (B, pp_axi_ic_xbar_wr) and
 * reads (R, pp_axi_ic_xbar_rd with READ_TOPOLOGY = 0): a multiplexer over the response
 * bundles of the slaves connected to the master (M_CONNECT; the default slave last), selected
 * by the slave the master's transactions are outstanding to, into the master's response
 * register. A bundle is taken when it is valid, names this master in its ID and the master
 * has transactions outstanding. All slaves connected: the multiplexer is selected by the
 * ordering rule's destination (dst); otherwise by the destination's position in the list of
 * connected slaves, registered at the master's address handshake.
 */

`default_nettype none

module pp_axi_ic_xbar_resp #
(
    // slaves incl. the default slave, width of a slave index, width of a master index
    parameter MI = 5,
    parameter MW = 3,
    parameter SW = 2,
    // this master's index (the master index in the ID of the responses it takes)
    parameter [SW-1:0] IDX = {SW{1'b0}},
    // width of a response payload (B or R, the top's layout); a bundle is
    // {master, payload, valid}
    parameter PW = 6,
    // 1 = the response register is a skid buffer (pp_axi_ic_reg)
    parameter SKID_BUFFERS = 1,
    // the slaves connected to this master, as pp_axi_ic_xbar derives them: how many (the
    // default slave included), the slaves in order and each slave's position in that list
    // (MI fields of MW bits each; read only where NS < MI)
    parameter NS = MI,
    parameter [MI*MW-1:0] S_MAP = {(MI*MW){1'b0}},
    parameter [MI*MW-1:0] S_POS = {(MI*MW){1'b0}}
)
(
    input  wire                  clk,
    input  wire                  rst,

    // the master's address handshake (AW or AR) and its decoded slave (read where NS < MI),
    // the ordering rule's transactions outstanding and their slave (read where NS = MI)
    /* verilator lint_off UNUSED */
    input  wire                  issue,
    input  wire [MW-1:0]         sel,
    input  wire                  busy,
    input  wire [MW-1:0]         dst,
    /* verilator lint_on UNUSED */
    // the slaves' response bundles (unconnected slaves' not read)
    /* verilator lint_off UNUSED */
    input  wire [MI*(PW+SW+1)-1:0] bundles,
    /* verilator lint_on UNUSED */
    // the response register: it can take a response; its output to the master
    output wire                  in_ready,
    output wire [PW-1:0]         out_pay,
    output wire                  out_valid,
    input  wire                  out_ready
);

// a bundle: {master, payload, valid}
localparam BW    = PW + SW + 1;
localparam B_PAY = 1;
localparam B_MST = BW - SW;
// width of the multiplexer's select
localparam CB = (NS == MI) ? MW : (NS > 1) ? $clog2(NS) : 1;

genvar k;

wire [BW-1:0]    b_in;
wire             b_in_valid = b_in[0] && b_in[B_MST +: SW] == IDX && busy;
wire [NS*BW-1:0] b_cand;
wire [CB-1:0]    b_sel;

generate
if (NS == MI) begin : b_full
    assign b_cand = bundles;
    assign b_sel = dst;
end else begin : b_part
    reg  [CB-1:0] dst_c_reg;
    initial dst_c_reg = {CB{1'b0}};
    /* verilator lint_off UNUSED */
    wire [MW-1:0] pos = S_POS[sel*MW +: MW];
    /* verilator lint_on UNUSED */
    for (k = 0; k < NS; k = k + 1) begin : c
        assign b_cand[k*BW +: BW] = bundles[S_MAP[k*MW +: MW]*BW +: BW];
    end
    always @(posedge clk) begin
        if (issue) begin
            dst_c_reg <= pos[CB-1:0];
        end
    end
    assign b_sel = dst_c_reg;
end
endgenerate

pp_axi_ic_mux #(.N(NS), .WIDTH(BW), .SEL_WIDTH(CB))
mux_inst (.in(b_cand), .sel(b_sel), .out(b_in));

pp_axi_ic_reg #(
    .SKID(SKID_BUFFERS),
    .WIDTH(PW)
)
reg_inst (
    .clk(clk),
    .rst(rst),
    .s_data(b_in[B_PAY +: PW]),
    .s_valid(b_in_valid),
    .s_ready(in_ready),
    .m_data(out_pay),
    .m_valid(out_valid),
    .m_ready(out_ready)
);

endmodule

`default_nettype wire
