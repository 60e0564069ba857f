/*
 * pushpush: the PL trace buffer (pp_trace), issue 31
 *
 * Timestamps call and return events of a system top into a BRAM ring that software drains
 * through an AXI4 register slave (docs/trace.md, "The PL trace buffer"; README.md beside
 * this file). A record is written for every clock cycle in which at least one event fires:
 *
 *   word 0: timestamp, low 32 bits     (the cycle counter: 0 in reset, +1 every cycle)
 *   word 1: timestamp, high 32 bits
 *   word 2: event mask, bits 31..0     (bit k: event k fired in that cycle)
 *   word 3: event mask, bits 63..32
 *
 * so events of one cycle are never lost to each other. Events 0..NM-1 are address
 * matches on the NP watched write ports (the top's interconnect ports into its endpoint
 * windows: only observed, never stalled): event k fires when a W beat of port
 * MATCH_PORT[k] writes the 32-bit word at MATCH_ADDR[k] (its byte strobes not all 0) - a
 * call's trigger word, a return's status word. Events NM..NM+NE-1 are the pulses
 * ev[NE-1:0] (the user modules' valid&ready handshakes). A watched port's beat address
 * comes from its AW handshakes (INCR and FIXED bursts; up to two bursts whose AW was taken
 * before their last beat; a beat without a known address matches nothing).
 *
 * Ring: DEPTH = 2**DEPTH_LOG2 records. The write pointer counts the records written, the
 * read pointer the records software has consumed (it writes it); record i is at ring
 * slot i mod DEPTH. A record that finds the ring full (wp - rp == DEPTH) or the buffer
 * disabled is not written; if disabled it is not counted, if full the overflow counter
 * counts it (records never lost silently; the kept ones stay intact, software sees the
 * gap as the overflow count).
 *
 * Registers (byte offsets; 32-bit words; with 64-bit data each 32-bit lane is its word):
 *   0x00 control:  bit 0 enable (read/write, 0 after reset); writing bit 1 as 1 clears the
 *                  write and read pointers and the overflow counter (the same cycle's
 *                  events are not recorded)
 *   0x04 info:     bits 7..0 DEPTH_LOG2, bits 15..8 events (NM+NE), bits 31..16 0x7071
 *   0x08 write pointer (read-only, records written since the last clear, wraps at 2**32)
 *   0x0C read pointer (read/write: software writes the count of records it consumed)
 *   0x10 overflow count (read-only: records dropped because the ring was full)
 *   0x18 cycle counter low word; 0x1C its high word as latched by the last read of 0x18
 *   RING (= 2**(DEPTH_LOG2+4) bytes, at least 0x100): the ring, record slot s at
 *        RING + 16*s (a read of a slot not yet written returns what it held before)
 * Other offsets read 0 and ignore writes. Page size: 2*RING bytes.
 */

