/*
 * worker_top: a hand-written model of the IP Vitis HLS would export for examples/hls_callback's
 * HLS component 'worker' (worker_top.cpp around worker_pp.hpp and apply.cpp). It is NOT Vitis
 * output (there is no Vitis HLS here): it has the ports Vitis HLS gives that top function
 * (UG1399: ap_ctrl_none, so no ap_start/ap_done; ap_rst_n, active low, as for designs with AXI4
 * interfaces; 'mem' as ap_memory: mem_address0 word address, mem_ce0, mem_we0, mem_d0, mem_q0
 * one cycle after the address; 'bus' as the m_axi bundle gmem with Vitis's signal names and
 * widths) and does what pp::serve_one does, one memory access per cycle:
 *   sweep the cep slots' trigger words (round robin); a call's arguments f and x are read, the
 *   trigger re-armed (0); a static slot's repeated SEQ is a duplicate (re-armed, not run);
 *   f(x) is called with ONE INCR burst of two beats (x, then the trigger naming the return
 *   slot VALUE_REP with the SEQ of the function-value site) as the memcpy of pp::burst makes
 *   it (UG1399, "AXI4 Master Interface": a burst per memcpy); the status at VALUE_REP + 1 is
 *   polled until it echoes that SEQ (another echo: a stray, cleared); then apply's result
 *   f(x) + 1 goes back in ONE burst of two beats (result, status echoing the call's SEQ) to
 *   the caller's rep; an error status from f, f == 0 or no reply in REPLY_POLLS polls makes
 *   the status CALLEE_RAISED (0x80000001, or BAD_FUNCTION from f == 0 forwarded as
 *   CALLEE_RAISED, as the C++ does) with result 0.
 * Parameters: the window layout worker_pp.hpp has (the linker's).
 */

