// pp_axi_dma_mm2s: the MM2S (memory to stream) datapath of pp_axi_dma.
//
// start (with addr, len > 0) reads len bytes from addr with INCR bursts of up to MAX_BURST
// beats that never cross a 4 KiB boundary, and sends them on m_axis as one packet: TKEEP
// low-justified (all ones but on the last beat), TLAST on the last beat. Any start address:
// the bursts read whole aligned words and the realigner drops the bytes before addr.
// A burst is issued only when the read FIFO has room for all its beats, so R is never
// stalled (RREADY stays 1). An RRESP of SLVERR/DECERR, or cancel, stops the channel: no new
// bursts, the outstanding beats are taken and dropped, the stream is cut (no TLAST), the
// buffers are emptied; then done pulses with done_err (2'b10 SLVERR, 2'b11 DECERR, the
// first seen) and done_abort.
`default_nettype none

module pp_axi_dma_mm2s #(
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
    // AXI4 read address / data
    output wire [ADDR_WIDTH-1:0]     m_axi_araddr,
    output wire [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output wire                      m_axi_arvalid,
    input  wire                      m_axi_arready,
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready,
    // AXI4-Stream out
    output wire [DATA_WIDTH-1:0]     m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_axis_tkeep,
    output wire                      m_axis_tlast,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready
);
    localparam integer NB    = DATA_WIDTH / 8;
    localparam integer NB_W  = (NB == 8) ? 3 : 2;
    localparam integer BW    = (LEN_WIDTH >= 13) ? LEN_WIDTH + 1 : 14;   // beat counters
    localparam integer OW    = FIFO_LOG2 + 1;           // FIFO occupancy counters
    localparam [OW-1:0] FIFO_DEPTH = 1 << FIFO_LOG2;
    localparam [31:0]   MAXB32 = MAX_BURST;
    localparam [8:0]    MAXB  = MAXB32[8:0];
    localparam [31:0]   NBM1_32 = NB - 1;
    localparam [BW-1:0] NBM1  = NBM1_32[BW-1:0];

    // ---------------------------------------------------------------- state
    reg                  stopping;
    reg [ADDR_WIDTH-1:0] rd_addr;        // next burst's (aligned) address
    reg [BW-1:0]         beats_left;     // beats not yet requested
    reg [OW-1:0]         reserved;       // FIFO entries promised to issued bursts
    reg [OW-1:0]         outstanding;    // beats requested, not yet received
    reg [LEN_WIDTH-1:0]  push_left;      // bytes not yet given to the realigner
    reg                  first_push;
    reg [NB_W-1:0]       offset;         // start_addr % NB

    reg                  ar_valid;
    reg [ADDR_WIDTH-1:0] ar_addr;
    reg [7:0]            ar_len;

    // next burst: beats to the 4 KiB boundary, MAX_BURST, beats left
    wire [12:0] to_4k_beats = (13'd4096 - {1'b0, rd_addr[11:0]}) >> NB_W;
    wire [BW-1:0] to_4k_w   = {{(BW-13){1'b0}}, to_4k_beats};
    wire [BW-1:0] maxb_w    = {{(BW-9){1'b0}}, MAXB};
    wire [BW-1:0] lim_a     = (to_4k_w < maxb_w) ? to_4k_w : maxb_w;
    wire [BW-1:0] blen      = (beats_left < lim_a) ? beats_left : lim_a;
    wire [OW-1:0] blen_o    = blen[OW-1:0];
    wire          can_issue = busy && !stopping && !ar_valid && (beats_left != 0) &&
                              ({1'b0, reserved} + {1'b0, blen_o} <= {1'b0, FIFO_DEPTH});

    assign m_axi_araddr  = ar_addr;
    assign m_axi_arlen   = ar_len;
    assign m_axi_arsize  = NB_W[2:0];
    assign m_axi_arburst = 2'b01;
    assign m_axi_arcache = 4'b0011;
    assign m_axi_arprot  = 3'b000;
    assign m_axi_arvalid = ar_valid;
    assign m_axi_rready  = 1'b1;

    wire ar_fire = ar_valid && m_axi_arready;
    wire r_fire  = m_axi_rvalid;
    wire r_err   = r_fire && m_axi_rresp[1];
    wire unused  = &{1'b0, m_axi_rlast, f_in_ready, ra_empty};  // R beats are counted, the FIFO has room by reservation

    // ---------------------------------------------------------------- read FIFO
    wire                  f_out_valid;
    wire                  f_out_ready;
    wire [DATA_WIDTH-1:0] f_out_data;
    wire                  f_in_ready;
    reg                   flush;

    pp_axi_dma_fifo #(.WIDTH(DATA_WIDTH), .DEPTH_LOG2(FIFO_LOG2)) u_fifo (
        .clk(clk), .rst(rst), .clr(flush),
        .in_valid(r_fire && busy && !stopping && !r_err), .in_ready(f_in_ready), .in_data(m_axi_rdata),
        .out_valid(f_out_valid), .out_ready(f_out_ready), .out_data(f_out_data)
    );

    // ---------------------------------------------------------------- realigner
    wire [NB_W-1:0] shift   = first_push ? offset : {NB_W{1'b0}};
    wire [NB_W:0]   room    = NB[NB_W:0] - {1'b0, shift};
    wire            in_last = ({{(LEN_WIDTH-NB_W-1){1'b0}}, room} >= push_left);
    wire [NB_W:0]   in_n    = in_last ? push_left[NB_W:0] : room;
    wire            ra_in_ready;
    wire            ra_out_valid;
    wire [NB_W:0]   ra_out_n;
    wire            ra_out_last;
    wire            ra_empty;

    assign f_out_ready = (ra_in_ready && busy && !stopping) || stopping;
    wire   ra_push     = f_out_valid && ra_in_ready && busy && !stopping;

    pp_axi_dma_realign #(.NB(NB), .NB_W(NB_W)) u_realign (
        .clk(clk), .rst(rst), .clr(flush), .init(1'b0), .init_cnt({NB_W{1'b0}}),
        .in_valid(f_out_valid && busy && !stopping), .in_ready(ra_in_ready),
        .in_data(f_out_data), .in_shift(shift), .in_n(in_n), .in_end(in_last),
        .out_valid(ra_out_valid), .out_ready(m_axis_tready && !stopping),
        .out_data(m_axis_tdata), .out_n(ra_out_n), .out_last(ra_out_last), .empty(ra_empty)
    );

    assign m_axis_tvalid = ra_out_valid && busy && !stopping;
    assign m_axis_tlast  = ra_out_last;
    genvar g;
    generate
        for (g = 0; g < NB; g = g + 1) begin : g_keep
            assign m_axis_tkeep[g] = (ra_out_n > g);
        end
    endgenerate

    wire last_out = m_axis_tvalid && m_axis_tready && ra_out_last;
    wire f_pop    = f_out_valid && f_out_ready;

    // ---------------------------------------------------------------- control
    always @(posedge clk) begin
        done  <= 1'b0;
        flush <= 1'b0;
        if (rst) begin
            busy        <= 1'b0;
            stopping    <= 1'b0;
            ar_valid    <= 1'b0;
            ar_addr     <= {ADDR_WIDTH{1'b0}};
            ar_len      <= 8'd0;
            rd_addr     <= {ADDR_WIDTH{1'b0}};
            beats_left  <= {BW{1'b0}};
            reserved    <= {OW{1'b0}};
            outstanding <= {OW{1'b0}};
            push_left   <= {LEN_WIDTH{1'b0}};
            first_push  <= 1'b0;
            offset      <= {NB_W{1'b0}};
            done_err    <= 2'b00;
            done_abort  <= 1'b0;
        end else begin
            if (start && !busy) begin
                busy       <= 1'b1;
                stopping   <= 1'b0;
                done_err   <= 2'b00;
                done_abort <= 1'b0;
                offset     <= start_addr[NB_W-1:0];
                rd_addr    <= {start_addr[ADDR_WIDTH-1:NB_W], {NB_W{1'b0}}};
                beats_left <= ({{(BW-LEN_WIDTH){1'b0}}, start_len} + {{(BW-NB_W){1'b0}}, start_addr[NB_W-1:0]}
                               + NBM1) >> NB_W;
                push_left  <= start_len;
                first_push <= 1'b1;
            end
            if (can_issue) begin
                ar_valid   <= 1'b1;
                ar_addr    <= rd_addr;
                ar_len     <= blen[7:0] - 8'd1;
                rd_addr    <= rd_addr + ({{(ADDR_WIDTH-BW){1'b0}}, blen} << NB_W);
                beats_left <= beats_left - blen;
            end else if (ar_fire) begin
                ar_valid <= 1'b0;
            end
            reserved    <= reserved + (can_issue ? blen_o : {OW{1'b0}})
                                    - ((f_pop || (r_fire && (stopping || r_err))) ? {{(OW-1){1'b0}}, 1'b1} : {OW{1'b0}});
            outstanding <= outstanding + (can_issue ? blen_o : {OW{1'b0}})
                                       - (r_fire ? {{(OW-1){1'b0}}, 1'b1} : {OW{1'b0}});
            if (ra_push) begin
                push_left  <= push_left - {{(LEN_WIDTH-NB_W-1){1'b0}}, in_n};
                first_push <= 1'b0;
            end
            if (busy && !stopping) begin
                if (r_err) begin
                    stopping <= 1'b1;
                    done_err <= m_axi_rresp;
                end else if (cancel) begin
                    stopping   <= 1'b1;
                    done_abort <= 1'b1;
                end else if (last_out) begin
                    busy <= 1'b0;
                    done <= 1'b1;
                end
            end else if (busy && stopping) begin
                if (cancel)
                    done_abort <= 1'b1;
                if (!ar_valid && outstanding == 0 && !(r_fire)) begin
                    busy       <= 1'b0;
                    stopping   <= 1'b0;
                    done       <= 1'b1;
                    flush      <= 1'b1;
                    beats_left <= {BW{1'b0}};
                    reserved   <= {OW{1'b0}};
                end
            end
        end
    end
endmodule

`default_nettype wire
