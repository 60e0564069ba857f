// pp_chnl_tx: one RIFFA-style transmit channel (hardware to software) over a PushPush call
// with a buffer parameter (docs/rtl-ports.md, "Channels").
//
// A receive posts a buffer with one call of the channel's export `<c>_tx(data: out u32[])
// -> u64` (call_len: its capacity in words); the wrapper's engine (cores/axi_dma) writes the
// stream m_t* into it. The user core raises CHNL_TX with CHNL_TX_LEN/_OFF/_LAST; this core
// acknowledges (CHNL_TX_ACK, for one cycle, combinationally while a receive is posted) and
// takes words on CHNL_TX_DATA while CHNL_TX_DATA_VALID and CHNL_TX_DATA_REN. A transaction
// ends after CHNL_TX_LEN words, or early when the core lowers CHNL_TX (RIFFA's early
// termination). The call completes with
//   result[31:0]  = {timed_out, words written into the buffer [30:0]}
//   result[62:32] = the offset (words) of the first of them in the receiver's buffer:
//                   CHNL_TX_OFF plus the words of the transaction earlier calls took
//   result[63]    = the transaction ended in this call with CHNL_TX_LAST high
// A transaction longer than the posted buffer continues in the next call (no new ACK).
// A call with nothing to take for TIMEOUT cycles (0: never) completes with what it has and
// the timeout bit; the transaction, if any, continues in the next call. When a call ends
// without a word carrying tlast (early termination, timeout, a zero-length transaction),
// one scratch word (zero) with tlast ends the engine's transfer: it lands right after the
// words written, inside the buffer, and is not counted.
`default_nettype none

module pp_chnl_tx #(
    parameter integer TIMEOUT = 16384
) (
    input  wire        clk,
    input  wire        rst,
    // the call group of export <c>_tx
    input  wire        call_valid,
    output wire        call_ready,
    input  wire [31:0] call_len,
    output wire        result_valid,
    input  wire        result_ready,
    output wire [63:0] result,
    // the buffer's stream (to pp_buf_wr through the wrapper)
    output wire [31:0] m_tdata,
    output wire        m_tvalid,
    input  wire        m_tready,
    output wire        m_tlast,
    // RIFFA's transmit side
    input  wire        CHNL_TX,
    output wire        CHNL_TX_ACK,
    input  wire        CHNL_TX_LAST,
    input  wire [31:0] CHNL_TX_LEN,
    input  wire [30:0] CHNL_TX_OFF,
    input  wire [31:0] CHNL_TX_DATA,
    input  wire        CHNL_TX_DATA_VALID,
    output wire        CHNL_TX_DATA_REN
);
    localparam [1:0] S_IDLE = 2'd0, S_WAIT = 2'd1, S_FLUSH = 2'd2, S_DONE = 2'd3;

    reg [1:0]  state;
    // the transaction (may span calls)
    reg        txn, t_last;
    reg [31:0] t_len, t_sent;
    reg [30:0] t_off;
    // the call
    reg [31:0] cap, n;
    reg [30:0] c_off;
    reg        r_last, tmo;
    reg [31:0] idle;

    wire waiting = (state == S_WAIT);
    wire ack     = waiting && !txn && CHNL_TX && (cap != 32'd0);
    wire stream  = waiting && txn && CHNL_TX;
    wire t_end   = (t_sent + 32'd1 == t_len);
    wire c_end   = (n + 32'd1 == cap);

    assign call_ready       = (state == S_IDLE);
    assign result_valid     = (state == S_DONE);
    assign result           = {r_last, c_off, tmo, n[30:0]};
    assign CHNL_TX_ACK      = ack;
    assign CHNL_TX_DATA_REN = stream && m_tready;
    assign m_tvalid         = (stream && CHNL_TX_DATA_VALID) || (state == S_FLUSH);
    assign m_tdata          = (state == S_FLUSH) ? 32'd0 : CHNL_TX_DATA;
    assign m_tlast          = (state == S_FLUSH) || t_end || c_end;

    wire beat     = stream && CHNL_TX_DATA_VALID && m_tready;
    wire progress = beat || ack;
    wire expired  = (TIMEOUT != 0) && (idle >= TIMEOUT - 1) && !progress;

    always @(posedge clk) begin
        if (progress || !waiting) idle <= 32'd0;
        else if (!expired) idle <= idle + 32'd1;
        case (state)
            S_IDLE:
                if (call_valid) begin
                    cap    <= call_len;
                    n      <= 32'd0;
                    c_off  <= txn ? t_off + t_sent[30:0] : 31'd0;
                    r_last <= 1'b0;
                    tmo    <= 1'b0;
                    state  <= (call_len == 32'd0) ? S_DONE : S_WAIT;
                end
            S_WAIT:
                if (ack) begin
                    txn    <= (CHNL_TX_LEN != 32'd0);
                    t_len  <= CHNL_TX_LEN;
                    t_off  <= CHNL_TX_OFF;
                    t_last <= CHNL_TX_LAST;
                    t_sent <= 32'd0;
                    c_off  <= CHNL_TX_OFF;
                    if (CHNL_TX_LEN == 32'd0) begin   // an empty transaction: ends the call
                        r_last <= CHNL_TX_LAST;
                        state  <= S_FLUSH;
                    end
                end else if (beat) begin
                    n      <= n + 32'd1;
                    t_sent <= t_sent + 32'd1;
                    if (t_end) begin
                        txn    <= 1'b0;
                        r_last <= t_last;
                        state  <= S_DONE;
                    end else if (c_end) begin
                        state  <= S_DONE;
                    end
                end else if (txn && !CHNL_TX) begin  // early termination
                    txn    <= 1'b0;
                    r_last <= t_last;
                    state  <= S_FLUSH;
                end else if (expired) begin
                    tmo   <= 1'b1;
                    state <= S_FLUSH;
                end
            S_FLUSH:
                if (m_tready) state <= S_DONE;
            S_DONE:
                if (result_ready) state <= S_IDLE;
            default: state <= S_IDLE;
        endcase
        if (rst) begin
            state  <= S_IDLE;
            idle   <= 32'd0;
            txn    <= 1'b0;
            t_last <= 1'b0;
            t_len  <= 32'd0;
            t_sent <= 32'd0;
            t_off  <= 31'd0;
            cap    <= 32'd0;
            n      <= 32'd0;
            c_off  <= 31'd0;
            r_last <= 1'b0;
            tmo    <= 1'b0;
        end
    end
endmodule

`default_nettype wire
