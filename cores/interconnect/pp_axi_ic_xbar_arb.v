/*
 * pushpush: one slave's arbiter in the crossbar, for writes (AW, pp_axi_ic_xbar_wr) and reads
 * (AR, pp_axi_ic_xbar_rd with READ_TOPOLOGY = 0): a pp_arbiter over the masters M_CONNECT
 * connects to the slave only, indexed 0..NM-1 (compact index). It takes the slave's requests
 * and the masters' beats as rows over every master and gives the grant back as such a row
 * (unconnected masters never granted), with the granted master's index and its compact index
 * (the select of the caller's payload multiplexers over the connected masters). All masters
 * connected: the compact index is the master's index; none: never a grant.
 */

`default_nettype none

module pp_axi_ic_xbar_arb #
(
    // masters, width of a master index
    parameter S_COUNT = 4,
    parameter SW = 2,
    // pp_arbiter's ARBITRATION and QUANTUM (pp_axi_interconnect's ARBITRATION, ARB_QUANTUM)
    parameter ARBITRATION = 0,
    parameter QUANTUM = 16,
    // the masters connected to this slave, as pp_axi_ic_xbar derives them: bit i = master i
    // (M_CONNECT's row), how many, and the masters in order (S_COUNT fields of SW bits each;
    // read only where 0 < NM < S_COUNT)
    parameter [S_COUNT-1:0] CONN = {S_COUNT{1'b1}},
    parameter NM = S_COUNT,
    parameter [S_COUNT*SW-1:0] C_MAP = {(S_COUNT*SW){1'b0}},
    // width of the compact index (the master index's where all are connected)
    parameter CA = (NM == S_COUNT) ? SW : (NM > 1) ? $clog2(NM) : 1
)
(
    input  wire                 clk,
    input  wire                 rst,

    // per master: its request to this slave (unconnected masters' not read), its beats
    /* verilator lint_off UNUSED */
    input  wire [S_COUNT-1:0]   req,
    input  wire [S_COUNT*9-1:0] beats,
    /* verilator lint_on UNUSED */
    // the granted transaction is taken
    input  wire                 accept,
    output wire [S_COUNT-1:0]   grant,
    output wire                 grant_valid,
    // the granted master, and its compact index
    output wire [SW-1:0]        index,
    output wire [CA-1:0]        cindex
);

genvar i, k;

generate
if (NM == S_COUNT) begin : full

    pp_arbiter #(
        .PORTS(S_COUNT),
        .ARBITRATION(ARBITRATION),
        .INDEX_WIDTH(SW),
        .BEATS_WIDTH(9),
        .QUANTUM(QUANTUM)
    )
    arb_inst (
        .clk(clk),
        .rst(rst),
        .req(req),
        .grant(grant),
        .grant_valid(grant_valid),
        .grant_index(cindex),
        .req_beats(beats),
        .accept(accept)
    );
    assign index = cindex;

end else if (NM > 0) begin : part

    wire [NM-1:0]   c_req;
    wire [NM-1:0]   c_grant;
    wire [NM*9-1:0] c_beats;
    reg  [SW-1:0]   c_idx;

    for (i = 0; i < S_COUNT; i = i + 1) begin : g
        if (!CONN[i]) begin : u
            assign grant[i] = 1'b0;
        end
    end
    for (k = 0; k < NM; k = k + 1) begin : c
        localparam [SW-1:0] M = C_MAP[k*SW +: SW];
        assign c_req[k] = req[M];
        assign grant[M] = c_grant[k];
        assign c_beats[k*9 +: 9] = beats[M*9 +: 9];
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
    assign index = c_idx;

    pp_arbiter #(
        .PORTS(NM),
        .ARBITRATION(ARBITRATION),
        .INDEX_WIDTH(CA),
        .BEATS_WIDTH(9),
        .QUANTUM(QUANTUM)
    )
    arb_inst (
        .clk(clk),
        .rst(rst),
        .req(c_req),
        .grant(c_grant),
        .grant_valid(grant_valid),
        .grant_index(cindex),
        .req_beats(c_beats),
        .accept(accept)
    );

end else begin : none

    // no master is connected to this slave: it is never addressed
    assign grant = {S_COUNT{1'b0}};
    assign grant_valid = 1'b0;
    assign index = {SW{1'b0}};
    assign cindex = {CA{1'b0}};
    /* verilator lint_off UNUSED */
    wire unused = clk ^ rst ^ accept;
    /* verilator lint_on UNUSED */

end
endgenerate

endmodule

`default_nettype wire
