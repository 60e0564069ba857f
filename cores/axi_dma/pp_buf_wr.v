// pp_buf_wr: the engine of an 'out' buffer parameter (docs/rtl-ports.md, "Buffers").
//
// start (with addr, count) takes up to count elements of ELEM_BITS bits from the user's
// module on s_axis (one element per beat) and writes them to memory from addr on (any byte
// address) through pp_axi_dma_s2mm (cores/axi_dma). The transfer ends at the count-th
// element or at an element with tlast, whichever comes first; done pulses once the last
// write was answered (so software sees the data when the call's result arrives), with
// done_code: 0 ok, 1 timeout (no element for TIMEOUT cycles: aborted), 2 SLVERR, 3 DECERR
// (a write answered so), 4 too long (count * ELEM_BITS/8 bytes >= 2**LEN_WIDTH: nothing
// written), and done_count, the elements written. While idle the engine takes and drops
// whatever the module offers (dropped pulses per element), so elements beyond count never
// land in the next call's buffer; in the cycle of start it takes nothing.
// count = 0: done (ok) the cycle after start, nothing written.
`default_nettype none

module pp_buf_wr #(
    // element width: 8, 16 or 32
    parameter integer ELEM_BITS = 32,
    // bytes per transfer at most 2**LEN_WIDTH-1 (pp_axi_dma_s2mm's LEN_WIDTH, 8..26)
    parameter integer LEN_WIDTH = 26,
    // beats per AXI burst and log2 of the write FIFO (pp_axi_dma_s2mm)
    parameter integer MAX_BURST = 16,
    parameter integer FIFO_LOG2 = 5,
    // cycles without an element (or, after the last, without the engine finishing) before
    // the transfer is aborted (0: never)
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
    output reg  [31:0]           done_count,
    output wire                  dropped,
    // AXI4 write channels (memory)
    output wire [ID_WIDTH-1:0]   m_axi_awid,
    output wire [31:0]           m_axi_awaddr,
    output wire [7:0]            m_axi_awlen,
    output wire [2:0]            m_axi_awsize,
    output wire [1:0]            m_axi_awburst,
    output wire [3:0]            m_axi_awcache,
    output wire [2:0]            m_axi_awprot,
    output wire                  m_axi_awvalid,
    input  wire                  m_axi_awready,
    output wire [31:0]           m_axi_wdata,
    output wire [3:0]            m_axi_wstrb,
    output wire                  m_axi_wlast,
    output wire                  m_axi_wvalid,
    input  wire                  m_axi_wready,
    input  wire [ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]            m_axi_bresp,
    input  wire                  m_axi_bvalid,
    output wire                  m_axi_bready,
    // the user's stream (one element per beat)
    input  wire [ELEM_BITS-1:0]  s_axis_tdata,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast
);
    localparam integer EB  = ELEM_BITS / 8;          // bytes per element
    localparam integer EPW = 4 / EB;                 // elements per word
    localparam [33:0] LIMIT = 34'd1 << LEN_WIDTH;
    localparam [31:0] EB32  = EB;
    localparam [33:0] EB34  = {2'b00, EB32};
    localparam [31:0] EPW32 = EPW;
    localparam [2:0]  EPW3  = EPW32[2:0];

    localparam [1:0] S_IDLE = 2'd0, S_RUN = 2'd1, S_FLUSH = 2'd2, S_STOP = 2'd3;
    reg [1:0]  state;
    reg [31:0] idle_cycles;
    reg [31:0] taken;
    reg [31:0] count;
    reg        cancel;

    wire [33:0] bytes = {2'b00, start_count} * EB34;
    wire        zero  = (start_count == 32'd0);
    wire        too_long = (bytes >= LIMIT);

    // ---------------------------------------------------------------- the S2MM engine
    wire        sub_busy;
    wire        sub_done;
    wire [1:0]  sub_done_err;
    wire        sub_done_abort;
    wire [LEN_WIDTH-1:0] sub_done_bytes;
    reg  [31:0] beat_data;
    reg  [3:0]  beat_keep;
    reg         beat_last;
    reg         beat_valid;
    wire        sub_tready;

    pp_axi_dma_s2mm #(.DATA_WIDTH(32), .ADDR_WIDTH(32), .LEN_WIDTH(LEN_WIDTH),
                      .MAX_BURST(MAX_BURST), .FIFO_LOG2(FIFO_LOG2)) u_s2mm (
        .clk(clk), .rst(rst),
        .start(start && state == S_IDLE && !zero && !too_long),
        .start_addr(start_addr), .start_len(bytes[LEN_WIDTH-1:0]), .cancel(cancel),
        .busy(sub_busy), .done(sub_done), .done_err(sub_done_err), .done_abort(sub_done_abort),
        .done_bytes(sub_done_bytes),
        .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
        .m_axi_awburst(m_axi_awburst), .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_wdata(m_axi_wdata),
        .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
        .m_axi_wready(m_axi_wready), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
        .m_axi_bready(m_axi_bready),
        .s_axis_tdata(beat_data), .s_axis_tkeep(beat_keep), .s_axis_tlast(beat_last),
        .s_axis_tvalid(beat_valid), .s_axis_tready(sub_tready)
    );

    // ---------------------------------------------------------------- elements -> words
    reg  [31:0] acc;       // the word being filled, low element first
    reg  [2:0]  k;         // elements in acc
    wire        run_ready = (state == S_RUN) && !cancel && (!beat_valid || sub_tready);
    assign s_axis_tready = run_ready || (state == S_IDLE && !start);
    wire        in_fire  = s_axis_tvalid && s_axis_tready && (state == S_RUN);
    assign dropped = s_axis_tvalid && s_axis_tready && (state == S_IDLE);
    wire        in_end   = s_axis_tlast || (taken + 32'd1 == count);
    wire        word_full = (k + 3'd1 == EPW3);
    wire [31:0] elem32;
    generate
        if (ELEM_BITS == 32) begin : g_w32
            assign elem32 = s_axis_tdata;
        end else begin : g_wn
            assign elem32 = {{(32-ELEM_BITS){1'b0}}, s_axis_tdata};
        end
    endgenerate
    wire [31:0] acc_next = acc | (elem32 << (k * ELEM_BITS));
    wire [2:0]  nbytes   = (k + 3'd1) * EB32[2:0];
    assign busy = (state != S_IDLE);

    assign m_axi_awid = {ID_WIDTH{1'b0}};
    wire unused = &{1'b0, m_axi_bid, sub_busy, sub_done_abort, bytes[33:LEN_WIDTH], sub_done_bytes};

    always @(posedge clk) begin
        done <= 1'b0;
        if (beat_valid && sub_tready) begin
            beat_valid <= 1'b0;
        end
        if (in_fire) begin
            taken <= taken + 32'd1;
            if (word_full || in_end) begin
                beat_valid <= 1'b1;
                beat_data  <= acc_next;
                beat_keep  <= (nbytes == 3'd4) ? 4'b1111 : (nbytes == 3'd3) ? 4'b0111
                              : (nbytes == 3'd2) ? 4'b0011 : 4'b0001;
                beat_last  <= in_end;
                acc        <= 32'd0;
                k          <= 3'd0;
            end else begin
                acc <= acc_next;
                k   <= k + 3'd1;
            end
        end
        case (state)
            S_IDLE: begin
                if (start) begin
                    idle_cycles <= 32'd0;
                    taken       <= 32'd0;
                    count       <= start_count;
                    acc         <= 32'd0;
                    k           <= 3'd0;
                    if (zero || too_long) begin
                        done       <= 1'b1;
                        done_code  <= too_long ? 3'd4 : 3'd0;
                        done_count <= 32'd0;
                    end else begin
                        state <= S_RUN;
                    end
                end
            end
            S_RUN, S_FLUSH: begin
                idle_cycles <= in_fire ? 32'd0 : idle_cycles + 32'd1;
                if (in_fire && in_end) begin
                    state <= S_FLUSH;
                end
                if (sub_done) begin  // finished (FLUSH) or a write error (RUN or FLUSH)
                    beat_valid <= 1'b0;
                    done       <= 1'b1;
                    done_code  <= sub_done_err[1] ? {1'b0, sub_done_err} : 3'd0;
                    done_count <= taken + (in_fire ? 32'd1 : 32'd0);
                    state      <= S_IDLE;
                end else if (TIMEOUT != 0 && idle_cycles == TIMEOUT) begin
                    cancel <= 1'b1;
                    state <= S_STOP;
                end
            end
            default: begin  // S_STOP: aborting after a timeout; wait for the engine
                if (sub_done) begin
                    cancel      <= 1'b0;
                    beat_valid <= 1'b0;
                    done       <= 1'b1;
                    done_code  <= 3'd1;
                    done_count <= taken;
                    state      <= S_IDLE;
                end
            end
        endcase
        if (rst) begin
            state       <= S_IDLE;
            done        <= 1'b0;
            done_code   <= 3'd0;
            done_count  <= 32'd0;
            cancel       <= 1'b0;
            idle_cycles <= 32'd0;
            taken       <= 32'd0;
            count       <= 32'd0;
            acc         <= 32'd0;
            k           <= 3'd0;
            beat_valid  <= 1'b0;
            beat_data   <= 32'd0;
            beat_keep   <= 4'd0;
            beat_last   <= 1'b0;
        end
    end

    initial begin
        state = S_IDLE; done = 1'b0; done_code = 3'd0; done_count = 32'd0; cancel = 1'b0;
        idle_cycles = 32'd0; taken = 32'd0; count = 32'd0; acc = 32'd0; k = 3'd0;
        beat_valid = 1'b0; beat_data = 32'd0; beat_keep = 4'd0; beat_last = 1'b0;
    end
endmodule

`default_nettype wire
