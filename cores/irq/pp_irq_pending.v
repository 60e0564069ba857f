/*
 * pushpush: interrupt block of the system top (pp_irq_pending)
 *
 * Raises an interrupt towards the PS whenever the PL writes into a software component's
 * window (docs/architecture.md §2.3). It watches the top's PL-to-PS write port (the m_axi
 * port into the ARM's windows: only its AW and B handshakes, never stalling it) and keeps
 * one pending bit per software component (window i = WIN_BASE[i], 2**WIN_BITS[i] bytes).
 *
 * - Set: when a write burst into window i is answered (its B handshake), pending[i] is set:
 *   the data is in PS memory by then, so software woken by the bit finds it. B responses
 *   carry no address, so every window written by a burst still outstanding (AW taken, B
 *   not yet) is "armed"; each B handshake sets the pending bits of all armed windows, and
 *   the armed set empties when no burst is outstanding. So the last B of every burst into
 *   window i sets pending[i] at or after its own response (never lost, never early), and a
 *   bit is only ever set by a write into its window.
 * - Clear: the PS writes 1s to the pending register (byte offset 0 of this slave;
 *   write-1-to-clear, byte strobes honoured). A set in the same cycle as a clear wins.
 * - Enable: one enable bit per pending bit (0 after reset). Writing 1s at byte offset 0x4
 *   sets enable bits, at 0x8 clears them (so runtimes of several processes never
 *   read-modify-write); a runtime that sleeps on the interrupt enables its own bit, and the
 *   bits of components that do not wait for it never hold the line.
 * - Read: offset 0 returns the pending bits, offset 0x4 the enable bits (zero-extended);
 *   offset 0x10 the low word of the cycle counter, 0x14 its high word as it was when 0x10
 *   was last read (a 32-bit reader reads 0x10, then 0x14, and gets one 64-bit value; a
 *   64-bit read of 0x10 gets both halves of the same cycle); other offsets read 0.
 * - Cycle counter: 64 bits, 0 in reset, +1 every clock cycle after it (free-running): the
 *   clock software stamps its events with, in the PL's cycles (docs/trace.md).
 * - irq = OR of the pending bits that are enabled (level, active high), from registers.
 *
 * The register slave is a full AXI4 slave (IDs, INCR/FIXED bursts, one read and one write
 * transaction at a time, OKAY responses): the shared front end pp_axi_slave (cores/axi_slave). The runtime clears its bit, then sweeps its
 * window again before it sleeps, so a write that lands while it clears is seen either by
 * that sweep or through the bit it sets after the clear.
 *
 * See README.md beside this file for latency and resources.
 */

