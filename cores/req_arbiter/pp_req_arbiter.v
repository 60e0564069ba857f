/*
 * pushpush: request arbiter of a component's call engine (pp_req_arbiter)
 *
 * N requesters (the results of a component's exports, the calls of its imports and
 * function parameters) share one pp_call_engine. Each cycle the arbiter grants one valid
 * requester, round robin (requesters after the last one granted come first), and presents
 * its request (address, word count, words) on the engine side; requester i's request is
 * taken in the cycle req_ready[i] is high (grant and engine ready, combinational: the
 * engine starts the burst on the next cycle). A requester must hold req_valid[i] and its
 * request stable until taken.
 *
 * With TRACK_DONE = 1 the arbiter remembers, in request order, which requester each request
 * in flight came from (a FIFO of 2**TAG_BITS entries, >= the engine's MAX_OUTSTANDING + 1),
 * and raises done_err[i] for one cycle when the engine reports requester i's write failed
 * (done_valid with done_resp SLVERR/DECERR); done_any is the engine's done_valid.
 *
 * See README.md beside this file for latency and resources.
 */

`default_nettype none

module pp_req_arbiter #
(
    // Number of requesters (>= 1)
    parameter N = 2,
    // Words per request (the engine's MAX_WORDS)
    parameter MAX_WORDS = 2,
    // Width of a word count (the engine's $clog2(MAX_WORDS+1))
    parameter NW_WIDTH = 2,
    // 1: route the engine's done responses back to the requester (write errors)
    parameter TRACK_DONE = 1,
    // log2 of the done FIFO depth (the engine may have up to 2**TAG_BITS - 1 requests in flight)
    parameter TAG_BITS = 3
)
(
    input  wire                        clk,
    input  wire                        rst,

    /*
     * Requesters, i at [i*W +: W]
     */
    input  wire [N-1:0]                req_valid,
    output wire [N-1:0]                req_ready,
    input  wire [N*32-1:0]             req_addr,
    input  wire [N*NW_WIDTH-1:0]       req_nwords,
    input  wire [N*MAX_WORDS*32-1:0]   req_data,
    output wire [N-1:0]                done_err,

    /*
     * Engine side (pp_call_engine's request and done ports)
     */
    output wire                        out_valid,
    input  wire                        out_ready,
    output wire [31:0]                 out_addr,
    output wire [NW_WIDTH-1:0]         out_nwords,
    output wire [MAX_WORDS*32-1:0]     out_data,
    input  wire                        done_valid,
    input  wire [1:0]                  done_resp
);

localparam TW = (N > 1) ? $clog2(N) : 1;
localparam DW = MAX_WORDS*32;
localparam [N-1:0] ONE = 1;

wire [N-1:0] grant;
wire [N-1:0] win;

generate
    if (N == 1) begin : single
        assign grant = req_valid;
        assign win = 1'b1;
    end else begin : rr
        // requesters above the last granted one go first
        reg  [N-1:0] mask_reg;
        initial mask_reg = {N{1'b0}};
        wire [N-1:0] hi = req_valid & mask_reg;
        wire [N-1:0] pool = (|hi) ? hi : req_valid;
        assign grant = pool & (~pool + ONE);
        genvar w;
        for (w = 0; w < N; w = w + 1) begin : each
            // others: the valid requesters but w; below: those of them with a lower index
            wire [N-1:0] others = req_valid & ~(ONE << w);
            wire [N-1:0] below = others & ((ONE << w) - ONE);
            // w in the upper pool (mask set): no valid one below it there; else the upper
            // pool must be empty and no valid one below it
            assign win[w] = mask_reg[w] ? !(|(below & mask_reg))
                                        : !(|(others & mask_reg)) && !(|below);
        end
        always @(posedge clk) begin
            if (out_valid && out_ready) begin
                mask_reg <= ~({grant[N-2:0], 1'b0} - ONE);
            end
            if (rst) begin
                mask_reg <= {N{1'b0}};
            end
        end
    end
endgenerate

assign out_valid = |req_valid;
// requester i's ready does not depend on its own req_valid (only on out_ready and on the
// requesters that would win over it: win, in the generate above), so a requester that
// decides late whether it requests (an export's one-way bit) has a LUT level less to its
// handshake; among the valid requesters it is the grant
assign req_ready = win & {N{out_ready}};

// multiplexers by the one-hot grant, as a chain of 2:1 multiplexers with requester 0 as the
// default (the request is a don't care while no requester is valid): where a requester's
// bit is a constant (a call's target address, a trigger word) the engine's register behind
// it takes it as its synchronous set/reset under that grant, no LUT per bit (an AND-OR
// multiplexer, which reads 0 with no grant, hides that: pingpong caller 488 -> 457 LUT
// flattened, Yosys 0.23)
reg [31:0] addr_mux;
reg [NW_WIDTH-1:0] nwords_mux;
reg [DW-1:0] data_mux;
reg [TW-1:0] index_mux;
integer i;
always @* begin
    addr_mux = req_addr[31:0];
    nwords_mux = req_nwords[NW_WIDTH-1:0];
    data_mux = req_data[DW-1:0];
    index_mux = {TW{1'b0}};
    for (i = 1; i < N; i = i + 1) begin
        if (grant[i]) begin
            addr_mux = req_addr[i*32 +: 32];
            nwords_mux = req_nwords[i*NW_WIDTH +: NW_WIDTH];
            data_mux = req_data[i*DW +: DW];
            index_mux = i[TW-1:0];
        end
    end
end

generate
    if (N == 1) begin : pass
        // one requester: its request as it is (don't care while it is not valid)
        assign out_addr = req_addr;
        assign out_nwords = req_nwords;
        assign out_data = req_data;
    end else begin : muxed
        assign out_addr = addr_mux;
        assign out_nwords = nwords_mux;
        assign out_data = data_mux;
    end
endgenerate

generate
    if (TRACK_DONE != 0 && N > 1) begin : track
        // which requester each request in flight came from
        reg [TW-1:0] tag_mem [0:2**TAG_BITS-1];
        reg [TAG_BITS:0] wr_reg;
        reg [TAG_BITS:0] rd_reg;
        integer k;
        initial begin
            wr_reg = {TAG_BITS+1{1'b0}};
            rd_reg = {TAG_BITS+1{1'b0}};
            for (k = 0; k < 2**TAG_BITS; k = k + 1) begin
                tag_mem[k] = {TW{1'b0}};
            end
        end
        always @(posedge clk) begin
            if (out_valid && out_ready) begin
                tag_mem[wr_reg[TAG_BITS-1:0]] <= index_mux;
                wr_reg <= wr_reg + 1'b1;
            end
            if (done_valid) begin
                rd_reg <= rd_reg + 1'b1;
            end
            if (rst) begin
                wr_reg <= {TAG_BITS+1{1'b0}};
                rd_reg <= {TAG_BITS+1{1'b0}};
            end
        end
        wire [TW-1:0] done_tag = tag_mem[rd_reg[TAG_BITS-1:0]];
        assign done_err = (ONE << done_tag) & {N{done_valid && done_resp[1]}};
    end else if (TRACK_DONE != 0) begin : one
        assign done_err = done_valid && done_resp[1];
    end else begin : none
        assign done_err = {N{1'b0}};
    end
endgenerate

// done_resp[0] (EXOKAY vs OKAY, SLVERR vs DECERR) does not matter here
wire unused = &{1'b0, clk, rst, done_resp[0], index_mux, addr_mux, nwords_mux, data_mux, TRACK_DONE == 0 ? {done_valid, done_resp[1]} : 2'b00};

endmodule

`default_nettype wire
