// mac: an HLS-style accelerator (the ports and control protocol Vitis HLS exports for
// `int mac(int a, int b, int c) { return a * b + c; }` with an s_axilite bundle 'control'
// and ap_ctrl_hs): ap_start -> a few cycles -> ap_done/ap_ready with ap_return. Written by
// hand for the tests (no Vitis HLS here); its registers are in mac_control_s_axi.v.
`timescale 1ns/1ps
`default_nettype none
module mac #(
    parameter C_S_AXI_CONTROL_ADDR_WIDTH = 6,
    parameter C_S_AXI_CONTROL_DATA_WIDTH = 32,
    parameter LATENCY = 5
) (
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    input  wire        s_axi_control_AWVALID,
    output wire        s_axi_control_AWREADY,
    input  wire [C_S_AXI_CONTROL_ADDR_WIDTH-1:0] s_axi_control_AWADDR,
    input  wire        s_axi_control_WVALID,
    output wire        s_axi_control_WREADY,
    input  wire [31:0] s_axi_control_WDATA,
    input  wire [3:0]  s_axi_control_WSTRB,
    input  wire        s_axi_control_ARVALID,
    output wire        s_axi_control_ARREADY,
    input  wire [C_S_AXI_CONTROL_ADDR_WIDTH-1:0] s_axi_control_ARADDR,
    output wire        s_axi_control_RVALID,
    input  wire        s_axi_control_RREADY,
    output wire [31:0] s_axi_control_RDATA,
    output wire [1:0]  s_axi_control_RRESP,
    output wire        s_axi_control_BVALID,
    input  wire        s_axi_control_BREADY,
    output wire [1:0]  s_axi_control_BRESP,
    output wire        interrupt
);
wire        ap_start;
wire [31:0] a, b, c;
reg  [7:0]  count;
reg         busy;
reg  [31:0] result;
wire        ap_done = busy && count == 8'd0;
wire        ap_idle = !busy;

always @(posedge ap_clk) begin
    if (!ap_rst_n) begin
        busy <= 1'b0; count <= 8'd0; result <= 32'd0;
    end else if (!busy && ap_start) begin
        busy <= 1'b1; count <= LATENCY[7:0] - 8'd1; result <= a * b + c;
    end else if (busy) begin
        if (count == 8'd0) busy <= 1'b0;
        else count <= count - 8'd1;
    end
end

mac_control_s_axi #(.C_S_AXI_ADDR_WIDTH(C_S_AXI_CONTROL_ADDR_WIDTH), .C_S_AXI_DATA_WIDTH(C_S_AXI_CONTROL_DATA_WIDTH))
control_s_axi_U (
    .ACLK(ap_clk), .ARESET(!ap_rst_n), .ACLK_EN(1'b1),
    .AWADDR(s_axi_control_AWADDR), .AWVALID(s_axi_control_AWVALID), .AWREADY(s_axi_control_AWREADY),
    .WDATA(s_axi_control_WDATA), .WSTRB(s_axi_control_WSTRB), .WVALID(s_axi_control_WVALID),
    .WREADY(s_axi_control_WREADY), .BRESP(s_axi_control_BRESP), .BVALID(s_axi_control_BVALID),
    .BREADY(s_axi_control_BREADY), .ARADDR(s_axi_control_ARADDR), .ARVALID(s_axi_control_ARVALID),
    .ARREADY(s_axi_control_ARREADY), .RDATA(s_axi_control_RDATA), .RRESP(s_axi_control_RRESP),
    .RVALID(s_axi_control_RVALID), .RREADY(s_axi_control_RREADY), .interrupt(interrupt),
    .ap_start(ap_start), .ap_done(ap_done), .ap_ready(ap_done), .ap_idle(ap_idle),
    .ap_return(result), .a(a), .b(b), .c(c));
endmodule
`default_nettype wire
