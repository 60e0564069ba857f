/*
 * pp_abe: AXI4 burst equalizer (ABE).
 *
 * Sits between one AXI4 master (slave port s_axi_*) and one input port of an AXI
 * interconnect (master port m_axi_*) and equalises the master's bursts, after Restuccia et al.,
 * "Is Your Bus Arbiter Really Fair?" (rules R1-R6):
 *
 *   - An INCR, non-exclusive AR/AW request of L > NOMINAL_BURST beats is split into
 *     ceil(L / NOMINAL_BURST) sub-requests of NOMINAL_BURST beats (the last one holds the
 *     remainder), issued one after the other with the same ID, size, burst type and
 *     sideband signals and with the address of their first beat (R2, R3). An INCR burst never
 *     crosses a 4 KiB boundary, so neither does any sub-burst.
 *   - FIXED and WRAP bursts, exclusive (AxLOCK=1) bursts and bursts of at most NOMINAL_BURST
 *     beats pass through unchanged (one sub-request).
 *   - R beats pass straight through (no added latency); RLAST is suppressed at the end of every
 *     sub-burst except the last one (R4). RRESP is passed per beat, unchanged.
 *   - W beats pass straight through (no added latency); WLAST is inserted at the end of every
 *     sub-burst (R5). The W beats of a sub-burst are let through only once its AW sub-request
 *     has been accepted downstream, so write data never overtakes its address.
 *   - The B responses of the sub-bursts are merged into one B response for the original
 *     request, worst response wins (DECERR > SLVERR > EXOKAY > OKAY) (R5).
 *   - At most MAX_OUTSTANDING_R nominal read and MAX_OUTSTANDING_W nominal write sub-transactions
 *     are in flight downstream (R6). A sub-transaction is in flight from its AR/AW handshake
 *     until its last R beat / its B response.
 *   - Responses are matched to requests in order, so all sub-transactions in flight in one
 *     direction carry the same ID: a request with another ID waits until the in-flight ones
 *     have completed (AXI returns same-ID responses in order, so a downstream that reorders
 *     different IDs cannot confuse the merging).
 *
 * Latency: an address request accepted on s_axi at clock cycle n is presented on m_axi at
 * cycle n+1 (one register stage), unless the outstanding limit or the ID rule holds it; each
 * further sub-request is presented in the cycle after the previous one was accepted. R, W
 * and B beats cross the ABE in the cycle they are presented (combinational pass-through).
 *
 * Requires ADDR_WIDTH >= 12 and a master that keeps to AXI4 (WLAST on the last beat of each
 * burst, write data in address order).
 */

