/*
 * pushpush: the crossbar's write request and ready block (pp_axi_ic_xbar). Per master its
 * pending AW (aw_go: AWVALID and the ordering rule allow it) becomes a request at the slave
 * it decodes to (aw_req, transposed to [slave*S_COUNT + master]); a master's AWREADY is its
 * grant at a slave whose AW register takes it (and whose W path is free); its WREADY, the
 * slave whose W path it owns takes the beat.
 *
 * Two texts of the same function, side by side: synthesis reads the first (`SYNTHESIS,
 * defined by Yosys and Vivado; loops over S x M bits, which Yosys maps to fewer LUTs: 18.4k
 * against 20.9k for the crossbar at 16x16), simulators the second (no always block loops
 * over S x M bits, no ready glitches through 0: Icarus runs it fast). tests/cores/
 * test_ic_equiv.py proves them equal for every input (Yosys miter + sat) at several shapes,
 * and the interconnect bench also runs the synthesis text.
 */

`default_nettype none

module pp_axi_ic_req #
(
    // masters, slaves (the default slave is one more), connectivity (pp_axi_interconnect)
    parameter S_COUNT = 4,
    parameter M_COUNT = 4,
    parameter M_CONNECT = {(M_COUNT*S_COUNT){1'b1}},
    // width of a slave index, of a master index
    parameter MW = $clog2(M_COUNT+1),
    parameter SW = (S_COUNT > 1) ? $clog2(S_COUNT) : 1
)
(
    input  wire [S_COUNT-1:0]             aw_go,
    input  wire [S_COUNT*MW-1:0]          aw_sel,
    // aw_sel one-hot, [master*MI + slave]
    output reg  [S_COUNT*(M_COUNT+1)-1:0] aw_sel_oh,
    output reg  [(M_COUNT+1)*S_COUNT-1:0] aw_req,
    // per slave: its arbiter's grant, its W path busy, its AW register ready, its W path's
    // master (valid, index) and its W register ready
    input  wire [(M_COUNT+1)*S_COUNT-1:0] aw_grant,
    input  wire [M_COUNT:0]               w_busy,
    input  wire [M_COUNT:0]               aw_in_ready,
    input  wire [M_COUNT:0]               w_src_valid,
    input  wire [(M_COUNT+1)*SW-1:0]      w_src,
    input  wire [M_COUNT:0]               w_in_ready,
    output reg  [S_COUNT-1:0]             awready,
    output reg  [S_COUNT-1:0]             wready
);

localparam MI = M_COUNT+1;
// connectivity including the default slave (every master), [slave*S_COUNT + master]
localparam [MI*S_COUNT-1:0] CONN = {{S_COUNT{1'b1}}, M_CONNECT[M_COUNT*S_COUNT-1:0]};

`ifdef SYNTHESIS
// every master connected to every slave (the full crossbar)
localparam FULL_CONN = M_CONNECT[M_COUNT*S_COUNT-1:0] == {(M_COUNT*S_COUNT){1'b1}};

integer xi, xj;
always @* begin
    for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
        for (xj = 0; xj < MI; xj = xj + 1) begin
            aw_sel_oh[xi*MI+xj] = aw_sel[xi*MW +: MW] == xj[MW-1:0];
            aw_req[xj*S_COUNT+xi] = aw_go[xi] && aw_sel_oh[xi*MI+xj];
        end
    end
end

// (a WREADY term compares a slave's W source with the master's index: left out for the
// pairs M_CONNECT does not connect, a text of its own so the full crossbar's stays as it
// was: Yosys and ABC map even a constant-folded change of form differently)
integer ri, rj;
generate
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
endgenerate

`else
genvar i, j;
localparam [MI-1:0]      ONE_MI = 1;
localparam [S_COUNT-1:0] ONE_S = 1;

integer xi;
always @* begin
    for (xi = 0; xi < S_COUNT; xi = xi + 1) begin
        aw_sel_oh[xi*MI +: MI] = ONE_MI << aw_sel[xi*MW +: MW];
    end
end

// the requests transposed to [slave*S_COUNT + master], bit by bit as assignments (each
// evaluated only when its master's inputs change), then passed on as a variable (one
// always block looping over S x M bits would run whole on every change of any input)
wire [MI*S_COUNT-1:0] aw_req_w;
generate
for (i = 0; i < S_COUNT; i = i + 1) begin : req_t
    wire [MI-1:0] req = {MI{aw_go[i]}} & aw_sel_oh[i*MI +: MI];
    for (j = 0; j < MI; j = j + 1) begin : s
        assign aw_req_w[j*S_COUNT+i] = req[j];
    end
end
endgenerate

always @* begin
    aw_req = aw_req_w;
end

// OR over the slaves, a vector per slave, each computed once (no ready glitches through 0);
// a slave's W source is a master connected to it (CONN)
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
            wready_acc = wready_acc | ((ONE_S << w_src[rj*SW +: SW]) & CONN[rj*S_COUNT +: S_COUNT]);
        end
    end
    awready = awready_acc;
    wready = wready_acc;
end

`endif

endmodule

`default_nettype wire