`default_nettype none

module pp_trace #
(
    // log2 of the ring's depth in records (4..20)
    parameter DEPTH_LOG2 = 10,
    // watched write ports (1..64)
    parameter NP = 1,
    // address-match events (0..64)
    parameter NM = 1,
    // pulse events (0..64); NM + NE must be 1..64
    parameter NE = 1,
    // data width of the watched ports (32 or 64)
    parameter MON_DATA_WIDTH = 32,
    // match k's word address at [k*32 +: 32]
    parameter MATCH_ADDR = {((NM > 0) ? NM : 1){32'h00000000}},
    // match k's watched port at [k*8 +: 8]
    parameter MATCH_PORT = {((NM > 0) ? NM : 1){8'd0}},
    // AXI data width of the register slave (32 or 64)
    parameter DATA_WIDTH = 32,
    // address width (both)
    parameter ADDR_WIDTH = 32,
    // ID width of the register slave
    parameter ID_WIDTH = 8
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * The watched write ports (flattened, port i at [i*W +: W]): AW and W handshakes only
     */
    input  wire [NP*ADDR_WIDTH-1:0]   mon_awaddr,
    input  wire [NP*2-1:0]            mon_awburst,
    input  wire [NP-1:0]              mon_awvalid,
    input  wire [NP-1:0]              mon_awready,
    input  wire [NP*MON_DATA_WIDTH/8-1:0] mon_wstrb,
    input  wire [NP-1:0]              mon_wlast,
    input  wire [NP-1:0]              mon_wvalid,
    input  wire [NP-1:0]              mon_wready,

    /*
     * Pulse events (one cycle each handshake)
     */
    input  wire [((NE > 0) ? NE : 1)-1:0] ev,

    /*
     * AXI4 slave: registers and the ring
     */
    input  wire [ID_WIDTH-1:0]        s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]      s_axi_awaddr,
    input  wire [7:0]                 s_axi_awlen,
    input  wire [2:0]                 s_axi_awsize,
    input  wire [1:0]                 s_axi_awburst,
    input  wire                       s_axi_awlock,
    input  wire [3:0]                 s_axi_awcache,
    input  wire [2:0]                 s_axi_awprot,
    input  wire                       s_axi_awvalid,
    output wire                       s_axi_awready,
    input  wire [DATA_WIDTH-1:0]      s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]    s_axi_wstrb,
    input  wire                       s_axi_wlast,
    input  wire                       s_axi_wvalid,
    output wire                       s_axi_wready,
    output wire [ID_WIDTH-1:0]        s_axi_bid,
    output wire [1:0]                 s_axi_bresp,
    output wire                       s_axi_bvalid,
    input  wire                       s_axi_bready,
    input  wire [ID_WIDTH-1:0]        s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]      s_axi_araddr,
    input  wire [7:0]                 s_axi_arlen,
    input  wire [2:0]                 s_axi_arsize,
    input  wire [1:0]                 s_axi_arburst,
    input  wire                       s_axi_arlock,
    input  wire [3:0]                 s_axi_arcache,
    input  wire [2:0]                 s_axi_arprot,
    input  wire                       s_axi_arvalid,
    output wire                       s_axi_arready,
    output wire [ID_WIDTH-1:0]        s_axi_rid,
    output wire [DATA_WIDTH-1:0]      s_axi_rdata,
    output wire [1:0]                 s_axi_rresp,
    output wire                       s_axi_rlast,
    output wire                       s_axi_rvalid,
    input  wire                       s_axi_rready
);

localparam NT = NM + NE;
localparam DEPTH = 1 << DEPTH_LOG2;
localparam RING_LOG = (DEPTH_LOG2 + 4 < 8) ? 8 : DEPTH_LOG2 + 4;   // log2 of RING
localparam BB = DATA_WIDTH / 8;
localparam BB_LOG = (DATA_WIDTH == 64) ? 3 : 2;
localparam MBB = MON_DATA_WIDTH / 8;
localparam MBB_LOG = (MON_DATA_WIDTH == 64) ? 3 : 2;

initial begin
    if (DEPTH_LOG2 < 4 || DEPTH_LOG2 > 20) begin
        $display("pp_trace: DEPTH_LOG2 must be 4..20");
        $finish;
    end
    if (NT < 1 || NT > 64 || NM < 0 || NE < 0) begin
        $display("pp_trace: NM + NE must be 1..64");
        $finish;
    end
    if (NP < 1 || NP > 64) begin
        $display("pp_trace: NP must be 1..64");
        $finish;
    end
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
        $display("pp_trace: DATA_WIDTH must be 32 or 64");
        $finish;
    end
    if (MON_DATA_WIDTH != 32 && MON_DATA_WIDTH != 64) begin
        $display("pp_trace: MON_DATA_WIDTH must be 32 or 64");
        $finish;
    end
end

/*
 * The cycle counter (the same as cores/irq's: 0 in reset, +1 every cycle)
 */
reg [63:0] cycles_reg;
initial cycles_reg = 64'd0;
always @(posedge clk) begin
    if (rst)
        cycles_reg <= 64'd0;
    else
        cycles_reg <= cycles_reg + 64'd1;
end

/*
 * Beat addresses of the watched ports: a queue of two bursts per port
 */
wire [NP*ADDR_WIDTH-1:0] beat_addr;
wire [NP-1:0] beat_known;
wire [NP-1:0] w_fire = mon_wvalid & mon_wready;
genvar gp;
generate
    for (gp = 0; gp < NP; gp = gp + 1) begin : g_port
        reg [ADDR_WIDTH-1:0] a0, a1;
        reg f0, f1, v0, v1;
        initial begin
            a0 = {ADDR_WIDTH{1'b0}};
            a1 = {ADDR_WIDTH{1'b0}};
            f0 = 1'b0;
            f1 = 1'b0;
            v0 = 1'b0;
            v1 = 1'b0;
        end
        wire aw = mon_awvalid[gp] && mon_awready[gp];
        wire wb = w_fire[gp];
        wire [ADDR_WIDTH-1:0] aw_addr = mon_awaddr[gp*ADDR_WIDTH +: ADDR_WIDTH];
        wire aw_fixed = (mon_awburst[gp*2 +: 2] == 2'b00);
        // the burst the beat belongs to: the queue's head, else an AW of this cycle
        wire [ADDR_WIDTH-1:0] cur = v0 ? a0 : aw_addr;
        wire cur_fixed = v0 ? f0 : aw_fixed;
        assign beat_addr[gp*ADDR_WIDTH +: ADDR_WIDTH] = cur;
        assign beat_known[gp] = v0 || aw;
        wire [ADDR_WIDTH-1:0] nxt = cur_fixed ? cur
            : ({cur[ADDR_WIDTH-1:MBB_LOG], {MBB_LOG{1'b0}}} + MBB);
        always @(posedge clk) begin
            if (rst) begin
                v0 <= 1'b0;
                v1 <= 1'b0;
            end else if (wb && mon_wlast[gp] && (v0 || aw)) begin
                // the head burst ends: the next is the second entry or this cycle's AW
                if (!v0) begin
                    v0 <= 1'b0;   // this cycle's AW was the burst; nothing queued
                end else if (v1) begin
                    a0 <= a1; f0 <= f1; v0 <= 1'b1;
                    if (aw) begin
                        a1 <= aw_addr; f1 <= aw_fixed; v1 <= 1'b1;
                    end else begin
                        v1 <= 1'b0;
                    end
                end else if (aw) begin
                    a0 <= aw_addr; f0 <= aw_fixed; v0 <= 1'b1;
                end else begin
                    v0 <= 1'b0;
                end
            end else begin
                if (wb && (v0 || aw)) begin
                    // a beat of the head burst (or of this cycle's AW, which becomes it)
                    a0 <= nxt; f0 <= cur_fixed; v0 <= 1'b1;
                    if (aw && v0) begin
                        if (!v1) begin
                            a1 <= aw_addr; f1 <= aw_fixed; v1 <= 1'b1;
                        end
                    end
                end else if (aw) begin
                    if (!v0) begin
                        a0 <= aw_addr; f0 <= aw_fixed; v0 <= 1'b1;
                    end else if (!v1) begin
                        a1 <= aw_addr; f1 <= aw_fixed; v1 <= 1'b1;
                    end
                end
            end
        end
    end
endgenerate

/*
 * The events of this cycle
 */
wire [63:0] mask;
genvar gm;
generate
    for (gm = 0; gm < NM; gm = gm + 1) begin : g_match
        localparam [31:0] MA = MATCH_ADDR[gm*32 +: 32];
        localparam [7:0] MP = MATCH_PORT[gm*8 +: 8];
        wire [ADDR_WIDTH-1:0] ba = beat_addr[MP*ADDR_WIDTH +: ADDR_WIDTH];
        wire [MBB-1:0] st = mon_wstrb[MP*MBB +: MBB];
        wire lane = (MON_DATA_WIDTH == 64) ? MA[2] : 1'b0;
        wire [NP-1:0] fire_sh = w_fire >> MP;
        wire [NP-1:0] known_sh = beat_known >> MP;
        wire unused_m = &{1'b0, ba[MBB_LOG-1:0], fire_sh, known_sh};
        wire [3:0] lst = lane ? st[MBB-1 -: 4] : st[3:0];
        assign mask[gm] = fire_sh[0] && known_sh[0]
            && ({ba[ADDR_WIDTH-1:MBB_LOG], {MBB_LOG{1'b0}}}
                == {MA[ADDR_WIDTH-1:MBB_LOG], {MBB_LOG{1'b0}}})
            && (lst != 4'd0);
    end
    if (NE > 0) begin : g_ev
        assign mask[NM +: NE] = ev[NE-1:0];
    end
    if (NT < 64) begin : g_pad
        assign mask[63:NT] = {(64-NT){1'b0}};
    end
endgenerate

/*
 * The ring
 */
reg enable_reg;
reg [31:0] wp_reg;
reg [31:0] rp_reg;
reg [31:0] ovf_reg;
reg [127:0] ring [0:DEPTH-1];
wire any = |mask;
wire [31:0] used = wp_reg - rp_reg;
wire full = (used >= DEPTH);
wire clear;          // a write of control bit 1 in this cycle
wire [31:0] rp_wdata;
wire rp_we;
wire en_we;
wire en_wdata;
wire put = any && enable_reg && !full && !clear;

always @(posedge clk) begin
    if (put)
        ring[wp_reg[DEPTH_LOG2-1:0]] <= {mask, cycles_reg};
end

always @(posedge clk) begin
    if (rst) begin
        enable_reg <= 1'b0;
        wp_reg <= 32'd0;
        rp_reg <= 32'd0;
        ovf_reg <= 32'd0;
    end else begin
        if (en_we)
            enable_reg <= en_wdata;
        if (clear) begin
            wp_reg <= 32'd0;
            rp_reg <= 32'd0;
            ovf_reg <= 32'd0;
        end else begin
            if (put)
                wp_reg <= wp_reg + 32'd1;
            if (any && enable_reg && full && ovf_reg != 32'hFFFFFFFF)
                ovf_reg <= ovf_reg + 32'd1;
            if (rp_we)
                rp_reg <= rp_wdata;
        end
    end
end

/*
 * Register slave: writes (one transaction at a time)
 */
reg [1:0] w_state;   // 0 address, 1 data, 2 response
reg [ID_WIDTH-1:0] w_id;
reg [ADDR_WIDTH-1:0] w_addr;
reg w_fixed;

assign s_axi_awready = (w_state == 2'd0);
assign s_axi_wready = (w_state == 2'd1);
assign s_axi_bvalid = (w_state == 2'd2);
assign s_axi_bid = w_id;
assign s_axi_bresp = 2'b00;

wire w_hs = s_axi_wvalid && s_axi_wready;
localparam [9:0] LANE_MASK = (DATA_WIDTH == 64) ? 10'd1 : 10'd0;
wire in_regs = (w_addr[RING_LOG:8] == {(RING_LOG-7){1'b0}});
wire [5:0] w_word0 = w_addr[7:2] & ~LANE_MASK[5:0];
wire [5:0] w_word1 = w_word0 | 6'd1;
wire lane1_on = (DATA_WIDTH == 64);
wire [31:0] w_lane0 = s_axi_wdata[31:0];
wire [31:0] w_lane1 = s_axi_wdata[DATA_WIDTH-1 -: 32];
wire [3:0] w_st0 = s_axi_wstrb[3:0];
wire [3:0] w_st1 = s_axi_wstrb[BB-1 -: 4];
// control (word 0) and read pointer (word 3): whole-word writes (all four strobes)
wire ctl0 = w_hs && in_regs && w_word0 == 6'd0 && w_st0 == 4'hF;
wire rp0 = w_hs && in_regs && w_word0 == 6'd3 && w_st0 == 4'hF;
wire rp1 = w_hs && in_regs && lane1_on && w_word1 == 6'd3 && w_st1 == 4'hF;
assign en_we = ctl0;
assign en_wdata = w_lane0[0];
assign clear = ctl0 && w_lane0[1];
assign rp_we = rp0 || rp1;
assign rp_wdata = rp0 ? w_lane0 : w_lane1;

always @(posedge clk) begin
    if (rst) begin
        w_state <= 2'd0;
    end else begin
        case (w_state)
            2'd0: if (s_axi_awvalid) begin
                w_id <= s_axi_awid;
                w_addr <= s_axi_awaddr;
                w_fixed <= (s_axi_awburst == 2'b00);
                w_state <= 2'd1;
            end
            2'd1: if (w_hs) begin
                if (!w_fixed)
                    w_addr <= {w_addr[ADDR_WIDTH-1:BB_LOG], {BB_LOG{1'b0}}} + BB;
                if (s_axi_wlast)
                    w_state <= 2'd2;
            end
            default: if (s_axi_bready)
                w_state <= 2'd0;
        endcase
    end
end

/*
 * Register slave: reads. A beat takes three cycles: address, the ring's synchronous read, R.
 */
reg [1:0] r_state;   // 0 idle, 1 fetch, 3 latch, 2 beat
reg [ID_WIDTH-1:0] r_id;
reg [ADDR_WIDTH-1:0] r_addr;
reg r_fixed;
reg [7:0] r_left;
reg [127:0] ring_q;
reg [31:0] cycles_hi;
reg [DATA_WIDTH-1:0] r_data;

initial begin
    enable_reg = 1'b0;
    wp_reg = 32'd0;
    rp_reg = 32'd0;
    ovf_reg = 32'd0;
    w_state = 2'd0;
    w_id = {ID_WIDTH{1'b0}};
    w_addr = {ADDR_WIDTH{1'b0}};
    w_fixed = 1'b0;
    r_state = 2'd0;
    r_id = {ID_WIDTH{1'b0}};
    r_addr = {ADDR_WIDTH{1'b0}};
    r_fixed = 1'b0;
    r_left = 8'd0;
    ring_q = 128'd0;
    cycles_hi = 32'd0;
    r_data = {DATA_WIDTH{1'b0}};
end

wire [DEPTH_LOG2-1:0] r_slot = r_addr[DEPTH_LOG2+3:4];
always @(posedge clk) begin
    ring_q <= ring[r_slot];
end

wire r_in_regs = (r_addr[RING_LOG:8] == {(RING_LOG-7){1'b0}});
wire r_in_ring = r_addr[RING_LOG];
wire [5:0] r_word0 = r_addr[7:2] & ~LANE_MASK[5:0];
wire [5:0] r_word1 = r_word0 | 6'd1;
wire [1:0] r_rw0 = r_addr[3:2] & ~LANE_MASK[1:0];
wire [1:0] r_rw1 = r_rw0 | 2'd1;
localparam [31:0] NT32 = NT;
localparam [31:0] DL32 = DEPTH_LOG2;
localparam [7:0] NT8 = NT32[7:0];
localparam [7:0] DL8 = DL32[7:0];
wire [7:0] nt8 = NT8;
wire [7:0] dl8 = DL8;

// the registers as 32-bit words (a mux of wires: a function reading module registers
// would not be re-evaluated by a continuous assignment when they change)
wire [31:0] regw [0:7];
assign regw[0] = {31'd0, enable_reg};
assign regw[1] = {16'h7071, nt8, dl8};
assign regw[2] = wp_reg;
assign regw[3] = rp_reg;
assign regw[4] = ovf_reg;
assign regw[5] = 32'd0;
assign regw[6] = cycles_reg[31:0];
assign regw[7] = cycles_hi;
wire [31:0] reg_lane0 = (r_word0[5:3] == 3'd0) ? regw[r_word0[2:0]] : 32'd0;
// lane 1 of a 64-bit read: word 7 is the counter's high word of the same cycle
wire [31:0] reg_lane1 = (r_word1[5:3] != 3'd0) ? 32'd0
                      : (r_word1[2:0] == 3'd7) ? cycles_reg[63:32] : regw[r_word1[2:0]];

wire [31:0] r_lane0 = r_in_ring ? ring_q[32*r_rw0 +: 32]
                    : r_in_regs ? reg_lane0 : 32'd0;
wire [31:0] r_lane1 = r_in_ring ? ring_q[32*r_rw1 +: 32]
                    : r_in_regs ? reg_lane1 : 32'd0;

wire [DATA_WIDTH-1:0] r_next;
generate
    if (DATA_WIDTH == 64) begin : g_r64
        assign r_next = {r_lane1, r_lane0};
    end else begin : g_r32
        assign r_next = r_lane0;
    end
endgenerate

assign s_axi_arready = (r_state == 2'd0);
assign s_axi_rvalid = (r_state == 2'd2);
assign s_axi_rid = r_id;
assign s_axi_rresp = 2'b00;
assign s_axi_rlast = (r_left == 8'd0);
assign s_axi_rdata = r_data;

always @(posedge clk) begin
    if (rst) begin
        r_state <= 2'd0;
        cycles_hi <= 32'd0;
    end else begin
        case (r_state)
            2'd0: if (s_axi_arvalid) begin
                r_state <= 2'd1;
                r_id <= s_axi_arid;
                r_addr <= s_axi_araddr;
                r_fixed <= (s_axi_arburst == 2'b00);
                r_left <= s_axi_arlen;
            end
            2'd1: r_state <= 2'd3;   // the ring's synchronous read (ring_q) of r_addr
            2'd3: begin
                // ring_q holds r_addr's record now; the registers are read here
                r_state <= 2'd2;
                r_data <= r_next;
                if (r_in_regs && r_word0 == 6'd6)
                    cycles_hi <= cycles_reg[63:32];
            end
            default: if (s_axi_rready) begin
                if (r_left == 8'd0) begin
                    r_state <= 2'd0;
                end else begin
                    r_left <= r_left - 8'd1;
                    if (!r_fixed)
                        r_addr <= {r_addr[ADDR_WIDTH-1:BB_LOG], {BB_LOG{1'b0}}} + BB;
                    r_state <= 2'd1;
                end
            end
        endcase
    end
end

// inputs and bits a register has no use for
wire unused = &{1'b0, s_axi_awlen, s_axi_awsize, s_axi_awlock, s_axi_awcache, s_axi_awprot,
                s_axi_arsize, s_axi_arlock, s_axi_arcache, s_axi_arprot, s_axi_wstrb,
                s_axi_wdata, w_addr, r_addr, beat_addr, beat_known, mon_wstrb, r_lane1,
                w_lane1, w_st1, r_rw1, r_word1, w_word1, ev};

endmodule

`default_nettype wire