`default_nettype none

module pp_abe #
(
    // Width of the data buses in bits (32 or 64; any multiple of 8 that is a power of two)
    parameter DATA_WIDTH = 32,
    // Width of the address buses in bits (at least 12)
    parameter ADDR_WIDTH = 32,
    // Width of the ID signals
    parameter ID_WIDTH = 4,
    // Width of the AWUSER signals (passed through)
    parameter AWUSER_WIDTH = 1,
    // Width of the WUSER signals (passed through)
    parameter WUSER_WIDTH = 1,
    // Width of the BUSER signals (passed through, from the last sub-burst's response)
    parameter BUSER_WIDTH = 1,
    // Width of the ARUSER signals (passed through)
    parameter ARUSER_WIDTH = 1,
    // Width of the RUSER signals (passed through)
    parameter RUSER_WIDTH = 1,
    // Nominal burst length in beats (1..256): longer INCR bursts are split into bursts of this length
    parameter NOMINAL_BURST = 16,
    // Maximum number of nominal write sub-transactions in flight downstream (>= 1)
    parameter MAX_OUTSTANDING_W = 4,
    // Maximum number of nominal read sub-transactions in flight downstream (>= 1)
    parameter MAX_OUTSTANDING_R = 4
)
(
    input  wire                     clk,
    input  wire                     rst,

    /*
     * AXI slave interface (from the master being equalised)
     */
    input  wire [ID_WIDTH-1:0]      s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [7:0]               s_axi_awlen,
    input  wire [2:0]               s_axi_awsize,
    input  wire [1:0]               s_axi_awburst,
    input  wire                     s_axi_awlock,
    input  wire [3:0]               s_axi_awcache,
    input  wire [2:0]               s_axi_awprot,
    input  wire [3:0]               s_axi_awqos,
    input  wire [3:0]               s_axi_awregion,
    input  wire [AWUSER_WIDTH-1:0]  s_axi_awuser,
    input  wire                     s_axi_awvalid,
    output wire                     s_axi_awready,
    input  wire [DATA_WIDTH-1:0]    s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axi_wstrb,
    input  wire                     s_axi_wlast,
    input  wire [WUSER_WIDTH-1:0]   s_axi_wuser,
    input  wire                     s_axi_wvalid,
    output wire                     s_axi_wready,
    output wire [ID_WIDTH-1:0]      s_axi_bid,
    output wire [1:0]               s_axi_bresp,
    output wire [BUSER_WIDTH-1:0]   s_axi_buser,
    output wire                     s_axi_bvalid,
    input  wire                     s_axi_bready,
    input  wire [ID_WIDTH-1:0]      s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_araddr,
    input  wire [7:0]               s_axi_arlen,
    input  wire [2:0]               s_axi_arsize,
    input  wire [1:0]               s_axi_arburst,
    input  wire                     s_axi_arlock,
    input  wire [3:0]               s_axi_arcache,
    input  wire [2:0]               s_axi_arprot,
    input  wire [3:0]               s_axi_arqos,
    input  wire [3:0]               s_axi_arregion,
    input  wire [ARUSER_WIDTH-1:0]  s_axi_aruser,
    input  wire                     s_axi_arvalid,
    output wire                     s_axi_arready,
    output wire [ID_WIDTH-1:0]      s_axi_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [1:0]               s_axi_rresp,
    output wire                     s_axi_rlast,
    output wire [RUSER_WIDTH-1:0]   s_axi_ruser,
    output wire                     s_axi_rvalid,
    input  wire                     s_axi_rready,

    /*
     * AXI master interface (to the interconnect)
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
    output wire [AWUSER_WIDTH-1:0]  m_axi_awuser,
    output wire                     m_axi_awvalid,
    input  wire                     m_axi_awready,
    output wire [DATA_WIDTH-1:0]    m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]  m_axi_wstrb,
    output wire                     m_axi_wlast,
    output wire [WUSER_WIDTH-1:0]   m_axi_wuser,
    output wire                     m_axi_wvalid,
    input  wire                     m_axi_wready,
    input  wire [ID_WIDTH-1:0]      m_axi_bid,
    input  wire [1:0]               m_axi_bresp,
    input  wire [BUSER_WIDTH-1:0]   m_axi_buser,
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
    output wire [ARUSER_WIDTH-1:0]  m_axi_aruser,
    output wire                     m_axi_arvalid,
    input  wire                     m_axi_arready,
    input  wire [ID_WIDTH-1:0]      m_axi_rid,
    input  wire [DATA_WIDTH-1:0]    m_axi_rdata,
    input  wire [1:0]               m_axi_rresp,
    input  wire                     m_axi_rlast,
    input  wire [RUSER_WIDTH-1:0]   m_axi_ruser,
    input  wire                     m_axi_rvalid,
    output wire                     m_axi_rready
);

// the low address bits that change between sub-requests (a burst stays in one 4 KiB page)
localparam PAGE_WIDTH = 12;

// nominal burst length as AxLEN, and as a 9-bit beat count
localparam [7:0] NOM_LEN = NOMINAL_BURST[7:0] - 8'd1;
localparam [8:0] NOM_BEATS = NOMINAL_BURST[8:0];

// bookkeeping ring of "last sub-request of its request" flags, one entry per sub-transaction
// in flight; depth a power of two >= the outstanding limit
localparam R_PTR_WIDTH = (MAX_OUTSTANDING_R < 2) ? 1 : $clog2(MAX_OUTSTANDING_R);
localparam W_PTR_WIDTH = (MAX_OUTSTANDING_W < 2) ? 1 : $clog2(MAX_OUTSTANDING_W);
localparam [R_PTR_WIDTH:0] R_MAX = MAX_OUTSTANDING_R[R_PTR_WIDTH:0];
localparam [W_PTR_WIDTH:0] W_MAX = MAX_OUTSTANDING_W[W_PTR_WIDTH:0];

// beat counter within a write sub-burst
localparam BEAT_WIDTH = (NOMINAL_BURST < 2) ? 1 : $clog2(NOMINAL_BURST);
localparam [BEAT_WIDTH-1:0] BEAT_LAST = NOM_LEN[BEAT_WIDTH-1:0];

localparam [1:0] BURST_INCR = 2'b01;

// parameter checks
initial begin
    if (NOMINAL_BURST < 1 || NOMINAL_BURST > 256) begin
        $display("pp_abe: NOMINAL_BURST must be in 1..256 (got %0d)", NOMINAL_BURST);
        $finish;
    end
    if (ADDR_WIDTH < PAGE_WIDTH) begin
        $display("pp_abe: ADDR_WIDTH must be at least %0d (got %0d)", PAGE_WIDTH, ADDR_WIDTH);
        $finish;
    end
    if (MAX_OUTSTANDING_R < 1 || MAX_OUTSTANDING_W < 1) begin
        $display("pp_abe: MAX_OUTSTANDING_R/W must be at least 1");
        $finish;
    end
end

// start address of the next sub-burst: align the current address to the beat size and add
// NOMINAL_BURST beats; only the 12 low bits change
function [PAGE_WIDTH-1:0] next_page_addr;
    input [PAGE_WIDTH-1:0] addr;
    input [2:0] size;
    begin
        next_page_addr = (addr & ({PAGE_WIDTH{1'b1}} << size))
            + ({{(PAGE_WIDTH-9){1'b0}}, NOM_BEATS} << size);
    end
endfunction

/*
 * Read address splitter
 */
reg                     ar_valid_reg;    // a (sub-)request is held for m_axi
reg [ID_WIDTH-1:0]      ar_id_reg;
reg [ADDR_WIDTH-1:0]    ar_addr_reg;
reg [7:0]               ar_len_reg;      // ARLEN of the held sub-request
reg [7:0]               ar_rest_reg;     // beats of the request left after it
reg [2:0]               ar_size_reg;
reg [1:0]               ar_burst_reg;
reg                     ar_lock_reg;
reg [3:0]               ar_cache_reg;
reg [2:0]               ar_prot_reg;
reg [3:0]               ar_qos_reg;
reg [3:0]               ar_region_reg;
reg [ARUSER_WIDTH-1:0]  ar_user_reg;
reg [ID_WIDTH-1:0]      ar_last_id_reg;  // ID of the sub-transactions in flight

// read ring: one "last sub-burst" flag per read sub-transaction in flight
reg [(2**R_PTR_WIDTH)-1:0] r_final_mem;
reg [R_PTR_WIDTH:0]     r_wr_ptr_reg;
reg [R_PTR_WIDTH:0]     r_rd_ptr_reg;

wire [R_PTR_WIDTH:0] r_count = r_wr_ptr_reg - r_rd_ptr_reg;
wire ar_final = (ar_rest_reg == 8'd0);
wire ar_allow = (r_count < R_MAX) && (r_count == 0 || ar_id_reg == ar_last_id_reg);
wire ar_m_hs = m_axi_arvalid && m_axi_arready;
wire ar_s_hs = s_axi_arvalid && s_axi_arready;
wire ar_split = (s_axi_arburst == BURST_INCR) && !s_axi_arlock && ({1'b0, s_axi_arlen} >= NOM_BEATS);
wire r_m_last_hs = m_axi_rvalid && m_axi_rready && m_axi_rlast;
wire r_head_final = r_final_mem[r_rd_ptr_reg[R_PTR_WIDTH-1:0]];

assign s_axi_arready = !ar_valid_reg || (ar_m_hs && ar_final);

assign m_axi_arid     = ar_id_reg;
assign m_axi_araddr   = ar_addr_reg;
assign m_axi_arlen    = ar_len_reg;
assign m_axi_arsize   = ar_size_reg;
assign m_axi_arburst  = ar_burst_reg;
assign m_axi_arlock   = ar_lock_reg;
assign m_axi_arcache  = ar_cache_reg;
assign m_axi_arprot   = ar_prot_reg;
assign m_axi_arqos    = ar_qos_reg;
assign m_axi_arregion = ar_region_reg;
assign m_axi_aruser   = ar_user_reg;
assign m_axi_arvalid  = ar_valid_reg && ar_allow;

always @(posedge clk) begin
    if (ar_s_hs) begin
        ar_valid_reg <= 1'b1;
        ar_id_reg <= s_axi_arid;
        ar_addr_reg <= s_axi_araddr;
        ar_len_reg <= ar_split ? NOM_LEN : s_axi_arlen;
        ar_rest_reg <= ar_split ? s_axi_arlen - NOM_LEN : 8'd0;
        ar_size_reg <= s_axi_arsize;
        ar_burst_reg <= s_axi_arburst;
        ar_lock_reg <= s_axi_arlock;
        ar_cache_reg <= s_axi_arcache;
        ar_prot_reg <= s_axi_arprot;
        ar_qos_reg <= s_axi_arqos;
        ar_region_reg <= s_axi_arregion;
        ar_user_reg <= s_axi_aruser;
    end else if (ar_m_hs) begin
        if (ar_final) begin
            ar_valid_reg <= 1'b0;
        end else begin
            ar_addr_reg[PAGE_WIDTH-1:0] <= next_page_addr(ar_addr_reg[PAGE_WIDTH-1:0], ar_size_reg);
            if ({1'b0, ar_rest_reg} > NOM_BEATS) begin
                ar_len_reg <= NOM_LEN;
                ar_rest_reg <= ar_rest_reg - NOM_BEATS[7:0];
            end else begin
                ar_len_reg <= ar_rest_reg - 8'd1;
                ar_rest_reg <= 8'd0;
            end
        end
    end

    if (ar_m_hs) begin
        ar_last_id_reg <= ar_id_reg;
        r_final_mem[r_wr_ptr_reg[R_PTR_WIDTH-1:0]] <= ar_final;
        r_wr_ptr_reg <= r_wr_ptr_reg + 1'b1;
    end

    if (r_m_last_hs) begin
        r_rd_ptr_reg <= r_rd_ptr_reg + 1'b1;
    end

    if (rst) begin
        ar_valid_reg <= 1'b0;
        r_wr_ptr_reg <= {(R_PTR_WIDTH+1){1'b0}};
        r_rd_ptr_reg <= {(R_PTR_WIDTH+1){1'b0}};
    end
end

/*
 * Read data: pass-through, RLAST only at the end of the last sub-burst
 */
assign s_axi_rid    = m_axi_rid;
assign s_axi_rdata  = m_axi_rdata;
assign s_axi_rresp  = m_axi_rresp;
assign s_axi_rlast  = m_axi_rlast && r_head_final;
assign s_axi_ruser  = m_axi_ruser;
assign s_axi_rvalid = m_axi_rvalid;
assign m_axi_rready = s_axi_rready;

/*
 * Write address splitter
 */
reg                     aw_valid_reg;
reg [ID_WIDTH-1:0]      aw_id_reg;
reg [ADDR_WIDTH-1:0]    aw_addr_reg;
reg [7:0]               aw_len_reg;
reg [7:0]               aw_rest_reg;
reg [2:0]               aw_size_reg;
reg [1:0]               aw_burst_reg;
reg                     aw_lock_reg;
reg [3:0]               aw_cache_reg;
reg [2:0]               aw_prot_reg;
reg [3:0]               aw_qos_reg;
reg [3:0]               aw_region_reg;
reg [AWUSER_WIDTH-1:0]  aw_user_reg;
reg [ID_WIDTH-1:0]      aw_last_id_reg;

// write ring: one "last sub-burst" flag per write sub-transaction in flight; written at the
// AW handshake, read by the W splitter (w pointer) and by the B merger (b pointer)
reg [(2**W_PTR_WIDTH)-1:0] w_final_mem;
reg [W_PTR_WIDTH:0]     w_wr_ptr_reg;
reg [W_PTR_WIDTH:0]     w_w_ptr_reg;
reg [W_PTR_WIDTH:0]     w_b_ptr_reg;

wire [W_PTR_WIDTH:0] w_count = w_wr_ptr_reg - w_b_ptr_reg;
wire aw_final = (aw_rest_reg == 8'd0);
wire aw_allow = (w_count < W_MAX) && (w_count == 0 || aw_id_reg == aw_last_id_reg);
wire aw_m_hs = m_axi_awvalid && m_axi_awready;
wire aw_s_hs = s_axi_awvalid && s_axi_awready;
wire aw_split = (s_axi_awburst == BURST_INCR) && !s_axi_awlock && ({1'b0, s_axi_awlen} >= NOM_BEATS);

assign s_axi_awready = !aw_valid_reg || (aw_m_hs && aw_final);

assign m_axi_awid     = aw_id_reg;
assign m_axi_awaddr   = aw_addr_reg;
assign m_axi_awlen    = aw_len_reg;
assign m_axi_awsize   = aw_size_reg;
assign m_axi_awburst  = aw_burst_reg;
assign m_axi_awlock   = aw_lock_reg;
assign m_axi_awcache  = aw_cache_reg;
assign m_axi_awprot   = aw_prot_reg;
assign m_axi_awqos    = aw_qos_reg;
assign m_axi_awregion = aw_region_reg;
assign m_axi_awuser   = aw_user_reg;
assign m_axi_awvalid  = aw_valid_reg && aw_allow;

/*
 * Write data: pass-through once the sub-burst's AW has been accepted, WLAST inserted
 */
reg [BEAT_WIDTH-1:0] w_beat_reg;  // beat index within the sub-burst

wire w_enable = (w_w_ptr_reg != w_wr_ptr_reg);
wire w_head_final = w_final_mem[w_w_ptr_reg[W_PTR_WIDTH-1:0]];
// the last sub-burst of a request ends with the master's WLAST, the others after NOMINAL_BURST beats
wire w_last = w_head_final ? s_axi_wlast : (w_beat_reg == BEAT_LAST);
wire w_hs = s_axi_wvalid && s_axi_wready;

assign m_axi_wdata  = s_axi_wdata;
assign m_axi_wstrb  = s_axi_wstrb;
assign m_axi_wlast  = w_last;
assign m_axi_wuser  = s_axi_wuser;
assign m_axi_wvalid = s_axi_wvalid && w_enable;
assign s_axi_wready = m_axi_wready && w_enable;

/*
 * Write response: merge the sub-bursts' responses, worst wins
 */
reg [1:0] b_resp_reg;   // worst response of the request's earlier sub-bursts

wire b_head_final = w_final_mem[w_b_ptr_reg[W_PTR_WIDTH-1:0]];
wire [1:0] b_resp = (m_axi_bresp > b_resp_reg) ? m_axi_bresp : b_resp_reg;
wire b_m_hs = m_axi_bvalid && m_axi_bready;

assign s_axi_bid    = m_axi_bid;
assign s_axi_bresp  = b_resp;
assign s_axi_buser  = m_axi_buser;
assign s_axi_bvalid = m_axi_bvalid && b_head_final;
assign m_axi_bready = b_head_final ? s_axi_bready : 1'b1;

always @(posedge clk) begin
    if (aw_s_hs) begin
        aw_valid_reg <= 1'b1;
        aw_id_reg <= s_axi_awid;
        aw_addr_reg <= s_axi_awaddr;
        aw_len_reg <= aw_split ? NOM_LEN : s_axi_awlen;
        aw_rest_reg <= aw_split ? s_axi_awlen - NOM_LEN : 8'd0;
        aw_size_reg <= s_axi_awsize;
        aw_burst_reg <= s_axi_awburst;
        aw_lock_reg <= s_axi_awlock;
        aw_cache_reg <= s_axi_awcache;
        aw_prot_reg <= s_axi_awprot;
        aw_qos_reg <= s_axi_awqos;
        aw_region_reg <= s_axi_awregion;
        aw_user_reg <= s_axi_awuser;
    end else if (aw_m_hs) begin
        if (aw_final) begin
            aw_valid_reg <= 1'b0;
        end else begin
            aw_addr_reg[PAGE_WIDTH-1:0] <= next_page_addr(aw_addr_reg[PAGE_WIDTH-1:0], aw_size_reg);
            if ({1'b0, aw_rest_reg} > NOM_BEATS) begin
                aw_len_reg <= NOM_LEN;
                aw_rest_reg <= aw_rest_reg - NOM_BEATS[7:0];
            end else begin
                aw_len_reg <= aw_rest_reg - 8'd1;
                aw_rest_reg <= 8'd0;
            end
        end
    end

    if (aw_m_hs) begin
        aw_last_id_reg <= aw_id_reg;
        w_final_mem[w_wr_ptr_reg[W_PTR_WIDTH-1:0]] <= aw_final;
        w_wr_ptr_reg <= w_wr_ptr_reg + 1'b1;
    end

    if (w_hs) begin
        if (w_last) begin
            w_beat_reg <= {BEAT_WIDTH{1'b0}};
            w_w_ptr_reg <= w_w_ptr_reg + 1'b1;
        end else begin
            w_beat_reg <= w_beat_reg + 1'b1;
        end
    end

    if (b_m_hs) begin
        b_resp_reg <= b_head_final ? 2'b00 : b_resp;
        w_b_ptr_reg <= w_b_ptr_reg + 1'b1;
    end

    if (rst) begin
        aw_valid_reg <= 1'b0;
        w_wr_ptr_reg <= {(W_PTR_WIDTH+1){1'b0}};
        w_w_ptr_reg <= {(W_PTR_WIDTH+1){1'b0}};
        w_b_ptr_reg <= {(W_PTR_WIDTH+1){1'b0}};
        w_beat_reg <= {BEAT_WIDTH{1'b0}};
        b_resp_reg <= 2'b00;
    end
end

// zero initial state for simulation (the control state is also reset by rst)
initial begin
    ar_valid_reg = 1'b0;
    ar_id_reg = {ID_WIDTH{1'b0}};
    ar_addr_reg = {ADDR_WIDTH{1'b0}};
    ar_len_reg = 8'd0;
    ar_rest_reg = 8'd0;
    ar_size_reg = 3'd0;
    ar_burst_reg = 2'd0;
    ar_lock_reg = 1'b0;
    ar_cache_reg = 4'd0;
    ar_prot_reg = 3'd0;
    ar_qos_reg = 4'd0;
    ar_region_reg = 4'd0;
    ar_user_reg = {ARUSER_WIDTH{1'b0}};
    ar_last_id_reg = {ID_WIDTH{1'b0}};
    r_final_mem = {(2**R_PTR_WIDTH){1'b0}};
    r_wr_ptr_reg = {(R_PTR_WIDTH+1){1'b0}};
    r_rd_ptr_reg = {(R_PTR_WIDTH+1){1'b0}};
    aw_valid_reg = 1'b0;
    aw_id_reg = {ID_WIDTH{1'b0}};
    aw_addr_reg = {ADDR_WIDTH{1'b0}};
    aw_len_reg = 8'd0;
    aw_rest_reg = 8'd0;
    aw_size_reg = 3'd0;
    aw_burst_reg = 2'd0;
    aw_lock_reg = 1'b0;
    aw_cache_reg = 4'd0;
    aw_prot_reg = 3'd0;
    aw_qos_reg = 4'd0;
    aw_region_reg = 4'd0;
    aw_user_reg = {AWUSER_WIDTH{1'b0}};
    aw_last_id_reg = {ID_WIDTH{1'b0}};
    w_final_mem = {(2**W_PTR_WIDTH){1'b0}};
    w_wr_ptr_reg = {(W_PTR_WIDTH+1){1'b0}};
    w_w_ptr_reg = {(W_PTR_WIDTH+1){1'b0}};
    w_b_ptr_reg = {(W_PTR_WIDTH+1){1'b0}};
    w_beat_reg = {BEAT_WIDTH{1'b0}};
    b_resp_reg = 2'b00;
end

endmodule

`default_nettype wire
