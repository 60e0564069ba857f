/*
 * pushpush: the interconnect's ordering rule for one master and one direction (writes or
 * reads): the master issues to one slave at a time. A request to slave sel may go (ok)
 * when nothing is outstanding, or when it goes to the slave of the outstanding ones (dst)
 * and fewer than MAX_OUTSTANDING are; so the responses of one ID can never be reordered
 * by two slaves. issue: a request is taken (to sel); done: its response is taken (B, or
 * the R beat with RLAST).
 */

`default_nettype none

module pp_axi_ic_order #
(
    parameter MAX_OUTSTANDING = 8,
    // width of a slave index
    parameter MW = 3
)
(
    input  wire          clk,
    input  wire          rst,
    input  wire [MW-1:0] sel,
    input  wire          issue,
    input  wire          done,
    output wire          ok,
    // something outstanding, to slave dst
    output wire          busy,
    output wire [MW-1:0] dst
);

localparam CW = $clog2(MAX_OUTSTANDING+1);
localparam [CW-1:0] CNT_MAX = MAX_OUTSTANDING;

reg [CW-1:0] cnt_reg;
initial cnt_reg = {CW{1'b0}};
reg [MW-1:0] dst_reg;
initial dst_reg = {MW{1'b0}};

always @(posedge clk) begin
    if (issue) begin
        dst_reg <= sel;
    end
    if (issue && !done) begin
        cnt_reg <= cnt_reg + 1'b1;
    end else if (!issue && done) begin
        cnt_reg <= cnt_reg - 1'b1;
    end
    if (rst) begin
        cnt_reg <= {CW{1'b0}};
    end
end

assign ok = cnt_reg == {CW{1'b0}} || (dst_reg == sel && cnt_reg != CNT_MAX);
assign busy = cnt_reg != {CW{1'b0}};
assign dst = dst_reg;

endmodule

`default_nettype wire
