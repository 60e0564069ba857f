/*
 * pushpush: the simulated board's GP0 master (pp_sim_gp0) - simulation only
 *
 * The ARM's M_AXI_GP0 port of the simulated PYNQ-Z1, as an AXI4 master in HDL, so the
 * simulator runs the bus protocol itself and Python (pushpush.simboard.hdl) is woken once per
 * command, not on every clock edge. A command is set up by writing the buffers and the
 * cmd_* inputs through VPI and then flipping cmd_toggle; done_toggle flips when it is over,
 * with its outcome in done_*.
 *
 * Commands (cmd_op):
 *   0 WRITE_BURST   one INCR burst of cmd_len+1 beats at cmd_addr (wbuf/wstrb[0..cmd_len]);
 *                   done_resp is its BRESP
 *   1 WRITE_SINGLES cmd_len+1 single-beat 32-bit writes (AWSIZE 2), word i at byte address
 *                   cmd_addr + 4*i in beat wbuf[i] (its lanes in wstrb[i]), one after the
 *                   other (the next starts after the previous one's response, as the ARM's
 *                   strongly ordered stores reach the PL); the first that gets
 *                   SLVERR/DECERR ends the command: done_resp is that response and
 *                   done_beats how many beats were written before it
 *   2 READ_BURST    one INCR burst read of cmd_len+1 beats into rbuf; done_resp is the worst
 *                   RRESP
 * For bursts cmd_addr is aligned to DATA_WIDTH/8 (the Python side splits bursts at 4 KiB
 * and 256 beats and sets byte strobes for partial words).
 *
 * Nothing hangs: when no handshake happens for TIMEOUT cycles the command ends with
 * done_timeout = 1 (the Python side reports which channel was stuck and stops).
 *
 * Latency: AW and W (or AR) are valid the cycle after cmd_toggle flips; done_toggle flips
 * in the cycle after the B handshake (the last R beat).
 */

