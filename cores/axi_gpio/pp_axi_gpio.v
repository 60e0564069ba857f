// pp_axi_gpio: register-compatible with Xilinx's AXI GPIO (PG144), for the simulated board
// (a block design's axi_gpio, which PYNQ's pynq.lib.AxiGPIO drives).
//
// Registers (AXI4-Lite slave s_axil, 9-bit offsets, PG144 table 2-4):
//   0x000 GPIO_DATA   read: gpio_io_i where GPIO_TRI is 1 (input), the output register where 0;
//                     write: the output register (gpio_io_o)
//   0x004 GPIO_TRI    1 = input, 0 = output (gpio_io_t); reset TRI_DEFAULT
//   0x008 GPIO2_DATA  0x00C GPIO2_TRI: the same for channel 2 (IS_DUAL = 1; else read 0)
//   0x11C GIER        bit 31: global interrupt enable
//   0x120 IP ISR      bit 0/1: an input of channel 1/2 changed; write 1 toggles (clears) it
//   0x128 IP IER      bit 0/1: enable of the ISR bits
// ip2intc_irpt = GIER[31] & |(ISR & IER), a level. ALL_INPUTS(_2): the channel is input only
// (its data register reads gpio_io_i, writes are dropped); ALL_OUTPUTS(_2): output only (no
// tri-state register: GPIO_TRI reads 0, the data register reads the output register). Unmapped offsets read 0.
// Every access is answered OKAY in one cycle after it is taken (one at a time).
`default_nettype none

module pp_axi_gpio #(
    parameter integer GPIO_WIDTH    = 32,          // 1 .. 32
    parameter integer GPIO2_WIDTH   = 32,          // 1 .. 32
    parameter integer IS_DUAL       = 0,
    parameter integer ALL_INPUTS    = 0,
    parameter integer ALL_INPUTS_2  = 0,
    parameter integer ALL_OUTPUTS   = 0,
    parameter integer ALL_OUTPUTS_2 = 0,
    parameter [31:0]  DOUT_DEFAULT   = 32'h0,
    parameter [31:0]  TRI_DEFAULT    = 32'hFFFFFFFF,
    parameter [31:0]  DOUT_DEFAULT_2 = 32'h0,
    parameter [31:0]  TRI_DEFAULT_2  = 32'hFFFFFFFF
) (
    input  wire                    clk,
    input  wire                    rst,      // synchronous, active high (s_axi_aresetn inverted)
    input  wire [8:0]              s_axil_awaddr,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output reg                     s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [8:0]              s_axil_araddr,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output reg  [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output reg                     s_axil_rvalid,
    input  wire                    s_axil_rready,
    input  wire [GPIO_WIDTH-1:0]   gpio_io_i,
    output wire [GPIO_WIDTH-1:0]   gpio_io_o,
    output wire [GPIO_WIDTH-1:0]   gpio_io_t,
    input  wire [GPIO2_WIDTH-1:0]  gpio2_io_i,
    output wire [GPIO2_WIDTH-1:0]  gpio2_io_o,
    output wire [GPIO2_WIDTH-1:0]  gpio2_io_t,
    output wire                    ip2intc_irpt
);

localparam [31:0] M1 = GPIO_WIDTH >= 32 ? 32'hFFFFFFFF : ((32'd1 << GPIO_WIDTH) - 32'd1);
localparam [31:0] M2 = GPIO2_WIDTH >= 32 ? 32'hFFFFFFFF : ((32'd1 << GPIO2_WIDTH) - 32'd1);

// the registers, 32 bits each, bits above the channel's width kept 0
/* verilator lint_off UNUSED */
reg  [31:0] data1, dir1, data2, dir2;
/* verilator lint_on UNUSED */
reg  [31:0] in1_q, in2_q;
reg         gie;
reg  [1:0]  isr, ier;
wire [31:0] in1, in2;

generate
    if (GPIO_WIDTH < 32) begin : g_in1
        assign in1 = {{(32 - GPIO_WIDTH){1'b0}}, gpio_io_i};
    end else begin : g_in1_full
        assign in1 = gpio_io_i;
    end
    if (GPIO2_WIDTH < 32) begin : g_in2
        assign in2 = {{(32 - GPIO2_WIDTH){1'b0}}, gpio2_io_i};
    end else begin : g_in2_full
        assign in2 = gpio2_io_i;
    end
endgenerate

wire wr = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
wire rd = s_axil_arvalid && !s_axil_rvalid;

assign s_axil_awready = wr;
assign s_axil_wready  = wr;
assign s_axil_arready = rd;
assign s_axil_bresp   = 2'b00;
assign s_axil_rresp   = 2'b00;
assign gpio_io_o  = data1[GPIO_WIDTH-1:0];
assign gpio_io_t  = dir1[GPIO_WIDTH-1:0];
assign gpio2_io_o = data2[GPIO2_WIDTH-1:0];
assign gpio2_io_t = dir2[GPIO2_WIDTH-1:0];
assign ip2intc_irpt = gie && |(isr & ier);

wire [31:0] rd1 = ALL_INPUTS != 0 ? in1 : ((in1 & dir1) | (data1 & ~dir1));
wire [31:0] rd2 = ALL_INPUTS_2 != 0 ? in2 : ((in2 & dir2) | (data2 & ~dir2));
wire [31:0] wmask = {{8{s_axil_wstrb[3]}}, {8{s_axil_wstrb[2]}}, {8{s_axil_wstrb[1]}}, {8{s_axil_wstrb[0]}}};

function [31:0] merge;       // a register's new value under the write strobes
    input [31:0] old;
    input [31:0] keep;       // the channel's bits
    begin
        merge = ((old & ~wmask) | (s_axil_wdata & wmask)) & keep;
    end
endfunction

always @(posedge clk) begin
    in1_q <= in1;
    in2_q <= in2;
    if (in1 != in1_q) isr[0] <= 1'b1;
    if (IS_DUAL != 0 && in2 != in2_q) isr[1] <= 1'b1;
    if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
    if (wr) begin
        s_axil_bvalid <= 1'b1;
        case (s_axil_awaddr[8:2])
            7'h00: if (ALL_INPUTS == 0) data1 <= merge(data1, M1);
            7'h01: if (ALL_OUTPUTS == 0) dir1 <= merge(dir1, M1);
            7'h02: if (IS_DUAL != 0 && ALL_INPUTS_2 == 0) data2 <= merge(data2, M2);
            7'h03: if (IS_DUAL != 0 && ALL_OUTPUTS_2 == 0) dir2 <= merge(dir2, M2);
            7'h47: if (s_axil_wstrb[3]) gie <= s_axil_wdata[31];
            7'h48: if (s_axil_wstrb[0]) isr <= isr ^ s_axil_wdata[1:0];
            7'h4A: if (s_axil_wstrb[0]) ier <= s_axil_wdata[1:0];
            default: ;
        endcase
    end
    if (s_axil_rvalid && s_axil_rready) s_axil_rvalid <= 1'b0;
    if (rd) begin
        s_axil_rvalid <= 1'b1;
        case (s_axil_araddr[8:2])
            7'h00: s_axil_rdata <= rd1;
            7'h01: s_axil_rdata <= dir1;
            7'h02: s_axil_rdata <= IS_DUAL != 0 ? rd2 : 32'd0;
            7'h03: s_axil_rdata <= IS_DUAL != 0 ? dir2 : 32'd0;
            7'h47: s_axil_rdata <= {gie, 31'd0};
            7'h48: s_axil_rdata <= {30'd0, isr};
            7'h4A: s_axil_rdata <= {30'd0, ier};
            default: s_axil_rdata <= 32'd0;
        endcase
    end
    if (rst) begin
        data1 <= DOUT_DEFAULT & M1;
        dir1 <= ALL_OUTPUTS != 0 ? 32'd0 : (TRI_DEFAULT & M1);
        data2 <= DOUT_DEFAULT_2 & M2;
        dir2 <= ALL_OUTPUTS_2 != 0 ? 32'd0 : (TRI_DEFAULT_2 & M2);
        in1_q <= in1;
        in2_q <= in2;
        gie <= 1'b0;
        isr <= 2'b00;
        ier <= 2'b00;
        s_axil_bvalid <= 1'b0;
        s_axil_rvalid <= 1'b0;
        s_axil_rdata <= 32'd0;
    end
end
// the byte offset within a word (AXI4-Lite accesses here are whole words)
/* verilator lint_off UNUSED */
wire pp_unused = &{1'b0, s_axil_awaddr[1:0], s_axil_araddr[1:0]};
/* verilator lint_on UNUSED */

endmodule

`default_nettype wire
