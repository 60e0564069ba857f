// pp_chnl_rx: one RIFFA-style receive channel (software to hardware) over a PushPush call
// with a buffer parameter (docs/rtl-ports.md, "Channels").
//
// A send is one call of the channel's export `<c>_rx(data: in u32[], off: u32, last: bool)
// -> u32`: the wrapper presents it on the call group (call_*) and streams `data` from
// memory (s_t*, cores/axi_dma). This core raises CHNL_RX with CHNL_RX_LEN/_OFF/_LAST, waits
// for the user core's CHNL_RX_ACK, then hands the stream over as RIFFA's FIFO port
// (CHNL_RX_DATA/_DATA_VALID/_DATA_REN, first word fall through). CHNL_RX stays high until
// the last word is consumed. The call completes with the number of words the core took.
//
// A core that makes no progress (no ACK, no word taken) for TIMEOUT cycles (0: never) is
// left behind: CHNL_RX drops, the rest of the stream is taken and dropped (so the DMA
// engine finishes normally and the channel serves the next send), and the result has
// bit 31 set: result = {timed_out, words taken [30:0]}.
`default_nettype none

module pp_chnl_rx #(
    parameter integer TIMEOUT = 16384
) (
    input  wire        clk,
    input  wire        rst,
    // the call group of export <c>_rx
    input  wire        call_valid,
    output wire        call_ready,
    input  wire [31:0] call_len,
    input  wire [31:0] call_off,
    input  wire        call_last,
    output wire        result_valid,
    input  wire        result_ready,
    output wire [31:0] result,
    // the buffer's stream (from pp_buf_rd through the wrapper)
    input  wire [31:0] s_tdata,
    input  wire        s_tvalid,
    output wire        s_tready,
    input  wire        s_tlast,
    // RIFFA's receive side (seen from the user core: these are its inputs and outputs reversed)
    output wire        CHNL_RX,
    input  wire        CHNL_RX_ACK,
    output wire        CHNL_RX_LAST,
    output wire [31:0] CHNL_RX_LEN,
    output wire [30:0] CHNL_RX_OFF,
    output wire [31:0] CHNL_RX_DATA,
    output wire        CHNL_RX_DATA_VALID,
    input  wire        CHNL_RX_DATA_REN
);
    localparam [2:0] S_IDLE = 3'd0, S_ACK = 3'd1, S_DATA = 3'd2, S_DRAIN = 3'd3, S_DONE = 3'd4;

    reg [2:0]  state;
    reg [31:0] len, taken, got;
    reg [30:0] off;
    reg        last, tmo;
    reg [31:0] idle;

    wire in_data = (state == S_DATA);
    assign call_ready         = (state == S_IDLE);
    assign result_valid       = (state == S_DONE);
    assign result             = {tmo, taken[30:0]};
    assign CHNL_RX            = (state == S_ACK) || in_data;
    assign CHNL_RX_LAST       = last;
    assign CHNL_RX_LEN        = len;
    assign CHNL_RX_OFF        = off;
    assign CHNL_RX_DATA       = s_tdata;
    assign CHNL_RX_DATA_VALID = in_data && s_tvalid;
    assign s_tready           = (in_data && CHNL_RX_DATA_REN) || (state == S_DRAIN);

    wire beat     = s_tvalid && s_tready;
    wire end_beat = beat && (s_tlast || got + 32'd1 == len);
    wire progress = beat || ((state == S_ACK) && CHNL_RX_ACK);
    wire expired  = (TIMEOUT != 0) && (idle >= TIMEOUT - 1) && !progress;

    always @(posedge clk) begin
        if (beat) got <= got + 32'd1;
        if (progress || state == S_IDLE) idle <= 32'd0;
        else if (!expired) idle <= idle + 32'd1;
        case (state)
            S_IDLE:
                if (call_valid) begin
                    len   <= call_len;
                    off   <= call_off[30:0];
                    last  <= call_last;
                    taken <= 32'd0;
                    got   <= 32'd0;
                    tmo   <= 1'b0;
                    state <= S_ACK;
                end
            S_ACK:
                if (CHNL_RX_ACK) begin
                    state <= (len == 32'd0) ? S_DONE : S_DATA;
                end else if (expired) begin
                    tmo   <= 1'b1;
                    idle  <= 32'd0;
                    state <= (len == 32'd0) ? S_DONE : S_DRAIN;
                end
            S_DATA:
                if (beat) begin
                    taken <= taken + 32'd1;
                    if (end_beat) state <= S_DONE;
                end else if (expired) begin
                    tmo   <= 1'b1;
                    state <= S_DRAIN;
                end
            S_DRAIN:
                if (end_beat || got == len) state <= S_DONE;
            S_DONE:
                if (result_ready) state <= S_IDLE;
            default: state <= S_IDLE;
        endcase
        if (rst) begin
            state <= S_IDLE;
            idle  <= 32'd0;
            len   <= 32'd0;
            off   <= 31'd0;
            last  <= 1'b0;
            taken <= 32'd0;
            got   <= 32'd0;
            tmo   <= 1'b0;
        end
    end

    wire unused = &{1'b0, call_off[31]};
endmodule

`default_nettype wire
