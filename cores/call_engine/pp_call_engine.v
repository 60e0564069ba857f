/*
 * pushpush: PushPush call engine
 *
 * AXI4 write master by which an RTL component makes PushPush calls and
 * returns: a request (target byte address, N 32-bit words) is written as one
 * INCR burst, split only where AXI requires it (4 KiB boundaries, at most
 * MAX_BURST_LEN beats per burst). One done pulse per request, in request
 * order, once all B responses of its bursts arrived, with the worst response.
 *
 * Timing (cycles of clk, no back-pressure):
 *   request handshake in cycle t -> first AW and W beat 0 valid in cycle t+1,
 *   then one W beat per cycle; a new request is accepted at the latest in the
 *   cycle of the previous request's last W beat handshake, so bursts follow
 *   each other without idle cycles (limited only by MAX_OUTSTANDING);
 *   B handshake of a request's last burst in cycle u -> done_valid in u+1.
 *
 * The read channels are present only so that a full AXI4 master port can be
 * connected; they are tied off (arvalid = 0, rready = 1).
 */

`default_nettype none

module pp_call_engine #
(
    // Width of the AXI data bus in bits: 32 or 64
    parameter DATA_WIDTH = 32,
    // Width of the AXI address bus in bits (>= 12)
    parameter ADDR_WIDTH = 32,
    // Width of the AXI ID signals in bits
    parameter ID_WIDTH = 1,
    // Constant AWID/ARID driven by this master
    parameter AXI_ID = 0,
    // Maximum number of 32-bit words per request (>= 1)
    parameter MAX_WORDS = 8,
    // Maximum number of bursts issued and awaiting their B response (>= 1)
    parameter MAX_OUTSTANDING = 4,
    // Maximum INCR burst length in beats (1..256)
    parameter MAX_BURST_LEN = 256,
    // 1: split requests at 4 KiB boundaries and after MAX_BURST_LEN beats; 0: every request
    // is one burst (the user guarantees that no request crosses a 4 KiB boundary and that
    // MAX_WORDS words fit MAX_BURST_LEN beats): no splitter, one done per B, shallower logic
    parameter SPLIT = 1,
    // 1: err_flag and err_count are kept; 0: they read 0 (no counter logic)
    parameter STATUS = 1
)
(
    input  wire                       clk,
    input  wire                       rst,

    /*
     * Request: write req_nwords words of req_data to req_addr
     */
    input  wire                       req_valid,
    output wire                       req_ready,
    input  wire [ADDR_WIDTH-1:0]      req_addr,
    input  wire [$clog2(MAX_WORDS+1)-1:0] req_nwords,
    input  wire [MAX_WORDS*32-1:0]    req_data,

    /*
     * Completion: one pulse per request, in request order
     */
    output wire                       done_valid,
    output wire [1:0]                 done_resp,

    /*
     * Status
     */
    output wire                       busy,
    output wire                       err_flag,
    output wire [15:0]                err_count,

    /*
     * AXI4 master interface (write; read tied off)
     */
    output wire [ID_WIDTH-1:0]        m_axi_awid,
    output wire [ADDR_WIDTH-1:0]      m_axi_awaddr,
    output wire [7:0]                 m_axi_awlen,
    output wire [2:0]                 m_axi_awsize,
    output wire [1:0]                 m_axi_awburst,
    output wire                       m_axi_awlock,
    output wire [3:0]                 m_axi_awcache,
    output wire [2:0]                 m_axi_awprot,
    output wire                       m_axi_awvalid,
    input  wire                       m_axi_awready,
    output wire [DATA_WIDTH-1:0]      m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]    m_axi_wstrb,
    output wire                       m_axi_wlast,
    output wire                       m_axi_wvalid,
    input  wire                       m_axi_wready,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ID_WIDTH-1:0]        m_axi_bid,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [1:0]                 m_axi_bresp,
    input  wire                       m_axi_bvalid,
    output wire                       m_axi_bready,
    output wire [ID_WIDTH-1:0]        m_axi_arid,
    output wire [ADDR_WIDTH-1:0]      m_axi_araddr,
    output wire [7:0]                 m_axi_arlen,
    output wire [2:0]                 m_axi_arsize,
    output wire [1:0]                 m_axi_arburst,
    output wire                       m_axi_arlock,
    output wire [3:0]                 m_axi_arcache,
    output wire [2:0]                 m_axi_arprot,
    output wire                       m_axi_arvalid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                       m_axi_arready,
    input  wire [ID_WIDTH-1:0]        m_axi_rid,
    input  wire [DATA_WIDTH-1:0]      m_axi_rdata,
    input  wire [1:0]                 m_axi_rresp,
    input  wire                       m_axi_rlast,
    input  wire                       m_axi_rvalid,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire                       m_axi_rready
);

// 32-bit words per beat
localparam LANES = DATA_WIDTH/32;
// log2(bytes per beat), log2(words per beat)
localparam ADDR_LSB = (DATA_WIDTH == 64) ? 3 : 2;
localparam LANE_SHIFT = ADDR_LSB-2;
// width of req_nwords
localparam NW_W = $clog2(MAX_WORDS+1);
// width of the internal word/beat counters: holds MAX_WORDS+LANES and 1024 (with SPLIT;
// without, MAX_WORDS+LANES)
localparam CW = SPLIT ? ((NW_W > 11 ? NW_W : 11) + 1) : (NW_W + 1);
// data shift register: request words placed by lane, first beat at the bottom
localparam DREG_W = (MAX_WORDS+LANES-1)*32;
// beats of a request, and the width of the beat index into the request's data (padded with
// zero beats to a power of two, so that the index never selects past the data)
localparam NBEATS = (DREG_W + DATA_WIDTH - 1) / DATA_WIDTH;
localparam BIW = (NBEATS > 1) ? $clog2(NBEATS) : 1;
// 1: W is the register's bottom beat and the register shifts; 0: the beat is picked by index
localparam WSHIFT = (LANES > 1 || NBEATS <= 2) ? 1 : 0;
// outstanding burst counter and last-burst flag FIFO pointer widths
localparam OW = $clog2(MAX_OUTSTANDING+1);
localparam PW = (MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1;

// sized constants (32-bit values first, so the narrow ones are plain part selects)
localparam [31:0] P_LANES = LANES;
localparam [31:0] P_BEATS_4K = 4096/(DATA_WIDTH/8);
localparam [31:0] P_MAX_BURST_LEN = MAX_BURST_LEN;
localparam [31:0] P_MAX_OUT = MAX_OUTSTANDING;
localparam [31:0] P_PTR_MAX = MAX_OUTSTANDING-1;
localparam [31:0] P_ADDR_LSB = ADDR_LSB;
localparam [31:0] P_AXI_ID = AXI_ID;
localparam [CW-1:0] C_LANES = P_LANES[CW-1:0];
localparam [CW-1:0] C_LANES_M1 = P_LANES[CW-1:0] - 1'b1;
localparam [CW-1:0] C_BEATS_4K = P_BEATS_4K[CW-1:0];
localparam [CW-1:0] C_MAX_BURST_LEN = P_MAX_BURST_LEN[CW-1:0];
localparam [CW-1:0] C_ONE = 1;
localparam [OW-1:0] C_MAX_OUT = P_MAX_OUT[OW-1:0];
localparam [OW-1:0] C_OUT_ONE = 1;
localparam [PW-1:0] C_PTR_MAX = P_PTR_MAX[PW-1:0];
localparam [PW-1:0] C_PTR_ONE = 1;
localparam [2:0] C_SIZE = P_ADDR_LSB[2:0];
localparam [ID_WIDTH-1:0] C_AXI_ID = P_AXI_ID[ID_WIDTH-1:0];

// bus width assertions
initial begin
    if (DATA_WIDTH != 32 && DATA_WIDTH != 64) begin
        $error("Error: DATA_WIDTH must be 32 or 64 (instance %m)");
        $finish;
    end
    if (ADDR_WIDTH < 12) begin
        $error("Error: ADDR_WIDTH must be at least 12 (instance %m)");
        $finish;
    end
    if (MAX_WORDS < 1 || MAX_OUTSTANDING < 1) begin
        $error("Error: MAX_WORDS and MAX_OUTSTANDING must be at least 1 (instance %m)");
        $finish;
    end
    if (MAX_BURST_LEN < 1 || MAX_BURST_LEN > 256) begin
        $error("Error: MAX_BURST_LEN must be in 1..256 (instance %m)");
        $finish;
    end
    if (SPLIT == 0 && (MAX_WORDS + 2 * (LANES - 1)) / LANES > MAX_BURST_LEN) begin
        $error("Error: SPLIT = 0 needs MAX_WORDS words from any start lane to fit MAX_BURST_LEN beats (instance %m)");
        $finish;
    end
end

// burst issue state: further bursts of the current request pending
reg cont_reg;
reg [ADDR_WIDTH-1:0] cur_addr_reg;
reg [CW-1:0] cur_rem_reg;

// AW channel
reg [ADDR_WIDTH-1:0] m_axi_awaddr_reg;
reg [7:0] m_axi_awlen_reg;
reg m_axi_awvalid_reg;

// W channel
reg [DREG_W-1:0] data_reg;  // the request's words as placed in beats
reg [BIW-1:0] beat_reg;     // (WSHIFT 0) beat of the request on the W channel
reg [DATA_WIDTH/8-1:0] m_axi_wstrb_reg;
reg m_axi_wlast_reg;
reg m_axi_wvalid_reg;
reg [8:0] w_left_reg;     // beats left in the burst, current one included
reg [CW-1:0] w_pos_reg; // word positions left in the request, current beat included

// B channel / completion
reg [OW-1:0] out_cnt_reg;
reg [MAX_OUTSTANDING-1:0] last_flag_reg;
reg [PW-1:0] flag_wr_ptr_reg;
reg [PW-1:0] flag_rd_ptr_reg;
reg [1:0] acc_resp_reg;
reg done_valid_reg;
reg [1:0] done_resp_reg;
reg err_flag_reg;
reg [15:0] err_count_reg;

// zero initial state for simulation (control registers are also reset by rst)
initial begin
    cont_reg = 1'b0;
    cur_addr_reg = {ADDR_WIDTH{1'b0}};
    cur_rem_reg = {CW{1'b0}};
    m_axi_awaddr_reg = {ADDR_WIDTH{1'b0}};
    m_axi_awlen_reg = 8'd0;
    m_axi_awvalid_reg = 1'b0;
`ifndef SYNTHESIS
    // (simulation only: synthesis gives data_reg no initial value, so a request bit that
    // every requester drives constant is a constant, with no flip-flop nor LUT behind it; the
    // register is loaded before any beat shows it)
    data_reg = {DREG_W{1'b0}};
`endif
    beat_reg = {BIW{1'b0}};
    m_axi_wstrb_reg = {DATA_WIDTH/8{1'b0}};
    m_axi_wlast_reg = 1'b0;
    m_axi_wvalid_reg = 1'b0;
    w_left_reg = 9'd0;
    w_pos_reg = {CW{1'b0}};
    out_cnt_reg = {OW{1'b0}};
    last_flag_reg = {MAX_OUTSTANDING{1'b0}};
    flag_wr_ptr_reg = {PW{1'b0}};
    flag_rd_ptr_reg = {PW{1'b0}};
    acc_resp_reg = 2'b00;
    done_valid_reg = 1'b0;
    done_resp_reg = 2'b00;
    err_flag_reg = 1'b0;
    err_count_reg = 16'd0;
end

// burst computation (combinational)
reg [ADDR_WIDTH-1:0] s_addr;
reg [CW-1:0] s_n;
reg [CW-1:0] s_off;
reg [CW-1:0] s_beats_total;
reg [CW-1:0] s_beats_4k;
reg [CW-1:0] s_beats;
reg [CW-1:0] s_cap;
reg s_last;
reg [ADDR_WIDTH-1:0] s_next_addr;

// data placement of a new request
reg [DREG_W-1:0] s_data;

// strobes
reg [DATA_WIDTH/8-1:0] load_strb;
reg [DATA_WIDTH/8-1:0] next_strb;
reg [CW-1:0] next_pos;
integer i;

wire aw_free = !m_axi_awvalid_reg || m_axi_awready;
wire w_free = !m_axi_wvalid_reg || (m_axi_wready && m_axi_wlast_reg);
wire b_hs = m_axi_bvalid && (out_cnt_reg != {OW{1'b0}});
wire out_ok = (out_cnt_reg < C_MAX_OUT) || b_hs;
wire start_ok = aw_free && w_free && out_ok;
wire start = start_ok && (cont_reg || req_valid);
wire load = start && !cont_reg;
wire w_hs = m_axi_wvalid_reg && m_axi_wready;

wire [1:0] b_worst = (m_axi_bresp > acc_resp_reg) ? m_axi_bresp : acc_resp_reg;

assign req_ready = start_ok && !cont_reg;

assign done_valid = done_valid_reg;
assign done_resp = done_resp_reg;
assign busy = cont_reg || m_axi_awvalid_reg || m_axi_wvalid_reg || (out_cnt_reg != {OW{1'b0}});
assign err_flag = (STATUS != 0) && err_flag_reg;
assign err_count = (STATUS != 0) ? err_count_reg : 16'd0;

assign m_axi_awid = C_AXI_ID;
assign m_axi_awaddr = m_axi_awaddr_reg;
assign m_axi_awlen = m_axi_awlen_reg;
assign m_axi_awsize = C_SIZE;
assign m_axi_awburst = 2'b01;
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'b0011;
assign m_axi_awprot = 3'b010;
assign m_axi_awvalid = m_axi_awvalid_reg;
// Up to 2 beats (and on a 64-bit bus) the data register shifts by a beat and W shows its
// bottom beat. A request word that the requesters drive (mostly) constant, a status or
// trigger word, has constant register bits (no initial value in synthesis, above), and a
// bottom bit whose next beat is constant is the flip-flop's synchronous set/reset: no LUT per
// bit, where an index multiplexer on the output costs one (the pingpong caller, flattened,
// Yosys 0.23: 456 -> 423 LUT). From 3 beats on a 32-bit bus the register is loaded once per
// request (clock enable only) and the beat picked by index: a multiplexer of up to 4 beats is
// one LUT per bit, where a shifter costs one per register bit
generate
    if (WSHIFT == 0) begin : wsel
        wire [(2**BIW)*DATA_WIDTH-1:0] data_pad = {{((2**BIW)*DATA_WIDTH-DREG_W){1'b0}}, data_reg};
        assign m_axi_wdata = data_pad[beat_reg*DATA_WIDTH +: DATA_WIDTH];
    end else begin : wshift
        assign m_axi_wdata = data_reg[DATA_WIDTH-1:0];
    end
endgenerate
assign m_axi_wstrb = m_axi_wstrb_reg;
assign m_axi_wlast = m_axi_wlast_reg;
assign m_axi_wvalid = m_axi_wvalid_reg;
assign m_axi_bready = 1'b1;

assign m_axi_arid = C_AXI_ID;
assign m_axi_araddr = {ADDR_WIDTH{1'b0}};
assign m_axi_arlen = 8'd0;
assign m_axi_arsize = C_SIZE;
assign m_axi_arburst = 2'b01;
assign m_axi_arlock = 1'b0;
assign m_axi_arcache = 4'b0011;
assign m_axi_arprot = 3'b010;
assign m_axi_arvalid = 1'b0;
assign m_axi_rready = 1'b1;

// place the request words by address: with 64-bit beats and an address not
// 8-byte aligned, word 0 goes to the upper half of the first beat
generate
    if (LANES == 1) begin : place_32
        always @* begin
            s_data = req_data;
        end
    end else begin : place_64
        always @* begin
            if (req_addr[2]) begin
                s_data = {req_data, 32'd0};
            end else begin
                s_data = {32'd0, req_data};
            end
        end
    end
endgenerate

// beats of the next burst, padded so that its low 9 bits exist for any CW
wire [CW+8:0] s_beats_pad = {9'd0, s_beats};

// beats of the next burst and whether it is the request's last
generate
    if (SPLIT != 0) begin : splitter
        // width of the page offset, in beats, padded to CW bits
        wire [CW-1:0] s_page_beat = {{(CW-12+ADDR_LSB){1'b0}}, s_addr[11:ADDR_LSB]};
        always @* begin
            // beats: min(to end of request, to 4 KiB boundary, MAX_BURST_LEN)
            s_beats_4k = C_BEATS_4K - s_page_beat;
            s_beats = s_beats_total;
            if (s_beats_4k < s_beats) begin
                s_beats = s_beats_4k;
            end
            if (C_MAX_BURST_LEN < s_beats) begin
                s_beats = C_MAX_BURST_LEN;
            end
            // words this burst carries; the burst is the request's last if it carries all
            s_cap = (s_beats << LANE_SHIFT) - s_off;
            s_last = s_n <= s_cap;
            // a following burst starts beat aligned right after this one
            s_next_addr = s_addr + ({{(ADDR_WIDTH-9){1'b0}}, s_beats[8:0]} << ADDR_LSB);
            s_next_addr[ADDR_LSB-1:0] = {ADDR_LSB{1'b0}};
        end
    end else begin : one_burst
        // every request is one burst
        always @* begin
            s_beats_4k = {CW{1'b0}};
            s_beats = s_beats_total;
            s_cap = s_n;
            s_last = 1'b1;
            s_next_addr = s_addr;
        end
    end
endgenerate

always @* begin
    // source of the next burst: the request port or the rest of the current request
    if (cont_reg) begin
        s_addr = cur_addr_reg;
        s_n = cur_rem_reg;
    end else begin
        s_addr = req_addr;
        s_n = {{(CW-NW_W){1'b0}}, req_nwords};
    end

    // word lane of the start address within the first beat
    s_off = {{(CW-1){1'b0}}, s_addr[2] && (LANES > 1)};
    s_beats_total = (s_off + s_n + C_LANES_M1) >> LANE_SHIFT;
end

always @* begin
    // strobes of the first beat of a new request
    for (i = 0; i < LANES; i = i + 1) begin
        load_strb[i*4 +: 4] = ((i[CW-1:0] < s_off + s_n) && (i[CW-1:0] >= s_off)) ? 4'hf : 4'h0;
    end

    // strobes of the beat after the current one
    next_pos = w_pos_reg - C_LANES;
    for (i = 0; i < LANES; i = i + 1) begin
        next_strb[i*4 +: 4] = (i[CW-1:0] < next_pos) ? 4'hf : 4'h0;
    end
end

always @(posedge clk) begin
    // burst issue
    if (start) begin
        cont_reg <= !s_last;
        cur_addr_reg <= s_next_addr;
        cur_rem_reg <= s_n - s_cap;

        m_axi_awaddr_reg <= s_addr;
        m_axi_awlen_reg <= s_beats_pad[7:0] - 8'd1;
        m_axi_awvalid_reg <= 1'b1;

        m_axi_wvalid_reg <= 1'b1;
        m_axi_wlast_reg <= s_beats == C_ONE;
        w_left_reg <= s_beats_pad[8:0];
    end else begin
        if (m_axi_awready) begin
            m_axi_awvalid_reg <= 1'b0;
        end
        if (w_hs) begin
            if (m_axi_wlast_reg) begin
                m_axi_wvalid_reg <= 1'b0;
            end
            m_axi_wlast_reg <= w_left_reg == 9'd2;
            w_left_reg <= w_left_reg - 9'd1;
        end
    end

    // beat data and strobes
    if (load) begin
        data_reg <= s_data;
        beat_reg <= {BIW{1'b0}};
        w_pos_reg <= s_off + s_n;
        m_axi_wstrb_reg <= load_strb;
    end else if (w_hs) begin
        beat_reg <= beat_reg + 1'b1;
        if (WSHIFT != 0) begin
            data_reg <= data_reg >> DATA_WIDTH;
        end
        w_pos_reg <= next_pos;
        m_axi_wstrb_reg <= next_strb;
    end

    // outstanding bursts
    if (start && !b_hs) begin
        out_cnt_reg <= out_cnt_reg + C_OUT_ONE;
    end else if (!start && b_hs) begin
        out_cnt_reg <= out_cnt_reg - C_OUT_ONE;
    end

    if (start) begin
        last_flag_reg[flag_wr_ptr_reg] <= s_last;
        flag_wr_ptr_reg <= (flag_wr_ptr_reg == C_PTR_MAX) ? {PW{1'b0}} : flag_wr_ptr_reg + C_PTR_ONE;
    end

    // completion
    done_valid_reg <= 1'b0;
    if (b_hs) begin
        flag_rd_ptr_reg <= (flag_rd_ptr_reg == C_PTR_MAX) ? {PW{1'b0}} : flag_rd_ptr_reg + C_PTR_ONE;
        if (last_flag_reg[flag_rd_ptr_reg] || SPLIT == 0) begin
            done_valid_reg <= 1'b1;
            done_resp_reg <= b_worst;
            acc_resp_reg <= 2'b00;
            if (b_worst[1]) begin
                err_flag_reg <= 1'b1;
                if (err_count_reg != 16'hffff) begin
                    err_count_reg <= err_count_reg + 16'd1;
                end
            end
        end else begin
            acc_resp_reg <= b_worst;
        end
    end

    if (rst) begin
        cont_reg <= 1'b0;
        m_axi_awvalid_reg <= 1'b0;
        m_axi_wvalid_reg <= 1'b0;
        m_axi_wlast_reg <= 1'b0;
        w_left_reg <= 9'd0;
        w_pos_reg <= {CW{1'b0}};
        out_cnt_reg <= {OW{1'b0}};
        flag_wr_ptr_reg <= {PW{1'b0}};
        flag_rd_ptr_reg <= {PW{1'b0}};
        acc_resp_reg <= 2'b00;
        done_valid_reg <= 1'b0;
        done_resp_reg <= 2'b00;
        err_flag_reg <= 1'b0;
        err_count_reg <= 16'd0;
    end
end

// with STATUS = 0 the error counter is not shown; with SPLIT = 0 the last-burst flags are
// all set and not read
wire unused_regs = &{1'b0, err_flag_reg, err_count_reg, last_flag_reg, beat_reg, s_beats_4k, s_cap,
                     s_beats_pad[CW+8:9]};

endmodule

`default_nettype wire