`default_nettype none

module pp_irq_pending #
(
    // Number of pending bits (software components), 1..32
    parameter N = 1,
    // AXI data width of the register slave (32 or 64)
    parameter DATA_WIDTH = 32,
    // Address width (both ports)
    parameter ADDR_WIDTH = 32,
    // ID width of the register slave
    parameter ID_WIDTH = 8,
    // Window i's base address at [i*ADDR_WIDTH +: ADDR_WIDTH] (size-aligned)
    parameter WIN_BASE = {N{32'h00000000}},
    // log2 of window i's size in bytes at [i*32 +: 32]
    parameter WIN_BITS = {N{32'd12}},
    // Width of the outstanding-burst counter of the watched port
    parameter CNT_WIDTH = 8
)
(
    input  wire                   clk,
    input  wire                   rst,

    /*
     * The watched PL-to-PS write port (AW and B handshakes only)
     */
    input  wire [ADDR_WIDTH-1:0]  mon_awaddr,
    input  wire                   mon_awvalid,
    input  wire                   mon_awready,
    input  wire                   mon_bvalid,
    input  wire                   mon_bready,

    /*
     * AXI4 slave: the pending register
     */
    input  wire [ID_WIDTH-1:0]    s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]  s_axi_awaddr,
    input  wire [7:0]             s_axi_awlen,
    input  wire [2:0]             s_axi_awsize,
    input  wire [1:0]             s_axi_awburst,
    input  wire                   s_axi_awlock,
    input  wire [3:0]             s_axi_awcache,
    input  wire [2:0]             s_axi_awprot,
    input  wire                   s_axi_awvalid,
    output wire                   s_axi_awready,
    input  wire [DATA_WIDTH-1:0]  s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0] s_axi_wstrb,
    input  wire                   s_axi_wlast,
    input  wire                   s_axi_wvalid,
    output wire                   s_axi_wready,
    output wire [ID_WIDTH-1:0]    s_axi_bid,
    output wire [1:0]             s_axi_bresp,
    output wire                   s_axi_bvalid,
    input  wire                   s_axi_bready,
    input  wire [ID_WIDTH-1:0]    s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]  s_axi_araddr,
    input  wire [7:0]             s_axi_arlen,
    input  wire [2:0]             s_axi_arsize,
    input  wire [1:0]             s_axi_arburst,
    input  wire                   s_axi_arlock,
    input  wire [3:0]             s_axi_arcache,
    input  wire [2:0]             s_axi_arprot,
    input  wire                   s_axi_arvalid,
    output wire                   s_axi_arready,
    output wire [ID_WIDTH-1:0]    s_axi_rid,
    output wire [DATA_WIDTH-1:0]  s_axi_rdata,
    output wire [1:0]             s_axi_rresp,
    output wire                   s_axi_rlast,
    output wire                   s_axi_rvalid,
    input  wire                   s_axi_rready,

    /*
     * The interrupt and the bits
     */
    output wire [N-1:0]           pending,
    output wire                   irq
);

localparam BB = DATA_WIDTH / 8;

initial begin
    if (N < 1 || N > 32) begin
        $display("pp_irq_pending: N must be 1..32");
        $finish;
    end
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
        $display("pp_irq_pending: DATA_WIDTH must be 32 or 64");
        $finish;
    end
end

/*
 * Which window a watched AW goes to
 */
wire [N-1:0] hit;
genvar gi;
generate
    for (gi = 0; gi < N; gi = gi + 1) begin : g_hit
        wire [ADDR_WIDTH-1:0] base = WIN_BASE[gi*ADDR_WIDTH +: ADDR_WIDTH];
        wire [31:0] bits = WIN_BITS[gi*32 +: 32];
        assign hit[gi] = ((mon_awaddr ^ base) >> bits) == {ADDR_WIDTH{1'b0}};
    end
endgenerate

/*
 * Pending bits
 */
reg [N-1:0] pending_reg;
reg [N-1:0] armed_reg;
reg [CNT_WIDTH-1:0] out_reg;

wire aw_hs = mon_awvalid && mon_awready;
wire b_hs = mon_bvalid && mon_bready;
wire [CNT_WIDTH-1:0] out_next = out_reg + {{CNT_WIDTH-1{1'b0}}, aw_hs} - {{CNT_WIDTH-1{1'b0}}, b_hs};

// the writes of this cycle (a W beat on offset 0, 0x4, 0x8): pending clear, enable set/clear
wire [N-1:0] clr;
wire [N-1:0] en_set;
wire [N-1:0] en_clr;
reg [N-1:0] enable_reg;
reg irq_reg;

always @(posedge clk) begin
    if (rst) begin
        pending_reg <= {N{1'b0}};
        armed_reg <= {N{1'b0}};
        out_reg <= {CNT_WIDTH{1'b0}};
        enable_reg <= {N{1'b0}};
        irq_reg <= 1'b0;
    end else begin
        out_reg <= out_next;
        armed_reg <= ((b_hs && out_next == {CNT_WIDTH{1'b0}}) ? {N{1'b0}} : armed_reg)
                     | (aw_hs ? hit : {N{1'b0}});
        pending_reg <= (pending_reg & ~clr) | (b_hs ? armed_reg : {N{1'b0}});
        enable_reg <= (enable_reg & ~en_clr) | en_set;
        irq_reg <= |(((pending_reg & ~clr) | (b_hs ? armed_reg : {N{1'b0}}))
                     & ((enable_reg & ~en_clr) | en_set));
    end
end

assign pending = pending_reg;
assign irq = irq_reg;

/*
 * The register slave: the AXI4 front end (cores/axi_slave) gives one beat at a time
 */
wire                  w_hs;       // a W beat is taken
wire [11:0]           w_addr;     // its byte offset
wire [DATA_WIDTH-1:0] w_data;
wire [BB-1:0]         w_strb;
wire                  r_hs;       // an R beat is taken
wire [11:0]           r_addr;     // the byte offset of the R beat on the bus
wire [DATA_WIDTH-1:0] r_data;
/* verilator lint_off UNUSEDSIGNAL */
wire                  w_ovf, w_bad, w_last, r_ovf, r_bad;
wire [2:0]            w_size, r_size;
/* verilator lint_on UNUSEDSIGNAL */

pp_axi_slave #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(ADDR_WIDTH), .ID_WIDTH(ID_WIDTH),
    .WR_ADDR_BITS(12), .RD_ADDR_BITS(12), .FULL_BEATS(1)
) fe (
    .clk(clk), .rst(rst),
    .s_axi_awid(s_axi_awid), .s_axi_awaddr(s_axi_awaddr), .s_axi_awlen(s_axi_awlen),
    .s_axi_awsize(s_axi_awsize), .s_axi_awburst(s_axi_awburst), .s_axi_awlock(s_axi_awlock),
    .s_axi_awcache(s_axi_awcache), .s_axi_awprot(s_axi_awprot), .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready), .s_axi_wdata(s_axi_wdata), .s_axi_wstrb(s_axi_wstrb),
    .s_axi_wlast(s_axi_wlast), .s_axi_wvalid(s_axi_wvalid), .s_axi_wready(s_axi_wready),
    .s_axi_bid(s_axi_bid), .s_axi_bresp(s_axi_bresp), .s_axi_bvalid(s_axi_bvalid),
    .s_axi_bready(s_axi_bready), .s_axi_arid(s_axi_arid), .s_axi_araddr(s_axi_araddr),
    .s_axi_arlen(s_axi_arlen), .s_axi_arsize(s_axi_arsize), .s_axi_arburst(s_axi_arburst),
    .s_axi_arlock(s_axi_arlock), .s_axi_arcache(s_axi_arcache), .s_axi_arprot(s_axi_arprot),
    .s_axi_arvalid(s_axi_arvalid), .s_axi_arready(s_axi_arready), .s_axi_rid(s_axi_rid),
    .s_axi_rdata(s_axi_rdata), .s_axi_rresp(s_axi_rresp), .s_axi_rlast(s_axi_rlast),
    .s_axi_rvalid(s_axi_rvalid), .s_axi_rready(s_axi_rready),
    .wr_en(w_hs), .wr_addr(w_addr), .wr_ovf(w_ovf), .wr_size(w_size), .wr_bad(w_bad),
    .wr_data(w_data), .wr_strb(w_strb), .wr_last(w_last), .wr_ready(1'b1), .wr_err(1'b0),
    .wr_resp_valid(1'b0), .wr_resp(2'b00),
    .rd_en(r_hs), .rd_addr(r_addr), .rd_ovf(r_ovf), .rd_size(r_size), .rd_bad(r_bad),
    .rd_data(r_data), .rd_err(1'b0), .rd_zero(1'b0)
);

/*
 * Register writes: the beat's 32-bit lanes: lane 0 is word w_word0 (offset 0x4 * w_word0),
 * lane 1 (64-bit data only) the next word
 */
localparam [9:0] LANE_MASK = (DATA_WIDTH == 64) ? 10'd1 : 10'd0;
wire [9:0] w_word0 = w_addr[11:2] & ~LANE_MASK;
wire [9:0] w_word1 = w_word0 | 10'd1;
wire lane1_on = (DATA_WIDTH == 64);
wire [31:0] w_lane0 = w_data[31:0] & {{8{w_strb[3]}}, {8{w_strb[2]}},
                                      {8{w_strb[1]}}, {8{w_strb[0]}}};
wire [31:0] w_lane1 = w_data[DATA_WIDTH-1 -: 32]
                      & {{8{w_strb[BB-1]}}, {8{w_strb[BB-2]}},
                         {8{w_strb[BB-3]}}, {8{w_strb[BB-4]}}};
wire [31:0] w_clr32 = !w_hs ? 32'd0 : (w_word0 == 10'd0) ? w_lane0 : 32'd0;
wire [31:0] w_set32 = !w_hs ? 32'd0 : ((w_word0 == 10'd1) ? w_lane0 : 32'd0)
                                     | ((lane1_on && w_word1 == 10'd1) ? w_lane1 : 32'd0);
wire [31:0] w_dis32 = !w_hs ? 32'd0 : ((w_word0 == 10'd2) ? w_lane0 : 32'd0)
                                     | ((lane1_on && w_word1 == 10'd2) ? w_lane1 : 32'd0);
assign clr = w_clr32[N-1:0];
assign en_set = w_set32[N-1:0];
assign en_clr = w_dis32[N-1:0];

// defined from time 0 in simulation (reset sets what matters)
initial begin
    pending_reg = {N{1'b0}};
    armed_reg = {N{1'b0}};
    out_reg = {CNT_WIDTH{1'b0}};
    enable_reg = {N{1'b0}};
    irq_reg = 1'b0;
end

/*
 * Register reads: the registers as 32-bit words: 0 pending, 1 enable, others 0
 */
wire [31:0] pend32;
wire [31:0] en32;
assign pend32[N-1:0] = pending_reg;
assign en32[N-1:0] = enable_reg;
generate
    if (N < 32) begin : g_rpad
        assign pend32[31:N] = {(32-N){1'b0}};
        assign en32[31:N] = {(32-N){1'b0}};
    end
endgenerate
wire [9:0] r_word0 = r_addr[11:2] & ~LANE_MASK;
wire [9:0] r_word1 = r_word0 | 10'd1;

// the cycle counter and the high word latched by a read of its low word (word 4)
reg [63:0] cycles_reg;
reg [31:0] cycles_hi;
initial begin
    cycles_reg = 64'd0;
    cycles_hi = 32'd0;
end
always @(posedge clk) begin
    if (rst) begin
        cycles_reg <= 64'd0;
        cycles_hi <= 32'd0;
    end else begin
        cycles_reg <= cycles_reg + 64'd1;
        if (r_hs && r_word0 == 10'd4)
            cycles_hi <= cycles_reg[63:32];
    end
end

wire [31:0] r_lane0 = (r_word0 == 10'd0) ? pend32 : (r_word0 == 10'd1) ? en32 :
                      (r_word0 == 10'd4) ? cycles_reg[31:0] : (r_word0 == 10'd5) ? cycles_hi : 32'd0;
wire [31:0] r_lane1 = (r_word1 == 10'd1) ? en32 : (r_word1 == 10'd5) ? cycles_reg[63:32] : 32'd0;
generate
    if (DATA_WIDTH == 64) begin : g_r64
        assign r_data = {r_lane1, r_lane0};
    end else begin : g_r32
        assign r_data = r_lane0;
    end
endgenerate

// inputs a register has no use for
wire unused = &{1'b0, w_strb, w_data, w_clr32, w_set32, w_dis32, w_addr[1:0], r_addr[1:0],
                r_lane1};

endmodule

`default_nettype wire
