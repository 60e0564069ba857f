/*
 * pushpush: AXI interconnect default slave.
 *
 * Answers every transaction with DECERR: consumes the W beats of a write up to WLAST and
 * answers one B; answers a read with AxLEN+1 R beats (zero data), RLAST on the last.
 * One write and one read at a time.
 */

`default_nettype none

module pp_axi_ic_decerr #
(
    // Width of the ID signals
    parameter ID_WIDTH = 4
)
(
    input  wire                clk,
    input  wire                rst,

    input  wire [ID_WIDTH-1:0] s_axi_awid,
    input  wire                s_axi_awvalid,
    output wire                s_axi_awready,
    input  wire                s_axi_wlast,
    input  wire                s_axi_wvalid,
    output wire                s_axi_wready,
    output wire [ID_WIDTH-1:0] s_axi_bid,
    output wire                s_axi_bvalid,
    input  wire                s_axi_bready,

    input  wire [ID_WIDTH-1:0] s_axi_arid,
    input  wire [7:0]          s_axi_arlen,
    input  wire                s_axi_arvalid,
    output wire                s_axi_arready,
    output wire [ID_WIDTH-1:0] s_axi_rid,
    output wire                s_axi_rlast,
    output wire                s_axi_rvalid,
    input  wire                s_axi_rready
);

// write side: idle -> data (w_active) -> response (b_valid)
reg [ID_WIDTH-1:0] w_id_reg;
initial w_id_reg = {ID_WIDTH{1'b0}};
reg                w_active_reg;
initial w_active_reg = 1'b0;
reg                b_valid_reg;
initial b_valid_reg = 1'b0;

assign s_axi_awready = !w_active_reg && !b_valid_reg;
assign s_axi_wready  = w_active_reg;
assign s_axi_bid     = w_id_reg;
assign s_axi_bvalid  = b_valid_reg;

always @(posedge clk) begin
    if (s_axi_awvalid && s_axi_awready) begin
        w_id_reg <= s_axi_awid;
        w_active_reg <= 1'b1;
    end
    if (s_axi_wvalid && s_axi_wready && s_axi_wlast) begin
        w_active_reg <= 1'b0;
        b_valid_reg <= 1'b1;
    end
    if (s_axi_bvalid && s_axi_bready) begin
        b_valid_reg <= 1'b0;
    end
    if (rst) begin
        w_active_reg <= 1'b0;
        b_valid_reg <= 1'b0;
    end
end

// read side: idle -> LEN+1 beats
reg [ID_WIDTH-1:0] r_id_reg;
initial r_id_reg = {ID_WIDTH{1'b0}};
reg [7:0]          r_count_reg;
initial r_count_reg = 8'd0;
reg                r_valid_reg;
initial r_valid_reg = 1'b0;

assign s_axi_arready = !r_valid_reg;
assign s_axi_rid     = r_id_reg;
assign s_axi_rlast   = r_count_reg == 8'd0;
assign s_axi_rvalid  = r_valid_reg;

always @(posedge clk) begin
    if (s_axi_arvalid && s_axi_arready) begin
        r_id_reg <= s_axi_arid;
        r_count_reg <= s_axi_arlen;
        r_valid_reg <= 1'b1;
    end
    if (s_axi_rvalid && s_axi_rready) begin
        r_count_reg <= r_count_reg - 8'd1;
        if (s_axi_rlast) begin
            r_valid_reg <= 1'b0;
        end
    end
    if (rst) begin
        r_valid_reg <= 1'b0;
        r_count_reg <= 8'd0;
    end
end

endmodule

`default_nettype wire
