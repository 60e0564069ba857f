// mac_control_s_axi: the AXI4-Lite register file of the HLS-style accelerator 'mac', in the
// layout Vitis HLS exports for `int mac(int a, int b, int c)` with
// `#pragma HLS INTERFACE s_axilite port=return bundle=control` (written by hand for the
// tests: no Vitis HLS here):
//   0x00 : Control signals
//          bit 0  - ap_start (Read/Write/COH)
//          bit 1  - ap_done (Read/COR)
//          bit 2  - ap_idle (Read)
//          bit 3  - ap_ready (Read)
//          bit 7  - auto_restart (Read/Write)
//   0x04 : Global Interrupt Enable Register, bit 0 - Global Interrupt Enable (Read/Write)
//   0x08 : IP Interrupt Enable Register, bit 0 - ap_done, bit 1 - ap_ready (Read/Write)
//   0x0c : IP Interrupt Status Register, bit 0 - ap_done, bit 1 - ap_ready (Read/TOW)
//   0x10 : Data signal of ap_return (Read)
//   0x18 : Data signal of a (Read/Write)
//   0x20 : Data signal of b (Read/Write)
//   0x28 : Data signal of c (Read/Write)
`timescale 1ns/1ps
`default_nettype none
module mac_control_s_axi #(
    parameter C_S_AXI_ADDR_WIDTH = 6,
    parameter C_S_AXI_DATA_WIDTH = 32
) (
    input  wire                          ACLK,
    input  wire                          ARESET,
    input  wire                          ACLK_EN,
    input  wire [C_S_AXI_ADDR_WIDTH-1:0] AWADDR,
    input  wire                          AWVALID,
    output wire                          AWREADY,
    input  wire [C_S_AXI_DATA_WIDTH-1:0] WDATA,
    input  wire [C_S_AXI_DATA_WIDTH/8-1:0] WSTRB,
    input  wire                          WVALID,
    output wire                          WREADY,
    output wire [1:0]                    BRESP,
    output wire                          BVALID,
    input  wire                          BREADY,
    input  wire [C_S_AXI_ADDR_WIDTH-1:0] ARADDR,
    input  wire                          ARVALID,
    output wire                          ARREADY,
    output wire [C_S_AXI_DATA_WIDTH-1:0] RDATA,
    output wire [1:0]                    RRESP,
    output wire                          RVALID,
    input  wire                          RREADY,
    output wire                          interrupt,
    output wire                          ap_start,
    input  wire                          ap_done,
    input  wire                          ap_ready,
    input  wire                          ap_idle,
    input  wire [31:0]                   ap_return,
    output wire [31:0]                   a,
    output wire [31:0]                   b,
    output wire [31:0]                   c
);
localparam ADDR_AP_CTRL = 6'h00, ADDR_GIE = 6'h04, ADDR_IER = 6'h08, ADDR_ISR = 6'h0c,
           ADDR_AP_RETURN = 6'h10, ADDR_A = 6'h18, ADDR_B = 6'h20, ADDR_C = 6'h28;
localparam WRIDLE = 2'd0, WRDATA = 2'd1, WRRESP = 2'd2, RDIDLE = 2'd0, RDDATA = 2'd1;

reg  [1:0]  wstate, rstate;
reg  [C_S_AXI_ADDR_WIDTH-1:0] waddr;
reg  [31:0] rdata;
reg         int_ap_start, int_ap_done, int_auto_restart, int_gie;
reg  [1:0]  int_ier, int_isr;
reg  [31:0] int_ap_return, int_a, int_b, int_c;
wire [31:0] wmask = {{8{WSTRB[3]}}, {8{WSTRB[2]}}, {8{WSTRB[1]}}, {8{WSTRB[0]}}};
wire aw_hs = AWVALID & AWREADY;
wire w_hs  = WVALID & WREADY;
wire ar_hs = ARVALID & ARREADY;
wire [C_S_AXI_ADDR_WIDTH-1:0] raddr = ARADDR;

