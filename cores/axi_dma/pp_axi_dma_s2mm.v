// pp_axi_dma_s2mm: the S2MM (stream to memory) datapath of pp_axi_dma.
//
// start (with addr, len > 0) takes one packet from s_axis and writes it from addr on: the
// realigner packs the stream bytes (TKEEP low-justified: all ones but on the TLAST beat)
// into memory words at the destination's byte offset; the words go into a FIFO in bursts
// of up to MAX_BURST beats that end at a 4 KiB boundary or at the packet's end, and a
// burst's AW is issued only once all its beats are in the FIFO (store and forward per
// burst, so WVALID never waits on the stream); its W beats follow from the cycle its AW is
// presented, not only once AW is taken (AXI lets W lead AW), so behind an interconnect that
// takes a master's next AW only after its previous WLAST the bursts' beats still come back
// to back. WSTRB covers exactly the packet's bytes.
// done pulses once every B came back; done_bytes is the number of bytes taken (TLAST may
// come before len bytes). A packet longer than len: the first len bytes are written, the
// beat that fills the buffer is taken, the rest of the packet stays on the stream, and
// done_err = 2'b01 (internal error). A BRESP of SLVERR/DECERR, or cancel: the stream is no
// longer taken, the bursts already issued are completed, everything else is dropped, then
// done with done_err (2'b10 / 2'b11, the first seen) and done_abort.
`default_nettype none

module pp_axi_dma_s2mm #(
    parameter integer DATA_WIDTH = 32,
    parameter integer ADDR_WIDTH = 32,
    parameter integer LEN_WIDTH  = 26,
    parameter integer MAX_BURST  = 16,
    parameter integer FIFO_LOG2  = 6
) (
    input  wire                      clk,
    input  wire                      rst,
    // control
    input  wire                      start,
    input  wire [ADDR_WIDTH-1:0]     start_addr,
    input  wire [LEN_WIDTH-1:0]      start_len,
    input  wire                      cancel,
    output reg                       busy,
    output reg                       done,
    output reg  [1:0]                done_err,
    output reg                       done_abort,
    output reg  [LEN_WIDTH-1:0]      done_bytes,
    // AXI4 write address / data / response
    output wire [ADDR_WIDTH-1:0]     m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]   m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,
    // AXI4-Stream in
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tlast,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready
);
    localparam integer NB   = DATA_WIDTH / 8;
    localparam integer NB_W = (NB == 8) ? 3 : 2;
    localparam integer CW   = 3;                       // log2 of the burst-command FIFO depth
    localparam [31:0]  MAXB32 = MAX_BURST;
    localparam [8:0]   MAXB = MAXB32[8:0];
    localparam [31:0]  NB32 = NB;
    localparam [ADDR_WIDTH-1:0] NBA = {{(ADDR_WIDTH-4){1'b0}}, NB32[3:0]};

    // ---------------------------------------------------------------- state
    reg                  stopping;
    reg                  in_done;        // the packet's last byte (or len bytes) was taken
    reg                  out_done;       // the realigner gave its last word
    reg                  overflow;
    reg [LEN_WIDTH-1:0]  room_left;      // bytes the buffer still takes
    reg [LEN_WIDTH-1:0]  taken;          // bytes taken from the stream
    reg [NB_W-1:0]       offset;
    reg                  first_word;
    reg [ADDR_WIDTH-1:0] wr_addr;        // address of the next word into the FIFO
    reg [ADDR_WIDTH-1:0] burst_addr;     // first word of the burst being gathered
    reg [8:0]            burst_beats;    // words gathered in it
    reg [8:0]            w_credit;       // bursts whose AW is presented and whose W is not done
    reg [8:0]            b_pending;      // AWs sent whose B has not come
    reg                  flush;

    // ---------------------------------------------------------------- stream -> realigner
    reg [NB_W:0] keep_n;
    integer k;
    always @(*) begin
        keep_n = {(NB_W+1){1'b0}};
        for (k = 0; k < NB; k = k + 1)
            keep_n = keep_n + {{NB_W{1'b0}}, s_axis_tkeep[k]};
    end
    wire [LEN_WIDTH-1:0] keep_l  = {{(LEN_WIDTH-NB_W-1){1'b0}}, keep_n};
    wire                 fills   = (keep_l >= room_left);
    wire [NB_W:0]        in_n    = fills ? room_left[NB_W:0] : keep_n;
    wire                 in_end  = s_axis_tlast || fills;
    wire                 take_ok = busy && !stopping && !in_done;
    wire                 ra_in_ready;
    assign s_axis_tready = take_ok && ra_in_ready;
    wire                 take    = s_axis_tvalid && s_axis_tready;

    wire                  ra_out_valid;
    wire [DATA_WIDTH-1:0] ra_out_data;
    wire [NB_W:0]         ra_out_n;
    wire                  ra_out_last;
    wire                  ra_empty;
    wire                  ra_out_ready;

    pp_axi_dma_realign #(.NB(NB), .NB_W(NB_W)) u_realign (
        .clk(clk), .rst(rst), .clr(flush), .init(start && !busy), .init_cnt(start_addr[NB_W-1:0]),
        .in_valid(s_axis_tvalid && take_ok), .in_ready(ra_in_ready),
        .in_data(s_axis_tdata), .in_shift({NB_W{1'b0}}), .in_n(in_n), .in_end(in_end),
        .out_valid(ra_out_valid), .out_ready(ra_out_ready),
        .out_data(ra_out_data), .out_n(ra_out_n), .out_last(ra_out_last), .empty(ra_empty)
    );

    // ---------------------------------------------------------------- words -> bursts
    wire [NB_W:0] lo = first_word ? {1'b0, offset} : {(NB_W+1){1'b0}};
    wire [NB-1:0] strb;
    genvar g;
    generate
        for (g = 0; g < NB; g = g + 1) begin : g_strb
            assign strb[g] = (ra_out_n > g) && (lo <= g);
        end
    endgenerate
    wire       at_4k      = (wr_addr[11:NB_W] == {(12-NB_W){1'b1}});
    wire       burst_end  = ra_out_last || at_4k || (burst_beats + 9'd1 == MAXB);
    wire       d_in_ready;
    wire       c_in_ready;
    assign ra_out_ready = busy && !stopping && d_in_ready && (c_in_ready || !burst_end);
    wire       word_push  = ra_out_valid && ra_out_ready;
    wire [ADDR_WIDTH-1:0] cmd_addr = (burst_beats == 9'd0) ? wr_addr : burst_addr;
    wire [7:0]            cmd_len  = burst_beats[7:0];   // beats - 1

    wire                  d_valid;
    wire [DATA_WIDTH+NB:0] d_data;
    wire                  c_valid;
    wire [ADDR_WIDTH+7:0] c_data;
    reg                   aw_valid;
    reg  [ADDR_WIDTH-1:0] aw_addr;
    reg  [7:0]            aw_len;
    // at most 255 bursts wait for their B (the counters' range)
    wire                  c_pop = c_valid && !aw_valid && !stopping && !b_pending[8];

    pp_axi_dma_fifo #(.WIDTH(DATA_WIDTH + NB + 1), .DEPTH_LOG2(FIFO_LOG2)) u_data (
        .clk(clk), .rst(rst), .clr(flush),
        .in_valid(word_push), .in_ready(d_in_ready), .in_data({burst_end, strb, ra_out_data}),
        .out_valid(d_valid), .out_ready(m_axi_wready && w_credit != 9'd0), .out_data(d_data)
    );

    pp_axi_dma_fifo #(.WIDTH(ADDR_WIDTH + 8), .DEPTH_LOG2(CW)) u_cmd (
        .clk(clk), .rst(rst), .clr(flush),
        .in_valid(word_push && burst_end), .in_ready(c_in_ready), .in_data({cmd_len, cmd_addr}),
        .out_valid(c_valid), .out_ready(c_pop), .out_data(c_data)
    );

    assign m_axi_awaddr  = aw_addr;
    assign m_axi_awlen   = aw_len;
    assign m_axi_awsize  = NB_W[2:0];
    assign m_axi_awburst = 2'b01;
    assign m_axi_awcache = 4'b0011;
    assign m_axi_awprot  = 3'b000;
    assign m_axi_awvalid = aw_valid;
    assign m_axi_wvalid  = d_valid && (w_credit != 9'd0);
    assign m_axi_wdata   = d_data[DATA_WIDTH-1:0];
    assign m_axi_wstrb   = d_data[DATA_WIDTH+NB-1:DATA_WIDTH];
    assign m_axi_wlast   = d_data[DATA_WIDTH+NB];
    assign m_axi_bready  = 1'b1;

    wire aw_fire = aw_valid && m_axi_awready;
    wire w_done  = m_axi_wvalid && m_axi_wready && m_axi_wlast;
    wire b_fire  = m_axi_bvalid;
    wire b_err   = b_fire && m_axi_bresp[1];
    wire unused  = &{1'b0, ra_empty};

    wire all_written = in_done && out_done && !c_valid && !aw_valid && !d_valid &&
                       (w_credit == 9'd0) && (b_pending == 9'd0);

    // ---------------------------------------------------------------- control
    always @(posedge clk) begin
        done  <= 1'b0;
        flush <= 1'b0;
        if (rst) begin
            busy        <= 1'b0;
            stopping    <= 1'b0;
            in_done     <= 1'b0;
            out_done    <= 1'b0;
            overflow    <= 1'b0;
            room_left   <= {LEN_WIDTH{1'b0}};
            taken       <= {LEN_WIDTH{1'b0}};
            offset      <= {NB_W{1'b0}};
            first_word  <= 1'b0;
            wr_addr     <= {ADDR_WIDTH{1'b0}};
            burst_addr  <= {ADDR_WIDTH{1'b0}};
            burst_beats <= 9'd0;
            w_credit    <= 9'd0;
            b_pending   <= 9'd0;
            aw_valid    <= 1'b0;
            aw_addr     <= {ADDR_WIDTH{1'b0}};
            aw_len      <= 8'd0;
            done_err    <= 2'b00;
            done_abort  <= 1'b0;
            done_bytes  <= {LEN_WIDTH{1'b0}};
        end else begin
            if (start && !busy) begin
                busy        <= 1'b1;
                stopping    <= 1'b0;
                in_done     <= 1'b0;
                out_done    <= 1'b0;
                overflow    <= 1'b0;
                room_left   <= start_len;
                taken       <= {LEN_WIDTH{1'b0}};
                offset      <= start_addr[NB_W-1:0];
                first_word  <= 1'b1;
                wr_addr     <= {start_addr[ADDR_WIDTH-1:NB_W], {NB_W{1'b0}}};
                burst_beats <= 9'd0;
                done_err    <= 2'b00;
                done_abort  <= 1'b0;
            end
            if (take) begin
                room_left <= room_left - {{(LEN_WIDTH-NB_W-1){1'b0}}, in_n};
                taken     <= taken + {{(LEN_WIDTH-NB_W-1){1'b0}}, in_n};
                if (in_end) begin
                    in_done  <= 1'b1;
                    overflow <= fills && !(s_axis_tlast && keep_l == room_left);
                end
            end
            if (word_push) begin
                first_word <= 1'b0;
                wr_addr    <= wr_addr + NBA;
                if (burst_beats == 9'd0)
                    burst_addr <= wr_addr;
                burst_beats <= burst_end ? 9'd0 : burst_beats + 9'd1;
                if (ra_out_last)
                    out_done <= 1'b1;
            end
            if (c_pop) begin
                aw_valid <= 1'b1;
                aw_addr  <= c_data[ADDR_WIDTH-1:0];
                aw_len   <= c_data[ADDR_WIDTH+7:ADDR_WIDTH];
            end else if (aw_fire) begin
                aw_valid <= 1'b0;
            end
            w_credit  <= w_credit + (c_pop ? 9'd1 : 9'd0) - (w_done ? 9'd1 : 9'd0);
            b_pending <= b_pending + (aw_fire ? 9'd1 : 9'd0) - (b_fire ? 9'd1 : 9'd0);
            if (busy && !stopping) begin
                if (b_err) begin
                    stopping <= 1'b1;
                    done_err <= m_axi_bresp;
                end else if (cancel) begin
                    stopping   <= 1'b1;
                    done_abort <= 1'b1;
                end else if (all_written) begin
                    busy       <= 1'b0;
                    done       <= 1'b1;
                    done_bytes <= taken;
                    done_err   <= overflow ? 2'b01 : 2'b00;
                end
            end else if (busy && stopping) begin
                if (cancel)
                    done_abort <= 1'b1;
                if (!aw_valid && w_credit == 9'd0 && b_pending == 9'd0) begin
                    busy       <= 1'b0;
                    stopping   <= 1'b0;
                    done       <= 1'b1;
                    done_bytes <= taken;
                    flush      <= 1'b1;
                end
            end
        end
    end
endmodule

`default_nettype wire
