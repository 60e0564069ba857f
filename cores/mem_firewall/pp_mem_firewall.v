/*
 * pushpush: the memory firewall of a PL master toward PS memory (pp_mem_firewall)
 *
 * An AXI4 pass-through on a PL master's path into PS memory (the top's m_axi toward the
 * software windows, the buffer engines' buf_axi) with a table of ENTRIES allowed ranges
 * that the runtime writes (0..48; 0: no table) and STATIC_ENTRIES static entries (0..64),
 * constants fixed when the design is built (STATIC_BASE, STATIC_LIMIT, STATIC_ATTR: see the
 * parameters), checked by the same rules and never written. A burst passes only if the
 * whole range it may touch lies inside one entry, of the table or static, that allows its
 * direction to its master; any other burst never reaches memory:
 *
 * - a refused write's W beats are taken and dropped, and it is answered B = SLVERR;
 * - a refused read is answered ARLEN+1 beats of RDATA 0, RRESP = SLVERR, the last RLAST;
 * - it is counted (REFUSED) and the first one since the latch was cleared is latched
 *   (BAD_ADDR, BAD_INFO: address, ID, length, size, burst, direction).
 *
 * The range a burst may touch (so a master cannot reach past a range with strobes or with
 * an unaligned start): INCR from its address aligned down to AxSIZE, (AxLEN+1) << AxSIZE
 * bytes; FIXED one beat of 2**AxSIZE bytes from the aligned address; WRAP the wrap
 * container ((AxLEN+1) << AxSIZE bytes, aligned to its size). A WRAP burst whose AxLEN is
 * not 1, 3, 7 or 15, the reserved burst type 3 and an AxSIZE wider than the bus are refused.
 * A range that runs past 0xFFFFFFFF is refused.
 *
 * The master of a burst is the AXI ID's bits TAG_LSB .. TAG_LSB+TAG_BITS-1 (an interconnect
 * puts its slave port index above the ID it got: see pp_axi_interconnect). An entry with
 * ANY set allows every master, else only the master whose tag equals its OWNER.
 *
 * Latency: none for an allowed burst. The check is combinational on AW/AR (the addresses
 * come from the interconnect's registers); the first W beat of a burst goes through in the
 * cycle its AW is presented (W may reach memory before its AW, as AXI allows). A presented
 * address that was allowed stays presented until its handshake even if the table changes.
 * A refused burst waits until every burst accepted before it in its direction was answered
 * (so responses with one ID stay in order), and while it waits for its answer no other
 * burst of its direction is taken; at most MAX_OUT bursts per direction are outstanding.
 *
 * The register block (an AXI4 slave, 4 KiB, reg_axi_*):
 *   0x000 CTRL      bit 0 ENABLE (1: check; 0: every burst passes); reset ENABLE_RESET
 *   0x004 INFO      read only: [7:0] ENTRIES, [15:8] TAG_BITS, [23:16] TAG_LSB,
 *                   [31:24] MAX_OUT
 *   0x008 REFUSED   read only: bursts refused since reset (wraps at 2**32)
 *   0x00C BAD_ADDR  read only: the first refused burst's address
 *   0x010 BAD_INFO  [31] VALID (a refused burst is latched), [30] WRITE, [29:28] AxBURST,
 *                   [27:25] AxSIZE, [24:17] AxLEN, [16] 0, [15:0] its ID (ID_WIDTH <= 16);
 *                   writing 1 to bit 31 clears VALID (the next refused burst is latched)
 *   0x014 STATIC_INFO read only: [7:0] STATIC_ENTRIES
 *   0x100 + 16*i    entry i (i < ENTRIES): +0x0 BASE (first byte), +0x4 LIMIT (last byte,
 *                   inclusive), +0x8 ATTR: [0] READ, [1] WRITE, [2] ANY, [15:8] OWNER
 *                   (TAG_BITS bits kept), +0xC reads 0
 *   0x800 + 16*i    static entry i (i < STATIC_ENTRIES), read only: +0x0 BASE, +0x4 LIMIT,
 *                   +0x8 ATTR (its 16 bits, zero extended), +0xC reads 0
 *   other offsets read 0 and ignore writes; every response is OKAY.
 * An entry with READ and WRITE both 0 allows nothing. To change an entry the runtime writes
 * ATTR 0, then BASE and LIMIT, then ATTR (each a single store), so no half-written entry
 * ever allows a range. ENABLE 0 turns the static entries' check off too.
 *
 * The static entries cost little: their comparisons are against constants (a chain of
 * AND/OR gates that folds into a few LUTs, ge_const / le_const below), the address bits
 * above which all the static ranges of a direction agree are compared once for all of them,
 * and an entry without READ (WRITE) has no logic on the AR (AW) side. A STATIC_ATTR with
 * bits 7:3 set or an OWNER of TAG_BITS or more bits, an ENTRIES or STATIC_ENTRIES out of
 * range, stop a simulation at time 0 with an error naming it (Yosys 0.23 stops there too,
 * on the $error).
 */

