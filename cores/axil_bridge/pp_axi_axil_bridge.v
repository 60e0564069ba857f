/*
 * pushpush: AXI4 slave to AXI4-Lite master bridge (pp_axi_axil_bridge)
 *
 * Puts a 32-bit AXI4-Lite register slave (e.g. pp_axi_dma's s_axil) behind an AXI4 slave
 * port of DATA_WIDTH bits, as the Vivado SmartConnect does in front of an AXI4-Lite IP.
 *
 * - One write and one read transaction at a time (independent of each other).
 * - Every beat of a burst (INCR; FIXED keeps its address; WRAP is treated as INCR) becomes
 *   AXI4-Lite accesses, one per 32-bit lane of the beat: a write for each lane whose WSTRB
 *   bits are not all 0 (lanes in order, strobes passed on), a read for each lane the beat
 *   covers (AxSIZE below 3: the lane of the address; 3: both lanes of a 64-bit beat).
 * - The B response is the worst of the transaction's AXI4-Lite responses (SLVERR/DECERR win
 *   over OKAY); every R beat carries the response of its lanes' reads.
 * - Read data of a 32-bit lane is placed in that lane (and, on a 64-bit bus with AxSIZE
 *   below 3, in both lanes: a 32-bit read is right whichever lane the reader takes).
 *
 * Latency (AXI4-Lite slave answering in one cycle): a single-beat write is answered 4
 * cycles after its W beat is taken, a single-beat read 4 cycles after AR. Throughput is
 * one AXI4-Lite access at a time: register pages do not need more.
 */

