/*
 * pp_traffic_gen: AXI4 traffic generator (master).
 *
 * Issues a run of INCR read or write bursts of full-width beats, configured at run time by
 * input ports sampled when `start` is seen while idle:
 *
 *   cfg_write        1: write bursts, 0: read bursts
 *   cfg_addr         base address (the low log2(DATA_WIDTH/8) bits are ignored)
 *   cfg_len          burst length as AxLEN (beats - 1, 0..255)
 *   cfg_count        number of bursts; 0 = continuous until `stop`
 *   cfg_outstanding  maximum number of bursts in flight (address accepted, last R beat or B
 *                    response not yet received); 0 counts as 1
 *   cfg_span         size in bytes of the address window starting at cfg_addr that the
 *                    bursts walk through; 0 = no wrap
 *   cfg_seed         XORed into the data pattern
 *
 * Burst k starts where burst k-1 ended, except that a burst that would cross a 4 KiB
 * boundary starts at that boundary instead, and a burst that would not fit in the window
 * (cfg_span != 0) starts again at cfg_addr. Every 32-bit word of write data is
 * (its byte address) ^ cfg_seed (address bits above 31 dropped, zero-extended if
 * ADDR_WIDTH < 32), WSTRB all ones. Read data is checked against the same pattern.
 *
 * Status (valid while running and after the run, cleared by the next start):
 *   busy         high from the cycle after start until the cycle after the last response
 *   cycles       number of cycles busy was high
 *   beats        data beats transferred (R or W handshakes)
 *   bursts_done  bursts completed (last R beat or B response)
 *   resp_errors  R beats / B responses with a response other than OKAY
 *   data_errors  read beats whose data differed from the pattern
 *
 * `stop` (sampled while busy) stops issuing new bursts; busy falls once the bursts in flight
 * have completed. RREADY and BREADY are always high.
 */