`default_nettype none

module pp_sim_gp0 #
(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter ID_WIDTH = 12,
    // cycles without any handshake before a command gives up (>= 1)
    parameter TIMEOUT = 1000000
)
(
    input  wire                      clk,
    input  wire                      rst,

    /*
     * Command (written through VPI by pushpush.simboard.hdl)
     */
    input  wire                      cmd_toggle,
    input  wire [1:0]                cmd_op,
    input  wire [ADDR_WIDTH-1:0]     cmd_addr,
    input  wire [7:0]                cmd_len,
    output reg                       done_toggle /* verilator public_flat_rw */,
    output reg  [1:0]                done_resp /* verilator public_flat_rw */,
    output reg  [8:0]                done_beats /* verilator public_flat_rw */,
    output reg                       done_timeout /* verilator public_flat_rw */,
    output reg  [2:0]                done_state /* verilator public_flat_rw */,

    /*
     * AXI master (the top's s_axi)
     */
    output wire [ID_WIDTH-1:0]       m_axi_awid,
    output reg  [ADDR_WIDTH-1:0]     m_axi_awaddr,
    output reg  [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output reg                       m_axi_awvalid,
    input  wire                      m_axi_awready,
    output reg  [DATA_WIDTH-1:0]     m_axi_wdata,
    output reg  [DATA_WIDTH/8-1:0]   m_axi_wstrb,
    output reg                       m_axi_wlast,
    output reg                       m_axi_wvalid,
    input  wire                      m_axi_wready,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ID_WIDTH-1:0]       m_axi_bid,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    output reg                       m_axi_bready,
    output wire [ID_WIDTH-1:0]       m_axi_arid,
    output reg  [ADDR_WIDTH-1:0]     m_axi_araddr,
    output reg  [7:0]                m_axi_arlen,
    output wire [2:0]                m_axi_arsize,
    output wire [1:0]                m_axi_arburst,
    output wire                      m_axi_arlock,
    output wire [3:0]                m_axi_arcache,
    output wire [2:0]                m_axi_arprot,
    output reg                       m_axi_arvalid,
    input  wire                      m_axi_arready,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ID_WIDTH-1:0]       m_axi_rid,
    input  wire                      m_axi_rlast,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [DATA_WIDTH-1:0]     m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rvalid,
    output reg                       m_axi_rready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam [2:0] SIZE = (STRB_WIDTH == 1) ? 3'd0 : (STRB_WIDTH == 2) ? 3'd1 :
                        (STRB_WIDTH == 4) ? 3'd2 : (STRB_WIDTH == 8) ? 3'd3 :
                        (STRB_WIDTH == 16) ? 3'd4 : (STRB_WIDTH == 32) ? 3'd5 :
                        (STRB_WIDTH == 64) ? 3'd6 : 3'd7;

localparam [1:0] OP_WRITE_BURST = 2'd0, OP_WRITE_SINGLES = 2'd1, OP_READ_BURST = 2'd2;
localparam [2:0] S_IDLE = 3'd0, S_WRITE = 3'd1, S_BRESP = 3'd2, S_READ = 3'd3, S_DONE = 3'd4;

// The command's data: written (wbuf, wstrb) and read (rbuf) by Python through VPI.
/* verilator lint_off UNDRIVEN */
reg [DATA_WIDTH-1:0]  wbuf  [0:255] /* verilator public_flat_rw */;
reg [STRB_WIDTH-1:0]  wstrb [0:255] /* verilator public_flat_rw */;
/* verilator lint_on UNDRIVEN */
reg [DATA_WIDTH-1:0]  rbuf  [0:255] /* verilator public_flat_rw */;

reg       seen_toggle;
reg [2:0] state;
reg [1:0] op;
reg [7:0] len;          // beats - 1 of the command
reg [7:0] beat;         // the beat being written / read
reg       aw_done;      // this burst's AW was taken
reg [31:0] idle_count;

assign m_axi_awid = {ID_WIDTH{1'b0}};
assign m_axi_awsize = (op == OP_WRITE_SINGLES) ? 3'd2 : SIZE;
assign m_axi_awburst = 2'b01;
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'b0011;
assign m_axi_awprot = 3'b000;
assign m_axi_arid = {ID_WIDTH{1'b0}};
assign m_axi_arsize = SIZE;
assign m_axi_arburst = 2'b01;
assign m_axi_arlock = 1'b0;
assign m_axi_arcache = 4'b0011;
assign m_axi_arprot = 3'b000;

wire handshake = (m_axi_awvalid && m_axi_awready) || (m_axi_wvalid && m_axi_wready) ||
                 (m_axi_bvalid && m_axi_bready) || (m_axi_arvalid && m_axi_arready) ||
                 (m_axi_rvalid && m_axi_rready);
wire w_last_taken = m_axi_wvalid && m_axi_wready && m_axi_wlast;
wire worse_r = m_axi_rresp > done_resp;

always @(posedge clk) begin
    if (rst) begin
        seen_toggle <= cmd_toggle;
        done_toggle <= 1'b0;
        done_resp <= 2'b00;
        done_beats <= 9'd0;
        done_timeout <= 1'b0;
        done_state <= S_IDLE;
        state <= S_IDLE;
        op <= OP_WRITE_BURST;
        len <= 8'd0;
        beat <= 8'd0;
        aw_done <= 1'b0;
        idle_count <= 32'd0;
        m_axi_awaddr <= {ADDR_WIDTH{1'b0}};
        m_axi_awlen <= 8'd0;
        m_axi_awvalid <= 1'b0;
        m_axi_wdata <= {DATA_WIDTH{1'b0}};
        m_axi_wstrb <= {STRB_WIDTH{1'b0}};
        m_axi_wlast <= 1'b0;
        m_axi_wvalid <= 1'b0;
        m_axi_bready <= 1'b0;
        m_axi_araddr <= {ADDR_WIDTH{1'b0}};
        m_axi_arlen <= 8'd0;
        m_axi_arvalid <= 1'b0;
        m_axi_rready <= 1'b0;
    end else begin
        if (state == S_IDLE || handshake)
            idle_count <= 32'd0;
        else
            idle_count <= idle_count + 32'd1;

        case (state)
        S_IDLE: begin
            if (cmd_toggle != seen_toggle) begin
                seen_toggle <= cmd_toggle;
                op <= cmd_op;
                len <= cmd_len;
                beat <= 8'd0;
                done_resp <= 2'b00;
                done_beats <= 9'd0;
                done_timeout <= 1'b0;
                if (cmd_op == OP_READ_BURST) begin
                    m_axi_araddr <= cmd_addr;
                    m_axi_arlen <= cmd_len;
                    m_axi_arvalid <= 1'b1;
                    m_axi_rready <= 1'b1;
                    state <= S_READ;
                end else begin
                    m_axi_awaddr <= cmd_addr;
                    m_axi_awlen <= (cmd_op == OP_WRITE_BURST) ? cmd_len : 8'd0;
                    m_axi_awvalid <= 1'b1;
                    aw_done <= 1'b0;
                    m_axi_wdata <= wbuf[0];
                    m_axi_wstrb <= wstrb[0];
                    m_axi_wlast <= (cmd_op != OP_WRITE_BURST) || (cmd_len == 8'd0);
                    m_axi_wvalid <= 1'b1;
                    state <= S_WRITE;
                end
            end
        end
        S_WRITE: begin
            if (m_axi_awvalid && m_axi_awready) begin
                m_axi_awvalid <= 1'b0;
                aw_done <= 1'b1;
            end
            if (m_axi_wvalid && m_axi_wready) begin
                if (m_axi_wlast) begin
                    m_axi_wvalid <= 1'b0;
                end else begin
                    m_axi_wdata <= wbuf[beat + 8'd1];
                    m_axi_wstrb <= wstrb[beat + 8'd1];
                    m_axi_wlast <= (beat + 8'd1 == len);
                end
                beat <= beat + 8'd1;
            end
            if ((aw_done || (m_axi_awvalid && m_axi_awready)) &&
                (!m_axi_wvalid || w_last_taken)) begin
                m_axi_bready <= 1'b1;
                state <= S_BRESP;
            end
        end
        S_BRESP: begin
            if (m_axi_bvalid && m_axi_bready) begin
                m_axi_bready <= 1'b0;
                if (op == OP_WRITE_SINGLES) begin
                    if (m_axi_bresp[1]) begin
                        done_resp <= m_axi_bresp;
                        state <= S_DONE;
                    end else begin
                        done_beats <= done_beats + 9'd1;
                        if (done_beats[7:0] == len) begin
                            state <= S_DONE;
                        end else begin
                            // the next word: its own single-beat write
                            m_axi_awaddr <= m_axi_awaddr + 4;
                            m_axi_awvalid <= 1'b1;
                            aw_done <= 1'b0;
                            m_axi_wdata <= wbuf[done_beats[7:0] + 8'd1];
                            m_axi_wstrb <= wstrb[done_beats[7:0] + 8'd1];
                            m_axi_wlast <= 1'b1;
                            m_axi_wvalid <= 1'b1;
                            state <= S_WRITE;
                        end
                    end
                end else begin
                    done_resp <= m_axi_bresp;
                    done_beats <= {1'b0, len} + 9'd1;
                    state <= S_DONE;
                end
            end
        end
        S_READ: begin
            if (m_axi_arvalid && m_axi_arready)
                m_axi_arvalid <= 1'b0;
            if (m_axi_rvalid && m_axi_rready) begin
                rbuf[beat] <= m_axi_rdata;
                if (worse_r)
                    done_resp <= m_axi_rresp;
                beat <= beat + 8'd1;
                done_beats <= done_beats + 9'd1;
                if (beat == len) begin
                    m_axi_rready <= 1'b0;
                    state <= S_DONE;
                end
            end
        end
        default: begin  // S_DONE
            done_toggle <= ~done_toggle;
            done_state <= S_IDLE;
            state <= S_IDLE;
        end
        endcase

        if (state != S_IDLE && state != S_DONE && idle_count >= TIMEOUT - 1) begin
            // a stuck handshake: give up (the Python side reports done_state and stops)
            done_timeout <= 1'b1;
            done_state <= state;
            done_toggle <= ~done_toggle;
            state <= S_IDLE;
            m_axi_awvalid <= 1'b0;
            m_axi_wvalid <= 1'b0;
            m_axi_bready <= 1'b0;
            m_axi_arvalid <= 1'b0;
            m_axi_rready <= 1'b0;
        end
    end
end

endmodule

`default_nettype wire