`default_nettype none

module pp_axi_axil_bridge #
(
    // AXI4 data width: 32 or 64
    parameter DATA_WIDTH = 32,
    // Address width (both sides)
    parameter ADDR_WIDTH = 32,
    // AXI4 ID width
    parameter ID_WIDTH = 8
)
(
    input  wire                     clk,
    input  wire                     rst,

    /*
     * AXI4 slave
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
     * AXI4-Lite master (32-bit data)
     */
    output wire [ADDR_WIDTH-1:0]    m_axil_awaddr,
    output wire [2:0]               m_axil_awprot,
    output wire                     m_axil_awvalid,
    input  wire                     m_axil_awready,
    output wire [31:0]              m_axil_wdata,
    output wire [3:0]               m_axil_wstrb,
    output wire                     m_axil_wvalid,
    input  wire                     m_axil_wready,
    input  wire [1:0]               m_axil_bresp,
    input  wire                     m_axil_bvalid,
    output wire                     m_axil_bready,
    output wire [ADDR_WIDTH-1:0]    m_axil_araddr,
    output wire [2:0]               m_axil_arprot,
    output wire                     m_axil_arvalid,
    input  wire                     m_axil_arready,
    input  wire [31:0]              m_axil_rdata,
    input  wire [1:0]               m_axil_rresp,
    input  wire                     m_axil_rvalid,
    output wire                     m_axil_rready
);

localparam LANES = DATA_WIDTH / 32;
localparam LB = (LANES > 1) ? 1 : 0;   // lane bits of an address above bit 1

// worse of two responses: DECERR (3) > SLVERR (2) > OKAY (0)
function [1:0] worse;
    input [1:0] a;
    input [1:0] b;
    begin
        worse = (a[1] && (!b[1] || a[0])) ? a : b;
    end
endfunction

// address of the next beat
function [ADDR_WIDTH-1:0] next_addr;
    input [ADDR_WIDTH-1:0] addr;
    input [2:0] size;
    input [1:0] burst;
    begin
        if (burst == 2'b00)
            next_addr = addr;
        else
            next_addr = (addr & ~(({{(ADDR_WIDTH-1){1'b0}}, 1'b1} << size) - 1'b1))
                        + ({{(ADDR_WIDTH-1){1'b0}}, 1'b1} << size);
    end
endfunction

// the 32-bit lane of an address's bit 2 (lane 0 on a 32-bit bus)
function lane_of;
    input a2;
    begin
        lane_of = (LANES > 1) ? a2 : 1'b0;
    end
endfunction

/*
 * Writes
 */
localparam [2:0] W_IDLE = 3'd0, W_BEAT = 3'd1, W_LANE = 3'd2, W_LITE = 3'd3, W_RESP = 3'd4;

reg [2:0]              w_state_reg;
reg [ID_WIDTH-1:0]     w_id_reg;
reg [ADDR_WIDTH-1:0]   w_addr_reg;
reg [2:0]              w_size_reg;
reg [1:0]              w_burst_reg;
reg [1:0]              w_resp_reg;
reg                    w_last_reg;
reg [DATA_WIDTH-1:0]   w_data_reg;
reg [DATA_WIDTH/8-1:0] w_strb_reg;
reg                    w_lane_reg;
reg                    lw_aw_reg;
reg                    lw_w_reg;
reg [ADDR_WIDTH-1:0]   lw_addr_reg;
reg [31:0]             lw_data_reg;
reg [3:0]              lw_strb_reg;

// strobes of lane w_lane_reg and whether a later lane of the beat has any
wire [3:0] w_lane_strb = w_strb_reg[w_lane_reg * 4 +: 4];
wire       w_more = (LANES > 1) && !w_lane_reg && (|w_strb_reg[DATA_WIDTH/8-1 -: 4]);

assign s_axi_awready = (w_state_reg == W_IDLE);
assign s_axi_wready = (w_state_reg == W_BEAT);
assign s_axi_bid = w_id_reg;
assign s_axi_bresp = w_resp_reg;
assign s_axi_bvalid = (w_state_reg == W_RESP);

assign m_axil_awaddr = lw_addr_reg;
assign m_axil_awprot = 3'b000;
assign m_axil_awvalid = lw_aw_reg;
assign m_axil_wdata = lw_data_reg;
assign m_axil_wstrb = lw_strb_reg;
assign m_axil_wvalid = lw_w_reg;
assign m_axil_bready = (w_state_reg == W_LITE) && !lw_aw_reg && !lw_w_reg;

// end of a beat's lanes: next beat, or the B response
task automatic beat_done;
    begin
        if (w_last_reg) begin
            w_state_reg <= W_RESP;
        end else begin
            w_addr_reg <= next_addr(w_addr_reg, w_size_reg, w_burst_reg);
            w_state_reg <= W_BEAT;
        end
    end
endtask

always @(posedge clk) begin
    if (m_axil_awready) lw_aw_reg <= 1'b0;
    if (m_axil_wready) lw_w_reg <= 1'b0;
    case (w_state_reg)
        W_IDLE: begin
            if (s_axi_awvalid) begin
                w_id_reg <= s_axi_awid;
                w_addr_reg <= s_axi_awaddr;
                w_size_reg <= s_axi_awsize;
                w_burst_reg <= s_axi_awburst;
                w_resp_reg <= 2'b00;
                w_state_reg <= W_BEAT;
            end
        end
        W_BEAT: begin
            if (s_axi_wvalid) begin
                w_data_reg <= s_axi_wdata;
                w_strb_reg <= s_axi_wstrb;
                w_last_reg <= s_axi_wlast;
                // first lane with strobes (lane 0 on a 32-bit bus)
                w_lane_reg <= (LANES > 1) && ~|s_axi_wstrb[3:0];
                w_state_reg <= W_LANE;
            end
        end
        W_LANE: begin
            if (|w_lane_strb) begin
                lw_addr_reg <= {w_addr_reg[ADDR_WIDTH-1:2+LB], {LB{w_lane_reg}}, 2'b00};
                lw_data_reg <= w_data_reg[w_lane_reg * 32 +: 32];
                lw_strb_reg <= w_lane_strb;
                lw_aw_reg <= 1'b1;
                lw_w_reg <= 1'b1;
                w_state_reg <= W_LITE;
            end else begin
                beat_done;     // a beat without strobes writes nothing
            end
        end
        W_LITE: begin
            if (m_axil_bvalid && m_axil_bready) begin
                w_resp_reg <= worse(w_resp_reg, m_axil_bresp);
                if (w_more) begin
                    w_lane_reg <= 1'b1;
                    w_state_reg <= W_LANE;
                end else begin
                    beat_done;
                end
            end
        end
        W_RESP: begin
            if (s_axi_bready) w_state_reg <= W_IDLE;
        end
        default: w_state_reg <= W_IDLE;
    endcase
    if (rst) begin
        w_state_reg <= W_IDLE;
        lw_aw_reg <= 1'b0;
        lw_w_reg <= 1'b0;
    end
end

/*
 * Reads
 */
localparam [1:0] R_IDLE = 2'd0, R_LITE = 2'd1, R_WAIT = 2'd2, R_OUT = 2'd3;

reg [1:0]              r_state_reg;
reg [ID_WIDTH-1:0]     r_id_reg;
reg [ADDR_WIDTH-1:0]   r_addr_reg;
reg [2:0]              r_size_reg;
reg [1:0]              r_burst_reg;
reg [7:0]              r_count_reg;
reg [1:0]              r_resp_reg;
reg [DATA_WIDTH-1:0]   r_data_reg;
reg                    r_lane_reg;
reg                    r_ar_reg;

wire [ADDR_WIDTH-1:0] r_next_addr = next_addr(r_addr_reg, r_size_reg, r_burst_reg);

// a beat of AxSIZE 3 on a 64-bit bus covers both lanes
wire r_both = (LANES > 1) && (r_size_reg >= 3'd3);

assign s_axi_arready = (r_state_reg == R_IDLE);
assign s_axi_rid = r_id_reg;
assign s_axi_rdata = r_data_reg;
assign s_axi_rresp = r_resp_reg;
assign s_axi_rlast = (r_count_reg == 8'd0);
assign s_axi_rvalid = (r_state_reg == R_OUT);

assign m_axil_araddr = {r_addr_reg[ADDR_WIDTH-1:2+LB], {LB{r_lane_reg}}, 2'b00};
assign m_axil_arprot = 3'b000;
assign m_axil_arvalid = r_ar_reg;
assign m_axil_rready = (r_state_reg == R_WAIT);

always @(posedge clk) begin
    case (r_state_reg)
        R_IDLE: begin
            if (s_axi_arvalid) begin
                r_id_reg <= s_axi_arid;
                r_addr_reg <= s_axi_araddr;
                r_size_reg <= s_axi_arsize;
                r_burst_reg <= s_axi_arburst;
                r_count_reg <= s_axi_arlen;
                r_resp_reg <= 2'b00;
                r_lane_reg <= (LANES > 1) && (s_axi_arsize < 3'd3) && lane_of(s_axi_araddr[2]);
                r_ar_reg <= 1'b1;
                r_state_reg <= R_LITE;
            end
        end
        R_LITE: begin
            if (m_axil_arready) begin
                r_ar_reg <= 1'b0;
                r_state_reg <= R_WAIT;
            end
        end
        R_WAIT: begin
            if (m_axil_rvalid) begin
                r_resp_reg <= worse(r_resp_reg, m_axil_rresp);
                if (r_both) begin
                    r_data_reg[r_lane_reg * 32 +: 32] <= m_axil_rdata;
                end else begin
                    r_data_reg <= {LANES{m_axil_rdata}};
                end
                if (r_both && !r_lane_reg) begin
                    r_lane_reg <= 1'b1;
                    r_ar_reg <= 1'b1;
                    r_state_reg <= R_LITE;
                end else begin
                    r_state_reg <= R_OUT;
                end
            end
        end
        R_OUT: begin
            if (s_axi_rready) begin
                if (r_count_reg == 8'd0) begin
                    r_state_reg <= R_IDLE;
                end else begin
                    r_count_reg <= r_count_reg - 8'd1;
                    r_addr_reg <= r_next_addr;
                    r_lane_reg <= (LANES > 1) && !r_both && lane_of(r_next_addr[2]);
                    r_resp_reg <= 2'b00;
                    r_ar_reg <= 1'b1;
                    r_state_reg <= R_LITE;
                end
            end
        end
        default: r_state_reg <= R_IDLE;
    endcase
    if (rst) begin
        r_state_reg <= R_IDLE;
        r_ar_reg <= 1'b0;
    end
end

// AXI4 fields a register bridge does not use
wire unused = &{1'b0, s_axi_awlen, s_axi_awlock, s_axi_awcache, s_axi_awprot,
                s_axi_arlock, s_axi_arcache, s_axi_arprot};

// defined from time 0 in simulation (reset sets what matters; no declaration
// initialisers: Verilator -Wall's PROCASSINIT)
initial begin
    w_state_reg = W_IDLE;
    w_id_reg = {ID_WIDTH{1'b0}};
    w_addr_reg = {ADDR_WIDTH{1'b0}};
    w_size_reg = 3'd0;
    w_burst_reg = 2'b01;
    w_resp_reg = 2'b00;
    w_last_reg = 1'b0;
    w_data_reg = {DATA_WIDTH{1'b0}};
    w_strb_reg = {DATA_WIDTH/8{1'b0}};
    w_lane_reg = 1'b0;
    lw_aw_reg = 1'b0;
    lw_w_reg = 1'b0;
    lw_addr_reg = {ADDR_WIDTH{1'b0}};
    lw_data_reg = 32'd0;
    lw_strb_reg = 4'd0;
    r_state_reg = R_IDLE;
    r_id_reg = {ID_WIDTH{1'b0}};
    r_addr_reg = {ADDR_WIDTH{1'b0}};
    r_size_reg = 3'd0;
    r_burst_reg = 2'b01;
    r_count_reg = 8'd0;
    r_resp_reg = 2'b00;
    r_data_reg = {DATA_WIDTH{1'b0}};
    r_lane_reg = 1'b0;
    r_ar_reg = 1'b0;
end

endmodule

`default_nettype wire
