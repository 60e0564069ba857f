/*
 * pushpush: read-only AXI4 pattern memory for benchmarks (pushpush bench).
 *
 * An AXI4 slave that answers INCR read bursts with the traffic generator's pattern (every
 * 32-bit word = its byte address, cfg_seed 0) at one beat per cycle, without bubbles
 * between bursts. Read requests are accepted into a DEPTH-entry queue (ARREADY high while
 * it has room), like a memory controller's read queue; the first beat of a burst accepted
 * into an empty queue leaves two cycles after the AR handshake. Writes are not served
 * (AWREADY and WREADY are 0).
 */

`default_nettype none

module pp_bench_rdmem #
(
    // Data width in bits (32 or 64)
    parameter DATA_WIDTH = 32,
    // Address width in bits
    parameter ADDR_WIDTH = 32,
    // ID width
    parameter ID_WIDTH = 4,
    // log2 of the read request queue depth
    parameter QUEUE_BITS = 5
)
(
    input  wire                     clk,
    input  wire                     rst,

    input  wire [ID_WIDTH-1:0]      s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [7:0]               s_axi_awlen,
    input  wire [2:0]               s_axi_awsize,
    input  wire [1:0]               s_axi_awburst,
    input  wire                     s_axi_awlock,
    input  wire [3:0]               s_axi_awcache,
    input  wire [2:0]               s_axi_awprot,
    input  wire [3:0]               s_axi_awqos,
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
    input  wire [3:0]               s_axi_arqos,
    input  wire                     s_axi_arvalid,
    output wire                     s_axi_arready,
    output wire [ID_WIDTH-1:0]      s_axi_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [1:0]               s_axi_rresp,
    output wire                     s_axi_rlast,
    output wire                     s_axi_rvalid,
    input  wire                     s_axi_rready
);

localparam DEPTH = 1 << QUEUE_BITS;
localparam QW = 32 + 8 + ID_WIDTH;
localparam WORDS = DATA_WIDTH / 32;
localparam [31:0] BEAT_BYTES = DATA_WIDTH / 8;

// read request queue: {id, len, address (low 32 bits)}
reg [QW-1:0] queue_mem [0:DEPTH-1];
reg [QUEUE_BITS:0] wr_ptr_reg;
reg [QUEUE_BITS:0] rd_ptr_reg;
initial wr_ptr_reg = {(QUEUE_BITS+1){1'b0}};
initial rd_ptr_reg = {(QUEUE_BITS+1){1'b0}};

integer k;
initial begin
    for (k = 0; k < DEPTH; k = k + 1) begin
        queue_mem[k] = {QW{1'b0}};
    end
end

wire empty = wr_ptr_reg == rd_ptr_reg;
wire full = wr_ptr_reg == {~rd_ptr_reg[QUEUE_BITS], rd_ptr_reg[QUEUE_BITS-1:0]};
wire [QW-1:0] head = queue_mem[rd_ptr_reg[QUEUE_BITS-1:0]];

// the burst being answered
reg [31:0]         addr_reg;
reg [7:0]          left_reg;
reg [ID_WIDTH-1:0] id_reg;
reg                valid_reg;
initial begin
    addr_reg = 32'd0;
    left_reg = 8'd0;
    id_reg = {ID_WIDTH{1'b0}};
    valid_reg = 1'b0;
end

wire r_fire = valid_reg && s_axi_rready;
wire last = left_reg == 8'd0;
wire load = !empty && (!valid_reg || (r_fire && last));

always @(posedge clk) begin
    if (s_axi_arvalid && !full) begin
        queue_mem[wr_ptr_reg[QUEUE_BITS-1:0]] <= {s_axi_arid, s_axi_arlen, s_axi_araddr[31:0]};
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (load) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
        addr_reg <= head[31:0];
        left_reg <= head[39:32];
        id_reg <= head[QW-1:40];
        valid_reg <= 1'b1;
    end else if (r_fire) begin
        if (last) begin
            valid_reg <= 1'b0;
        end else begin
            addr_reg <= addr_reg + BEAT_BYTES;
            left_reg <= left_reg - 1'b1;
        end
    end
    if (rst) begin
        wr_ptr_reg <= {(QUEUE_BITS+1){1'b0}};
        rd_ptr_reg <= {(QUEUE_BITS+1){1'b0}};
        valid_reg <= 1'b0;
    end
end

genvar n;
generate
    for (n = 0; n < WORDS; n = n + 1) begin : g_word
        assign s_axi_rdata[32*n +: 32] = addr_reg + 32'd4 * n;
    end
endgenerate

assign s_axi_arready = !full;
assign s_axi_rid = id_reg;
assign s_axi_rresp = 2'b00;
assign s_axi_rlast = last;
assign s_axi_rvalid = valid_reg;

assign s_axi_awready = 1'b0;
assign s_axi_wready = 1'b0;
assign s_axi_bid = {ID_WIDTH{1'b0}};
assign s_axi_bresp = 2'b00;
assign s_axi_bvalid = 1'b0;

// write channels and request attributes are not used (INCR, full-width bursts assumed)
wire unused = &{1'b0, s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst,
    s_axi_awlock, s_axi_awcache, s_axi_awprot, s_axi_awqos, s_axi_awvalid, s_axi_wdata,
    s_axi_wstrb, s_axi_wlast, s_axi_wvalid, s_axi_bready, s_axi_arsize, s_axi_arburst,
    s_axi_arlock, s_axi_arcache, s_axi_arprot, s_axi_arqos, 1'b0};

endmodule

`default_nettype wire
