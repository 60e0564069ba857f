/*
 * pushpush: the AXI4 slave front end of a register block or memory (pp_axi_slave)
 *
 * The AW/W/B and AR/R handshakes, burst address stepping, ID echo, the B queue and the
 * read output register, written once for the cores that answer AXI4 as a register page or
 * a memory (endpoint_mem, irq, ps_window, riscv's window). The core behind it sees one
 * beat at a time:
 *
 * - Write beat: `wr_en` in the cycle a W beat is taken, with the beat's byte address
 *   (`wr_addr`, the low WR_ADDR_BITS bits; `wr_ovf` once the burst's address is at
 *   2**WR_ADDR_BITS or above), `wr_data`, `wr_strb`, `wr_last` and the burst's `wr_size` and
 *   `wr_bad` (not INCR, or AxSIZE outside SIZE_MIN..SIZE_MAX). The core may hold the beat
 *   back (`wr_ready` low: no W beat is taken) and refuse it (`wr_err` in the cycle of
 *   `wr_en`: the burst answers SLVERR). With WR_RESP_WAIT = 0 the burst's B is queued in
 *   the cycle its last beat is taken; with 1 the core answers later (`wr_resp_valid`,
 *   `wr_resp`), the worse of it and any refused beat.
 * - Read beat: `rd_addr` (low RD_ADDR_BITS bits), `rd_ovf`, `rd_size`, `rd_bad` of the beat
 *   to return; the core answers `rd_data`, `rd_err` (SLVERR, data 0) and `rd_zero` (data 0,
 *   OKAY) combinationally from them. With R_REG = 0 the answer goes straight onto R (RVALID
 *   is a register, RDATA follows the core) and `rd_en` is the R handshake; with R_REG = 1 the
 *   answer is taken into an output register (`rd_en` in that cycle) one cycle after AR,
 *   the next beat while the previous one is taken.
 *
 * Bursts: INCR and WRAP step the address by 2**AxSIZE (aligned, as AXI4's INCR), FIXED
 * keeps it; one write and one read burst at a time, each independent of the other. AWLEN
 * is not used: a burst ends at WLAST.
 *
 * Timing (the cycle counts of the cores that use it, see README.md): AW is taken in the
 * cycle it is valid while no burst is open and the B queue has room; the first W beat in
 * the next cycle (W_WITH_AW = 0) or in the same one (W_WITH_AW = 1); B one cycle after the
 * last beat; AR in the cycle it is valid when no read burst is open (R_REG = 1 and
 * AR_EARLY = 1: also while the last beat waits in the output register); the first R beat
 * one cycle after AR (R_REG = 0) or two (R_REG = 1), then one beat per cycle.
 */

