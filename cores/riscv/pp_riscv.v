/*
 * pushpush: RISC-V soft core component (kind: riscv)
 *
 * A PicoRV32 (pythondata-cpu-picorv32, ISC license; its picorv32.v is used from the
 * installed package, never copied here) with
 *   - its local memory: MEM_BYTES of program and data, one 32-bit word per address,
 *     initialised from MEM_INIT ($readmemh, one hex word per line: pushpush.c.riscv);
 *   - its endpoint window: WIN_BYTES of dual-ported memory; the interconnect writes it
 *     through the AXI4 slave s_axi_*, the core reads and writes it locally (as the
 *     paper's MicroBlaze uses dual-port BRAM on its LMB), so waiting never puts polling
 *     traffic on the interconnect. AXI reads return the window's fault counters, as an
 *     rtl window's do: byte offset 0x0 collisions, 0x4 duplicates, 0x8 strays, 0xC
 *     write_errors (the core's runtime publishes them in its control page), other
 *     offsets 0; all OKAY;
 *   - an AXI4 master m_axi_* into the interconnect for every other address: the calls and
 *     returns the core makes (its stores into other components' windows), one single-beat
 *     write per store, the core held until the B response (so a call's words land in
 *     program order and the trigger word, stored last, lands last).
 *
 * The core's address map (docs/riscv.md):
 *   [0, MEM_BYTES)                     local memory (reset vector 0)
 *   [WIN_BASE, WIN_BASE + WIN_BYTES)   the own window (its global address too)
 *   [CTRL_BASE, CTRL_BASE + 0x40)      the control page:
 *       0x00..0x0C  counters shown at the window's offsets 0x0..0xC (read/write)
 *       0x10        m_axi responses SLVERR (a collision at an rtl window; read only, saturating)
 *       0x14        m_axi responses DECERR (no slave there; read only, saturating)
 *       0x18        microseconds since reset (CLOCK_MHZ cycles each), low word (read only)
 *       0x1C        ... high word (read only): the runtime's clock without a division
 *       0x20, 0x24  clock cycles since reset, low and high word (read only)
 *       0x28        halt: a write stops the program (trap; crt0 after main returns)
 *       0x2C        error word: m_axi responses since its last read, bit 0 SLVERR, bit 1
 *                   DECERR (read only; a read clears it)
 *       0x30        the core: 0 PicoRV32, 1 VexRiscv (read only)
 *   anything else                      m_axi (loads: one single-beat read)
 *
 * Timing: local memory, window and control page are read with the core's look-ahead
 * address (mem_la_addr, a cycle before mem_valid), so a local load or store is answered
 * in the cycle mem_valid rises (PicoRV32's fastest interface, ~4.1 cycles per instruction);
 * an m_axi access is answered the cycle after its B or R handshake.
 */