`default_nettype none

module pp_traffic_gen #
(
    // Width of the data bus in bits (32, 64 or 128)
    parameter DATA_WIDTH = 32,
    // Width of the address bus in bits (at least 13)
    parameter ADDR_WIDTH = 32,
    // Width of the ID signals
    parameter ID_WIDTH = 1,
    // ID value used on AR and AW
    parameter AXI_ID = 0,
    // Width of the status counters (cfg_count, cycles, beats, bursts_done, errors)
    parameter COUNT_WIDTH = 32
)
(
    input  wire                     clk,
    input  wire                     rst,

    /*
     * Control and configuration
     */
    input  wire                     start,
    input  wire                     stop,
    input  wire                     cfg_write,
    input  wire [ADDR_WIDTH-1:0]    cfg_addr,
    input  wire [7:0]               cfg_len,
    input  wire [COUNT_WIDTH-1:0]   cfg_count,
    input  wire [7:0]               cfg_outstanding,
    input  wire [ADDR_WIDTH-1:0]    cfg_span,
    input  wire [31:0]              cfg_seed,

    /*
     * Status
     */
    output wire                     busy,
    output wire [COUNT_WIDTH-1:0]   cycles,
    output wire [COUNT_WIDTH-1:0]   beats,
    output wire [COUNT_WIDTH-1:0]   bursts_done,
    output wire [COUNT_WIDTH-1:0]   resp_errors,
    output wire [COUNT_WIDTH-1:0]   data_errors,

    /*
     * AXI master interface
     */
    output wire [ID_WIDTH-1:0]      m_axi_awid,
    output wire [ADDR_WIDTH-1:0]    m_axi_awaddr,
    output wire [7:0]               m_axi_awlen,
    output wire [2:0]               m_axi_awsize,
    output wire [1:0]               m_axi_awburst,
    output wire                     m_axi_awlock,
    output wire [3:0]               m_axi_awcache,
    output wire [2:0]               m_axi_awprot,
    output wire [3:0]               m_axi_awqos,
    output wire [3:0]               m_axi_awregion,
    output wire                     m_axi_awvalid,
    input  wire                     m_axi_awready,
    output wire [DATA_WIDTH-1:0]    m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]  m_axi_wstrb,
    output wire                     m_axi_wlast,
    output wire                     m_axi_wvalid,
    input  wire                     m_axi_wready,
    input  wire [ID_WIDTH-1:0]      m_axi_bid,
    input  wire [1:0]               m_axi_bresp,
    input  wire                     m_axi_bvalid,
    output wire                     m_axi_bready,
    output wire [ID_WIDTH-1:0]      m_axi_arid,
    output wire [ADDR_WIDTH-1:0]    m_axi_araddr,
    output wire [7:0]               m_axi_arlen,
    output wire [2:0]               m_axi_arsize,
    output wire [1:0]               m_axi_arburst,
    output wire                     m_axi_arlock,
    output wire [3:0]               m_axi_arcache,
    output wire [2:0]               m_axi_arprot,
    output wire [3:0]               m_axi_arqos,
    output wire [3:0]               m_axi_arregion,
    output wire                     m_axi_arvalid,
    input  wire                     m_axi_arready,
    input  wire [ID_WIDTH-1:0]      m_axi_rid,
    input  wire [DATA_WIDTH-1:0]    m_axi_rdata,
    input  wire [1:0]               m_axi_rresp,
    input  wire                     m_axi_rlast,
    input  wire                     m_axi_rvalid,
    output wire                     m_axi_rready
);

localparam BYTE_LANES = DATA_WIDTH/8;
localparam WORDS = DATA_WIDTH/32;
localparam SIZE_BITS = $clog2(BYTE_LANES);
localparam [2:0] AXSIZE = SIZE_BITS[2:0];
localparam [ID_WIDTH-1:0] ID = AXI_ID[ID_WIDTH-1:0];
localparam [7:0] LANES8 = BYTE_LANES[7:0];
// bytes in a burst of 256 beats fit in BURST_BYTES_WIDTH bits
localparam BURST_BYTES_WIDTH = 9 + SIZE_BITS;

initial begin
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64 && DATA_WIDTH != 128) begin
        $display("pp_traffic_gen: DATA_WIDTH must be 32, 64 or 128 (got %0d)", DATA_WIDTH);
        $finish;
    end
    if (ADDR_WIDTH < 13) begin
        $display("pp_traffic_gen: ADDR_WIDTH must be at least 13 (got %0d)", ADDR_WIDTH);
        $finish;
    end
end

/*
 * Configuration latched at start
 */
reg                     write_reg;
reg [ADDR_WIDTH-1:0]    base_reg;
reg [7:0]               len_reg;
reg [COUNT_WIDTH-1:0]   count_reg;          // bursts still to issue
reg                     continuous_reg;
reg [7:0]               max_out_reg;
reg [ADDR_WIDTH-1:0]    span_reg;
reg [31:0]              seed_reg;
reg [BURST_BYTES_WIDTH-1:0] burst_bytes_reg; // bytes per burst

/*
 * Burst start addresses, as offsets from the base address
 */
// move a burst that would cross a 4 KiB boundary to start at that boundary
function [ADDR_WIDTH-1:0] place;
    input [ADDR_WIDTH-1:0] offset;
    input [11:0] base_low;
    input [BURST_BYTES_WIDTH-1:0] bytes;
    reg [11:0] abs_low;
    reg [12:0] page_end;
    begin
        abs_low = base_low + offset[11:0];
        page_end = {1'b0, abs_low} + {{(13-BURST_BYTES_WIDTH){1'b0}}, bytes};
        if (page_end > 13'h1000) begin
            place = offset + {{(ADDR_WIDTH-13){1'b0}}, 13'h1000 - {1'b0, abs_low}};
        end else begin
            place = offset;
        end
    end
endfunction

// offset of the burst after the one at offset
function [ADDR_WIDTH-1:0] next_offset;
    input [ADDR_WIDTH-1:0] offset;
    input [11:0] base_low;
    input [ADDR_WIDTH-1:0] span;
    input [BURST_BYTES_WIDTH-1:0] bytes;
    reg [ADDR_WIDTH-1:0] nxt;
    begin
        nxt = place(offset + {{(ADDR_WIDTH-BURST_BYTES_WIDTH){1'b0}}, bytes}, base_low, bytes);
        // would it leave the window? then start again at the base
        if (span != {ADDR_WIDTH{1'b0}} &&
                nxt + {{(ADDR_WIDTH-BURST_BYTES_WIDTH){1'b0}}, bytes} > span) begin
            nxt = place({ADDR_WIDTH{1'b0}}, base_low, bytes);
        end
        next_offset = nxt;
    end
endfunction


/*
 * Run state
 */
reg                     busy_reg;
reg                     stop_reg;
reg [8:0]               outstanding_reg;    // bursts in flight
reg                     a_hold_reg;         // address valid shown and not yet accepted
reg [ADDR_WIDTH-1:0]    a_offset_reg;       // offset of the next burst to issue
reg [ADDR_WIDTH-1:0]    d_offset_reg;       // offset of the burst the data beats belong to
reg [ADDR_WIDTH-1:0]    d_addr_reg;         // address of the next data beat
reg [7:0]               d_beat_reg;         // beat index within that burst
reg [8:0]               w_pending_reg;      // write bursts whose address went out but data not

reg [COUNT_WIDTH-1:0]   cycles_reg;
reg [COUNT_WIDTH-1:0]   beats_reg;
reg [COUNT_WIDTH-1:0]   bursts_done_reg;
reg [COUNT_WIDTH-1:0]   resp_errors_reg;
reg [COUNT_WIDTH-1:0]   data_errors_reg;

wire [ADDR_WIDTH-1:0] a_addr = base_reg + a_offset_reg;
wire [8:0] max_out = (max_out_reg == 8'd0) ? 9'd1 : {1'b0, max_out_reg};
wire issue_more = !stop_reg && (continuous_reg || count_reg != {COUNT_WIDTH{1'b0}});
wire [ADDR_WIDTH-1:0] a_next_offset = next_offset(a_offset_reg, base_reg[11:0], span_reg, burst_bytes_reg);
wire [ADDR_WIDTH-1:0] d_next_offset = next_offset(d_offset_reg, base_reg[11:0], span_reg, burst_bytes_reg);

// the data pattern of the current data beat: each 32-bit word is its byte address ^ seed
wire [31:0] d_addr32;
wire [DATA_WIDTH-1:0] d_pattern;

generate
    genvar n;
    if (ADDR_WIDTH < 32) begin : g_addr_ext
        assign d_addr32 = {{(32-ADDR_WIDTH){1'b0}}, d_addr_reg};
    end else begin : g_addr_trunc
        assign d_addr32 = d_addr_reg[31:0];
    end
    for (n = 0; n < WORDS; n = n + 1) begin : g_pattern
        assign d_pattern[32*n +: 32] = (d_addr32 + 32'd4 * n) ^ seed_reg;
    end
endgenerate
wire a_valid = busy_reg && (a_hold_reg || (issue_more && outstanding_reg < max_out));

wire aw_hs = m_axi_awvalid && m_axi_awready;
wire ar_hs = m_axi_arvalid && m_axi_arready;
wire a_hs = aw_hs || ar_hs;
wire w_hs = m_axi_wvalid && m_axi_wready;
wire r_hs = m_axi_rvalid && m_axi_rready;
wire b_hs = m_axi_bvalid && m_axi_bready;
wire d_last = (d_beat_reg == len_reg);
wire d_hs = write_reg ? w_hs : r_hs;
wire done_hs = write_reg ? b_hs : (r_hs && m_axi_rlast);

assign m_axi_awid     = ID;
assign m_axi_awaddr   = a_addr;
assign m_axi_awlen    = len_reg;
assign m_axi_awsize   = AXSIZE;
assign m_axi_awburst  = 2'b01;
assign m_axi_awlock   = 1'b0;
assign m_axi_awcache  = 4'b0011;
assign m_axi_awprot   = 3'b000;
assign m_axi_awqos    = 4'd0;
assign m_axi_awregion = 4'd0;
assign m_axi_awvalid  = a_valid && write_reg;

assign m_axi_wdata  = d_pattern;
assign m_axi_wstrb  = {BYTE_LANES{1'b1}};
assign m_axi_wlast  = d_last;
assign m_axi_wvalid = busy_reg && write_reg && (w_pending_reg != 9'd0);

assign m_axi_bready = 1'b1;

assign m_axi_arid     = ID;
assign m_axi_araddr   = a_addr;
assign m_axi_arlen    = len_reg;
assign m_axi_arsize   = AXSIZE;
assign m_axi_arburst  = 2'b01;
assign m_axi_arlock   = 1'b0;
assign m_axi_arcache  = 4'b0011;
assign m_axi_arprot   = 3'b000;
assign m_axi_arqos    = 4'd0;
assign m_axi_arregion = 4'd0;
assign m_axi_arvalid  = a_valid && !write_reg;

assign m_axi_rready = 1'b1;

assign busy        = busy_reg;
assign cycles      = cycles_reg;
assign beats       = beats_reg;
assign bursts_done = bursts_done_reg;
assign resp_errors = resp_errors_reg;
assign data_errors = data_errors_reg;

// first burst of a run
wire [ADDR_WIDTH-1:0] start_base = {cfg_addr[ADDR_WIDTH-1:SIZE_BITS], {SIZE_BITS{1'b0}}};
wire [BURST_BYTES_WIDTH-1:0] start_bytes = {({1'b0, cfg_len} + 9'd1), {SIZE_BITS{1'b0}}};
wire [ADDR_WIDTH-1:0] start_offset = place({ADDR_WIDTH{1'b0}}, start_base[11:0], start_bytes);

// responses carry the one ID used; the base address is aligned to the bus width
wire unused_inputs = &{1'b0, m_axi_bid, m_axi_rid, cfg_addr[SIZE_BITS-1:0], 1'b0};

// next-state values that decide the end of the run
wire [COUNT_WIDTH-1:0] count_next = count_reg - {{(COUNT_WIDTH-1){1'b0}}, a_hs && !continuous_reg};
wire [8:0] outstanding_next = outstanding_reg + {8'd0, a_hs} - {8'd0, done_hs};
wire stop_next = stop_reg || stop;
wire hold_next = a_valid && !a_hs;
wire finished_next = (stop_next || (!continuous_reg && count_next == {COUNT_WIDTH{1'b0}}))
    && !hold_next && outstanding_next == 9'd0;

always @(posedge clk) begin
    if (!busy_reg) begin
        if (start) begin
            busy_reg <= 1'b1;
            stop_reg <= 1'b0;
            write_reg <= cfg_write;
            base_reg <= start_base;
            len_reg <= cfg_len;
            count_reg <= cfg_count;
            continuous_reg <= (cfg_count == {COUNT_WIDTH{1'b0}});
            max_out_reg <= cfg_outstanding;
            span_reg <= cfg_span;
            seed_reg <= cfg_seed;
            burst_bytes_reg <= start_bytes;
            outstanding_reg <= 9'd0;
            a_hold_reg <= 1'b0;
            a_offset_reg <= start_offset;
            d_offset_reg <= start_offset;
            d_addr_reg <= start_base + start_offset;
            d_beat_reg <= 8'd0;
            w_pending_reg <= 9'd0;
            cycles_reg <= {COUNT_WIDTH{1'b0}};
            beats_reg <= {COUNT_WIDTH{1'b0}};
            bursts_done_reg <= {COUNT_WIDTH{1'b0}};
            resp_errors_reg <= {COUNT_WIDTH{1'b0}};
            data_errors_reg <= {COUNT_WIDTH{1'b0}};
        end
    end else begin
        cycles_reg <= cycles_reg + 1'b1;
        stop_reg <= stop_next;
        count_reg <= count_next;
        outstanding_reg <= outstanding_next;
        a_hold_reg <= hold_next;
        if (finished_next) begin
            busy_reg <= 1'b0;
        end

        if (a_hs) begin
            a_offset_reg <= a_next_offset;
        end

        if (write_reg) begin
            w_pending_reg <= w_pending_reg + {8'd0, aw_hs} - {8'd0, w_hs && d_last};
        end

        if (d_hs) begin
            beats_reg <= beats_reg + 1'b1;
            if (d_last) begin
                d_beat_reg <= 8'd0;
                d_offset_reg <= d_next_offset;
                d_addr_reg <= base_reg + d_next_offset;
            end else begin
                d_beat_reg <= d_beat_reg + 1'b1;
                d_addr_reg <= d_addr_reg + {{(ADDR_WIDTH-8){1'b0}}, LANES8};
            end
        end

        if (done_hs) begin
            bursts_done_reg <= bursts_done_reg + 1'b1;
        end

        if ((r_hs && !write_reg && m_axi_rresp != 2'b00) || (b_hs && write_reg && m_axi_bresp != 2'b00)) begin
            resp_errors_reg <= resp_errors_reg + 1'b1;
        end

        if (r_hs && !write_reg && m_axi_rdata != d_pattern) begin
            data_errors_reg <= data_errors_reg + 1'b1;
        end
    end

    if (rst) begin
        busy_reg <= 1'b0;
        stop_reg <= 1'b0;
        outstanding_reg <= 9'd0;
        a_hold_reg <= 1'b0;
        w_pending_reg <= 9'd0;
    end
end

// zero initial state for simulation (the control state is also reset by rst)
initial begin
    write_reg = 1'b0;
    base_reg = {ADDR_WIDTH{1'b0}};
    len_reg = 8'd0;
    count_reg = {COUNT_WIDTH{1'b0}};
    continuous_reg = 1'b0;
    max_out_reg = 8'd0;
    span_reg = {ADDR_WIDTH{1'b0}};
    seed_reg = 32'd0;
    burst_bytes_reg = {BURST_BYTES_WIDTH{1'b0}};
    busy_reg = 1'b0;
    stop_reg = 1'b0;
    outstanding_reg = 9'd0;
    a_hold_reg = 1'b0;
    a_offset_reg = {ADDR_WIDTH{1'b0}};
    d_offset_reg = {ADDR_WIDTH{1'b0}};
    d_addr_reg = {ADDR_WIDTH{1'b0}};
    d_beat_reg = 8'd0;
    w_pending_reg = 9'd0;
    cycles_reg = {COUNT_WIDTH{1'b0}};
    beats_reg = {COUNT_WIDTH{1'b0}};
    bursts_done_reg = {COUNT_WIDTH{1'b0}};
    resp_errors_reg = {COUNT_WIDTH{1'b0}};
    data_errors_reg = {COUNT_WIDTH{1'b0}};
end

endmodule

`default_nettype wire
