/*
 * pushpush: the interconnect's count of outstanding read beats (ARBITRATION = 1): read
 * grants run ahead of the read data (a slave queues the requests), and a grant decided
 * while the slave still has a long queue is decided without the masters whose requests all
 * wait in that queue. So a read is granted only while fewer than AHEAD beats are
 * outstanding (open): decisions are taken close to when the data moves, as for writes
 * (whose W path is held from AW to WLAST), and the beat credits share the data fairly.
 *
 * Per slave in the crossbar's read path, once for the crossbar's shared read path and for
 * the shared bus.
 */

`default_nettype none

module pp_axi_ic_rd_beats #
(
    // counter width (enough for every master's MAX_OUTSTANDING 256-beat reads)
    parameter WIDTH = 16,
    // open while fewer than this many beats are outstanding
    parameter AHEAD = 16
)
(
    input  wire       clk,
    input  wire       rst,
    // a read is granted (fire) with this many beats (AxLEN+1)
    input  wire       fire,
    input  wire [8:0] beats,
    // a read beat leaves
    input  wire       beat,
    output wire       open
);

reg [WIDTH-1:0] cnt_reg;
initial cnt_reg = {WIDTH{1'b0}};

always @(posedge clk) begin
    cnt_reg <= cnt_reg + (fire ? {{(WIDTH-9){1'b0}}, beats} : {WIDTH{1'b0}}) -
        {{(WIDTH-1){1'b0}}, beat};
    if (rst) begin
        cnt_reg <= {WIDTH{1'b0}};
    end
end

assign open = cnt_reg < AHEAD;

endmodule

`default_nettype wire