`default_nettype none

module pp_riscv #
(
    // Local memory in bytes (program + data + stack), a power of two >= 1024
    parameter MEM_BYTES = 16384,
    // $readmemh file of the local memory (one 32-bit word per line); "" : all zero
    parameter MEM_INIT = "",
    // Window size in bytes, a power of two >= 16
    parameter WIN_BYTES = 4096,
    // Global byte address of the window (WIN_BYTES aligned)
    parameter [31:0] WIN_BASE = 32'h4000_0000,
    // Byte address of the control page (not in the global address space)
    parameter [31:0] CTRL_BASE = 32'h1000_0000,
    // The clock in MHz (the microsecond counter of the control page), >= 1
    parameter CLOCK_MHZ = 100,
    // The core: "picorv32" (PicoRV32, RV32I, one memory port, ~4 cycles per instruction) or
    // "vexriscv" (VexRiscv_Lite of pythondata-cpu-vexriscv: RV32IM, 5-stage pipeline, 2 KiB
    // instruction cache filled by bursts from the local memory, a Wishbone data bus)
    parameter CPU = "picorv32",
    // AXI ID width of the window's slave port
    parameter ID_WIDTH = 4,
    // AXI ID width of the master
    parameter M_ID_WIDTH = 4,
    // AWID/ARID of the master
    parameter AXI_ID = 0
)
(
    input  wire                    clk,
    input  wire                    rst,

    // the window (AXI4 slave: 32-bit data; only the window's low address bits are used)
    input  wire [ID_WIDTH-1:0]     s_axi_awid,
    input  wire [31:0]             s_axi_awaddr,
    input  wire [7:0]              s_axi_awlen,
    input  wire [2:0]              s_axi_awsize,
    input  wire [1:0]              s_axi_awburst,
    input  wire                    s_axi_awlock,
    input  wire [3:0]              s_axi_awcache,
    input  wire [2:0]              s_axi_awprot,
    input  wire                    s_axi_awvalid,
    output wire                    s_axi_awready,
    input  wire [31:0]             s_axi_wdata,
    input  wire [3:0]              s_axi_wstrb,
    input  wire                    s_axi_wlast,
    input  wire                    s_axi_wvalid,
    output wire                    s_axi_wready,
    output wire [ID_WIDTH-1:0]     s_axi_bid,
    output wire [1:0]              s_axi_bresp,
    output wire                    s_axi_bvalid,
    input  wire                    s_axi_bready,
    input  wire [ID_WIDTH-1:0]     s_axi_arid,
    input  wire [31:0]             s_axi_araddr,
    input  wire [7:0]              s_axi_arlen,
    input  wire [2:0]              s_axi_arsize,
    input  wire [1:0]              s_axi_arburst,
    input  wire                    s_axi_arlock,
    input  wire [3:0]              s_axi_arcache,
    input  wire [2:0]              s_axi_arprot,
    input  wire                    s_axi_arvalid,
    output wire                    s_axi_arready,
    output wire [ID_WIDTH-1:0]     s_axi_rid,
    output wire [31:0]             s_axi_rdata,
    output wire [1:0]              s_axi_rresp,
    output wire                    s_axi_rlast,
    output wire                    s_axi_rvalid,
    input  wire                    s_axi_rready,

    // the core's calls (AXI4 master, 32-bit, single beats)
    output wire [M_ID_WIDTH-1:0]   m_axi_awid,
    output reg  [31:0]             m_axi_awaddr,
    output wire [7:0]              m_axi_awlen,
    output wire [2:0]              m_axi_awsize,
    output wire [1:0]              m_axi_awburst,
    output wire                    m_axi_awlock,
    output wire [3:0]              m_axi_awcache,
    output wire [2:0]              m_axi_awprot,
    output reg                     m_axi_awvalid,
    input  wire                    m_axi_awready,
    output reg  [31:0]             m_axi_wdata,
    output reg  [3:0]              m_axi_wstrb,
    output wire                    m_axi_wlast,
    output reg                     m_axi_wvalid,
    input  wire                    m_axi_wready,
    input  wire [M_ID_WIDTH-1:0]   m_axi_bid,
    input  wire [1:0]              m_axi_bresp,
    input  wire                    m_axi_bvalid,
    output wire                    m_axi_bready,
    output wire [M_ID_WIDTH-1:0]   m_axi_arid,
    output wire [31:0]             m_axi_araddr,
    output wire [7:0]              m_axi_arlen,
    output wire [2:0]              m_axi_arsize,
    output wire [1:0]              m_axi_arburst,
    output wire                    m_axi_arlock,
    output wire [3:0]              m_axi_arcache,
    output wire [2:0]              m_axi_arprot,
    output reg                     m_axi_arvalid,
    input  wire                    m_axi_arready,
    input  wire [M_ID_WIDTH-1:0]   m_axi_rid,
    input  wire [31:0]             m_axi_rdata,
    input  wire [1:0]              m_axi_rresp,
    input  wire                    m_axi_rlast,
    input  wire                    m_axi_rvalid,
    output wire                    m_axi_rready,

    // the core stopped on a trap (illegal instruction, misaligned access): held until rst
    output wire                    trap
);

    localparam WIN_AW = $clog2(WIN_BYTES);
    localparam MEM_AW = $clog2(MEM_BYTES);
    localparam MEM_WORDS = MEM_BYTES / 4;
    localparam WIN_WORDS = WIN_BYTES / 4;

    // ------------------------------------------------------------------ the core
    // The data side of either core, as PicoRV32's native interface: a request (mem_valid,
    // mem_addr, mem_wdata, mem_wstrb; 0 strobes: a load) held until mem_ready, whose read
    // data (mem_rdata) comes with mem_ready; mem_la_addr is the address a cycle early (the
    // local memories are read with it, so a local access is answered at once).
    wire        mem_valid;
    wire [31:0] mem_la_addr;
    reg         mem_ready;
    wire [31:0] mem_addr;
    wire [31:0] mem_wdata;
    wire [3:0]  mem_wstrb;
    reg  [31:0] mem_rdata;
    wire        core_trap;
    reg         halted;      // the program wrote the control page's halt word (0x28)
    reg  [31:0] mem [0:MEM_WORDS-1];   // the local memory (below)
    assign trap = core_trap || halted;

    generate if (CPU == "vexriscv") begin : g_vex
        // VexRiscv_Lite: the instruction cache refills a 32-byte line by an incrementing
        // Wishbone burst from port A of the local memory (one word per cycle); the data bus
        // is Wishbone classic: a store is answered in the cycle it is presented, a load the
        // cycle after (its word read then, as PicoRV32's look-ahead read)
        wire        i_cyc, i_stb, i_we;
        wire [29:0] i_adr;
        wire [31:0] i_dat_mosi;
        wire [3:0]  i_sel;
        wire [2:0]  i_cti, d_cti;
        wire [1:0]  i_bte, d_bte;
        reg         i_ack;
        reg  [31:0] i_q;
        wire        d_cyc, d_stb, d_we;
        wire [29:0] d_adr;
        wire [3:0]  d_sel;
        reg         d_phase;     // a load's second cycle (its word was read in the first)
        VexRiscv core (
            .externalResetVector(32'h0000_0000), .timerInterrupt(1'b0), .softwareInterrupt(1'b0),
            .externalInterruptArray(32'd0),
            .iBusWishbone_CYC(i_cyc), .iBusWishbone_STB(i_stb), .iBusWishbone_ACK(i_ack),
            .iBusWishbone_WE(i_we), .iBusWishbone_ADR(i_adr), .iBusWishbone_DAT_MISO(i_q),
            .iBusWishbone_DAT_MOSI(i_dat_mosi), .iBusWishbone_SEL(i_sel), .iBusWishbone_ERR(1'b0),
            .iBusWishbone_CTI(i_cti), .iBusWishbone_BTE(i_bte),
            .dBusWishbone_CYC(d_cyc), .dBusWishbone_STB(d_stb), .dBusWishbone_ACK(mem_ready),
            .dBusWishbone_WE(d_we), .dBusWishbone_ADR(d_adr), .dBusWishbone_DAT_MISO(mem_rdata),
            .dBusWishbone_DAT_MOSI(mem_wdata), .dBusWishbone_SEL(d_sel), .dBusWishbone_ERR(1'b0),
            .dBusWishbone_CTI(d_cti), .dBusWishbone_BTE(d_bte),
            .clk(clk), .reset(rst)
        );
        assign mem_addr = {d_adr, 2'b00};
        assign mem_la_addr = mem_addr;
        assign mem_wstrb = d_we ? d_sel : 4'd0;
        assign mem_valid = d_stb && (d_we || d_phase);
        assign core_trap = 1'b0;
        always @(posedge clk) begin
            if (rst)
                d_phase <= 1'b0;
            else
                d_phase <= d_stb && !d_we && !mem_ready;
        end
        // port A of the local memory: the instruction cache's bursts (CTI 010, then 111 at
        // the line's last word): the next word is read while the current one is answered
        wire              i_more = i_ack && i_cti == 3'b010;
        wire [MEM_AW-3:0] i_word = i_more ? i_adr[MEM_AW-3:0] + 1'b1 : i_adr[MEM_AW-3:0];
        always @(posedge clk) begin
            if (rst)
                i_ack <= 1'b0;
            else
                i_ack <= i_cyc && i_stb && (!i_ack || i_cti == 3'b010);
            i_q <= mem[i_word];
        end
        wire unused_vex = &{1'b0, i_we, i_dat_mosi, i_sel, i_bte, d_cti, d_bte, d_cyc,
                            i_adr[29:MEM_AW-2]};
    end else begin : g_picorv32
        wire mem_instr;
        picorv32 #(
            .ENABLE_COUNTERS(1),
            .ENABLE_COUNTERS64(1),
            .BARREL_SHIFTER(1),
            .ENABLE_MUL(0),
            .ENABLE_DIV(0),
            .ENABLE_IRQ(0),
            .PROGADDR_RESET(32'h0000_0000),
            .STACKADDR(MEM_BYTES)
        ) core (
            .clk(clk), .resetn(!rst), .trap(core_trap),
            .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
            .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
            /* verilator lint_off PINCONNECTEMPTY */
            .mem_la_read(), .mem_la_write(), .mem_la_addr(mem_la_addr), .mem_la_wdata(), .mem_la_wstrb(),
            .pcpi_valid(), .pcpi_insn(), .pcpi_rs1(), .pcpi_rs2(),
            .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
            .irq(32'd0), .eoi(),
            .trace_valid(), .trace_data()
            /* verilator lint_on PINCONNECTEMPTY */
        );
        wire unused_pico = &{1'b0, mem_instr};
    end endgenerate

    // ------------------------------------------------------------------ address decode
    // with VexRiscv, the window and the control page answer at their address with bit 31 set
    // too: its data cache's uncached range (the platform layer reads them there)
    localparam [31:0] IO_IGNORE = CPU == "vexriscv" ? 32'h8000_0000 : 32'h0000_0000;
    wire [31:0] io_addr = mem_addr & ~IO_IGNORE;
    wire sel_mem  = mem_addr[31:MEM_AW] == {(32-MEM_AW){1'b0}};
    wire sel_win  = io_addr[31:WIN_AW] == (WIN_BASE[31:WIN_AW] & ~IO_IGNORE[31:WIN_AW]);
    wire sel_ctrl = io_addr[31:6] == (CTRL_BASE[31:6] & ~IO_IGNORE[31:6]);
    wire sel_ext  = !sel_mem && !sel_win && !sel_ctrl;
    wire local_go = mem_valid && !sel_ext;   // answered in this cycle
    reg  x_ready;                            // an m_axi access is answered (registered)
    wire start    = mem_valid && !x_ready;

    // ------------------------------------------------------------------ local memory
    // MEM_INIT is read from the simulator's working directory, or from the folder the macro
    // PP_RISCV_MEM_DIR names (a string: the simulated board's overlay folder, where
    // pushpush.pynq.write_sim_overlay puts each <component>.mem; in Vivado: a read_mem project file)
`ifdef PP_RISCV_MEM_DIR
    localparam MEM_FILE = {`PP_RISCV_MEM_DIR, "/", MEM_INIT};
`else
    localparam MEM_FILE = MEM_INIT;
`endif
    integer i;
    initial begin
        for (i = 0; i < MEM_WORDS; i = i + 1)
            mem[i] = 32'd0;
        if (MEM_INIT != "")
            $readmemh(MEM_FILE, mem);
    end
    wire [MEM_AW-3:0] mem_word = mem_addr[MEM_AW-1:2];
    reg  [31:0] mem_q;
    always @(posedge clk) begin
        if (local_go && sel_mem) begin
            if (mem_wstrb[0]) mem[mem_word][7:0]   <= mem_wdata[7:0];
            if (mem_wstrb[1]) mem[mem_word][15:8]  <= mem_wdata[15:8];
            if (mem_wstrb[2]) mem[mem_word][23:16] <= mem_wdata[23:16];
            if (mem_wstrb[3]) mem[mem_word][31:24] <= mem_wdata[31:24];
        end
        mem_q <= mem[mem_la_addr[MEM_AW-1:2]];
    end

    // ------------------------------------------------------------------ window memory
    // A true dual-port RAM in the form synthesis infers as one (one always block per port,
    // one address per port): port A the AXI slave's writes (below), port B the core's. Port
    // B's address is the core's write address in the cycle of a store into the window and
    // its look-ahead address otherwise: PicoRV32 drives a look-ahead only while mem_valid is
    // low, and a store is done in a cycle mem_valid is high, so the read it displaces is one
    // nobody uses. (With the read at mem_la_addr and the write at mem_addr, port B would be
    // two addresses: three ports in all, which no BRAM has; Yosys then made the window
    // flip-flops: 55,616 LUT for the component.)
    reg [31:0] win [0:WIN_WORDS-1];
    initial begin
        for (i = 0; i < WIN_WORDS; i = i + 1)
            win[i] = 32'd0;
    end
    wire              win_we = local_go && sel_win && mem_wstrb != 4'd0;
    wire [WIN_AW-3:0] win_b  = win_we ? mem_addr[WIN_AW-1:2] : mem_la_addr[WIN_AW-1:2];
    reg  [31:0] win_q;
    always @(posedge clk) begin
        if (win_we) begin
            if (mem_wstrb[0]) win[win_b][7:0]   <= mem_wdata[7:0];
            if (mem_wstrb[1]) win[win_b][15:8]  <= mem_wdata[15:8];
            if (mem_wstrb[2]) win[win_b][23:16] <= mem_wdata[23:16];
            if (mem_wstrb[3]) win[win_b][31:24] <= mem_wdata[31:24];
        end
        win_q <= win[win_b];
    end

    // The AXI slave: the front end (cores/axi_slave), one write and one read burst at a time.
    // Writes: INCR bursts of 32-bit beats; other burst types and sizes answer SLVERR with
    // nothing written. Reads: single beats or bursts, each beat the counter at its offset,
    // one word further per beat whatever the burst (INCR_ONLY, FULL_BEATS: a word step).
    wire              w_fire;
    wire [WIN_AW-1:0] w_addr;
    wire              w_bad;
    wire [31:0]       w_data;
    wire [3:0]        w_strb;
    wire [WIN_AW-1:0] r_addr;
    wire [31:0]       r_value;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              w_ovf, w_last, r_en, r_ovf, r_bad;
    wire [2:0]        w_size, r_size;
    /* verilator lint_on UNUSEDSIGNAL */
    pp_axi_slave #(
        .DATA_WIDTH(32), .ADDR_WIDTH(32), .ID_WIDTH(ID_WIDTH),
        .WR_ADDR_BITS(WIN_AW), .RD_ADDR_BITS(WIN_AW), .R_REG(1), .SIZE_MIN(2), .SIZE_MAX(2),
        .INCR_ONLY(1), .FULL_BEATS(1)
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
        .wr_en(w_fire), .wr_addr(w_addr), .wr_ovf(w_ovf), .wr_size(w_size), .wr_bad(w_bad),
        .wr_data(w_data), .wr_strb(w_strb), .wr_last(w_last), .wr_ready(1'b1), .wr_err(w_bad),
        .wr_resp_valid(1'b0), .wr_resp(2'b00),
        .rd_en(r_en), .rd_addr(r_addr), .rd_ovf(r_ovf), .rd_size(r_size), .rd_bad(r_bad),
        .rd_data(r_value), .rd_err(1'b0), .rd_zero(1'b0)
    );
    // port A of the window: the AXI slave's writes
    wire [WIN_AW-3:0] aw_word = w_addr[WIN_AW-1:2];
    always @(posedge clk) begin
        if (w_fire && !w_bad) begin
            if (w_strb[0]) win[aw_word][7:0]   <= w_data[7:0];
            if (w_strb[1]) win[aw_word][15:8]  <= w_data[15:8];
            if (w_strb[2]) win[aw_word][23:16] <= w_data[23:16];
            if (w_strb[3]) win[aw_word][31:24] <= w_data[31:24];
        end
    end

    // ------------------------------------------------------------------ control page
    reg [31:0] ctr [0:3];
    reg [31:0] slverrs;
    reg [31:0] decerrs;
    reg [1:0]  errs;     // error responses since the error word was last read (bit 0 SLVERR, 1 DECERR)
    // the error word is read (and cleared) in the cycle its load is answered; the master is
    // idle then (the core waits for each access), so no response is lost between
    wire errs_read = local_go && sel_ctrl && mem_addr[5:2] == 4'd11 && mem_wstrb == 4'd0;
    reg [63:0] usecs;
    reg [63:0] cycles;
    reg [15:0] prescale;
    reg [31:0] ctrl_q;
    always @(posedge clk) begin
        if (rst) begin
            ctr[0] <= 32'd0; ctr[1] <= 32'd0; ctr[2] <= 32'd0; ctr[3] <= 32'd0;
            usecs <= 64'd0;
            cycles <= 64'd0;
            prescale <= 16'd0;
            halted <= 1'b0;
        end else begin
            cycles <= cycles + 1'b1;
            if (prescale == CLOCK_MHZ[15:0] - 16'd1) begin
                prescale <= 16'd0;
                usecs <= usecs + 1'b1;
            end else begin
                prescale <= prescale + 16'd1;
            end
            if (local_go && sel_ctrl && mem_addr[5:4] == 2'b00 && mem_wstrb == 4'hF)
                ctr[mem_addr[3:2]] <= mem_wdata;
            if (local_go && sel_ctrl && mem_addr[5:2] == 4'd10 && mem_wstrb != 4'd0)
                halted <= 1'b1;
        end
        case (mem_la_addr[5:2])
            4'd0, 4'd1, 4'd2, 4'd3: ctrl_q <= ctr[mem_la_addr[3:2]];
            4'd4: ctrl_q <= slverrs;
            4'd5: ctrl_q <= decerrs;
            4'd6: ctrl_q <= usecs[31:0];
            4'd7: ctrl_q <= usecs[63:32];
            4'd8: ctrl_q <= cycles[31:0];
            4'd9: ctrl_q <= cycles[63:32];
            4'd11: ctrl_q <= {30'd0, errs};
            4'd12: ctrl_q <= {31'd0, CPU == "vexriscv"};
            default: ctrl_q <= 32'd0;
        endcase
    end

    // AXI slave reads: each beat the counter at its offset (the front end registers it)
    wire [WIN_AW-3:0] r_word = r_addr[WIN_AW-1:2];
    assign r_value = r_word < 4 ? ctr[r_word[1:0]] : 32'd0;

    // ------------------------------------------------------------------ the master
    localparam X_IDLE = 2'd0, X_WRITE = 2'd1, X_READ = 2'd2;
    reg [1:0]  x_state;
    reg [31:0] x_rdata;
    assign m_axi_awid = AXI_ID[M_ID_WIDTH-1:0];
    assign m_axi_awlen = 8'd0;
    assign m_axi_awsize = 3'd2;
    assign m_axi_awburst = 2'b01;
    assign m_axi_awlock = 1'b0;
    assign m_axi_awcache = 4'b0011;
    assign m_axi_awprot = 3'b000;
    assign m_axi_wlast = 1'b1;
    assign m_axi_bready = x_state == X_WRITE && !m_axi_awvalid && !m_axi_wvalid;
    assign m_axi_arid = AXI_ID[M_ID_WIDTH-1:0];
    assign m_axi_araddr = m_axi_awaddr;
    assign m_axi_arlen = 8'd0;
    assign m_axi_arsize = 3'd2;
    assign m_axi_arburst = 2'b01;
    assign m_axi_arlock = 1'b0;
    assign m_axi_arcache = 4'b0011;
    assign m_axi_arprot = 3'b000;
    assign m_axi_rready = x_state == X_READ && !m_axi_arvalid;
    always @(posedge clk) begin
        if (rst) begin
            x_state <= X_IDLE;
            x_ready <= 1'b0;
            x_rdata <= 32'd0;
            m_axi_awaddr <= 32'd0;
            m_axi_awvalid <= 1'b0;
            m_axi_wvalid <= 1'b0;
            m_axi_wdata <= 32'd0;
            m_axi_wstrb <= 4'd0;
            m_axi_arvalid <= 1'b0;
            slverrs <= 32'd0;
            decerrs <= 32'd0;
            errs <= 2'b00;
        end else begin
            x_ready <= 1'b0;
            if (errs_read)
                errs <= 2'b00;
            case (x_state)
                X_IDLE:
                    if (start && sel_ext) begin
                        m_axi_awaddr <= {mem_addr[31:2], 2'b00};
                        if (mem_wstrb != 4'd0) begin
                            x_state <= X_WRITE;
                            m_axi_awvalid <= 1'b1;
                            m_axi_wvalid <= 1'b1;
                            m_axi_wdata <= mem_wdata;
                            m_axi_wstrb <= mem_wstrb;
                        end else begin
                            x_state <= X_READ;
                            m_axi_arvalid <= 1'b1;
                        end
                    end
                X_WRITE: begin
                    if (m_axi_awvalid && m_axi_awready) m_axi_awvalid <= 1'b0;
                    if (m_axi_wvalid && m_axi_wready) m_axi_wvalid <= 1'b0;
                    if (m_axi_bvalid && m_axi_bready) begin
                        x_state <= X_IDLE;
                        x_ready <= 1'b1;
                        if (m_axi_bresp == 2'b10 && slverrs != 32'hFFFF_FFFF)
                            slverrs <= slverrs + 1'b1;
                        if (m_axi_bresp == 2'b11 && decerrs != 32'hFFFF_FFFF)
                            decerrs <= decerrs + 1'b1;
                        if (m_axi_bresp == 2'b10) errs[0] <= 1'b1;
                        if (m_axi_bresp == 2'b11) errs[1] <= 1'b1;
                    end
                end
                X_READ: begin
                    if (m_axi_arvalid && m_axi_arready) m_axi_arvalid <= 1'b0;
                    if (m_axi_rvalid && m_axi_rready) begin
                        x_state <= X_IDLE;
                        x_ready <= 1'b1;
                        x_rdata <= m_axi_rdata;
                        if (m_axi_rresp == 2'b10 && slverrs != 32'hFFFF_FFFF)
                            slverrs <= slverrs + 1'b1;
                        if (m_axi_rresp == 2'b11 && decerrs != 32'hFFFF_FFFF)
                            decerrs <= decerrs + 1'b1;
                        if (m_axi_rresp == 2'b10) errs[0] <= 1'b1;
                        if (m_axi_rresp == 2'b11) errs[1] <= 1'b1;
                    end
                end
                default: x_state <= X_IDLE;
            endcase
        end
    end

    // ------------------------------------------------------------------ the core's answer
    // a local access in the cycle mem_valid rises (its word was read with the look-ahead
    // address), an m_axi access the cycle after its B or R handshake
    always @(*) begin
        mem_ready = local_go || x_ready;
        if (x_ready)
            mem_rdata = x_rdata;
        else if (sel_mem)
            mem_rdata = mem_q;
        else if (sel_win)
            mem_rdata = win_q;
        else
            mem_rdata = ctrl_q;
    end

    wire unused = &{1'b0, mem_la_addr[31:MEM_AW], mem_la_addr[1:0], io_addr[5:0],
                    m_axi_bid, m_axi_rid, m_axi_rlast, r_addr[1:0], w_addr[1:0],
                    mem_addr[1:0]};

endmodule

`default_nettype wire
