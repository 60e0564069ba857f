// pp_buf_rd: the engine of an 'in' buffer parameter (docs/rtl-ports.md, "Buffers").
//
// start (with addr, count) reads count elements of ELEM_BITS bits from memory at addr (any
// byte address) through pp_axi_dma_mm2s (cores/axi_dma) and hands them to the user's module
// one element per beat on m_axis (tdata, tvalid, tready, tlast on the count-th element).
// done pulses once the last element was taken (or the transfer failed), with done_code:
//   0 ok, 1 timeout (no element taken for TIMEOUT cycles: the transfer is aborted; the
//   stream still ends cleanly: the elements not taken follow as zeros, tlast on the
//   count-th, offered until the module took them or the next start), 2 SLVERR, 3 DECERR (a read answered so: the rest of the
//   stream is zeros, still count elements with tlast on the last, so that the module
//   finishes its call and the caller gets the error; done once it took them, or after
//   TIMEOUT cycles without taking one), 4 too long (count * ELEM_BITS/8 bytes >=
//   2**LEN_WIDTH: nothing read).
// count = 0: done (ok) the cycle after start, nothing read, no beat.
`default_nettype none

module pp_buf_rd #(
    // element width: 8, 16 or 32
    parameter integer ELEM_BITS = 32,
    // bytes per transfer at most 2**LEN_WIDTH-1 (pp_axi_dma_mm2s's LEN_WIDTH, 8..26)
    parameter integer LEN_WIDTH = 26,
    // beats per AXI burst and log2 of the read FIFO (pp_axi_dma_mm2s)
    parameter integer MAX_BURST = 16,
    parameter integer FIFO_LOG2 = 5,
    // cycles without a taken element before the transfer is aborted (0: never)
    parameter integer TIMEOUT   = 65536,
    // width of the AXI IDs (every transaction uses ID 0)
    parameter integer ID_WIDTH  = 1
) (
    input  wire                  clk,
    input  wire                  rst,
    // command
    input  wire                  start,
    input  wire [31:0]           start_addr,
    input  wire [31:0]           start_count,
    output wire                  busy,
    output reg                   done,
    output reg  [2:0]            done_code,
    // AXI4 read channels (memory)
    output wire [ID_WIDTH-1:0]   m_axi_arid,
    output wire [31:0]           m_axi_araddr,
    output wire [7:0]            m_axi_arlen,
    output wire [2:0]            m_axi_arsize,
    output wire [1:0]            m_axi_arburst,
    output wire [3:0]            m_axi_arcache,
    output wire [2:0]            m_axi_arprot,
    output wire                  m_axi_arvalid,
    input  wire                  m_axi_arready,
    input  wire [31:0]           m_axi_rdata,
    input  wire [ID_WIDTH-1:0]   m_axi_rid,
    input  wire [1:0]            m_axi_rresp,
    input  wire                  m_axi_rlast,
    input  wire                  m_axi_rvalid,
    output wire                  m_axi_rready,
    // the user's stream (one element per beat)
    output wire [ELEM_BITS-1:0]  m_axis_tdata,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast
);
    localparam integer EB = ELEM_BITS / 8;          // bytes per element
    localparam [33:0] LIMIT = 34'd1 << LEN_WIDTH;
    localparam [31:0] EB32  = EB;
    localparam [33:0] EB34  = {2'b00, EB32};
    localparam [2:0]  EB3   = EB32[2:0];

    localparam [1:0] S_IDLE = 2'd0, S_RUN = 2'd1, S_STOP = 2'd2, S_PAD = 2'd3;
    reg [1:0]  state;
    reg [31:0] idle_cycles;
    reg        sub_done_seen;
    reg [31:0] count;      // elements of the transfer
    reg [31:0] sent;       // elements taken by the module
    reg [2:0]  err_code;   // the read error being padded over
    reg        owe;        // idle after a timeout: the rest of the stream is owed as zeros

    wire [33:0] bytes = {2'b00, start_count} * EB34;
    wire        zero  = (start_count == 32'd0);
    wire        too_long = (bytes >= LIMIT);

    // ---------------------------------------------------------------- the MM2S engine
    wire                 sub_busy;
    wire                 sub_done;
    wire [1:0]           sub_done_err;
    wire                 sub_done_abort;
    wire [31:0]          s_tdata;
    wire [3:0]           s_tkeep;
    wire                 s_tlast;
    wire                 s_tvalid;
    wire                 s_tready;
    reg                  cancel;

    pp_axi_dma_mm2s #(.DATA_WIDTH(32), .ADDR_WIDTH(32), .LEN_WIDTH(LEN_WIDTH),
                      .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2)) u_mm2s (
        .clk(clk), .rst(rst),
        .start(start && state == S_IDLE && !zero && !too_long),
        .start_addr(start_addr), .start_len(bytes[LEN_WIDTH-1:0]), .cancel(cancel),
        .busy(sub_busy), .done(sub_done), .done_err(sub_done_err), .done_abort(sub_done_abort),
        .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
        .m_axi_arburst(m_axi_arburst), .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_rdata(m_axi_rdata),
        .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready),
        .m_axis_tdata(s_tdata), .m_axis_tkeep(s_tkeep), .m_axis_tlast(s_tlast),
        .m_axis_tvalid(s_tvalid), .m_axis_tready(s_tready)
    );

    // ---------------------------------------------------------------- word -> elements
    // hold: the word being handed out, low element first; left: its elements not yet taken
    reg  [31:0] hold;
    reg  [2:0]  left;
    reg         hold_last;
    wire        out_fire = m_axis_tvalid && m_axis_tready;
    wire        hold_empty_next = (left == 3'd0) || (left == 3'd1 && out_fire);
    // keep is low-justified: the word's bytes are its popcount
    wire [2:0]  keep_bytes = {2'b00, s_tkeep[0]} + {2'b00, s_tkeep[1]} + {2'b00, s_tkeep[2]} + {2'b00, s_tkeep[3]};
    wire [2:0]  keep_elems = keep_bytes / EB3;
    assign s_tready = (state == S_RUN) && !cancel && hold_empty_next;
    wire        s_fire = s_tvalid && s_tready;

    wire        pad = (state == S_PAD) || (state == S_IDLE && owe);
    assign m_axis_tdata  = pad ? {ELEM_BITS{1'b0}} : hold[ELEM_BITS-1:0];
    assign m_axis_tvalid = (pad && sent != count) || ((state == S_RUN) && !cancel && (left != 3'd0));
    assign m_axis_tlast  = pad ? (sent + 32'd1 == count) : (hold_last && (left == 3'd1));
    assign busy = (state != S_IDLE);

    assign m_axi_arid = {ID_WIDTH{1'b0}};
    wire unused = &{1'b0, m_axi_rid, sub_busy, sub_done_abort, keep_bytes, bytes[33:LEN_WIDTH]};

    always @(posedge clk) begin
        done <= 1'b0;
        if (out_fire) begin
            sent <= sent + 32'd1;
            if (!pad) begin   // (a padded zero leaves the held word alone: left stays 0)
                hold <= hold >> ELEM_BITS;
                left <= left - 3'd1;
            end
        end
        if (s_fire) begin
            hold      <= s_tdata;
            left      <= keep_elems;
            hold_last <= s_tlast;
        end
        case (state)
            S_IDLE: begin
                if (out_fire && m_axis_tlast)   // the owed stream's last zero was taken
                    owe <= 1'b0;
                if (start) begin
                    owe           <= 1'b0;      // a new call: what is still owed is dropped
                    idle_cycles   <= 32'd0;
                    sub_done_seen <= 1'b0;
                    count         <= start_count;
                    sent          <= 32'd0;
                    if (zero || too_long) begin
                        done      <= 1'b1;
                        done_code <= too_long ? 3'd4 : 3'd0;
                    end else begin
                        state <= S_RUN;
                    end
                end
            end
            S_RUN: begin
                idle_cycles <= out_fire ? 32'd0 : idle_cycles + 32'd1;
                if (sub_done) begin
                    sub_done_seen <= 1'b1;
                end
                if (TIMEOUT != 0 && idle_cycles == TIMEOUT) begin
                    if (sub_done_seen || sub_done) begin  // all read, the user never took it
                        left      <= 3'd0;
                        done      <= 1'b1;
                        done_code <= 3'd1;
                        owe       <= 1'b1;
                        state     <= S_IDLE;
                    end else begin
                        cancel <= 1'b1;
                        state <= S_STOP;
                    end
                end else if (sub_done && sub_done_err[1]) begin
                    // a read error cut the stream: drop what is held, pad with zeros
                    left        <= 3'd0;
                    err_code    <= {1'b0, sub_done_err};
                    idle_cycles <= 32'd0;
                    state       <= S_PAD;
                end else if ((sub_done || sub_done_seen) && hold_empty_next && !s_fire) begin
                    // the last element was taken: the buffer has been read whole
                    done      <= 1'b1;
                    done_code <= 3'd0;
                    state     <= S_IDLE;
                end
            end
            S_PAD: begin
                idle_cycles <= out_fire ? 32'd0 : idle_cycles + 32'd1;
                if ((out_fire && m_axis_tlast) || sent == count
                        || (TIMEOUT != 0 && idle_cycles == TIMEOUT)) begin
                    done      <= 1'b1;
                    done_code <= err_code;
                    state     <= S_IDLE;
                end
            end
            default: begin  // S_STOP: aborting after a timeout; wait for the engine
                left <= 3'd0;
                if (sub_done) begin
                    cancel     <= 1'b0;
                    done      <= 1'b1;
                    done_code <= 3'd1;
                    owe       <= 1'b1;
                    state     <= S_IDLE;
                end
            end
        endcase
        if (rst) begin
            state       <= S_IDLE;
            done        <= 1'b0;
            done_code   <= 3'd0;
            cancel       <= 1'b0;
            left        <= 3'd0;
            hold        <= 32'd0;
            hold_last   <= 1'b0;
            idle_cycles <= 32'd0;
            sub_done_seen <= 1'b0;
            count       <= 32'd0;
            sent        <= 32'd0;
            err_code    <= 3'd0;
            owe         <= 1'b0;
        end
    end

    initial begin
        state = S_IDLE; done = 1'b0; done_code = 3'd0; cancel = 1'b0; left = 3'd0; hold = 32'd0;
        hold_last = 1'b0; idle_cycles = 32'd0; sub_done_seen = 1'b0;
        count = 32'd0; sent = 32'd0; err_code = 3'd0; owe = 1'b0;
    end
endmodule

`default_nettype wire