`default_nettype none

module worker_top #
(
    parameter [31:0] BASE = 32'h43C0_0000,   // the window's global byte address (pp::BASE: the link's)
    parameter MEM_AW = 10,                   // log2 of pp::WORDS
    parameter CEPS = 3,                      // apply's cep slots: 3 words each (f, x, trigger)
    parameter STATICS = 2,                   // the first STATICS of them are static slots
    parameter [MEM_AW-1:0] VALUE_REP = 9,    // the function values' rep slot (result, status)
    parameter [31:0] REPLY_POLLS = 32'h4000_0000
)
(
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    output reg  [MEM_AW-1:0] mem_address0,
    output reg         mem_ce0,
    output reg         mem_we0,
    output reg  [31:0] mem_d0,
    input  wire [31:0] mem_q0,
    output reg         m_axi_gmem_AWVALID,
    input  wire        m_axi_gmem_AWREADY,
    output reg  [31:0] m_axi_gmem_AWADDR,
    output wire [0:0]  m_axi_gmem_AWID,
    output wire [7:0]  m_axi_gmem_AWLEN,
    output wire [2:0]  m_axi_gmem_AWSIZE,
    output wire [1:0]  m_axi_gmem_AWBURST,
    output wire [1:0]  m_axi_gmem_AWLOCK,
    output wire [3:0]  m_axi_gmem_AWCACHE,
    output wire [2:0]  m_axi_gmem_AWPROT,
    output wire [3:0]  m_axi_gmem_AWQOS,
    output wire [3:0]  m_axi_gmem_AWREGION,
    output wire [0:0]  m_axi_gmem_AWUSER,
    output reg         m_axi_gmem_WVALID,
    input  wire        m_axi_gmem_WREADY,
    output reg  [31:0] m_axi_gmem_WDATA,
    output wire [3:0]  m_axi_gmem_WSTRB,
    output reg         m_axi_gmem_WLAST,
    output wire [0:0]  m_axi_gmem_WID,
    output wire [0:0]  m_axi_gmem_WUSER,
    output wire        m_axi_gmem_ARVALID,
    input  wire        m_axi_gmem_ARREADY,
    output wire [31:0] m_axi_gmem_ARADDR,
    output wire [0:0]  m_axi_gmem_ARID,
    output wire [7:0]  m_axi_gmem_ARLEN,
    output wire [2:0]  m_axi_gmem_ARSIZE,
    output wire [1:0]  m_axi_gmem_ARBURST,
    output wire [1:0]  m_axi_gmem_ARLOCK,
    output wire [3:0]  m_axi_gmem_ARCACHE,
    output wire [2:0]  m_axi_gmem_ARPROT,
    output wire [3:0]  m_axi_gmem_ARQOS,
    output wire [3:0]  m_axi_gmem_ARREGION,
    output wire [0:0]  m_axi_gmem_ARUSER,
    input  wire        m_axi_gmem_RVALID,
    output wire        m_axi_gmem_RREADY,
    input  wire [31:0] m_axi_gmem_RDATA,
    input  wire        m_axi_gmem_RLAST,
    input  wire [0:0]  m_axi_gmem_RID,
    input  wire [0:0]  m_axi_gmem_RUSER,
    input  wire [1:0]  m_axi_gmem_RRESP,
    input  wire        m_axi_gmem_BVALID,
    output wire        m_axi_gmem_BREADY,
    input  wire [1:0]  m_axi_gmem_BRESP,
    input  wire [0:0]  m_axi_gmem_BID,
    input  wire [0:0]  m_axi_gmem_BUSER
);

localparam [31:0] SEQ_BIT = 32'h2, ONEWAY = 32'h1, ECHO = 32'h4000_0000, ERROR = 32'h8000_0000,
                  OK = 32'h1, CALLEE_RAISED = 32'h8000_0001;

// the states: a memory read is an address cycle (R_*) then the data cycle that follows it
localparam [4:0] S_SWEEP = 5'd0,  S_TRIG = 5'd1,  S_F = 5'd2,     S_X = 5'd3,     S_REARM = 5'd4,
                 S_STRAY = 5'd5,  S_STRAY_D = 5'd6, S_CALL = 5'd7, S_CALL_B = 5'd8, S_POLL = 5'd9,
                 S_POLL_D = 5'd10, S_RES = 5'd11, S_RES_D = 5'd12, S_RET = 5'd13, S_REPLY = 5'd14,
                 S_REPLY_B = 5'd15, S_NEXT = 5'd16;

reg [4:0]  state;
reg [7:0]  k;           // the cep slot under the sweep
reg [MEM_AW-1:0] first; // its first word (3 words a slot)
reg [31:0] trig, f, x, y, status;
reg        site_seq;    // the function-value site's SEQ
reg [511:0] last;       // 2 bits per slot k: a static slot's last SEQ + 1 (0: none since reset)
reg [31:0] polls;
reg        beat;        // the burst's beat under way (0: first, 1: last)

localparam [MEM_AW-1:0] VALUE_ST = VALUE_REP + 1'b1;  // the rep slot's status word
localparam [7:0] N_CEPS = CEPS, N_STATICS = STATICS;
localparam [MEM_AW-1:0] ONE = 1, TWO = 2, THREE = 3;
wire              seq = (trig & SEQ_BIT) != 32'd0;

assign m_axi_gmem_AWID = 1'b0;
assign m_axi_gmem_AWLEN = 8'd1;           // two beats: a call (x, trigger), a return (result, status)
assign m_axi_gmem_AWSIZE = 3'd2;
assign m_axi_gmem_AWBURST = 2'b01;        // INCR
assign m_axi_gmem_AWLOCK = 2'b00;
assign m_axi_gmem_AWCACHE = 4'b0011;
assign m_axi_gmem_AWPROT = 3'b000;
assign m_axi_gmem_AWQOS = 4'd0;
assign m_axi_gmem_AWREGION = 4'd0;
assign m_axi_gmem_AWUSER = 1'b0;
assign m_axi_gmem_WSTRB = 4'hF;
assign m_axi_gmem_WID = 1'b0;
assign m_axi_gmem_WUSER = 1'b0;
assign m_axi_gmem_ARVALID = 1'b0;         // apply reads nothing over the bus
assign m_axi_gmem_ARADDR = 32'd0;
assign m_axi_gmem_ARID = 1'b0;
assign m_axi_gmem_ARLEN = 8'd0;
assign m_axi_gmem_ARSIZE = 3'd2;
assign m_axi_gmem_ARBURST = 2'b01;
assign m_axi_gmem_ARLOCK = 2'b00;
assign m_axi_gmem_ARCACHE = 4'b0011;
assign m_axi_gmem_ARPROT = 3'b000;
assign m_axi_gmem_ARQOS = 4'd0;
assign m_axi_gmem_ARREGION = 4'd0;
assign m_axi_gmem_ARUSER = 1'b0;
assign m_axi_gmem_RREADY = 1'b1;
assign m_axi_gmem_BREADY = state == S_CALL_B || state == S_REPLY_B;

always @(posedge ap_clk) begin
    mem_ce0 <= 1'b0;
    mem_we0 <= 1'b0;
    if (!ap_rst_n) begin
        state <= S_SWEEP;
        k <= 8'd0;
        first <= {MEM_AW{1'b0}};
        site_seq <= 1'b0;
        m_axi_gmem_AWVALID <= 1'b0;
        m_axi_gmem_WVALID <= 1'b0;
        m_axi_gmem_WLAST <= 1'b0;
        m_axi_gmem_AWADDR <= 32'd0;
        m_axi_gmem_WDATA <= 32'd0;
        mem_address0 <= {MEM_AW{1'b0}};
        mem_d0 <= 32'd0;
        trig <= 32'd0; f <= 32'd0; x <= 32'd0; y <= 32'd0; status <= 32'd0; polls <= 32'd0;
        beat <= 1'b0;
        last <= 512'd0;
    end else begin
        case (state)
            S_SWEEP: begin                 // read slot k's trigger
                mem_address0 <= first + TWO;
                mem_ce0 <= 1'b1;
                state <= S_TRIG;
            end
            S_TRIG: begin                  // (the read's cycle) then its word
                if (mem_ce0) begin
                    state <= S_TRIG;
                end else if (mem_q0 == 32'd0) begin
                    state <= S_NEXT;
                end else begin
                    trig <= mem_q0;
                    mem_address0 <= first;
                    mem_ce0 <= 1'b1;
                    state <= S_F;
                end
            end
            S_F: if (!mem_ce0) begin
                f <= mem_q0;
                mem_address0 <= first + ONE;
                mem_ce0 <= 1'b1;
                state <= S_X;
            end
            S_X: if (!mem_ce0) begin
                x <= mem_q0;
                mem_address0 <= first + TWO;  // re-arm: the slot may take the next call
                mem_d0 <= 32'd0;
                mem_ce0 <= 1'b1;
                mem_we0 <= 1'b1;
                state <= S_REARM;
            end
            S_REARM: begin
                status <= 32'd0;
                if (k < N_STATICS && last[{k, 1'b0} +: 2] == {1'b0, seq} + 2'd1) begin
                    state <= S_NEXT;        // a duplicate: not run, no answer
                end else begin
                    if (k < N_STATICS)
                        last[{k, 1'b0} +: 2] <= {1'b0, seq} + 2'd1;
                    if (f == 32'd0) begin   // no function here
                        status <= CALLEE_RAISED;
                        y <= 32'd0;
                        state <= S_REPLY;
                    end else begin
                        mem_address0 <= VALUE_ST;
                        mem_ce0 <= 1'b1;
                        state <= S_STRAY;
                    end
                end
            end
            S_STRAY: if (!mem_ce0) begin   // a reply nobody waits for: clear it
                if (mem_q0 != 32'd0) begin
                    mem_address0 <= VALUE_ST;
                    mem_d0 <= 32'd0;
                    mem_ce0 <= 1'b1;
                    mem_we0 <= 1'b1;
                end
                state <= S_STRAY_D;
            end
            S_STRAY_D: begin               // the call: one burst (x, trigger)
                site_seq <= !site_seq;
                m_axi_gmem_AWADDR <= f;
                m_axi_gmem_AWVALID <= 1'b1;
                m_axi_gmem_WDATA <= x;
                m_axi_gmem_WLAST <= 1'b0;
                m_axi_gmem_WVALID <= 1'b1;
                beat <= 1'b0;
                state <= S_CALL;
            end
            S_POLL: begin
                mem_address0 <= VALUE_ST;
                mem_ce0 <= 1'b1;
                state <= S_POLL_D;
            end
            S_POLL_D: if (!mem_ce0) begin
                if (mem_q0 == 32'd0) begin
                    polls <= polls + 32'd1;
                    if (polls == REPLY_POLLS) begin  // no reply: the call timed out
                        status <= CALLEE_RAISED;
                        y <= 32'd0;
                        state <= S_REPLY;
                    end else begin
                        state <= S_POLL;
                    end
                end else if (((mem_q0 & ECHO) != 32'd0) != site_seq) begin
                    mem_address0 <= VALUE_ST;     // another call's reply: a stray
                    mem_d0 <= 32'd0;
                    mem_ce0 <= 1'b1;
                    mem_we0 <= 1'b1;
                    state <= S_POLL;
                end else begin
                    status <= (mem_q0 & ERROR) != 32'd0 ? CALLEE_RAISED : 32'd0;
                    mem_address0 <= VALUE_REP;
                    mem_ce0 <= 1'b1;
                    state <= S_RES;
                end
            end
            S_RES: if (!mem_ce0) begin
                y <= status != 32'd0 ? 32'd0 : mem_q0 + 32'd1;   // apply: f(x) + 1
                mem_address0 <= VALUE_ST;                  // release the rep slot
                mem_d0 <= 32'd0;
                mem_ce0 <= 1'b1;
                mem_we0 <= 1'b1;
                state <= S_RES_D;
            end
            S_RES_D: state <= S_REPLY;
            S_REPLY: begin
                if ((trig & ONEWAY) != 32'd0) begin
                    state <= S_NEXT;
                end else begin          // the return: one burst (result, status)
                    m_axi_gmem_AWADDR <= {trig[31:2], 2'b00};
                    m_axi_gmem_AWVALID <= 1'b1;
                    m_axi_gmem_WDATA <= y;
                    m_axi_gmem_WLAST <= 1'b0;
                    m_axi_gmem_WVALID <= 1'b1;
                    beat <= 1'b0;
                    state <= S_RET;
                end
            end
            S_NEXT: begin
                k <= k + 8'd1 == N_CEPS ? 8'd0 : k + 8'd1;
                first <= k + 8'd1 == N_CEPS ? {MEM_AW{1'b0}} : first + THREE;
                state <= S_SWEEP;
            end
            default: begin end
        endcase

        // the two bursts: AW once (its handshake may come after the W beats), W two beats, then B
        if (m_axi_gmem_AWVALID && m_axi_gmem_AWREADY)
            m_axi_gmem_AWVALID <= 1'b0;
        if (state == S_CALL || state == S_RET) begin
            if (m_axi_gmem_WVALID && m_axi_gmem_WREADY) begin
                if (!beat) begin
                    beat <= 1'b1;
                    m_axi_gmem_WLAST <= 1'b1;
                    if (state == S_CALL)
                        m_axi_gmem_WDATA <= (((BASE + {{(32-MEM_AW-2){1'b0}}, VALUE_REP, 2'b00}) & ~32'h3)
                                             | (site_seq ? SEQ_BIT : 32'd0));
                    else
                        m_axi_gmem_WDATA <= (status != 32'd0 ? status : OK) | (seq ? ECHO : 32'd0);
                end else begin
                    m_axi_gmem_WVALID <= 1'b0;
                    m_axi_gmem_WLAST <= 1'b0;
                    state <= state == S_CALL ? S_CALL_B : S_REPLY_B;
                end
            end
        end
        if (m_axi_gmem_BVALID && m_axi_gmem_BREADY && !m_axi_gmem_AWVALID) begin
            if (state == S_CALL_B) begin
                polls <= 32'd0;
                if (m_axi_gmem_BRESP != 2'b00) begin   // the call's write failed
                    status <= CALLEE_RAISED;
                    y <= 32'd0;
                    state <= S_REPLY;
                end else begin
                    state <= S_POLL;
                end
            end else begin
                state <= S_NEXT;
            end
        end
    end
end

wire unused = &{1'b0, m_axi_gmem_RVALID, m_axi_gmem_RDATA, m_axi_gmem_RLAST, m_axi_gmem_RID,
                m_axi_gmem_RUSER, m_axi_gmem_RRESP, m_axi_gmem_BID, m_axi_gmem_BUSER, m_axi_gmem_ARREADY};

endmodule

`default_nettype wire