`default_nettype none

module pp_mem_firewall #
(
    // AXI data width of the checked path (32 or 64)
    parameter DATA_WIDTH = 32,
    // AXI data width of the register slave (32 or 64: pp_axi_slave)
    parameter REG_DATA_WIDTH = DATA_WIDTH,
    // AXI ID width of the checked path (at most 16)
    parameter ID_WIDTH = 4,
    // AXI ID width of the register slave
    parameter REG_ID_WIDTH = 12,
    // Entries of the runtime's table (0..48; 0: none, only the static entries)
    parameter ENTRIES = 8,
    // Static entries, fixed when the design is built (0..64): checked like the table's,
    // never written. Entry i: STATIC_BASE[32*i +: 32] its first byte, STATIC_LIMIT[32*i +: 32]
    // its last byte (inclusive), STATIC_ATTR[16*i +: 16] as ATTR's bits 15:0 ([0] READ,
    // [1] WRITE, [2] ANY, [15:8] OWNER < 2**TAG_BITS; [7:3] 0); bits of entries
    // STATIC_ENTRIES and above are ignored
    parameter STATIC_ENTRIES = 0,
    parameter [32*64-1:0] STATIC_BASE = {32*64{1'b0}},
    parameter [32*64-1:0] STATIC_LIMIT = {32*64{1'b0}},
    parameter [16*64-1:0] STATIC_ATTR = {16*64{1'b0}},
    // The master's tag in the ID: its lowest bit and its width (TAG_LSB+TAG_BITS <= ID_WIDTH)
    parameter TAG_LSB = 0,
    parameter TAG_BITS = 1,
    // Bursts per direction that may be outstanding toward memory (2..255)
    parameter MAX_OUT = 16,
    // ENABLE after reset (1: nothing passes until the runtime allows it)
    parameter ENABLE_RESET = 1
)
(
    input  wire                      clk,
    input  wire                      rst,

    /*
     * AXI4 slave: the PL master's side (from the interconnect)
     */
    input  wire [ID_WIDTH-1:0]       s_axi_awid,
    input  wire [31:0]               s_axi_awaddr,
    input  wire [7:0]                s_axi_awlen,
    input  wire [2:0]                s_axi_awsize,
    input  wire [1:0]                s_axi_awburst,
    input  wire                      s_axi_awlock,
    input  wire [3:0]                s_axi_awcache,
    input  wire [2:0]                s_axi_awprot,
    input  wire                      s_axi_awvalid,
    output wire                      s_axi_awready,
    input  wire [DATA_WIDTH-1:0]     s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axi_wstrb,
    input  wire                      s_axi_wlast,
    input  wire                      s_axi_wvalid,
    output wire                      s_axi_wready,
    output wire [ID_WIDTH-1:0]       s_axi_bid,
    output wire [1:0]                s_axi_bresp,
    output wire                      s_axi_bvalid,
    input  wire                      s_axi_bready,
    input  wire [ID_WIDTH-1:0]       s_axi_arid,
    input  wire [31:0]               s_axi_araddr,
    input  wire [7:0]                s_axi_arlen,
    input  wire [2:0]                s_axi_arsize,
    input  wire [1:0]                s_axi_arburst,
    input  wire                      s_axi_arlock,
    input  wire [3:0]                s_axi_arcache,
    input  wire [2:0]                s_axi_arprot,
    input  wire                      s_axi_arvalid,
    output wire                      s_axi_arready,
    output wire [ID_WIDTH-1:0]       s_axi_rid,
    output wire [DATA_WIDTH-1:0]     s_axi_rdata,
    output wire [1:0]                s_axi_rresp,
    output wire                      s_axi_rlast,
    output wire                      s_axi_rvalid,
    input  wire                      s_axi_rready,

    /*
     * AXI4 master: toward PS memory
     */
    output wire [ID_WIDTH-1:0]       m_axi_awid,
    output wire [31:0]               m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    input  wire                      m_axi_awready,
    output wire [DATA_WIDTH-1:0]     m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]   m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
    input  wire                      m_axi_wready,
    input  wire [ID_WIDTH-1:0]       m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output wire                      m_axi_bready,
    output wire [ID_WIDTH-1:0]       m_axi_arid,
    output wire [31:0]               m_axi_araddr,
    output wire [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire                      m_axi_arlock,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output wire                      m_axi_arvalid,
    input  wire                      m_axi_arready,
    input  wire [ID_WIDTH-1:0]       m_axi_rid,
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    output wire                      m_axi_rready,

    /*
     * AXI4 slave: the register block
     */
    input  wire [REG_ID_WIDTH-1:0]   reg_axi_awid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               reg_axi_awaddr,   // bits 11:0 decoded (a 4 KiB block)
    input  wire [7:0]                reg_axi_awlen,    // W ends at wlast
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]                reg_axi_awsize,
    input  wire [1:0]                reg_axi_awburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      reg_axi_awlock,
    input  wire [3:0]                reg_axi_awcache,
    input  wire [2:0]                reg_axi_awprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      reg_axi_awvalid,
    output wire                      reg_axi_awready,
    input  wire [REG_DATA_WIDTH-1:0]     reg_axi_wdata,
    input  wire [REG_DATA_WIDTH/8-1:0]   reg_axi_wstrb,
    input  wire                      reg_axi_wlast,
    input  wire                      reg_axi_wvalid,
    output wire                      reg_axi_wready,
    output wire [REG_ID_WIDTH-1:0]   reg_axi_bid,
    output wire [1:0]                reg_axi_bresp,
    output wire                      reg_axi_bvalid,
    input  wire                      reg_axi_bready,
    input  wire [REG_ID_WIDTH-1:0]   reg_axi_arid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               reg_axi_araddr,   // bits 11:0 decoded
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [7:0]                reg_axi_arlen,
    input  wire [2:0]                reg_axi_arsize,
    input  wire [1:0]                reg_axi_arburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      reg_axi_arlock,
    input  wire [3:0]                reg_axi_arcache,
    input  wire [2:0]                reg_axi_arprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      reg_axi_arvalid,
    output wire                      reg_axi_arready,
    output wire [REG_ID_WIDTH-1:0]   reg_axi_rid,
    output wire [REG_DATA_WIDTH-1:0]     reg_axi_rdata,
    output wire [1:0]                reg_axi_rresp,
    output wire                      reg_axi_rlast,
    output wire                      reg_axi_rvalid,
    input  wire                      reg_axi_rready,

    // a pulse per refused burst (for a counter or an interrupt)
    output wire                      refused
);

localparam LANES = REG_DATA_WIDTH / 32;
localparam [31:0] BEAT_MASK32 = 32'hFFFFFFFF ^ (REG_DATA_WIDTH / 8 - 1);
localparam [11:0] BEAT_MASK = BEAT_MASK32[11:0];
localparam MAX_SIZE = DATA_WIDTH == 64 ? 3 : 2;
localparam CW = 8;    // outstanding counters' width (MAX_OUT <= 255)
localparam [1:0] SLVERR = 2'b10;
// the static entries (STATIC_ENTRIES, kept in 0..64 so that an out-of-range one reaches the
// check below rather than an index past the vectors)
localparam integer SE = STATIC_ENTRIES < 0 ? 0 : STATIC_ENTRIES > 64 ? 64 : STATIC_ENTRIES;

// the first static entry whose ATTR has reserved bits (7:3) set or an OWNER wider than
// TAG_BITS, -1 if none
function integer static_bad_attr;
    input integer dummy;
    integer i;
    reg [15:3] a;
    begin
        static_bad_attr = -1 + 0 * dummy;
        for (i = SE - 1; i >= 0; i = i - 1) begin
            a = STATIC_ATTR[16 * i + 3 +: 13];
            if (a[7:3] != 5'd0 || ({8'd0, a[15:8]} >> TAG_BITS) != 16'd0)
                static_bad_attr = i;
        end
    end
endfunction
localparam integer STATIC_BAD = static_bad_attr(0);

initial begin
    if (ENTRIES < 0 || ENTRIES > 48) begin
        $error("Error: ENTRIES must be in 0..48 (instance %m)");
        $finish;
    end
    if (STATIC_ENTRIES < 0 || STATIC_ENTRIES > 64) begin
        $error("Error: STATIC_ENTRIES must be in 0..64 (instance %m)");
        $finish;
    end
    if (STATIC_BAD >= 0) begin
        $error("Error: STATIC_ATTR of static entry %0d: bits 7:3 must be 0 and OWNER (15:8) below 2**TAG_BITS (instance %m)",
               STATIC_BAD);
        $finish;
    end
end

/*
 * The runtime's table (its registers are in the register block below) and the control
 * registers
 */
localparam EN = ENTRIES > 0 ? ENTRIES : 1;   // vectors' size: Verilog-2005 has no zero width
/* verilator lint_off UNUSEDSIGNAL */
wire [32*EN-1:0]            ent_base;        // the entries as read (unused when ENTRIES is 0)
wire [32*EN-1:0]            ent_limit;
wire [32*EN-1:0]            ent_attr;
/* verilator lint_on UNUSEDSIGNAL */
reg                         enable;
reg  [31:0]                 refused_count;
reg  [31:0]                 bad_addr;
reg  [31:0]                 bad_info;

/*
 * The range a burst may touch: [first, last] (last 33 bits: bit 32 set runs past 2**32)
 */
function [64:0] burst_range;   // {ok, first[31:0], last[31:0]}; ok 0: refuse outright
    input [31:0] addr;
    input [7:0]  len;
    input [2:0]  size;
    input [1:0]  burst;
    reg   [3:0]  beat;         // bytes per beat - 1 (at most 8 bytes)
    reg   [11:0] total;        // bytes of the burst - 1 (at most 256 x 8)
    reg   [31:0] first;
    reg   [32:0] last;
    reg          ok;
    begin
        ok    = size <= MAX_SIZE;
        beat  = ok ? (4'd1 << size) - 4'd1 : 4'd0;
        total = ok ? (({4'd0, len} + 12'd1) << size) - 12'd1 : 12'd0;
        case (burst)
            2'b00: begin   // FIXED
                first = {addr[31:4], addr[3:0] & ~beat};
                last  = {1'b0, first} + {29'd0, beat};
            end
            2'b01: begin   // INCR
                first = {addr[31:4], addr[3:0] & ~beat};
                last  = {1'b0, first} + {21'd0, total};
            end
            2'b10: begin   // WRAP (at most 16 beats: the container is below 2**7 bytes)
                first = {addr[31:7], addr[6:0] & ~total[6:0]};
                last  = {1'b0, first} + {21'd0, total};
                ok    = ok && (len == 8'd1 || len == 8'd3 || len == 8'd7 || len == 8'd15);
            end
            default: begin
                first = addr;
                last  = {1'b0, addr};
                ok    = 1'b0;
            end
        endcase
        burst_range = {ok && !last[32], first, last[31:0]};
    end
endfunction

wire [64:0] aw_range = burst_range(s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst);
wire [64:0] ar_range = burst_range(s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst);
/* verilator lint_off UNUSEDSIGNAL */   // (unused when no entry has an owner)
wire [TAG_BITS-1:0] aw_tag = s_axi_awid[TAG_LSB +: TAG_BITS];
wire [TAG_BITS-1:0] ar_tag = s_axi_arid[TAG_LSB +: TAG_BITS];
/* verilator lint_on UNUSEDSIGNAL */

// the runtime's entries that allow the presented AW / AR (from the register block below; 0
// when ENTRIES is 0)
wire [EN-1:0] aw_hit, ar_hit;
genvar g;

/*
 * The static entries: constants, so their comparisons fold into a few LUTs each
 */
localparam SN = SE > 0 ? SE : 1;

// x >= c and x <= c as a chain of AND/OR from bit 0 up: with c a constant each bit is one
// gate (a run of trailing 0s of c, resp. 1s, folds away), which the LUT mapping packs
// several bits a LUT, where a comparator would take a carry chain and a LUT a bit
function ge_const;
    input [31:0] x;
    input [31:0] c;
    integer i;
    begin
        ge_const = 1'b1;
        for (i = 0; i < 32; i = i + 1)
            ge_const = c[i] ? x[i] && ge_const : x[i] || ge_const;
    end
endfunction

function le_const;
    input [31:0] x;
    input [31:0] c;
    integer i;
    begin
        le_const = 1'b1;
        for (i = 0; i < 32; i = i + 1)
            le_const = c[i] ? !x[i] || le_const : !x[i] && le_const;
    end
endfunction

// The address bits above which every static entry of a direction (WHICH: 0 READ, 1 WRITE)
// has the same BASE and LIMIT: a burst inside one of them has those bits too, so they are
// compared once for all (aw_sprefix, ar_sprefix) and each entry compares only the bits below
function integer static_low_bits;
    input integer which;
    integer i, k;
    reg [31:0] diff;
    reg [31:0] first_base;
    reg        seen;
    begin
        diff = 32'd0;
        first_base = 32'd0;
        seen = 1'b0;
        for (i = 0; i < SE; i = i + 1) begin
            if (STATIC_ATTR[16 * i + which]) begin
                if (!seen)
                    first_base = STATIC_BASE[32 * i +: 32];
                seen = 1'b1;
                diff = diff | (STATIC_BASE[32 * i +: 32] ^ first_base)
                     | (STATIC_LIMIT[32 * i +: 32] ^ first_base);
            end
        end
        static_low_bits = 0;
        for (k = 0; k < 32; k = k + 1)
            if (diff[k])
                static_low_bits = k + 1;
    end
endfunction

// the BASE of the first static entry of a direction (its high bits are every entry's)
function [31:0] static_ref;
    input integer which;
    integer i;
    reg     seen;
    begin
        static_ref = 32'd0;
        seen = 1'b0;
        for (i = 0; i < SE; i = i + 1) begin
            if (STATIC_ATTR[16 * i + which] && !seen) begin
                static_ref = STATIC_BASE[32 * i +: 32];
                seen = 1'b1;
            end
        end
    end
endfunction

localparam integer      SW_LOW = static_low_bits(1);
localparam integer      SR_LOW = static_low_bits(0);
localparam [32:0]       SW_ONE = 33'd1 << SW_LOW;
localparam [32:0]       SR_ONE = 33'd1 << SR_LOW;
localparam [31:0]       SW_LOWS = SW_ONE[31:0] - 32'd1;   // the bits each entry compares
localparam [31:0]       SR_LOWS = SR_ONE[31:0] - 32'd1;   // (all 32: 0 - 1)
localparam [31:0]       SW_HIGH = static_ref(1) & ~SW_LOWS;
localparam [31:0]       SR_HIGH = static_ref(0) & ~SR_LOWS;
wire aw_sprefix = ((aw_range[63:32] ^ SW_HIGH) & ~SW_LOWS) == 32'd0
               && ((aw_range[31:0] ^ SW_HIGH) & ~SW_LOWS) == 32'd0;
wire ar_sprefix = ((ar_range[63:32] ^ SR_HIGH) & ~SR_LOWS) == 32'd0
               && ((ar_range[31:0] ^ SR_HIGH) & ~SR_LOWS) == 32'd0;
/* verilator lint_off UNUSEDSIGNAL */   // (no static entry of a direction: unused)
wire [31:0] aw_sfirst = aw_range[63:32] & SW_LOWS;
wire [31:0] aw_slast  = aw_range[31:0] & SW_LOWS;
wire [31:0] ar_sfirst = ar_range[63:32] & SR_LOWS;
wire [31:0] ar_slast  = ar_range[31:0] & SR_LOWS;
/* verilator lint_on UNUSEDSIGNAL */

wire [SN-1:0] aw_st_hit, ar_st_hit;   // the static entries that allow the presented AW / AR
generate
    for (g = 0; g < SE; g = g + 1) begin : static_entry
        localparam [31:0] B = STATIC_BASE[32 * g +: 32];
        localparam [31:0] L = STATIC_LIMIT[32 * g +: 32];
        localparam [15:0] A = STATIC_ATTR[16 * g +: 16];
        localparam [TAG_BITS-1:0] O = A[8 +: TAG_BITS];
        if (A[1]) begin : wr
            assign aw_st_hit[g] = (A[2] || aw_tag == O) && ge_const(aw_sfirst, B & SW_LOWS)
                                && le_const(aw_slast, L & SW_LOWS);
        end else begin : no_wr   // costs nothing
            assign aw_st_hit[g] = 1'b0;
        end
        if (A[0]) begin : rd
            assign ar_st_hit[g] = (A[2] || ar_tag == O) && ge_const(ar_sfirst, B & SR_LOWS)
                                && le_const(ar_slast, L & SR_LOWS);
        end else begin : no_rd
            assign ar_st_hit[g] = 1'b0;
        end
    end
    if (SE == 0) begin : no_static
        assign aw_st_hit = 1'b0;
        assign ar_st_hit = 1'b0;
    end
endgenerate
wire aw_static = aw_sprefix && |aw_st_hit;
wire ar_static = ar_sprefix && |ar_st_hit;

/*
 * Write path
 */
reg           aw_held;       // an allowed AW is presented toward memory, not yet taken
reg  [CW-1:0] w_out;         // writes taken by memory whose B has not come back
reg  [CW-1:0] w_pass;        // writes taken by memory whose W beats are still to pass
reg           w_ahead;       // the presented AW's W beats all passed before its handshake
reg           werr;          // a refused write waits for its answer
reg           werr_wdone;    // ... and its W beats were all dropped
reg  [ID_WIDTH-1:0] werr_id;

wire aw_ok   = aw_held || !enable || (aw_range[64] && (|aw_hit || aw_static));
wire aw_room = !werr && w_out != MAX_OUT[CW-1:0];
assign m_axi_awvalid = s_axi_awvalid && (aw_held || (aw_ok && aw_room));
assign s_axi_awready = aw_ok ? m_axi_awready && (aw_held || aw_room) : !werr;
wire aw_pass = m_axi_awvalid && m_axi_awready;
wire aw_drop = s_axi_awvalid && s_axi_awready && !aw_ok;

// W: to memory while a taken write's beats are due or (none due) the presented AW passes;
// dropped while a refused write's beats are due
wire w_bypass = w_pass == {CW{1'b0}} && !w_ahead && !werr && m_axi_awvalid;
wire w_to_mem = w_pass != {CW{1'b0}} || w_bypass;
wire w_drain  = w_pass == {CW{1'b0}} && werr && !werr_wdone;
assign m_axi_wdata  = s_axi_wdata;
assign m_axi_wstrb  = s_axi_wstrb;
assign m_axi_wlast  = s_axi_wlast;
assign m_axi_wvalid = s_axi_wvalid && w_to_mem;
assign s_axi_wready = w_to_mem ? m_axi_wready : w_drain;
wire w_last = s_axi_wvalid && s_axi_wready && s_axi_wlast;

// B: memory's, or the refused write's once everything before it was answered
wire b_err = werr && werr_wdone && w_out == {CW{1'b0}};
assign s_axi_bvalid = b_err || m_axi_bvalid;
assign s_axi_bid    = b_err ? werr_id : m_axi_bid;
assign s_axi_bresp  = b_err ? SLVERR : m_axi_bresp;
assign m_axi_bready = s_axi_bready && !b_err;
wire b_mem = m_axi_bvalid && m_axi_bready;

always @(posedge clk) begin
    if (rst) begin
        aw_held <= 1'b0;
        w_out <= {CW{1'b0}};
        w_pass <= {CW{1'b0}};
        w_ahead <= 1'b0;
        werr <= 1'b0;
        werr_wdone <= 1'b0;
        werr_id <= {ID_WIDTH{1'b0}};
    end else begin
        aw_held <= m_axi_awvalid && !m_axi_awready;
        w_out <= w_out + {{CW-1{1'b0}}, aw_pass} - {{CW-1{1'b0}}, b_mem};
        w_pass <= w_pass
                + {{CW-1{1'b0}}, aw_pass && !w_ahead && !(w_bypass && w_last)}
                - {{CW-1{1'b0}}, w_pass != {CW{1'b0}} && w_last};
        if (w_bypass && w_last && !aw_pass)
            w_ahead <= 1'b1;
        else if (aw_pass)
            w_ahead <= 1'b0;
        if (aw_drop) begin
            werr <= 1'b1;
            werr_wdone <= 1'b0;
            werr_id <= s_axi_awid;
        end else begin
            if (w_drain && w_last)
                werr_wdone <= 1'b1;
            if (b_err && s_axi_bready)
                werr <= 1'b0;
        end
    end
end

/*
 * Read path
 */
reg           ar_held;
reg  [CW-1:0] r_out;         // reads taken by memory whose last beat has not come back
reg           rerr;          // a refused read waits for its answer
reg  [7:0]    rerr_len;
reg  [7:0]    rerr_beat;
reg  [ID_WIDTH-1:0] rerr_id;

wire ar_ok   = ar_held || !enable || (ar_range[64] && (|ar_hit || ar_static));
wire ar_room = !rerr && r_out != MAX_OUT[CW-1:0];
assign m_axi_arvalid = s_axi_arvalid && (ar_held || (ar_ok && ar_room));
assign s_axi_arready = ar_ok ? m_axi_arready && (ar_held || ar_room) : !rerr;
wire ar_pass = m_axi_arvalid && m_axi_arready;
wire ar_drop = s_axi_arvalid && s_axi_arready && !ar_ok;

wire r_err = rerr && r_out == {CW{1'b0}};
assign s_axi_rvalid = r_err || m_axi_rvalid;
assign s_axi_rid    = r_err ? rerr_id : m_axi_rid;
assign s_axi_rdata  = r_err ? {DATA_WIDTH{1'b0}} : m_axi_rdata;
assign s_axi_rresp  = r_err ? SLVERR : m_axi_rresp;
assign s_axi_rlast  = r_err ? rerr_beat == rerr_len : m_axi_rlast;
assign m_axi_rready = s_axi_rready && !r_err;
wire r_mem_last = m_axi_rvalid && m_axi_rready && m_axi_rlast;

always @(posedge clk) begin
    if (rst) begin
        ar_held <= 1'b0;
        r_out <= {CW{1'b0}};
        rerr <= 1'b0;
        rerr_len <= 8'd0;
        rerr_beat <= 8'd0;
        rerr_id <= {ID_WIDTH{1'b0}};
    end else begin
        ar_held <= m_axi_arvalid && !m_axi_arready;
        r_out <= r_out + {{CW-1{1'b0}}, ar_pass} - {{CW-1{1'b0}}, r_mem_last};
        if (ar_drop) begin
            rerr <= 1'b1;
            rerr_len <= s_axi_arlen;
            rerr_beat <= 8'd0;
            rerr_id <= s_axi_arid;
        end else if (r_err && s_axi_rready) begin
            rerr_beat <= rerr_beat + 8'd1;
            if (rerr_beat == rerr_len)
                rerr <= 1'b0;
        end
    end
end

// the other fields pass unchanged
assign m_axi_awid    = s_axi_awid;
assign m_axi_awaddr  = s_axi_awaddr;
assign m_axi_awlen   = s_axi_awlen;
assign m_axi_awsize  = s_axi_awsize;
assign m_axi_awburst = s_axi_awburst;
assign m_axi_awlock  = s_axi_awlock;
assign m_axi_awcache = s_axi_awcache;
assign m_axi_awprot  = s_axi_awprot;
assign m_axi_arid    = s_axi_arid;
assign m_axi_araddr  = s_axi_araddr;
assign m_axi_arlen   = s_axi_arlen;
assign m_axi_arsize  = s_axi_arsize;
assign m_axi_arburst = s_axi_arburst;
assign m_axi_arlock  = s_axi_arlock;
assign m_axi_arcache = s_axi_arcache;
assign m_axi_arprot  = s_axi_arprot;

/*
 * Refusals: counted, the first latched
 */
assign refused = aw_drop || ar_drop;
/* verilator lint_off UNUSEDSIGNAL */
wire [ID_WIDTH+15:0] aw_idx = {16'd0, s_axi_awid};   // the ID in 16 bits
wire [ID_WIDTH+15:0] ar_idx = {16'd0, s_axi_arid};
/* verilator lint_on UNUSEDSIGNAL */
wire [15:0] aw_id16 = aw_idx[15:0];
wire [15:0] ar_id16 = ar_idx[15:0];

/*
 * The register slave: the AXI4 front end (cores/axi_slave), one beat at a time
 */
wire        w_en;
wire [11:0] w_addr;
wire [11:0] r_addr;
/* verilator lint_off UNUSEDSIGNAL */
wire [REG_DATA_WIDTH-1:0] w_data;
wire [REG_DATA_WIDTH/8-1:0] w_strb;
wire        w_ovf, w_bad, w_lastbeat, r_en, r_ovf, r_bad;
wire [2:0]  w_size, r_size;
/* verilator lint_on UNUSEDSIGNAL */
wire [REG_DATA_WIDTH-1:0] r_data;

pp_axi_slave #(
    .DATA_WIDTH(REG_DATA_WIDTH), .ADDR_WIDTH(32), .ID_WIDTH(REG_ID_WIDTH),
    .WR_ADDR_BITS(12), .RD_ADDR_BITS(12)
) fe (
    .clk(clk), .rst(rst),
    .s_axi_awid(reg_axi_awid), .s_axi_awaddr(reg_axi_awaddr), .s_axi_awlen(reg_axi_awlen),
    .s_axi_awsize(reg_axi_awsize), .s_axi_awburst(reg_axi_awburst),
    .s_axi_awlock(reg_axi_awlock), .s_axi_awcache(reg_axi_awcache),
    .s_axi_awprot(reg_axi_awprot), .s_axi_awvalid(reg_axi_awvalid),
    .s_axi_awready(reg_axi_awready), .s_axi_wdata(reg_axi_wdata), .s_axi_wstrb(reg_axi_wstrb),
    .s_axi_wlast(reg_axi_wlast), .s_axi_wvalid(reg_axi_wvalid), .s_axi_wready(reg_axi_wready),
    .s_axi_bid(reg_axi_bid), .s_axi_bresp(reg_axi_bresp), .s_axi_bvalid(reg_axi_bvalid),
    .s_axi_bready(reg_axi_bready), .s_axi_arid(reg_axi_arid), .s_axi_araddr(reg_axi_araddr),
    .s_axi_arlen(reg_axi_arlen), .s_axi_arsize(reg_axi_arsize),
    .s_axi_arburst(reg_axi_arburst), .s_axi_arlock(reg_axi_arlock),
    .s_axi_arcache(reg_axi_arcache), .s_axi_arprot(reg_axi_arprot),
    .s_axi_arvalid(reg_axi_arvalid), .s_axi_arready(reg_axi_arready), .s_axi_rid(reg_axi_rid),
    .s_axi_rdata(reg_axi_rdata), .s_axi_rresp(reg_axi_rresp), .s_axi_rlast(reg_axi_rlast),
    .s_axi_rvalid(reg_axi_rvalid), .s_axi_rready(reg_axi_rready),
    .wr_en(w_en), .wr_addr(w_addr), .wr_ovf(w_ovf), .wr_size(w_size), .wr_bad(w_bad),
    .wr_data(w_data), .wr_strb(w_strb), .wr_last(w_lastbeat), .wr_ready(1'b1),
    .wr_err(1'b0), .wr_resp_valid(1'b0), .wr_resp(2'b00),
    .rd_en(r_en), .rd_addr(r_addr), .rd_ovf(r_ovf), .rd_size(r_size), .rd_bad(r_bad),
    .rd_data(r_data), .rd_err(1'b0), .rd_zero(1'b0)
);


/*
 * Register writes: every register word has its address, hence its lane of the beat, fixed;
 * a byte is written (a clock enable) when its beat is taken with its strobe set
 */
wire [11:0] w_beat_base = w_addr & BEAT_MASK;

// CTRL (0x000) and BAD_INFO (0x010) are in lane 0 of their beat (32- and 64-bit buses)
wire ctrl_we = w_en && w_beat_base == (12'h000 & BEAT_MASK) && w_strb[0];
wire clr_bad = w_en && w_beat_base == (12'h010 & BEAT_MASK) && w_strb[3]
               && w_data[31];

generate
    for (g = 0; g < ENTRIES; g = g + 1) begin : entry   // the runtime's entry g
        localparam integer OB = 256 + 16 * g;   // BASE's offset; LIMIT +4, ATTR +8
        localparam integer LB = (OB / 4) % LANES;
        localparam integer LL = (OB / 4 + 1) % LANES;
        localparam integer LA = (OB / 4 + 2) % LANES;
        localparam [31:0] OB32 = OB;
        localparam [11:0] OB12 = OB32[11:0];
        reg  [31:0]         base;
        reg  [31:0]         limit;
        reg                 rd;
        reg                 wr;
        reg                 any;
        reg  [TAG_BITS-1:0] owner;
        wire we_b = w_en && w_beat_base == (OB12 & BEAT_MASK);
        wire we_l = w_en && w_beat_base == ((OB12 + 12'd4) & BEAT_MASK);
        wire we_a = w_en && w_beat_base == ((OB12 + 12'd8) & BEAT_MASK);
        /* verilator lint_off UNUSEDSIGNAL */
        wire [TAG_BITS+7:0] owner_x = {8'd0, owner};
        /* verilator lint_on UNUSEDSIGNAL */
        wire [7:0] owner8 = owner_x[7:0];
        assign ent_base[32 * g +: 32] = base;
        assign ent_limit[32 * g +: 32] = limit;
        assign ent_attr[32 * g +: 32] = {16'd0, owner8, 5'd0, any, wr, rd};
        wire mine_w = any || owner == aw_tag;
        wire mine_r = any || owner == ar_tag;
        assign aw_hit[g] = wr && mine_w && aw_range[63:32] >= base && aw_range[31:0] <= limit;
        assign ar_hit[g] = rd && mine_r && ar_range[63:32] >= base && ar_range[31:0] <= limit;
        genvar k;
        for (k = 0; k < 4; k = k + 1) begin : bytes
            always @(posedge clk) begin
                if (rst) begin
                    base[8 * k +: 8] <= 8'd0;
                    limit[8 * k +: 8] <= 8'd0;
                end else begin
                    if (we_b && w_strb[4 * LB + k])
                        base[8 * k +: 8] <= w_data[32 * LB + 8 * k +: 8];
                    if (we_l && w_strb[4 * LL + k])
                        limit[8 * k +: 8] <= w_data[32 * LL + 8 * k +: 8];
                end
            end
        end
        always @(posedge clk) begin
            if (rst) begin
                rd <= 1'b0;
                wr <= 1'b0;
                any <= 1'b0;
                owner <= {TAG_BITS{1'b0}};
            end else if (we_a) begin
                if (w_strb[4 * LA]) begin
                    rd <= w_data[32 * LA];
                    wr <= w_data[32 * LA + 1];
                    any <= w_data[32 * LA + 2];
                end
                if (w_strb[4 * LA + 1])
                    owner <= w_data[32 * LA + 8 +: TAG_BITS];
            end
        end
    end
    if (ENTRIES == 0) begin : no_table
        assign ent_base = 32'd0;
        assign ent_limit = 32'd0;
        assign ent_attr = 32'd0;
        assign aw_hit = 1'b0;
        assign ar_hit = 1'b0;
    end
endgenerate

always @(posedge clk) begin
    if (rst) begin
        enable <= ENABLE_RESET != 0;
        refused_count <= 32'd0;
        bad_addr <= 32'd0;
        bad_info <= 32'd0;
    end else begin
        if (ctrl_we)
            enable <= w_data[0];
        refused_count <= refused_count + {31'd0, aw_drop} + {31'd0, ar_drop};
        // a refusal in the cycle of a clear is latched
        if ((!bad_info[31] || clr_bad) && (aw_drop || ar_drop)) begin
            bad_addr <= aw_drop ? s_axi_awaddr : s_axi_araddr;
            bad_info <= aw_drop
                ? {2'b11, s_axi_awburst, s_axi_awsize, s_axi_awlen, 1'b0, aw_id16}
                : {2'b10, s_axi_arburst, s_axi_arsize, s_axi_arlen, 1'b0, ar_id16};
        end else if (clr_bad) begin
            bad_info[31] <= 1'b0;
        end
    end
end

/*
 * Register reads: each 32-bit lane of the beat (an always block: it reads the registers)
 */
wire [11:0] r_beat_base = r_addr & BEAT_MASK;
reg  [REG_DATA_WIDTH-1:0] r_word;
reg  [11:0] r_off;
/* verilator lint_off UNUSEDSIGNAL */
reg  [11:0] r_rel;   // bits 11:2 decoded
/* verilator lint_on UNUSEDSIGNAL */
integer rl, re;
always @* begin
    r_word = {REG_DATA_WIDTH{1'b0}};
    for (rl = 0; rl < LANES; rl = rl + 1) begin
        r_off = r_beat_base + 12'd4 * rl[11:0];
        r_rel = r_off - 12'h100;
        case (r_off)
            12'h000: r_word[32 * rl +: 32] = {31'd0, enable};
            12'h004: r_word[32 * rl +: 32] = {MAX_OUT[7:0], TAG_LSB[7:0], TAG_BITS[7:0], ENTRIES[7:0]};
            12'h008: r_word[32 * rl +: 32] = refused_count;
            12'h00C: r_word[32 * rl +: 32] = bad_addr;
            12'h010: r_word[32 * rl +: 32] = bad_info;
            default: begin
                for (re = 0; re < ENTRIES; re = re + 1) begin
                    if (r_off >= 12'h100 && r_rel[11:4] == re[7:0]) begin
                        case (r_rel[3:2])
                            2'd0: r_word[32 * rl +: 32] = ent_base[32 * re +: 32];
                            2'd1: r_word[32 * rl +: 32] = ent_limit[32 * re +: 32];
                            2'd2: r_word[32 * rl +: 32] = ent_attr[32 * re +: 32];
                            default: r_word[32 * rl +: 32] = 32'd0;
                        endcase
                    end
                end
            end
        endcase
    end
end

// STATIC_INFO and the static entries (0x014, 0x800 + 16 i: offsets the block above reads as
// 0), ORed in: with no static entries this is 0 and the block above is all there is
generate
    if (SE > 0) begin : static_read
        reg  [REG_DATA_WIDTH-1:0] s_word;
        reg  [11:0] s_off;
        /* verilator lint_off UNUSEDSIGNAL */
        reg  [11:0] s_rel;   // bits 10:2 decoded
        /* verilator lint_on UNUSEDSIGNAL */
        integer sl, si;
        always @* begin
            s_word = {REG_DATA_WIDTH{1'b0}};
            for (sl = 0; sl < LANES; sl = sl + 1) begin
                s_off = r_beat_base + 12'd4 * sl[11:0];
                s_rel = s_off - 12'h800;
                if (s_off == 12'h014)
                    s_word[32 * sl +: 32] = {24'd0, SE[7:0]};
                for (si = 0; si < SE; si = si + 1) begin
                    if (s_off[11] && s_rel[10:4] == si[6:0]) begin
                        case (s_rel[3:2])
                            2'd0: s_word[32 * sl +: 32] = STATIC_BASE[32 * si +: 32];
                            2'd1: s_word[32 * sl +: 32] = STATIC_LIMIT[32 * si +: 32];
                            2'd2: s_word[32 * sl +: 32] = {16'd0, STATIC_ATTR[16 * si +: 16]};
                            default: s_word[32 * sl +: 32] = 32'd0;
                        endcase
                    end
                end
            end
        end
        assign r_data = r_word | s_word;
    end else begin : no_static_read
        assign r_data = r_word;
    end
endgenerate

endmodule

`default_nettype wire
