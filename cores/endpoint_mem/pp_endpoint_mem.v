/*
 * pushpush: endpoint memory (pp_endpoint_mem)
 *
 * A component's local PushPush endpoint window. Other components write call
 * arguments / return values plus a trigger word into it over an AXI4 slave
 * port; the owning RTL reads the trigger word of every slot on `trig_word`,
 * the other words through RD_PORTS asynchronous read ports (`rd_addr` ->
 * `rd_data`), and is told of triggers by `trig_pulse` (no polling). See
 * README.md beside this file for the full contract, timing and error rules.
 *
 * Storage: the argument/result words are one memory array per 32-bit lane of
 * the bus (`reg [31:0] mem [0:ROWS-1]`, one write port with byte enables,
 * asynchronous reads: Yosys maps it to distributed RAM on xc7); the trigger
 * word and pending bit of each slot are flip-flops, since the owner needs all
 * of them at once.
 */

`default_nettype none

module pp_endpoint_mem #
(
    // Width of the AXI data bus in bits: 32 or 64
    parameter DATA_WIDTH = 32,
    // Byte address bits of the window (window = 2**ADDR_WIDTH bytes); the slave
    // port sees only these low bits of the global address. 4..18 (18 = 16-bit word offsets)
    parameter ADDR_WIDTH = 8,
    // Width of the AXI ID fields
    parameter ID_WIDTH = 4,
    // Number of endpoint slots (>= 1)
    parameter NUM_SLOTS = 1,
    // Word offset of the first word of slot i, field i = [16*i +: 16]
    parameter [16*NUM_SLOTS-1:0] SLOT_FIRST = {NUM_SLOTS{16'd0}},
    // Word offset of the trigger word (the last word) of slot i, field i = [16*i +: 16];
    // SLOT_FIRST == SLOT_TRIG for a slot without argument words. Slots must not overlap.
    parameter [16*NUM_SLOTS-1:0] SLOT_TRIG = {NUM_SLOTS{16'd3}},
    // Number of words of the window that are stored (>= max SLOT_TRIG + 1, <= 2**(ADDR_WIDTH-2))
    parameter WORDS = 4,
    // 1: the AXI read channel returns window words; 0: no read logic, every read
    // beat answers SLVERR with zero data (the burst length is still honoured);
    // 2: reads return the counters (byte offset 0x0 `collisions`, 0x4/0x8/0xC the
    // three words of `counters`), every other offset reads 0, all OKAY
    parameter ENABLE_READ = 1,
    // Number of asynchronous read ports on the stored words (>= 1)
    parameter RD_PORTS = 1,
    // Word address bits of a read port (>= 1, 2**RD_ADDR_WIDTH >= WORDS)
    parameter RD_ADDR_WIDTH = (WORDS > 1) ? $clog2(WORDS) : 1
)
(
    input  wire                     clk,
    input  wire                     rst,

    /*
     * AXI4 slave interface
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
     * Local side (owner)
     */
    // trigger word of slot i at [32*i +: 32] (0 while the slot is idle)
    output wire [NUM_SLOTS*32-1:0]  trig_word,
    // bytes of slot i's trigger word written since it was last re-armed, at [4*i +: 4]: the
    // bytes of trig_word that the memory (a read port at the trigger word's offset) holds
    // too; the others are 0 in trig_word and the memory keeps an older value there
    output wire [NUM_SLOTS*4-1:0]   trig_bytes,
    // read port p: word offset rd_addr[RD_ADDR_WIDTH*p +: RD_ADDR_WIDTH] (< WORDS), its
    // stored word on rd_data[32*p +: 32] in the same cycle (combinational). Argument/result
    // words only: a trigger word's offset returns the last value written there, not the slot's
    // trigger word (use trig_word); a gap word reads 0
    input  wire [RD_PORTS*RD_ADDR_WIDTH-1:0] rd_addr,
    output wire [RD_PORTS*32-1:0]   rd_data,
    output wire [NUM_SLOTS-1:0]     trig_pulse,
    output wire [NUM_SLOTS-1:0]     trig_pending,
    input  wire [NUM_SLOTS-1:0]     rearm,
    // read at byte offsets 0x4, 0x8, 0xC when ENABLE_READ == 2 (word j at [32*j +: 32])
    input  wire [95:0]              counters,
    output wire [31:0]              collisions,
    output wire                     collision_flag
);

localparam STRB_WIDTH = DATA_WIDTH/8;
// 32-bit words per beat
localparam NW = DATA_WIDTH/32;
localparam ADDR_LSB = $clog2(STRB_WIDTH);
// byte address bits the write path keeps: enough for the stored words (a beat at byte
// 2**CW or above holds no stored word, only that it got there counts)
localparam WB = (WORDS > 1) ? $clog2(WORDS) : 1;
localparam CW = (WB + 2 < ADDR_WIDTH) ? WB + 2 : ADDR_WIDTH;
// pad a word index to 32 bits
localparam PAD = 34-CW;
localparam RPAD = 34-ADDR_WIDTH;
// byte address bits the read path keeps. Counter reads (ENABLE_READ 2) of a window of 4 KiB
// or more: 4 (the counters at 0x0..0xF; a beat at 0x10 or above reads 0 and only that it got
// there counts). A read burst cannot run past such a window (AXI bursts do not cross 4 KiB),
// so no beat there needs its SLVERR. Otherwise the whole window.
localparam RAB = (ENABLE_READ == 2 && ADDR_WIDTH >= 12) ? 4 : ADDR_WIDTH;
// write response FIFO depth (writes whose B is not yet accepted)
localparam B_DEPTH = 4;

localparam [2:0] MAX_SIZE = (DATA_WIDTH == 64) ? 3'd3 : 3'd2;

// bus sanity (elaboration time)
initial begin
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
        $display("pp_endpoint_mem: DATA_WIDTH must be 32 or 64");
        $finish;
    end
    if (ADDR_WIDTH < ADDR_LSB+1 || ADDR_WIDTH > 18) begin
        $display("pp_endpoint_mem: ADDR_WIDTH out of range");
        $finish;
    end
    if (WORDS < 1 || WORDS > 2**(ADDR_WIDTH-2)) begin
        $display("pp_endpoint_mem: WORDS out of range");
        $finish;
    end
    if (RD_PORTS < 1 || RD_ADDR_WIDTH < 1 || 2**RD_ADDR_WIDTH < WORDS) begin
        $display("pp_endpoint_mem: RD_PORTS or RD_ADDR_WIDTH out of range");
        $finish;
    end
end

// byte-wise merge of d into old under strobe s
function [31:0] merge;
    input [31:0] old;
    input [31:0] d;
    input [3:0] s;
    integer b;
    begin
        for (b = 0; b < 4; b = b + 1) begin
            merge[8*b +: 8] = s[b] ? d[8*b +: 8] : old[8*b +: 8];
        end
    end
endfunction

/*
 * The AXI4 front end (cores/axi_slave): the handshakes, the burst's address, the B queue
 * (4 bursts whose B is not yet accepted) and the R output register. The first W beat is
 * taken together with its AW; a new AR while the last R beat waits.
 */
wire                  w_fire;     // a W beat is taken
wire [CW-1:0]         cur_addr;   // its byte address (low CW bits)
wire                  cur_ovf;    // it is at byte 2**CW or above: no stored word
wire [2:0]            cur_size;
wire                  cur_bad;    // unsupported burst type/size: drop every beat
wire [DATA_WIDTH-1:0] w_data;
wire [STRB_WIDTH-1:0] w_strb;
wire                  cur_last;
wire                  beat_err;   // the beat is rejected (below)
wire [RAB-1:0]        rd_addr_low;  // the beat's byte address (low RAB bits)
wire [ADDR_WIDTH+3:0] rd_addr_x = {{(ADDR_WIDTH+4-RAB){1'b0}}, rd_addr_low};
wire [ADDR_WIDTH-1:0] rd_addr_reg = rd_addr_x[ADDR_WIDTH-1:0];
wire                  rd_bad;
wire                  rd_ovf;
wire [DATA_WIDTH-1:0] rd_beat_data;
// the beat reads 0 (besides an error beat): written as the R data register's synchronous reset
wire                  rd_beat_zero;
/* verilator lint_off UNUSEDSIGNAL */
wire                  r_load;
wire [2:0]            rd_size;
/* verilator lint_on UNUSEDSIGNAL */

pp_axi_slave #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(ADDR_WIDTH), .ID_WIDTH(ID_WIDTH),
    .WR_ADDR_BITS(CW), .RD_ADDR_BITS(RAB), .W_WITH_AW(1), .B_DEPTH(B_DEPTH),
    .R_REG(1), .AR_EARLY(1), .SIZE_MIN(0), .SIZE_MAX(MAX_SIZE), .INCR_ONLY(1)
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
    .wr_en(w_fire), .wr_addr(cur_addr), .wr_ovf(cur_ovf), .wr_size(cur_size), .wr_bad(cur_bad),
    .wr_data(w_data), .wr_strb(w_strb), .wr_last(cur_last), .wr_ready(1'b1),
    .wr_err(cur_bad || beat_err), .wr_resp_valid(1'b0), .wr_resp(2'b00),
    .rd_en(r_load), .rd_addr(rd_addr_low), .rd_ovf(rd_ovf), .rd_size(rd_size), .rd_bad(rd_bad),
    .rd_data(rd_beat_data), .rd_err(rd_bad || (rd_ovf && RAB == ADDR_WIDTH) || (ENABLE_READ == 0)),
    .rd_zero(rd_beat_zero)
);

/*
 * Write path: which beats are written, collisions
 */
reg                  wr_coll_reg;    // this burst already counted a collision
reg [31:0]           collisions_reg;
reg                  collision_flag_reg;

initial begin
    wr_coll_reg = 1'b0;
    collisions_reg = 32'd0;
    collision_flag_reg = 1'b0;
end

wire cur_coll = wr_coll_reg;

// word offset of lane 0 of this beat
wire [31:0] beat_word = {{PAD{1'b0}}, cur_addr[CW-1:2]};
wire [31:0] beat_word0 = beat_word & ~(NW-1);

// effective pending: a rearm in this cycle frees the slot for this beat
wire [NUM_SLOTS-1:0] pend_eff = trig_pending & ~rearm;

// per lane j, slot i: lane_slot[j*NUM_SLOTS + i]
wire [NW*NUM_SLOTS-1:0] lane_slot;
wire [NW-1:0] lane_strb;
wire [NW-1:0] lane_reject;
wire [NW-1:0] lane_coll;

genvar i, j, k;

generate
    for (j = 0; j < NW; j = j + 1) begin : lane
        wire [31:0] word = beat_word0 + j;
        for (i = 0; i < NUM_SLOTS; i = i + 1) begin : slot_hit
            // (no lower-bound compare for a slot at word 0: it would be constant)
            if (SLOT_FIRST[16*i +: 16] == 16'd0) begin : at0
                assign lane_slot[j*NUM_SLOTS+i] = word <= {16'd0, SLOT_TRIG[16*i +: 16]};
            end else begin : above0
                assign lane_slot[j*NUM_SLOTS+i] = word >= {16'd0, SLOT_FIRST[16*i +: 16]}
                                               && word <= {16'd0, SLOT_TRIG[16*i +: 16]};
            end
        end
        assign lane_strb[j] = |w_strb[4*j +: 4];
        assign lane_coll[j] = lane_strb[j] && !cur_bad && !cur_ovf
                           && |(lane_slot[j*NUM_SLOTS +: NUM_SLOTS] & pend_eff);
        assign lane_reject[j] = lane_strb[j] && (cur_bad || cur_ovf || word >= WORDS
                                || !(|lane_slot[j*NUM_SLOTS +: NUM_SLOTS]) || lane_coll[j]);
    end
endgenerate

wire beat_coll = |lane_coll;
// the beat is rejected: none of its bytes are written (a beat is written whole or not at all)
assign beat_err = |lane_reject;

// The beat is written (whole: each lane under its byte strobes) when accepted and not rejected.
wire beat_we = w_fire && !beat_err;

// storage geometry: one memory per lane, word k at lane k % NW, row k / NW
localparam LOG_NW = ADDR_LSB - 2;
localparam NB = (WORDS + NW - 1) / NW;
localparam RB = (NB > 1) ? $clog2(NB) : 1;
localparam ROWS = 2**RB;
wire [31:0] beat_row_full = beat_word0 >> LOG_NW;
wire [RB-1:0] beat_row = beat_row_full[RB-1:0];

always @(posedge clk) begin
    // cleared with a burst's last beat
    if (w_fire) begin
        wr_coll_reg <= !cur_last && (cur_coll || beat_coll);
    end

    // one collision counted per burst
    if (w_fire && beat_coll && !cur_coll) begin
        if (collisions_reg != 32'hffffffff) begin
            collisions_reg <= collisions_reg + 32'd1;
        end
        collision_flag_reg <= 1'b1;
    end

    if (rst) begin
        wr_coll_reg <= 1'b0;
        collisions_reg <= 32'd0;
        collision_flag_reg <= 1'b0;
    end
end

assign collisions = collisions_reg;
assign collision_flag = collision_flag_reg;

/*
 * Storage
 */

// Argument/result words: one memory per lane, one write port (byte enables), asynchronous
// read ports. Gap words are never written (rejected beats), so they stay 0.
wire [RD_PORTS*NW*32-1:0] rd_lane;   // port p, lane j at [32*(p*NW+j) +: 32]
wire [NW*32-1:0] rd_axi_lane;        // the row of the AXI read address (ENABLE_READ=1)
wire [RB-1:0] rd_axi_row;

generate
    for (j = 0; j < NW; j = j + 1) begin : lane_mem
        reg [31:0] mem [0:ROWS-1];
        integer r;
        initial begin
            for (r = 0; r < ROWS; r = r + 1) begin
                mem[r] = 32'd0;
            end
        end
        integer b;
        always @(posedge clk) begin
            if (beat_we) begin
                for (b = 0; b < 4; b = b + 1) begin
                    if (w_strb[4*j+b]) begin
                        mem[beat_row][8*b +: 8] <= w_data[32*j+8*b +: 8];
                    end
                end
            end
        end
        for (k = 0; k < RD_PORTS; k = k + 1) begin : port
            // (only the row bits of the padded address are used)
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] a = {{(32-RD_ADDR_WIDTH){1'b0}}, rd_addr[RD_ADDR_WIDTH*k +: RD_ADDR_WIDTH]} >> LOG_NW;
            /* verilator lint_on UNUSEDSIGNAL */
            assign rd_lane[32*(k*NW+j) +: 32] = mem[a[RB-1:0]];
        end
        if (ENABLE_READ == 1) begin : axi_rd
            assign rd_axi_lane[32*j +: 32] = mem[rd_axi_row];
        end else begin : no_axi_rd
            assign rd_axi_lane[32*j +: 32] = 32'd0;
        end
    end

    for (k = 0; k < RD_PORTS; k = k + 1) begin : rd_port
        if (NW == 1) begin : one
            assign rd_data[32*k +: 32] = rd_lane[32*k +: 32];
        end else begin : two
            wire lsel = rd_addr[RD_ADDR_WIDTH*k];
            assign rd_data[32*k +: 32] = lsel ? rd_lane[32*(k*NW+1) +: 32] : rd_lane[32*(k*NW) +: 32];
        end
    end
endgenerate

// Trigger words and pending bits (flip-flops). An accepted write into a trigger word only
// happens while the word is 0 (the slot is idle, or re-armed in this very cycle), so the new
// word is the beat's strobed bytes with 0 elsewhere; a write wins over a rearm in the same cycle.
wire [32*NUM_SLOTS-1:0] tw_reg;

generate
    for (i = 0; i < NUM_SLOTS; i = i + 1) begin : slot
        localparam integer T = {16'd0, SLOT_TRIG[16*i +: 16]};
        localparam integer L = T % NW;
        reg [31:0] tw;
        reg [3:0] tb;
        reg pend;
        initial begin
            tw = 32'd0;
            tb = 4'd0;
            pend = 1'b0;
        end
        // the beat writes this trigger word. On a 32-bit bus that beat holds nothing else,
        // so of the beat's rejection causes only these can apply (the word is inside slot i,
        // below WORDS, and only slot i can collide): the same condition as beat_we, with
        // fewer logic levels on the path to trig_pulse
        wire hit = beat_row_full == T/NW && lane_strb[L];
        wire ok = (NW == 1) ? (w_fire && !cur_bad && !cur_ovf && !pend_eff[i]) : beat_we;
        wire we = ok && hit;
        wire [31:0] wval = merge(32'd0, w_data[32*L +: 32], w_strb[4*L +: 4]);
        // byte by byte: a strobed byte takes the data; the others keep their 0, or are
        // cleared by rearm (a synchronous clear: it maps onto the flip-flops' reset)
        wire [3:0] wes = {4{we}} & w_strb[4*L +: 4];
        wire [3:0] clr = {4{rst}} | ({4{rearm[i]}} & ~wes);
        always @(posedge clk) begin
            if (clr[0]) tw[7:0] <= 8'd0; else if (wes[0]) tw[7:0] <= w_data[32*L+0 +: 8];
            if (clr[1]) tw[15:8] <= 8'd0; else if (wes[1]) tw[15:8] <= w_data[32*L+8 +: 8];
            if (clr[2]) tw[23:16] <= 8'd0; else if (wes[2]) tw[23:16] <= w_data[32*L+16 +: 8];
            if (clr[3]) tw[31:24] <= 8'd0; else if (wes[3]) tw[31:24] <= w_data[32*L+24 +: 8];
            tb <= (tb | wes) & ~clr;
            if (rst) begin
                pend <= 1'b0;
            end else if (we) begin
                pend <= wval != 32'd0;
            end else if (rearm[i]) begin
                pend <= 1'b0;
            end
        end
        assign tw_reg[32*i +: 32] = tw;
        assign trig_bytes[4*i +: 4] = tb;
        assign trig_pending[i] = pend;
        assign trig_pulse[i] = we && wval != 32'd0;
    end
endgenerate

assign trig_word = tw_reg;

/*
 * Read path: the beat's data (the front end takes it into its output register; an error
 * beat, not INCR, too large, past the window or with no read logic, reads 0 with SLVERR)
 */
wire [31:0] rd_word0_full = {{RPAD{1'b0}}, rd_addr_reg[ADDR_WIDTH-1:2]} & ~(NW-1);
wire [31:0] rd_row_full = rd_word0_full >> LOG_NW;
assign rd_axi_row = rd_row_full[RB-1:0];

generate
    if (ENABLE_READ == 1) begin : rd_mux
        // per lane: a trigger word from its flip-flops, a word >= WORDS reads 0, any other
        // word (argument/result, or a gap, never written) from the lane's memory
        for (j = 0; j < NW; j = j + 1) begin : lane
            wire [31:0] word = rd_word0_full + j;
            wire [NUM_SLOTS-1:0] hit;
            wire [32*NUM_SLOTS-1:0] tsel;
            for (i = 0; i < NUM_SLOTS; i = i + 1) begin : slot
                assign hit[i] = word == {16'd0, SLOT_TRIG[16*i +: 16]};
                assign tsel[32*i +: 32] = {32{hit[i]}} & tw_reg[32*i +: 32];
            end
            reg [31:0] tw_or;
            integer m;
            always @(*) begin
                tw_or = 32'd0;
                for (m = 0; m < NUM_SLOTS; m = m + 1) begin
                    tw_or = tw_or | tsel[32*m +: 32];
                end
            end
            assign rd_beat_data[32*j +: 32] = (word >= WORDS) ? 32'd0
                                            : (|hit) ? tw_or : rd_axi_lane[32*j +: 32];
        end
        assign rd_beat_zero = 1'b0;
    end else if (ENABLE_READ == 2) begin : rd_counters
        // four counter words at byte offsets 0x0..0xF, 0 elsewhere
        wire [127:0] cnt_words = {counters, collisions_reg};
        wire [ADDR_WIDTH+3:0] ra = {4'd0, rd_addr_reg};
        wire in_cnt = (ra >> 4) == {(ADDR_WIDTH+4){1'b0}};
        wire [1:0] widx = ra[3:2] & ((DATA_WIDTH == 64) ? 2'b10 : 2'b11);
        // (the zero outside 0x0..0xF comes from the output register's synchronous reset)
        assign rd_beat_data = cnt_words[{widx, 5'd0} +: DATA_WIDTH];
        // (RAB 4: a beat at 0x10 or above has rd_ovf set and reads 0)
        assign rd_beat_zero = !in_cnt || (rd_ovf && RAB != ADDR_WIDTH);
    end else begin : rd_none
        assign rd_beat_data = {DATA_WIDTH{1'b0}};
        assign rd_beat_zero = 1'b1;
    end
endgenerate

// (counters: read only with ENABLE_READ == 2)
wire unused_inputs = &{1'b0, counters};
// word/row indices are computed 32 bits wide; only their low bits address the memories
wire unused_bits = &{1'b0, beat_row_full, rd_row_full, rd_axi_row, rd_axi_lane, cur_addr[1:0],
                    cur_size, rd_addr_reg[1:0], rd_addr_x};

endmodule

`default_nettype wire
