/*
 * pushpush: the simulated board's memory port (pp_sim_mem) - simulation only
 *
 * The PS side of the PL's AXI master (the top's m_axi: writes into the software windows in
 * on-chip memory, DDR buffers) as an AXI4 slave in HDL. The memory itself is the simulated
 * board's shared memory, owned by Python (pushpush.simboard.hdl), so the PYNQ process polls
 * it in place as the ARM polls its OCM; Python is woken once per burst, not per clock edge.
 *
 * Like a Zynq-7000 HP port (read and write acceptance of 8, UG585 ch. 5), it accepts up to
 * ACCEPT bursts per direction before answering the first, and streams the data of
 * consecutive bursts back to back. Each accepted burst owns a slot (0..ACCEPT-1) and the
 * slot's 256 beats of wbuf/wstrb or rbuf (beat i of slot s at index 256*s + i):
 *
 *   write: AW is taken into a slot (AWREADY: a slot is free) and W beats into the slot of
 *          their burst (WREADY: a slot is free; the beats may come before their AW, as into
 *          the HP port's write data FIFO, and the next burst's beats follow the last one's
 *          without a gap; WLAST ends a burst's data); once a burst's AW and data are in,
 *          wr_toggle flips with the burst in wr_slot/id/addr/len/size/burst. Python stores the beats, sets wr_resp
 *          and flips wr_ack; the bursts' B responses follow in order, the first in the cycle
 *          after wr_ack flips.
 *   read:  AR is taken into a slot (ARREADY: a slot is free); rd_toggle flips with the burst
 *          in rd_slot/addr/len/size/burst (in the cycle AR is taken when Python is idle).
 *          Python fills the slot's rbuf, sets rd_resp and flips rd_ack; the R beats follow,
 *          one per cycle (rready permitting), the first in the cycle after rd_ack flips (or
 *          right after the previous burst's last beat), so consecutive bursts stream back
 *          to back.
 *
 * Python gets one burst per direction at a time (a toggle, then its ack) and answers within
 * the clock edge it is woken at, so cycle counts do not depend on the host: a lone burst
 * keeps the timing of one burst at a time (B 2 cycles after the last W beat; the first R
 * beat valid 1 cycle after AR is taken), and responses come in the order of the requests.
 */

