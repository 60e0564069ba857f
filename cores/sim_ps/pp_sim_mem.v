/*
 * pushpush: the simulated board's memory port (pp_sim_mem) - simulation only
 *
 * The PS side of the PL's AXI master (the top's m_axi: writes into the software windows in
 * on-chip memory, DDR buffers) as an AXI4 slave in HDL. The memory itself is the simulated
 * board's shared memory, owned by Python (pushpush.simboard.hdl), so the PYNQ process polls
 * it in place as the ARM polls its OCM; Python is woken once per burst, not per clock edge:
 *
 *   write: AW is taken, then every W beat into wbuf/wstrb; then wr_toggle flips with the
 *          burst in wr_id/addr/len/size/burst. Python stores the beats, sets wr_resp and
 *          flips wr_ack; the B response (wr_resp) follows in the next cycle.
 *   read:  AR is taken; rd_toggle flips with rd_addr/len/size/burst. Python fills rbuf,
 *          sets rd_resp and flips rd_ack; the R beats follow, one per cycle (rready
 *          permitting).
 *
 * One write and one read burst at a time (reads and writes are independent). Python answers
 * within the clock edge it is woken at, so cycle counts do not depend on the host.
 */

`default_nettype none

module pp_sim_mem #
(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter ID_WIDTH = 14
)
(
    input  wire                      clk,
    input  wire                      rst,

    /*
     * To and from Python
     */
    output reg                       wr_toggle /* verilator public_flat_rw */,
    output reg  [ID_WIDTH-1:0]       wr_id /* verilator public_flat_rw */,
    output reg  [ADDR_WIDTH-1:0]     wr_addr /* verilator public_flat_rw */,
    output reg  [7:0]                wr_len /* verilator public_flat_rw */,
    output reg  [2:0]                wr_size /* verilator public_flat_rw */,
    output reg  [1:0]                wr_burst /* verilator public_flat_rw */,
    input  wire                      wr_ack,
    input  wire [1:0]                wr_resp,
    output reg                       rd_toggle /* verilator public_flat_rw */,
    output reg  [ID_WIDTH-1:0]       rd_id /* verilator public_flat_rw */,
    output reg  [ADDR_WIDTH-1:0]     rd_addr /* verilator public_flat_rw */,
    output reg  [7:0]                rd_len /* verilator public_flat_rw */,
    output reg  [2:0]                rd_size /* verilator public_flat_rw */,
    output reg  [1:0]                rd_burst /* verilator public_flat_rw */,
    input  wire                      rd_ack,
    input  wire [1:0]                rd_resp,

    /*
     * AXI slave (the top's m_axi)
     */
    input  wire [ID_WIDTH-1:0]       s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]     s_axi_awaddr,
    input  wire [7:0]                s_axi_awlen,
    input  wire [2:0]                s_axi_awsize,
    input  wire [1:0]                s_axi_awburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      s_axi_awlock,
    input  wire [3:0]                s_axi_awcache,
    input  wire [2:0]                s_axi_awprot,
    input  wire                      s_axi_wlast,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_awvalid,
    output reg                       s_axi_awready,
    input  wire [DATA_WIDTH-1:0]     s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axi_wstrb,
    input  wire                      s_axi_wvalid,
    output reg                       s_axi_wready,
    output reg  [ID_WIDTH-1:0]       s_axi_bid,
    output reg  [1:0]                s_axi_bresp,
    output reg                       s_axi_bvalid,
    input  wire                      s_axi_bready,
    input  wire [ID_WIDTH-1:0]       s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]     s_axi_araddr,
    input  wire [7:0]                s_axi_arlen,
    input  wire [2:0]                s_axi_arsize,
    input  wire [1:0]                s_axi_arburst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      s_axi_arlock,
    input  wire [3:0]                s_axi_arcache,
    input  wire [2:0]                s_axi_arprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_arvalid,
    output reg                       s_axi_arready,
    output reg  [ID_WIDTH-1:0]       s_axi_rid,
    output reg  [DATA_WIDTH-1:0]     s_axi_rdata,
    output reg  [1:0]                s_axi_rresp,
    output reg                       s_axi_rlast,
    output reg                       s_axi_rvalid,
    input  wire                      s_axi_rready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam [1:0] W_ADDR = 2'd0, W_DATA = 2'd1, W_PY = 2'd2, W_RESP = 2'd3;
localparam [1:0] R_ADDR = 2'd0, R_PY = 2'd1, R_DATA = 2'd2;

// A burst's data: wbuf/wstrb read by Python, rbuf written by Python (through VPI).
reg [DATA_WIDTH-1:0]  wbuf  [0:255] /* verilator public_flat_rw */;
reg [STRB_WIDTH-1:0]  wstrb [0:255] /* verilator public_flat_rw */;
/* verilator lint_off UNDRIVEN */
reg [DATA_WIDTH-1:0]  rbuf  [0:255] /* verilator public_flat_rw */;
/* verilator lint_on UNDRIVEN */

reg [1:0] wstate;
reg [7:0] wbeat;
reg       wr_seen;
reg [1:0] rstate;
reg [7:0] rbeat;
reg       rd_seen;

always @(posedge clk) begin
    if (rst) begin
        wstate <= W_ADDR;
        wbeat <= 8'd0;
        wr_seen <= wr_ack;
        wr_toggle <= wr_ack;
        wr_id <= {ID_WIDTH{1'b0}};
        wr_addr <= {ADDR_WIDTH{1'b0}};
        wr_len <= 8'd0;
        wr_size <= 3'd0;
        wr_burst <= 2'd0;
        s_axi_awready <= 1'b0;
        s_axi_wready <= 1'b0;
        s_axi_bid <= {ID_WIDTH{1'b0}};
        s_axi_bresp <= 2'b00;
        s_axi_bvalid <= 1'b0;
    end else begin
        case (wstate)
        W_ADDR: begin
            s_axi_awready <= 1'b1;
            if (s_axi_awvalid && s_axi_awready) begin
                s_axi_awready <= 1'b0;
                s_axi_wready <= 1'b1;
                wr_id <= s_axi_awid;
                wr_addr <= s_axi_awaddr;
                wr_len <= s_axi_awlen;
                wr_size <= s_axi_awsize;
                wr_burst <= s_axi_awburst;
                wbeat <= 8'd0;
                wstate <= W_DATA;
            end
        end
        W_DATA: begin
            if (s_axi_wvalid && s_axi_wready) begin
                wbuf[wbeat] <= s_axi_wdata;
                wstrb[wbeat] <= s_axi_wstrb;
                wbeat <= wbeat + 8'd1;
                if (wbeat == wr_len) begin
                    s_axi_wready <= 1'b0;
                    wr_toggle <= ~wr_toggle;   // Python: store the burst
                    wstate <= W_PY;
                end
            end
        end
        W_PY: begin
            if (wr_ack != wr_seen) begin
                wr_seen <= wr_ack;
                s_axi_bid <= wr_id;
                s_axi_bresp <= wr_resp;
                s_axi_bvalid <= 1'b1;
                wstate <= W_RESP;
            end
        end
        default: begin  // W_RESP
            if (s_axi_bready) begin
                s_axi_bvalid <= 1'b0;
                s_axi_awready <= 1'b1;
                wstate <= W_ADDR;
            end
        end
        endcase
    end
end

always @(posedge clk) begin
    if (rst) begin
        rstate <= R_ADDR;
        rbeat <= 8'd0;
        rd_seen <= rd_ack;
        rd_toggle <= rd_ack;
        rd_id <= {ID_WIDTH{1'b0}};
        rd_addr <= {ADDR_WIDTH{1'b0}};
        rd_len <= 8'd0;
        rd_size <= 3'd0;
        rd_burst <= 2'd0;
        s_axi_arready <= 1'b0;
        s_axi_rid <= {ID_WIDTH{1'b0}};
        s_axi_rdata <= {DATA_WIDTH{1'b0}};
        s_axi_rresp <= 2'b00;
        s_axi_rlast <= 1'b0;
        s_axi_rvalid <= 1'b0;
    end else begin
        case (rstate)
        R_ADDR: begin
            s_axi_arready <= 1'b1;
            if (s_axi_arvalid && s_axi_arready) begin
                s_axi_arready <= 1'b0;
                rd_id <= s_axi_arid;
                rd_addr <= s_axi_araddr;
                rd_len <= s_axi_arlen;
                rd_size <= s_axi_arsize;
                rd_burst <= s_axi_arburst;
                rd_toggle <= ~rd_toggle;       // Python: fill rbuf
                rstate <= R_PY;
            end
        end
        R_PY: begin
            if (rd_ack != rd_seen) begin
                rd_seen <= rd_ack;
                rbeat <= 8'd0;
                s_axi_rid <= rd_id;
                s_axi_rdata <= rbuf[0];
                s_axi_rresp <= rd_resp;
                s_axi_rlast <= (rd_len == 8'd0);
                s_axi_rvalid <= 1'b1;
                rstate <= R_DATA;
            end
        end
        default: begin  // R_DATA
            if (s_axi_rready) begin
                if (s_axi_rlast) begin
                    s_axi_rvalid <= 1'b0;
                    s_axi_rlast <= 1'b0;
                    s_axi_arready <= 1'b1;
                    rstate <= R_ADDR;
                end else begin
                    s_axi_rdata <= rbuf[rbeat + 8'd1];
                    s_axi_rlast <= (rbeat + 8'd1 == rd_len);
                end
                rbeat <= rbeat + 8'd1;
            end
        end
        endcase
    end
end

endmodule

`default_nettype wire
