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
    // masters, slaves incl. the default slave, width of a slave index, width of a master index
    parameter S_COUNT = 4,
    parameter MI = 5,
    parameter MW = 3,
    parameter SW = 2,
    // this master's index (the master index in the ID of the responses it takes)
    parameter IDX = 0,
    // width of a response payload (B or R, the top's layout); a bundle is
    // {master, payload, valid}
    parameter PW = 6,
    // 1 = the response register is a skid buffer (pp_axi_ic_reg)
    parameter SKID_BUFFERS = 1,
    // [slave*S_COUNT + master]: the master is connected to the slave (M_CONNECT with the
    // default slave's row all ones, as pp_axi_ic_xbar derives it)
    parameter [MI*S_COUNT-1:0] CONN = {(MI*S_COUNT){1'b1}}
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

// this master's index as it stands in a bundle
localparam [SW-1:0] MST = IDX[SW-1:0];
// a bundle: {master, payload, valid}
localparam BW    = PW + SW + 1;
localparam B_PAY = 1;
localparam B_MST = BW - SW;
// the number of slaves connected to this master, the default slave included
function integer conn_ns(input [MI*S_COUNT-1:0] conn);
    integer n;
    begin
        conn_ns = 0;
        for (n = 0; n < MI; n = n + 1) begin
            conn_ns = conn_ns + (conn[n*S_COUNT+IDX] ? 1 : 0);
        end
    end
endfunction

// MI fields of MW bits: the slaves connected to this master, in order (the default slave
// last; pos = 0), or each slave's position in that list (pos = 1; 0 where not connected)
function [MI*MW-1:0] conn_slv(input [MI*S_COUNT-1:0] conn, input pos);
    integer n, c;
    begin
        conn_slv = {(MI*MW){1'b0}};
        c = 0;
        for (n = 0; n < MI; n = n + 1) begin
            if (conn[n*S_COUNT+IDX]) begin
                if (pos) begin
                    conn_slv[n*MW +: MW] = c[MW-1:0];
                end else begin
                    conn_slv[c*MW +: MW] = n[MW-1:0];
                end
                c = c + 1;
            end
        end
    end
endfunction

// the slaves connected to this master: how many, in order, each one's position (the
// multiplexer is built over those; all connected: over the slaves' own vector and index)
localparam integer NS = conn_ns(CONN);
localparam [MI*MW-1:0] S_MAP = conn_slv(CONN, 1'b0);
localparam [MI*MW-1:0] S_POS = conn_slv(CONN, 1'b1);
// width of the multiplexer's select
localparam CB = (NS == MI) ? MW : (NS > 1) ? $clog2(NS) : 1;

genvar k;

wire [BW-1:0]    b_in;
wire             b_in_valid = b_in[0] && b_in[B_MST +: SW] == MST && busy;
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
