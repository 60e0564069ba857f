/*
 * pp_hp_probe: test fixture for the simulated board's HP port (tests/pynq only).
 *
 * A system-top stand-in with a second master into PS memory, hp0_axi (attached to the
 * harness as a PsMemPort, S_AXI_HP0): a word engine that reads COUNT words from SRC and
 * writes each plus ADD to DST, one single-beat read and one single-beat write per word
 * (nothing clever: the test checks what the PL reads and writes in DDR buffers).
 *
 * s_axi (GP0, 32-bit registers, single beats; a burst's later beats are ignored):
 *   0x00 SRC   0x04 DST   0x08 COUNT   0x0C ADD
 *   0x10 CTRL  write 1: start; reads {30'd0, done, busy}
 *   0x14 RESP  the worst RRESP/BRESP of the last run (read only)
 * m_axi is unused (tied off): this top has no software windows to write.
 */

`default_nettype none

module pp_hp_probe #
(
    parameter ID_WIDTH = 12,
    parameter HP_ID_WIDTH = 6
)
(
    input  wire                      clk,
    input  wire                      rst,

    input  wire [ID_WIDTH-1:0]       s_axi_awid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]               s_axi_awaddr,
    input  wire [7:0]                s_axi_awlen,
    input  wire [2:0]                s_axi_awsize,
    input  wire [1:0]                s_axi_awburst,
    input  wire                      s_axi_awlock,
    input  wire [3:0]                s_axi_awcache,
    input  wire [2:0]                s_axi_awprot,
    input  wire [3:0]                s_axi_wstrb,
    input  wire [31:0]               s_axi_araddr,
    input  wire [2:0]                s_axi_arsize,
    input  wire [1:0]                s_axi_arburst,
    input  wire                      s_axi_arlock,
    input  wire [3:0]                s_axi_arcache,
    input  wire [2:0]                s_axi_arprot,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                      s_axi_awvalid,
    output wire                      s_axi_awready,
    input  wire [31:0]               s_axi_wdata,
    input  wire                      s_axi_wlast,
    input  wire                      s_axi_wvalid,
    output wire                      s_axi_wready,
    output reg  [ID_WIDTH-1:0]       s_axi_bid,
    output wire [1:0]                s_axi_bresp,
    output reg                       s_axi_bvalid,
    input  wire                      s_axi_bready,
    input  wire [ID_WIDTH-1:0]       s_axi_arid,
    input  wire [7:0]                s_axi_arlen,
    input  wire                      s_axi_arvalid,
    output wire                      s_axi_arready,
    output reg  [ID_WIDTH-1:0]       s_axi_rid,
    output reg  [31:0]               s_axi_rdata,
    output wire [1:0]                s_axi_rresp,
    output wire                      s_axi_rlast,
    output reg                       s_axi_rvalid,
    input  wire                      s_axi_rready,

    output wire [ID_WIDTH-1:0]       m_axi_awid,
    output wire [31:0]               m_axi_awaddr,
    output wire [7:0]                m_axi_awlen,
    output wire [2:0]                m_axi_awsize,
    output wire [1:0]                m_axi_awburst,
    output wire                      m_axi_awlock,
    output wire [3:0]                m_axi_awcache,
    output wire [2:0]                m_axi_awprot,
    output wire                      m_axi_awvalid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      m_axi_awready,
    input  wire                      m_axi_wready,
    input  wire [ID_WIDTH-1:0]       m_axi_bid,
    input  wire [1:0]                m_axi_bresp,
    input  wire                      m_axi_bvalid,
    input  wire                      m_axi_arready,
    input  wire [ID_WIDTH-1:0]       m_axi_rid,
    input  wire [31:0]               m_axi_rdata,
    input  wire [1:0]                m_axi_rresp,
    input  wire                      m_axi_rlast,
    input  wire                      m_axi_rvalid,
    input  wire [HP_ID_WIDTH-1:0]    hp0_axi_bid,
    input  wire [HP_ID_WIDTH-1:0]    hp0_axi_rid,
    input  wire                      hp0_axi_rlast,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [31:0]               m_axi_wdata,
    output wire [3:0]                m_axi_wstrb,
    output wire                      m_axi_wlast,
    output wire                      m_axi_wvalid,
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
    output wire                      m_axi_rready,

    output wire [HP_ID_WIDTH-1:0]    hp0_axi_awid,
    output wire [31:0]               hp0_axi_awaddr,
    output wire [7:0]                hp0_axi_awlen,
    output wire [2:0]                hp0_axi_awsize,
    output wire [1:0]                hp0_axi_awburst,
    output wire                      hp0_axi_awlock,
    output wire [3:0]                hp0_axi_awcache,
    output wire [2:0]                hp0_axi_awprot,
    output reg                       hp0_axi_awvalid,
    input  wire                      hp0_axi_awready,
    output reg  [31:0]               hp0_axi_wdata,
    output wire [3:0]                hp0_axi_wstrb,
    output wire                      hp0_axi_wlast,
    output reg                       hp0_axi_wvalid,
    input  wire                      hp0_axi_wready,
    input  wire [1:0]                hp0_axi_bresp,
    input  wire                      hp0_axi_bvalid,
    output wire                      hp0_axi_bready,
    output wire [HP_ID_WIDTH-1:0]    hp0_axi_arid,
    output wire [31:0]               hp0_axi_araddr,
    output wire [7:0]                hp0_axi_arlen,
    output wire [2:0]                hp0_axi_arsize,
    output wire [1:0]                hp0_axi_arburst,
    output wire                      hp0_axi_arlock,
    output wire [3:0]                hp0_axi_arcache,
    output wire [2:0]                hp0_axi_arprot,
    output reg                       hp0_axi_arvalid,
    input  wire                      hp0_axi_arready,
    input  wire [31:0]               hp0_axi_rdata,
    input  wire [1:0]                hp0_axi_rresp,
    input  wire                      hp0_axi_rvalid,
    output wire                      hp0_axi_rready
);

// m_axi: unused
assign m_axi_awid = {ID_WIDTH{1'b0}};
assign m_axi_awaddr = 32'd0;
assign m_axi_awlen = 8'd0;
assign m_axi_awsize = 3'd2;
assign m_axi_awburst = 2'b01;
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'd0;
assign m_axi_awprot = 3'd0;
assign m_axi_awvalid = 1'b0;
assign m_axi_wdata = 32'd0;
assign m_axi_wstrb = 4'd0;
assign m_axi_wlast = 1'b0;
assign m_axi_wvalid = 1'b0;
assign m_axi_bready = 1'b1;
assign m_axi_arid = {ID_WIDTH{1'b0}};
assign m_axi_araddr = 32'd0;
assign m_axi_arlen = 8'd0;
assign m_axi_arsize = 3'd2;
assign m_axi_arburst = 2'b01;
assign m_axi_arlock = 1'b0;
assign m_axi_arcache = 4'd0;
assign m_axi_arprot = 3'd0;
assign m_axi_arvalid = 1'b0;
assign m_axi_rready = 1'b1;

// registers
reg [31:0] src, dst, count, add;
reg        busy, done;
reg [1:0]  worst;

// s_axi writes: AW, then W beats until wlast (the first beat is applied), then B
reg        w_data;    // in the W phase
reg        w_first;
reg [4:0]  w_off;
assign s_axi_awready = ~w_data & ~s_axi_bvalid;
assign s_axi_wready = w_data;
assign s_axi_bresp = 2'b00;

// s_axi reads: single word answer, rlast on the last beat
reg [7:0]  r_left;
assign s_axi_arready = ~s_axi_rvalid;
assign s_axi_rresp = 2'b00;
assign s_axi_rlast = (r_left == 8'd0);

// the engine
localparam E_IDLE = 3'd0, E_AR = 3'd1, E_R = 3'd2, E_W = 3'd3, E_B = 3'd4;
reg [2:0]  e_state;
reg [31:0] e_index;
wire start = w_data & s_axi_wvalid & w_first & (w_off == 5'h10) & s_axi_wdata[0] & ~busy;

assign hp0_axi_awid = {HP_ID_WIDTH{1'b0}};
assign hp0_axi_awaddr = dst + 4 * e_index;
assign hp0_axi_awlen = 8'd0;
assign hp0_axi_awsize = 3'd2;
assign hp0_axi_awburst = 2'b01;
assign hp0_axi_awlock = 1'b0;
assign hp0_axi_awcache = 4'b0011;
assign hp0_axi_awprot = 3'd0;
assign hp0_axi_wstrb = 4'hF;
assign hp0_axi_wlast = 1'b1;
assign hp0_axi_bready = (e_state == E_B);
assign hp0_axi_arid = {HP_ID_WIDTH{1'b0}};
assign hp0_axi_araddr = src + 4 * e_index;
assign hp0_axi_arlen = 8'd0;
assign hp0_axi_arsize = 3'd2;
assign hp0_axi_arburst = 2'b01;
assign hp0_axi_arlock = 1'b0;
assign hp0_axi_arcache = 4'b0011;
assign hp0_axi_arprot = 3'd0;
assign hp0_axi_rready = (e_state == E_R);

always @(posedge clk) begin
    if (rst) begin
        src <= 32'd0; dst <= 32'd0; count <= 32'd0; add <= 32'd0;
        w_data <= 1'b0; w_first <= 1'b0; w_off <= 5'd0;
        s_axi_bvalid <= 1'b0; s_axi_bid <= {ID_WIDTH{1'b0}};
        s_axi_rvalid <= 1'b0; s_axi_rid <= {ID_WIDTH{1'b0}}; s_axi_rdata <= 32'd0; r_left <= 8'd0;
        busy <= 1'b0; done <= 1'b0; worst <= 2'b00;
        e_state <= E_IDLE; e_index <= 32'd0;
        hp0_axi_awvalid <= 1'b0; hp0_axi_wvalid <= 1'b0; hp0_axi_wdata <= 32'd0;
        hp0_axi_arvalid <= 1'b0;
    end else begin
        // register writes
        if (s_axi_awvalid & s_axi_awready) begin
            w_data <= 1'b1;
            w_first <= 1'b1;
            w_off <= s_axi_awaddr[4:0];
            s_axi_bid <= s_axi_awid;
        end
        if (w_data & s_axi_wvalid) begin
            w_first <= 1'b0;
            if (w_first) begin
                case (w_off)
                    5'h00: src <= s_axi_wdata;
                    5'h04: dst <= s_axi_wdata;
                    5'h08: count <= s_axi_wdata;
                    5'h0C: add <= s_axi_wdata;
                    default: ;
                endcase
            end
            if (s_axi_wlast) begin
                w_data <= 1'b0;
                s_axi_bvalid <= 1'b1;
            end
        end
        if (s_axi_bvalid & s_axi_bready)
            s_axi_bvalid <= 1'b0;
        // register reads
        if (s_axi_arvalid & s_axi_arready) begin
            s_axi_rvalid <= 1'b1;
            s_axi_rid <= s_axi_arid;
            r_left <= s_axi_arlen;
            case (s_axi_araddr[4:0])
                5'h00: s_axi_rdata <= src;
                5'h04: s_axi_rdata <= dst;
                5'h08: s_axi_rdata <= count;
                5'h0C: s_axi_rdata <= add;
                5'h10: s_axi_rdata <= {30'd0, done, busy};
                5'h14: s_axi_rdata <= {30'd0, worst};
                default: s_axi_rdata <= 32'd0;
            endcase
        end else if (s_axi_rvalid & s_axi_rready) begin
            if (r_left == 8'd0) s_axi_rvalid <= 1'b0;
            else r_left <= r_left - 8'd1;
        end
        // the engine
        case (e_state)
            E_IDLE: if (start) begin
                busy <= 1'b1;
                done <= 1'b0;
                worst <= 2'b00;
                e_index <= 32'd0;
                if (count != 32'd0) begin
                    hp0_axi_arvalid <= 1'b1;
                    e_state <= E_AR;
                end else begin
                    busy <= 1'b0;
                    done <= 1'b1;
                end
            end
            E_AR: if (hp0_axi_arready) begin
                hp0_axi_arvalid <= 1'b0;
                e_state <= E_R;
            end
            E_R: if (hp0_axi_rvalid) begin
                hp0_axi_wdata <= hp0_axi_rdata + add;
                if (hp0_axi_rresp > worst) worst <= hp0_axi_rresp;
                hp0_axi_awvalid <= 1'b1;
                hp0_axi_wvalid <= 1'b1;
                e_state <= E_W;
            end
            E_W: begin
                if (hp0_axi_awready) hp0_axi_awvalid <= 1'b0;
                if (hp0_axi_wready) hp0_axi_wvalid <= 1'b0;
                if ((~hp0_axi_awvalid | hp0_axi_awready) & (~hp0_axi_wvalid | hp0_axi_wready))
                    e_state <= E_B;
            end
            default: if (hp0_axi_bvalid) begin
                if (hp0_axi_bresp > worst) worst <= hp0_axi_bresp;
                if (e_index + 32'd1 == count) begin
                    busy <= 1'b0;
                    done <= 1'b1;
                    e_state <= E_IDLE;
                end else begin
                    e_index <= e_index + 32'd1;
                    hp0_axi_arvalid <= 1'b1;
                    e_state <= E_AR;
                end
            end
        endcase
    end
end

endmodule

`default_nettype wire
