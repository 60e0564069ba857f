/*
 * Test harness of pp_endpoint_mem (tests/cores/test_endpoint_mem.py).
 *
 * Passes the AXI slave port and the local signals through, and shows the whole window on
 * `window` (word k at [32*k +: 32]) as the owner can see it: the trigger word of each slot
 * from `trig_word`, every other word of a slot from a read port of its own; gap words are
 * shown as 0 (the probe port checks that they read 0).
 * One more read port, `probe_addr` -> `probe_data`, is driven by the bench with a different
 * address every cycle (checks the read ports with changing addresses).
 * `trig_mem_ok` bit i: slot i's trigger word as read from the memory (one more read port per
 * slot, at its trigger word's offset) with only the bytes `trig_bytes` says were written
 * equals `trig_word` (what pp_export reads with TRIG_MEM = 1); the bench checks it every cycle.
 */

`default_nettype none

module pp_endpoint_mem_tb #
(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 8,
    parameter ID_WIDTH = 4,
    parameter NUM_SLOTS = 1,
    parameter [16*NUM_SLOTS-1:0] SLOT_FIRST = {NUM_SLOTS{16'd0}},
    parameter [16*NUM_SLOTS-1:0] SLOT_TRIG = {NUM_SLOTS{16'd3}},
    parameter WORDS = 4,
    parameter ENABLE_READ = 1
)
(
    input  wire                     clk,
    input  wire                     rst,

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

    output wire [WORDS*32-1:0]      window,
    input  wire [15:0]              probe_addr,
    output wire [31:0]              probe_data,
    output wire [NUM_SLOTS-1:0]     trig_pulse,
    output wire [NUM_SLOTS-1:0]     trig_pending,
    input  wire [NUM_SLOTS-1:0]     rearm,
    input  wire [95:0]              counters,
    output wire [31:0]              collisions,
    output wire                     collision_flag,
    output wire [NUM_SLOTS-1:0]     trig_mem_ok
);

localparam RA = (WORDS > 1) ? $clog2(WORDS) : 1;

wire [PORTS*RA-1:0] rd_addr;
wire [PORTS*32-1:0] rd_data;
wire [NUM_SLOTS*32-1:0] trig_word;

// slot whose trigger word is word k, or -1
function integer trig_slot;
    input integer k;
    integer i;
    begin
        trig_slot = -1;
        for (i = 0; i < NUM_SLOTS; i = i + 1) begin
            if (k == {16'd0, SLOT_TRIG[16*i +: 16]}) begin
                trig_slot = i;
            end
        end
    end
endfunction

// 1 if word k is an argument/result word (in a slot, not its trigger word)
function integer is_arg;
    input integer k;
    integer i;
    begin
        is_arg = 0;
        for (i = 0; i < NUM_SLOTS; i = i + 1) begin
            if (k >= {16'd0, SLOT_FIRST[16*i +: 16]} && k < {16'd0, SLOT_TRIG[16*i +: 16]}) begin
                is_arg = 1;
            end
        end
    end
endfunction

// read port of word k: the number of argument/result words below it
function integer port_of;
    input integer k;
    integer w;
    begin
        port_of = 0;
        for (w = 0; w < k; w = w + 1) begin
            port_of = port_of + is_arg(w);
        end
    end
endfunction

// one port per argument/result word, then the probe, then one per slot at its trigger word
localparam APORTS = port_of(WORDS) + 1;
localparam PORTS = APORTS + NUM_SLOTS;
wire [NUM_SLOTS*4-1:0] trig_bytes;

genvar k;
generate
    for (k = 0; k < WORDS; k = k + 1) begin : word
        localparam integer T = trig_slot(k);
        localparam integer P = port_of(k);
        if (T >= 0) begin : trig
            assign window[32*k +: 32] = trig_word[32*T +: 32];
        end else if (is_arg(k)) begin : stored
            localparam [RA-1:0] KA = k;
            assign rd_addr[RA*P +: RA] = KA;
            assign window[32*k +: 32] = rd_data[32*P +: 32];
        end else begin : gap
            assign window[32*k +: 32] = 32'd0;
        end
    end
endgenerate

assign rd_addr[RA*(APORTS-1) +: RA] = probe_addr[RA-1:0];
assign probe_data = rd_data[32*(APORTS-1) +: 32];

generate
    for (k = 0; k < NUM_SLOTS; k = k + 1) begin : tmem
        localparam [RA-1:0] TA = SLOT_TRIG[16*k +: RA];
        wire [31:0] mword = rd_data[32*(APORTS+k) +: 32];
        wire [3:0] b = trig_bytes[4*k +: 4];
        assign rd_addr[RA*(APORTS+k) +: RA] = TA;
        assign trig_mem_ok[k] = (mword & {{8{b[3]}}, {8{b[2]}}, {8{b[1]}}, {8{b[0]}}})
                                == trig_word[32*k +: 32];
    end
endgenerate

pp_endpoint_mem #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .ID_WIDTH(ID_WIDTH),
    .NUM_SLOTS(NUM_SLOTS),
    .SLOT_FIRST(SLOT_FIRST),
    .SLOT_TRIG(SLOT_TRIG),
    .WORDS(WORDS),
    .ENABLE_READ(ENABLE_READ),
    .RD_PORTS(PORTS),
    .RD_ADDR_WIDTH(RA)
)
dut (
    .clk(clk),
    .rst(rst),
    .s_axi_awid(s_axi_awid),
    .s_axi_awaddr(s_axi_awaddr),
    .s_axi_awlen(s_axi_awlen),
    .s_axi_awsize(s_axi_awsize),
    .s_axi_awburst(s_axi_awburst),
    .s_axi_awlock(s_axi_awlock),
    .s_axi_awcache(s_axi_awcache),
    .s_axi_awprot(s_axi_awprot),
    .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready),
    .s_axi_wdata(s_axi_wdata),
    .s_axi_wstrb(s_axi_wstrb),
    .s_axi_wlast(s_axi_wlast),
    .s_axi_wvalid(s_axi_wvalid),
    .s_axi_wready(s_axi_wready),
    .s_axi_bid(s_axi_bid),
    .s_axi_bresp(s_axi_bresp),
    .s_axi_bvalid(s_axi_bvalid),
    .s_axi_bready(s_axi_bready),
    .s_axi_arid(s_axi_arid),
    .s_axi_araddr(s_axi_araddr),
    .s_axi_arlen(s_axi_arlen),
    .s_axi_arsize(s_axi_arsize),
    .s_axi_arburst(s_axi_arburst),
    .s_axi_arlock(s_axi_arlock),
    .s_axi_arcache(s_axi_arcache),
    .s_axi_arprot(s_axi_arprot),
    .s_axi_arvalid(s_axi_arvalid),
    .s_axi_arready(s_axi_arready),
    .s_axi_rid(s_axi_rid),
    .s_axi_rdata(s_axi_rdata),
    .s_axi_rresp(s_axi_rresp),
    .s_axi_rlast(s_axi_rlast),
    .s_axi_rvalid(s_axi_rvalid),
    .s_axi_rready(s_axi_rready),
    .trig_word(trig_word),
    .trig_bytes(trig_bytes),
    .rd_addr(rd_addr),
    .rd_data(rd_data),
    .trig_pulse(trig_pulse),
    .trig_pending(trig_pending),
    .rearm(rearm),
    .counters(counters),
    .collisions(collisions),
    .collision_flag(collision_flag)
);

// (the probe port sees only the bits that address a word)
wire unused = &{1'b0, probe_addr};

endmodule

`default_nettype wire