`default_nettype none

module pp_axi_slave #
(
    // AXI data width: 32 or 64
    parameter DATA_WIDTH = 32,
    // AXI address width
    parameter ADDR_WIDTH = 32,
    // AXI ID width
    parameter ID_WIDTH = 8,
    // Low address bits carried by the write beats (1..ADDR_WIDTH)
    parameter WR_ADDR_BITS = ADDR_WIDTH,
    // Low address bits carried by the read beats (1..ADDR_WIDTH)
    parameter RD_ADDR_BITS = ADDR_WIDTH,
    // 1: the first W beat may be taken in the cycle of its AW
    parameter W_WITH_AW = 0,
    // Bursts whose B response may wait in the queue (a power of two)
    parameter B_DEPTH = 1,
    // 0: B is queued with the last W beat; 1: when the core answers (wr_resp_valid)
    parameter WR_RESP_WAIT = 0,
    // 0: RDATA straight from the core; 1: through an output register
    parameter R_REG = 0,
    // With R_REG = 1: the next AR may be taken while the last R beat waits in the register
    parameter AR_EARLY = 0,
    // wr_bad/rd_bad: the burst is not INCR, or its AxSIZE is outside SIZE_MIN..SIZE_MAX
    parameter SIZE_MIN = 0,
    parameter SIZE_MAX = 7,
    // 1: the core refuses every burst with wr_bad/rd_bad set, so only INCR bursts matter:
    // the address steps by 2**AxSIZE without aligning it (the same word and the same
    // overflow for AxSIZE up to the word, and for whole beats) and FIXED is not kept
    parameter INCR_ONLY = 0,
    // 1: INCR/WRAP step by the bus width whatever AxSIZE (a core that decodes whole beats,
    // irq: a constant step, fewer LUTs); 0: by 2**AxSIZE as AXI asks
    parameter FULL_BEATS = 0
)
(
    input  wire                     clk,
    input  wire                     rst,

    /*
     * AXI4 slave
     */
    input  wire [ID_WIDTH-1:0]      s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [7:0]               s_axi_awlen,
    input  wire [2:0]               s_axi_awsize,
    input  wire [1:0]               s_axi_awburst,
    input  wire                     s_axi_awlock,
    input  wire [3:0]               s_axi_awcache,
    input  wire [2:0]               s_axi_awprot,
    input  wire                     s_axi_awvalid,
    output wire                     s_axi_awready,
    input  wire [DATA_WIDTH-1:0]    s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axi_wstrb,
    input  wire                     s_axi_wlast,
    input  wire                     s_axi_wvalid,
    output wire                     s_axi_wready,
    output wire [ID_WIDTH-1:0]      s_axi_bid,
    output wire [1:0]               s_axi_bresp,
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
    input  wire                     s_axi_arvalid,
    output wire                     s_axi_arready,
    output wire [ID_WIDTH-1:0]      s_axi_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [1:0]               s_axi_rresp,
    output wire                     s_axi_rlast,
    output wire                     s_axi_rvalid,
    input  wire                     s_axi_rready,

    /*
     * Write beats
     */
    output wire                     wr_en,
    output wire [WR_ADDR_BITS-1:0]  wr_addr,
    output wire                     wr_ovf,
    output wire [2:0]               wr_size,
    output wire                     wr_bad,
    output wire [DATA_WIDTH-1:0]    wr_data,
    output wire [DATA_WIDTH/8-1:0]  wr_strb,
    output wire                     wr_last,
    input  wire                     wr_ready,
    input  wire                     wr_err,
    input  wire                     wr_resp_valid,
    input  wire [1:0]               wr_resp,

    /*
     * Read beats
     */
    output wire                     rd_en,
    output wire [RD_ADDR_BITS-1:0]  rd_addr,
    output wire                     rd_ovf,
    output wire [2:0]               rd_size,
    output wire                     rd_bad,
    input  wire [DATA_WIDTH-1:0]    rd_data,
    input  wire                     rd_err,
    input  wire                     rd_zero
);

localparam WA = WR_ADDR_BITS;
localparam RA = RD_ADDR_BITS;
localparam BP = (B_DEPTH > 1) ? $clog2(B_DEPTH) : 0;
localparam RB = (WR_RESP_WAIT != 0) ? 2 : 1;   // response bits kept in the B queue
localparam [2:0] BUS_SIZE = (DATA_WIDTH == 64) ? 3'd3 : 3'd2;
localparam [1:0] RESP_OKAY = 2'b00;
localparam [1:0] RESP_SLVERR = 2'b10;
// bit s: AxSIZE s is within SIZE_MIN..SIZE_MAX
localparam [8:0] SIZES_OK9 = ((9'd1 << (SIZE_MAX + 1)) - 9'd1) & ~((9'd1 << SIZE_MIN) - 9'd1);
localparam [7:0] SIZES_OK = SIZES_OK9[7:0];

initial begin
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
        $display("pp_axi_slave: DATA_WIDTH must be 32 or 64");
        $finish;
    end
    if (WA < 1 || WA > ADDR_WIDTH || RA < 1 || RA > ADDR_WIDTH) begin
        $display("pp_axi_slave: WR_ADDR_BITS and RD_ADDR_BITS must be 1..ADDR_WIDTH");
        $finish;
    end
    if (B_DEPTH < 1 || (1 << BP) != B_DEPTH) begin
        $display("pp_axi_slave: B_DEPTH must be a power of two");
        $finish;
    end
end

// worse of two responses: DECERR (3) > SLVERR (2) > OKAY (0)
function [1:0] worse;
    input [1:0] a;
    input [1:0] b;
    begin
        worse = (a[1] && (!b[1] || a[0])) ? a : b;
    end
endfunction

// a burst the core may refuse: not INCR, or its size out of range
function bad_burst;
    input [1:0] burst;
    input [2:0] size;
    begin
        bad_burst = burst != 2'b01 || !SIZES_OK[size];
    end
endfunction

/*
 * Writes
 */
reg           w_open;    // AW taken, W beats to come
reg           w_wait;    // (WR_RESP_WAIT) last beat taken, the core's answer to come
reg [WA-1:0]  w_addr;
reg [2:0]     w_size;
reg           w_fixed;
reg           w_bad;
reg           w_ovf;
reg           w_err;     // a beat of the burst was refused

wire b_full;
wire b_push;
wire [RB-1:0] b_resp_in;

assign s_axi_awready = !w_open && !w_wait && !b_full;
wire aw_fire = s_axi_awvalid && s_axi_awready;
assign s_axi_wready = (w_open || (W_WITH_AW != 0 && s_axi_awvalid && s_axi_awready)) && wr_ready;
wire w_fire = s_axi_wvalid && s_axi_wready;

// the AW's start address is at 2**WA or above
wire aw_ovf;
wire ar_ovf;
generate
    if (WA < ADDR_WIDTH) begin : g_aw_hi
        assign aw_ovf = |s_axi_awaddr[ADDR_WIDTH-1:WA];
    end else begin : g_aw_nohi
        assign aw_ovf = 1'b0;
    end
    if (RA < ADDR_WIDTH) begin : g_ar_hi
        assign ar_ovf = |s_axi_araddr[ADDR_WIDTH-1:RA];
    end else begin : g_ar_nohi
        assign ar_ovf = 1'b0;
    end
endgenerate

// the current beat's burst: the registered one, or (W_WITH_AW) the AW taken in this cycle
wire          w_new   = (W_WITH_AW != 0) && !w_open;
wire [WA-1:0] cur_addr  = w_new ? s_axi_awaddr[WA-1:0] : w_addr;
wire [2:0]    cur_size  = w_new ? s_axi_awsize : w_size;
wire          cur_fixed = w_new ? (s_axi_awburst == 2'b00) : w_fixed;
wire          cur_bad   = w_new ? bad_burst(s_axi_awburst, s_axi_awsize) : w_bad;
wire          cur_ovf   = w_new ? aw_ovf : w_ovf;
wire          cur_err   = !w_new && w_err;

wire [WA:0] w_step = {{WA{1'b0}}, 1'b1} << ((FULL_BEATS != 0) ? BUS_SIZE : cur_size);
wire [WA:0] w_next = (INCR_ONLY != 0) ? {1'b0, cur_addr} + w_step
                   : cur_fixed ? {1'b0, cur_addr}
                   : ({1'b0, cur_addr} & ~(w_step - 1'b1)) + w_step;

assign wr_en = w_fire;
assign wr_addr = cur_addr;
assign wr_ovf = cur_ovf;
assign wr_size = cur_size;
assign wr_bad = cur_bad;
assign wr_data = s_axi_wdata;
assign wr_strb = s_axi_wstrb;
assign wr_last = s_axi_wlast;

always @(posedge clk) begin
    if (aw_fire) begin
        w_open <= 1'b1;
        w_addr <= s_axi_awaddr[WA-1:0];
        w_size <= s_axi_awsize;
        w_fixed <= (s_axi_awburst == 2'b00);
        w_bad <= bad_burst(s_axi_awburst, s_axi_awsize);
        w_ovf <= aw_ovf;
        w_err <= 1'b0;
    end
    if (w_fire) begin
        w_addr <= w_next[WA-1:0];
        w_ovf <= cur_ovf || w_next[WA];
        w_err <= cur_err || wr_err;
        if (s_axi_wlast) begin
            w_open <= 1'b0;
            w_wait <= (WR_RESP_WAIT != 0);
        end
    end
    if (WR_RESP_WAIT != 0 && wr_resp_valid) begin
        w_wait <= 1'b0;
    end
    if (rst) begin
        w_open <= 1'b0;
        w_wait <= 1'b0;
        w_addr <= {WA{1'b0}};
        w_size <= 3'd0;
        w_fixed <= 1'b0;
        w_bad <= 1'b0;
        w_ovf <= 1'b0;
        w_err <= 1'b0;
    end
end

generate
    if (WR_RESP_WAIT != 0) begin : g_resp_core
        // the core answers after the last beat (while w_wait)
        assign b_push = w_wait && wr_resp_valid;
        assign b_resp_in = worse(w_err ? RESP_SLVERR : RESP_OKAY, wr_resp);
    end else begin : g_resp_last
        assign b_push = w_fire && s_axi_wlast;
        assign b_resp_in = cur_err || wr_err;
    end
endgenerate

/*
 * The B queue: the ID is written at AW (its entry is free: AW needs room), the response
 * when the burst is answered
 */
wire [RB-1:0] b_resp_out;
generate
    if (B_DEPTH == 1) begin : g_b1
        reg               b_valid;
        reg [ID_WIDTH-1:0] b_id;
        reg [RB-1:0]      b_resp;
        always @(posedge clk) begin
            if (aw_fire)
                b_id <= s_axi_awid;
            if (b_push)
                b_resp <= b_resp_in;
            if (rst)
                b_valid <= 1'b0;
            else if (b_push)
                b_valid <= 1'b1;
            else if (s_axi_bready)
                b_valid <= 1'b0;
        end
        initial begin
            b_valid = 1'b0;
            b_id = {ID_WIDTH{1'b0}};
            b_resp = {RB{1'b0}};
        end
        assign b_full = b_valid;
        assign s_axi_bvalid = b_valid;
        assign s_axi_bid = b_id;
        assign b_resp_out = b_resp;
    end else begin : g_bq
        localparam [BP:0] HALF = {1'b1, {BP{1'b0}}};
        reg [ID_WIDTH-1:0] b_id_mem [0:B_DEPTH-1];
        reg [RB-1:0]       b_resp_mem [0:B_DEPTH-1];
        reg [BP:0]         b_wr_ptr;
        reg [BP:0]         b_rd_ptr;
        integer n;
        initial begin
            b_wr_ptr = {BP+1{1'b0}};
            b_rd_ptr = {BP+1{1'b0}};
            for (n = 0; n < B_DEPTH; n = n + 1) begin
                b_id_mem[n] = {ID_WIDTH{1'b0}};
                b_resp_mem[n] = {RB{1'b0}};
            end
        end
        always @(posedge clk) begin
            if (aw_fire)
                b_id_mem[b_wr_ptr[BP-1:0]] <= s_axi_awid;
            if (b_push) begin
                b_resp_mem[b_wr_ptr[BP-1:0]] <= b_resp_in;
                b_wr_ptr <= b_wr_ptr + 1'b1;
            end
            if (s_axi_bvalid && s_axi_bready)
                b_rd_ptr <= b_rd_ptr + 1'b1;
            if (rst) begin
                b_wr_ptr <= {BP+1{1'b0}};
                b_rd_ptr <= {BP+1{1'b0}};
            end
        end
        assign b_full = b_wr_ptr == (b_rd_ptr ^ HALF);
        assign s_axi_bvalid = b_wr_ptr != b_rd_ptr;
        assign s_axi_bid = b_id_mem[b_rd_ptr[BP-1:0]];
        assign b_resp_out = b_resp_mem[b_rd_ptr[BP-1:0]];
    end
    if (WR_RESP_WAIT != 0) begin : g_bresp2
        assign s_axi_bresp = b_resp_out;
    end else begin : g_bresp1
        assign s_axi_bresp = b_resp_out[0] ? RESP_SLVERR : RESP_OKAY;
    end
endgenerate

/*
 * Reads: the burst being read out
 */
reg                rd_active;
reg [ID_WIDTH-1:0] rd_id;
reg [RA-1:0]       rd_addr_reg;
reg [7:0]          rd_left;    // beats after the current one
reg [2:0]          rd_size_reg;
reg                rd_fixed;
reg                rd_bad_reg;
reg                rd_ovf_reg;

wire [RA:0] r_step = {{RA{1'b0}}, 1'b1} << ((FULL_BEATS != 0) ? BUS_SIZE : rd_size_reg);
wire [RA:0] r_next = (INCR_ONLY != 0) ? {1'b0, rd_addr_reg} + r_step
                   : rd_fixed ? {1'b0, rd_addr_reg}
                   : ({1'b0, rd_addr_reg} & ~(r_step - 1'b1)) + r_step;

assign rd_addr = rd_addr_reg;
assign rd_ovf = rd_ovf_reg;
assign rd_size = rd_size_reg;
assign rd_bad = rd_bad_reg;

wire ar_fire = s_axi_arvalid && s_axi_arready;
// the current beat is done: taken on R (R_REG 0) or into the output register (R_REG 1)
wire r_step_en;

always @(posedge clk) begin
    if (ar_fire) begin
        rd_active <= 1'b1;
        rd_id <= s_axi_arid;
        rd_addr_reg <= s_axi_araddr[RA-1:0];
        rd_left <= s_axi_arlen;
        rd_size_reg <= s_axi_arsize;
        rd_fixed <= (s_axi_arburst == 2'b00);
        rd_bad_reg <= bad_burst(s_axi_arburst, s_axi_arsize);
        rd_ovf_reg <= ar_ovf;
    end
    if (r_step_en) begin
        rd_addr_reg <= r_next[RA-1:0];
        rd_ovf_reg <= rd_ovf_reg || r_next[RA];
        rd_left <= rd_left - 8'd1;
        if (rd_left == 8'd0)
            rd_active <= 1'b0;
    end
    if (rst) begin
        rd_active <= 1'b0;
        rd_id <= {ID_WIDTH{1'b0}};
        rd_addr_reg <= {RA{1'b0}};
        rd_left <= 8'd0;
        rd_size_reg <= 3'd0;
        rd_fixed <= 1'b0;
        rd_bad_reg <= 1'b0;
        rd_ovf_reg <= 1'b0;
    end
end

generate
    if (R_REG == 0) begin : g_rcomb
        // RVALID while the burst is open; RDATA/RRESP follow the core's answer
        assign s_axi_arready = !rd_active;
        assign s_axi_rvalid = rd_active;
        assign s_axi_rid = rd_id;
        assign s_axi_rdata = (rd_err || rd_zero) ? {DATA_WIDTH{1'b0}} : rd_data;
        assign s_axi_rresp = rd_err ? RESP_SLVERR : RESP_OKAY;
        assign s_axi_rlast = (rd_left == 8'd0);
        assign r_step_en = rd_active && s_axi_rready;
        assign rd_en = r_step_en;
    end else begin : g_rreg
        // one output register: the next beat is loaded while the previous one is taken
        reg                  r_valid;
        reg [DATA_WIDTH-1:0] r_data;
        reg                  r_err;
        reg                  r_last;
        wire r_load = rd_active && (!r_valid || s_axi_rready);
        initial begin
            r_valid = 1'b0;
            r_data = {DATA_WIDTH{1'b0}};
            r_err = 1'b0;
            r_last = 1'b0;
        end
        always @(posedge clk) begin
            if (s_axi_rvalid && s_axi_rready)
                r_valid <= 1'b0;
            if (r_load) begin
                r_valid <= 1'b1;
                r_err <= rd_err;
                r_last <= rd_left == 8'd0;
            end
            if (rst) begin
                r_valid <= 1'b0;
                r_err <= 1'b0;
                r_last <= 1'b0;
            end
        end
        // zero data (rst, an error beat, a beat that reads 0) as the register's synchronous reset
        always @(posedge clk) begin
            if (rst || (r_load && (rd_err || rd_zero)))
                r_data <= {DATA_WIDTH{1'b0}};
            else if (r_load)
                r_data <= rd_data;
        end
        if (AR_EARLY != 0) begin : g_early
            // a new AR may overwrite rd_id while the last beat waits: the beat keeps its own
            reg [ID_WIDTH-1:0] r_id;
            initial r_id = {ID_WIDTH{1'b0}};
            always @(posedge clk) begin
                if (rst)
                    r_id <= {ID_WIDTH{1'b0}};
                else if (r_load)
                    r_id <= rd_id;
            end
            assign s_axi_arready = !rd_active;
            assign s_axi_rid = r_id;
        end else begin : g_late
            assign s_axi_arready = !rd_active && !r_valid;
            assign s_axi_rid = rd_id;
        end
        assign s_axi_rvalid = r_valid;
        assign s_axi_rdata = r_data;
        assign s_axi_rresp = r_err ? RESP_SLVERR : RESP_OKAY;
        assign s_axi_rlast = r_last;
        assign r_step_en = r_load;
        assign rd_en = r_load;
    end
endgenerate

// defined from time 0 in simulation (reset sets what matters)
initial begin
    w_open = 1'b0;
    w_wait = 1'b0;
    w_addr = {WA{1'b0}};
    w_size = 3'd0;
    w_fixed = 1'b0;
    w_bad = 1'b0;
    w_ovf = 1'b0;
    w_err = 1'b0;
    rd_active = 1'b0;
    rd_id = {ID_WIDTH{1'b0}};
    rd_addr_reg = {RA{1'b0}};
    rd_left = 8'd0;
    rd_size_reg = 3'd0;
    rd_fixed = 1'b0;
    rd_bad_reg = 1'b0;
    rd_ovf_reg = 1'b0;
end

// AXI attributes a register slave has no use for (awlen: a burst ends at wlast); the core's
// answer on the write side it does not wait for
wire unused = &{1'b0, s_axi_awlen, s_axi_awlock, s_axi_awcache, s_axi_awprot,
                s_axi_arlock, s_axi_arcache, s_axi_arprot, wr_resp_valid, wr_resp};

endmodule

`default_nettype wire
