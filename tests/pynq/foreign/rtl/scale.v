// scale: an HLS-style stream accelerator (the ports Vitis HLS exports for
// `void scale(hls::stream<ap_axis<32,0,0,0>> &in, hls::stream<ap_axis<32,0,0,0>> &out, int gain)`
// with `#pragma HLS INTERFACE axis port=in/out`, `s_axilite port=gain bundle=control` and
// `ap_ctrl_none`): every word of in_r leaves on out_r times gain, TKEEP/TSTRB/TLAST kept.
// Registers (s_axi_control): 0x10 gain (Read/Write). Written by hand for the tests.
`timescale 1ns/1ps
`default_nettype none
module scale (
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    input  wire [31:0] in_r_TDATA,
    input  wire        in_r_TVALID,
    output wire        in_r_TREADY,
    input  wire [3:0]  in_r_TKEEP,
    input  wire [3:0]  in_r_TSTRB,
    input  wire [0:0]  in_r_TLAST,
    output wire [31:0] out_r_TDATA,
    output wire        out_r_TVALID,
    input  wire        out_r_TREADY,
    output wire [3:0]  out_r_TKEEP,
    output wire [3:0]  out_r_TSTRB,
    output wire [0:0]  out_r_TLAST,
    input  wire        s_axi_control_AWVALID,
    output wire        s_axi_control_AWREADY,
    input  wire [4:0]  s_axi_control_AWADDR,
    input  wire        s_axi_control_WVALID,
    output wire        s_axi_control_WREADY,
    input  wire [31:0] s_axi_control_WDATA,
    input  wire [3:0]  s_axi_control_WSTRB,
    input  wire        s_axi_control_ARVALID,
    output wire        s_axi_control_ARREADY,
    input  wire [4:0]  s_axi_control_ARADDR,
    output wire        s_axi_control_RVALID,
    input  wire        s_axi_control_RREADY,
    output wire [31:0] s_axi_control_RDATA,
    output wire [1:0]  s_axi_control_RRESP,
    output wire        s_axi_control_BVALID,
    input  wire        s_axi_control_BREADY,
    output wire [1:0]  s_axi_control_BRESP
);
// the register file (one register: gain at 0x10)
reg  [31:0] gain;
reg  [4:0]  waddr;
reg         wpend, bvalid, rvalid;
reg  [31:0] rdata;
assign s_axi_control_AWREADY = !wpend && !bvalid;
assign s_axi_control_WREADY  = wpend;
assign s_axi_control_BVALID  = bvalid;
assign s_axi_control_BRESP   = 2'b00;
assign s_axi_control_ARREADY = !rvalid;
assign s_axi_control_RVALID  = rvalid;
assign s_axi_control_RDATA   = rdata;
assign s_axi_control_RRESP   = 2'b00;
always @(posedge ap_clk) begin
    if (!ap_rst_n) begin
        gain <= 32'd1; wpend <= 1'b0; bvalid <= 1'b0; rvalid <= 1'b0; rdata <= 32'd0; waddr <= 5'd0;
    end else begin
        if (s_axi_control_AWVALID && s_axi_control_AWREADY) begin wpend <= 1'b1; waddr <= s_axi_control_AWADDR; end
        if (s_axi_control_WVALID && wpend) begin
            wpend <= 1'b0; bvalid <= 1'b1;
            if (waddr == 5'h10) gain <= s_axi_control_WDATA;
        end
        if (bvalid && s_axi_control_BREADY) bvalid <= 1'b0;
        if (s_axi_control_ARVALID && !rvalid) begin
            rvalid <= 1'b1;
            rdata <= s_axi_control_ARADDR == 5'h10 ? gain : 32'd0;
        end else if (rvalid && s_axi_control_RREADY) rvalid <= 1'b0;
    end
end
// the data path: one output register (a word moves when the output is free or leaving)
reg  [31:0] odata;
reg  [3:0]  okeep, ostrb;
reg         olast, ovalid;
assign in_r_TREADY = !ovalid || out_r_TREADY;
assign out_r_TDATA = odata;
assign out_r_TVALID = ovalid;
assign out_r_TKEEP = okeep;
assign out_r_TSTRB = ostrb;
assign out_r_TLAST = olast;
always @(posedge ap_clk) begin
    if (!ap_rst_n) begin
        ovalid <= 1'b0; odata <= 32'd0; okeep <= 4'd0; ostrb <= 4'd0; olast <= 1'b0;
    end else if (in_r_TREADY) begin
        ovalid <= in_r_TVALID;
        if (in_r_TVALID) begin
            odata <= in_r_TDATA * gain; okeep <= in_r_TKEEP; ostrb <= in_r_TSTRB; olast <= in_r_TLAST[0];
        end
    end
end
endmodule
`default_nettype wire