assign AWREADY = (wstate == WRIDLE);
assign WREADY  = (wstate == WRDATA);
assign BRESP   = 2'b00;
assign BVALID  = (wstate == WRRESP);
assign ARREADY = (rstate == RDIDLE);
assign RDATA   = rdata;
assign RRESP   = 2'b00;
assign RVALID  = (rstate == RDDATA);
assign interrupt = int_gie & (|int_isr);
assign ap_start  = int_ap_start;
assign a = int_a;
assign b = int_b;
assign c = int_c;

always @(posedge ACLK) begin
    if (ARESET) wstate <= WRIDLE;
    else if (ACLK_EN) case (wstate)
        WRIDLE: if (AWVALID) wstate <= WRDATA;
        WRDATA: if (WVALID) wstate <= WRRESP;
        WRRESP: if (BREADY) wstate <= WRIDLE;
        default: wstate <= WRIDLE;
    endcase
end
always @(posedge ACLK) if (ACLK_EN && aw_hs) waddr <= AWADDR;

always @(posedge ACLK) begin
    if (ARESET) rstate <= RDIDLE;
    else if (ACLK_EN) case (rstate)
        RDIDLE: if (ARVALID) rstate <= RDDATA;
        RDDATA: if (RREADY) rstate <= RDIDLE;
        default: rstate <= RDIDLE;
    endcase
end

always @(posedge ACLK) begin
    if (ACLK_EN && ar_hs) begin
        rdata <= 32'd0;
        case (raddr)
            ADDR_AP_CTRL: rdata <= {24'd0, int_auto_restart, 3'd0, ap_ready, ap_idle, int_ap_done, int_ap_start};
            ADDR_GIE:     rdata <= {31'd0, int_gie};
            ADDR_IER:     rdata <= {30'd0, int_ier};
            ADDR_ISR:     rdata <= {30'd0, int_isr};
            ADDR_AP_RETURN: rdata <= int_ap_return;
            ADDR_A:       rdata <= int_a;
            ADDR_B:       rdata <= int_b;
            ADDR_C:       rdata <= int_c;
            default:      rdata <= 32'd0;
        endcase
    end
end

always @(posedge ACLK) begin
    if (ARESET) begin
        int_ap_start <= 1'b0; int_ap_done <= 1'b0; int_auto_restart <= 1'b0; int_gie <= 1'b0;
        int_ier <= 2'b0; int_isr <= 2'b0; int_ap_return <= 32'd0;
        int_a <= 32'd0; int_b <= 32'd0; int_c <= 32'd0;
    end else if (ACLK_EN) begin
        // ap_start: set by a write of 1, cleared when the core is ready (COH)
        if (w_hs && waddr == ADDR_AP_CTRL && WSTRB[0] && WDATA[0]) int_ap_start <= 1'b1;
        else if (ap_ready) int_ap_start <= int_auto_restart;
        if (w_hs && waddr == ADDR_AP_CTRL && WSTRB[0]) int_auto_restart <= WDATA[7];
        // ap_done: set by the core, cleared on read (COR)
        if (ap_done) int_ap_done <= 1'b1;
        else if (ar_hs && raddr == ADDR_AP_CTRL) int_ap_done <= 1'b0;
        if (w_hs && waddr == ADDR_GIE && WSTRB[0]) int_gie <= WDATA[0];
        if (w_hs && waddr == ADDR_IER && WSTRB[0]) int_ier <= WDATA[1:0];
        // ISR: set by the enabled events, toggled by a write of 1 (TOW)
        if (int_ier[0] & ap_done) int_isr[0] <= 1'b1;
        else if (w_hs && waddr == ADDR_ISR && WSTRB[0]) int_isr[0] <= int_isr[0] ^ WDATA[0];
        if (int_ier[1] & ap_ready) int_isr[1] <= 1'b1;
        else if (w_hs && waddr == ADDR_ISR && WSTRB[0]) int_isr[1] <= int_isr[1] ^ WDATA[1];
        if (ap_done) int_ap_return <= ap_return;
        if (w_hs && waddr == ADDR_A) int_a <= (WDATA & wmask) | (int_a & ~wmask);
        if (w_hs && waddr == ADDR_B) int_b <= (WDATA & wmask) | (int_b & ~wmask);
        if (w_hs && waddr == ADDR_C) int_c <= (WDATA & wmask) | (int_c & ~wmask);
    end
end
endmodule
`default_nettype wire
