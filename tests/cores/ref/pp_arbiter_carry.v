/*
 * REFERENCE for tests/cores/test_ic_xbar_equiv.py: pp_arbiter as it was before the carry-free
 * grant (commit fe3c5a1), renamed ref_pp_arbiter; not part of any core.
 *
 * pushpush: arbiter with a request/grant interface.
 *
 * grant is a combinational function of req, req_beats and the arbiter state: one-hot, or
 * zero when no request is pending. The user asserts accept in the cycle the granted request
 * is taken (e.g. the handshake of the granted AXI address beat); only then does the state
 * advance. req_beats gives, per port, the number of data beats of its pending request
 * (AxLEN+1); only ARBITRATION = 1 uses it.
 *
 * ARBITRATION = 0: round robin over transactions. After a grant to port k is accepted,
 * ports k+1, k+2, ... come first.
 *
 * ARBITRATION = 1: deficit round robin over beats (work conserving, single cycle). Every
 * port has a signed credit in beats. Requesting ports with a positive credit are served in
 * round-robin order, the port holding the turn keeps it while its credit stays positive;
 * an accepted grant costs the port its burst's beats (the credit may go negative: a long
 * burst is paid back later). When no requesting port has credit left, the next round
 * starts: every port is given QUANTUM more beats (credit capped at QUANTUM) and the grant
 * goes round robin among the requesters that now have credit. If none has (all owe more
 * than QUANTUM), the grant goes round robin among all requesters anyway (work conserving:
 * the slave is never left idle). Debts saturate at -2**BEATS_WIDTH beats, which bounds what
 * a port that ran alone owes when others arrive. Over time each busy port gets about
 * QUANTUM beats per round, whatever its burst lengths.
 */

`default_nettype none

module ref_pp_arbiter #
(
    // Number of requesters
    parameter PORTS = 4,
    // Policy: 0 = round robin, 1 = deficit round robin over beats
    parameter ARBITRATION = 0,
    // Width of the grant index output
    parameter INDEX_WIDTH = (PORTS > 1) ? $clog2(PORTS) : 1,
    // Width of each req_beats field
    parameter BEATS_WIDTH = 9,
    // ARBITRATION = 1: beats of credit given to every port per round
    parameter QUANTUM = 16
)
(
    input  wire                         clk,
    input  wire                         rst,

    input  wire [PORTS-1:0]             req,
    input  wire [PORTS*BEATS_WIDTH-1:0] req_beats,
    output wire [PORTS-1:0]             grant,
    output wire                         grant_valid,
    output wire [INDEX_WIDTH-1:0]       grant_index,
    input  wire                         accept
);

localparam [PORTS-1:0] ONE = 1;
// credit counter width (signed)
localparam CW = BEATS_WIDTH + 2;

initial begin
    if (ARBITRATION != 0 && ARBITRATION != 1) begin
        $display("pp_arbiter: ARBITRATION must be 0 or 1");
        $finish;
    end
    if (QUANTUM < 1 || QUANTUM >= (1 << BEATS_WIDTH)) begin
        $display("pp_arbiter: QUANTUM must be 1 .. 2**BEATS_WIDTH-1");
        $finish;
    end
end

// ports that come first: those from the turn holder (DRR) / above the last grant (RR)
reg  [PORTS-1:0] mask_reg;
initial mask_reg = {PORTS{1'b1}};

// candidate set: all requests (RR) or those with credit (DRR, when there are any)
wire [PORTS-1:0] cand;
wire             stay;

wire [PORTS-1:0] cand_masked = cand & mask_reg;
wire [PORTS-1:0] sel = (|cand_masked) ? cand_masked : cand;
// lowest set bit
wire [PORTS-1:0] grant_int = sel & (~sel + ONE);

reg [INDEX_WIDTH-1:0] index;
integer k;

always @* begin
    index = {INDEX_WIDTH{1'b0}};
    for (k = 0; k < PORTS; k = k + 1) begin
        if (grant_int[k]) begin
            index = k[INDEX_WIDTH-1:0];
        end
    end
end

assign grant = grant_int;
assign grant_valid = |req;
assign grant_index = index;

always @(posedge clk) begin
    if (accept && (|req)) begin
        if (stay) begin
            // the granted port and those above it
            mask_reg <= ~(grant_int - ONE);
        end else begin
            // ports strictly above the granted one
            mask_reg <= ~(grant_int | (grant_int - ONE));
        end
    end
    if (rst) begin
        mask_reg <= {PORTS{1'b1}};
    end
end

generate
if (ARBITRATION == 1) begin : drr

    reg  [PORTS*CW-1:0] credit_reg;
    reg  [PORTS*CW-1:0] credit_next;
    // requesting with credit left / with credit once replenished
    reg  [PORTS-1:0]    pos;
    reg  [PORTS-1:0]    pos_q;
    reg                 stay_int;
    initial credit_reg = {PORTS{{CW{1'b0}}}};

    wire any_pos = |pos;
    wire any_pos_q = |pos_q;

    assign cand = any_pos ? pos : (any_pos_q ? pos_q : req);
    assign stay = stay_int;

    // arithmetic on CW+1 bits: credit + QUANTUM - beats stays within range
    localparam signed [CW:0] QS = QUANTUM;
    localparam signed [CW:0] NEG_QS = -QUANTUM;
    localparam signed [CW:0] FLOOR = -(1 << BEATS_WIDTH);
    localparam signed [CW:0] ZERO = 0;

    integer q;
    reg signed [CW:0] cq;
    always @* begin
        for (q = 0; q < PORTS; q = q + 1) begin
            cq = $signed({credit_reg[q*CW+CW-1], credit_reg[q*CW +: CW]});
            pos[q] = req[q] && cq > ZERO;
            pos_q[q] = req[q] && cq > NEG_QS;
        end
    end

    integer p;
    reg signed [CW:0] c;
    always @* begin
        stay_int = 1'b0;
        for (p = 0; p < PORTS; p = p + 1) begin
            c = $signed({credit_reg[p*CW+CW-1], credit_reg[p*CW +: CW]});
            if (!any_pos) begin
                // a new round: everyone gets QUANTUM more
                c = c + QS;
            end
            if (grant_int[p]) begin
                c = c - $signed({3'b000, req_beats[p*BEATS_WIDTH +: BEATS_WIDTH]});
            end
            if (c > QS) begin
                c = QS;
            end
            if (c < FLOOR) begin
                c = FLOOR;
            end
            credit_next[p*CW +: CW] = c[CW-1:0];
            if (grant_int[p] && c > ZERO) begin
                stay_int = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        if (accept && (|req)) begin
            credit_reg <= credit_next;
        end
        if (rst) begin
            credit_reg <= {PORTS{{CW{1'b0}}}};
        end
    end

end else begin : rr

    assign cand = req;
    assign stay = 1'b0;

    // req_beats: only used by ARBITRATION = 1
    /* verilator lint_off UNUSED */
    wire unused_beats = ^req_beats;
    /* verilator lint_on UNUSED */

end
endgenerate

endmodule

`default_nettype wire