`default_nettype none

module pp_sim_mem #
(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter ID_WIDTH = 14,
    // bursts accepted and not yet answered, per direction: 2, 4, 8 (the Zynq-7000 HP
    // ports' read and write acceptance) or 16
    parameter ACCEPT = 8,
    // log2(ACCEPT): not to be set
    parameter SW = (ACCEPT <= 2) ? 1 : (ACCEPT <= 4) ? 2 : (ACCEPT <= 8) ? 3 : 4
)
(
    input  wire                      clk,
    input  wire                      rst,

    /*
     * To and from Python
     */
    output reg                       wr_toggle /* verilator public_flat_rw */,
    output reg  [SW-1:0]             wr_slot /* verilator public_flat_rw */,
    output reg  [ID_WIDTH-1:0]       wr_id /* verilator public_flat_rw */,
    output reg  [ADDR_WIDTH-1:0]     wr_addr /* verilator public_flat_rw */,
    output reg  [7:0]                wr_len /* verilator public_flat_rw */,
    output reg  [2:0]                wr_size /* verilator public_flat_rw */,
    output reg  [1:0]                wr_burst /* verilator public_flat_rw */,
    input  wire                      wr_ack,
    input  wire [1:0]                wr_resp,
    output reg                       rd_toggle /* verilator public_flat_rw */,
    output reg  [SW-1:0]             rd_slot /* verilator public_flat_rw */,
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
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_wlast,
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
localparam [31:0] ACCEPT32 = ACCEPT;
localparam [SW:0] NSLOTS = ACCEPT32[SW:0];   // pointers are SW+1 bits: slot, then a wrap bit

// The bursts' data: wbuf/wstrb read by Python, rbuf written by Python (through VPI).
reg [DATA_WIDTH-1:0]  wbuf  [0:256*ACCEPT-1] /* verilator public_flat_rw */;
reg [STRB_WIDTH-1:0]  wstrb [0:256*ACCEPT-1] /* verilator public_flat_rw */;
/* verilator lint_off UNDRIVEN */
reg [DATA_WIDTH-1:0]  rbuf  [0:256*ACCEPT-1] /* verilator public_flat_rw */;
/* verilator lint_on UNDRIVEN */

// ------------------------------------------------------------------------------ write
// Slot pointers, in order: wb_p (B next out) <= wa_p (answered by Python) <= wq_p (handed
// to Python) <= both wd_p (receiving W data, up to WLAST) and aw_p (next AW): the k-th
// burst's AW and data share slot k, its W beats may come before its AW (as into the HP
// port's write data FIFO).
reg [ID_WIDTH-1:0]   aw_id_q    [0:ACCEPT-1];
reg [ADDR_WIDTH-1:0] aw_addr_q  [0:ACCEPT-1];
reg [7:0]            aw_len_q   [0:ACCEPT-1];
reg [2:0]            aw_size_q  [0:ACCEPT-1];
reg [1:0]            aw_burst_q [0:ACCEPT-1];
reg [1:0]            b_resp_q   [0:ACCEPT-1];
reg [SW:0] aw_p, wd_p, wq_p, wa_p;
// B responses given so far (mod 2**(SW+1)): Python waits for a stored burst's B before it
// pauses the simulation for an interrupt-mode runtime (pushpush.simboard.hdl, settle)
reg [SW:0] wb_p /* verilator public_flat_rd */;
reg [7:0]  wbeat;
reg        wr_seen;
reg        w_py_busy;

wire [SW-1:0] wd_slot   = wd_p[SW-1:0];
wire          aw_hs     = s_axi_awvalid && s_axi_awready;
wire          w_hs      = s_axi_wvalid && s_axi_wready;
wire          w_last_hs = w_hs && s_axi_wlast;
wire          w_ack     = (wr_ack != wr_seen);              // Python answered its burst
wire          b_hs      = s_axi_bvalid && s_axi_bready;
wire [SW:0]   aw_p_n    = aw_p + {{SW{1'b0}}, aw_hs};
wire [SW:0]   wd_p_n    = wd_p + {{SW{1'b0}}, w_last_hs};
wire [SW:0]   wa_p_n    = wa_p + {{SW{1'b0}}, w_ack};
wire [SW:0]   wb_p_n    = wb_p + {{SW{1'b0}}, b_hs};
// a burst is complete when both its AW and its last W beat are in
wire          w_req     = (!w_py_busy || w_ack) && (wq_p != wd_p_n) && (wq_p != aw_p_n);
wire          w_req_bus = (wq_p == aw_p);                   // its AW is taken in this cycle
wire [SW-1:0] wq_slot   = wq_p[SW-1:0];
wire          b_load    = (!s_axi_bvalid || b_hs) && (wb_p_n != wa_p_n);
wire [SW-1:0] b_slot    = wb_p_n[SW-1:0];
wire [SW:0]   aw_used_n = aw_p_n - wb_p_n;
wire [SW:0]   wd_used_n = wd_p_n - wb_p_n;

always @(posedge clk) begin
    if (rst) begin
        aw_p <= {(SW+1){1'b0}};
        wd_p <= {(SW+1){1'b0}};
        wq_p <= {(SW+1){1'b0}};
        wa_p <= {(SW+1){1'b0}};
        wb_p <= {(SW+1){1'b0}};
        wbeat <= 8'd0;
        wr_seen <= wr_ack;
        w_py_busy <= 1'b0;
        wr_toggle <= wr_ack;
        wr_slot <= {SW{1'b0}};
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
        if (aw_hs) begin
            aw_id_q[aw_p[SW-1:0]] <= s_axi_awid;
            aw_addr_q[aw_p[SW-1:0]] <= s_axi_awaddr;
            aw_len_q[aw_p[SW-1:0]] <= s_axi_awlen;
            aw_size_q[aw_p[SW-1:0]] <= s_axi_awsize;
            aw_burst_q[aw_p[SW-1:0]] <= s_axi_awburst;
        end
        if (w_hs) begin
            // before wr_toggle (below): Python, woken by the toggle, reads the last beat
            wbuf[{wd_slot, wbeat}] <= s_axi_wdata;
            wstrb[{wd_slot, wbeat}] <= s_axi_wstrb;
            wbeat <= w_last_hs ? 8'd0 : wbeat + 8'd1;
        end
        if (w_ack)
            b_resp_q[wa_p[SW-1:0]] <= wr_resp;
        wr_seen <= wr_ack;
        if (w_req) begin
            wr_slot <= wq_slot;
            wr_id <= w_req_bus ? s_axi_awid : aw_id_q[wq_slot];
            wr_addr <= w_req_bus ? s_axi_awaddr : aw_addr_q[wq_slot];
            wr_len <= w_req_bus ? s_axi_awlen : aw_len_q[wq_slot];
            wr_size <= w_req_bus ? s_axi_awsize : aw_size_q[wq_slot];
            wr_burst <= w_req_bus ? s_axi_awburst : aw_burst_q[wq_slot];
            wr_toggle <= ~wr_toggle;       // Python: store the burst
            w_py_busy <= 1'b1;
        end else if (w_ack) begin
            w_py_busy <= 1'b0;
        end
        if (b_load) begin
            s_axi_bid <= aw_id_q[b_slot];
            s_axi_bresp <= (w_ack && b_slot == wa_p[SW-1:0]) ? wr_resp : b_resp_q[b_slot];
            s_axi_bvalid <= 1'b1;
        end else if (b_hs) begin
            s_axi_bvalid <= 1'b0;
        end
        aw_p <= aw_p_n;
        wd_p <= wd_p_n;
        wq_p <= wq_p + {{SW{1'b0}}, w_req};
        wa_p <= wa_p_n;
        wb_p <= wb_p_n;
        s_axi_awready <= (aw_used_n != NSLOTS);
        s_axi_wready <= (wd_used_n != NSLOTS);
    end
end

// ------------------------------------------------------------------------------ read
// Slot pointers, in order: rr_p (streaming R, or next to) <= ra_p (answered by Python)
// <= rq_p (next to hand to Python) <= ar_p (next AR).
reg [ID_WIDTH-1:0]   ar_id_q    [0:ACCEPT-1];
reg [ADDR_WIDTH-1:0] ar_addr_q  [0:ACCEPT-1];
reg [7:0]            ar_len_q   [0:ACCEPT-1];
reg [2:0]            ar_size_q  [0:ACCEPT-1];
reg [1:0]            ar_burst_q [0:ACCEPT-1];
reg [1:0]            r_resp_q   [0:ACCEPT-1];
reg [SW:0] ar_p, rq_p, ra_p, rr_p;
reg [7:0]  rbeat;
reg        rd_seen;
reg        r_py_busy;

wire          ar_hs     = s_axi_arvalid && s_axi_arready;
wire          r_hs      = s_axi_rvalid && s_axi_rready;
wire          r_last_hs = r_hs && s_axi_rlast;
wire          r_ack     = (rd_ack != rd_seen);              // Python filled its burst
wire [SW:0]   ar_p_n    = ar_p + {{SW{1'b0}}, ar_hs};
wire [SW:0]   ra_p_n    = ra_p + {{SW{1'b0}}, r_ack};
wire [SW:0]   rr_p_n    = rr_p + {{SW{1'b0}}, r_last_hs};
wire          r_req     = (!r_py_busy || r_ack) && (rq_p != ar_p_n);
wire          r_req_bus = (rq_p == ar_p);                   // the AR taken in this cycle
wire [SW-1:0] rq_slot   = rq_p[SW-1:0];
wire          r_load    = (!s_axi_rvalid || r_last_hs) && (rr_p_n != ra_p_n);
wire [SW-1:0] r_slot    = rr_p_n[SW-1:0];
wire [SW-1:0] rr_slot   = rr_p[SW-1:0];
wire [7:0]    rbeat_n   = rbeat + 8'd1;
wire [SW:0]   ar_used_n = ar_p_n - rr_p_n;

always @(posedge clk) begin
    if (rst) begin
        ar_p <= {(SW+1){1'b0}};
        rq_p <= {(SW+1){1'b0}};
        ra_p <= {(SW+1){1'b0}};
        rr_p <= {(SW+1){1'b0}};
        rbeat <= 8'd0;
        rd_seen <= rd_ack;
        r_py_busy <= 1'b0;
        rd_toggle <= rd_ack;
        rd_slot <= {SW{1'b0}};
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
        if (ar_hs) begin
            ar_id_q[ar_p[SW-1:0]] <= s_axi_arid;
            ar_addr_q[ar_p[SW-1:0]] <= s_axi_araddr;
            ar_len_q[ar_p[SW-1:0]] <= s_axi_arlen;
            ar_size_q[ar_p[SW-1:0]] <= s_axi_arsize;
            ar_burst_q[ar_p[SW-1:0]] <= s_axi_arburst;
        end
        if (r_ack)
            r_resp_q[ra_p[SW-1:0]] <= rd_resp;
        rd_seen <= rd_ack;
        if (r_req) begin
            rd_slot <= rq_slot;
            rd_id <= r_req_bus ? s_axi_arid : ar_id_q[rq_slot];
            rd_addr <= r_req_bus ? s_axi_araddr : ar_addr_q[rq_slot];
            rd_len <= r_req_bus ? s_axi_arlen : ar_len_q[rq_slot];
            rd_size <= r_req_bus ? s_axi_arsize : ar_size_q[rq_slot];
            rd_burst <= r_req_bus ? s_axi_arburst : ar_burst_q[rq_slot];
            rd_toggle <= ~rd_toggle;       // Python: fill the slot's rbuf
            r_py_busy <= 1'b1;
        end else if (r_ack) begin
            r_py_busy <= 1'b0;
        end
        if (r_load) begin
            rbeat <= 8'd0;
            s_axi_rid <= ar_id_q[r_slot];
            s_axi_rdata <= rbuf[{r_slot, 8'd0}];
            s_axi_rresp <= (r_ack && r_slot == ra_p[SW-1:0]) ? rd_resp : r_resp_q[r_slot];
            s_axi_rlast <= (ar_len_q[r_slot] == 8'd0);
            s_axi_rvalid <= 1'b1;
        end else if (r_last_hs) begin
            s_axi_rvalid <= 1'b0;
            s_axi_rlast <= 1'b0;
        end else if (r_hs) begin
            rbeat <= rbeat_n;
            s_axi_rdata <= rbuf[{rr_slot, rbeat_n}];
            s_axi_rlast <= (rbeat_n == ar_len_q[rr_slot]);
        end
        ar_p <= ar_p_n;
        rq_p <= rq_p + {{SW{1'b0}}, r_req};
        ra_p <= ra_p_n;
        rr_p <= rr_p_n;
        s_axi_arready <= (ar_used_n != NSLOTS);
    end
end

endmodule

`default_nettype wire
