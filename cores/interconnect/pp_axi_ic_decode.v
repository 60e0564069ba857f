/*
 * pushpush: the interconnect's address decoder: per master, the slave its address falls in.
 *
 * Slave j answers the 2**M_ADDR_WIDTH[j] bytes at M_BASE_ADDR[j] (size aligned; the lowest
 * j wins where windows overlap); an address in no window of a slave the master is connected
 * to (M_CONNECT) decodes to the default slave, index M_COUNT. Per master a function of that
 * master's address alone (re-evaluated only when it changes), the windows as constants.
 */

`default_nettype none

module pp_axi_ic_decode #
(
    // masters (one address each) and slaves
    parameter S_COUNT = 4,
    parameter M_COUNT = 4,
    parameter ADDR_WIDTH = 32,
    // pp_axi_interconnect's parameters of the same names
    parameter M_BASE_ADDR = {M_COUNT{{ADDR_WIDTH{1'b0}}}},
    parameter M_ADDR_WIDTH = {M_COUNT{32'd24}},
    parameter M_CONNECT = {(M_COUNT*S_COUNT){1'b1}},
    // width of a slave index (0..M_COUNT)
    parameter MW = $clog2(M_COUNT+1)
)
(
    input  wire [S_COUNT*ADDR_WIDTH-1:0] addr,
    output wire [S_COUNT*MW-1:0]         sel
);

localparam MI = M_COUNT+1;
localparam [MW-1:0] DEC_SEL = M_COUNT[MW-1:0];

genvar i;

function [ADDR_WIDTH-1:0] win_mask(input integer n);
    win_mask = {ADDR_WIDTH{1'b1}} << M_ADDR_WIDTH[n*32 +: 32];
endfunction

// connectivity including the default slave (row M_COUNT: every master), [slave*S_COUNT + master]
localparam [MI*S_COUNT-1:0] CONN = {{S_COUNT{1'b1}}, M_CONNECT[M_COUNT*S_COUNT-1:0]};

// the slaves master m is connected to (bit j; the default slave is not in this mask)
function [M_COUNT-1:0] conn_row(input integer m);
    integer n;
    begin
        for (n = 0; n < M_COUNT; n = n + 1) begin
            conn_row[n] = CONN[n*S_COUNT+m];
        end
    end
endfunction

function [M_COUNT*ADDR_WIDTH-1:0] win_masks(input integer unused);
    integer n;
    begin
        win_masks = {(M_COUNT*ADDR_WIDTH){1'b0}};
        for (n = 0; n < M_COUNT; n = n + 1) begin
            win_masks[n*ADDR_WIDTH +: ADDR_WIDTH] = win_mask(n);
        end
    end
endfunction

localparam [M_COUNT*ADDR_WIDTH-1:0] WIN_MASK = win_masks(0);
localparam [M_COUNT*ADDR_WIDTH-1:0] WIN_BASE = M_BASE_ADDR & WIN_MASK;

// (only the windows of the slaves the master is connected to, conn: the default slave for
// the others)
function [MW-1:0] decode(input [ADDR_WIDTH-1:0] a, input [M_COUNT-1:0] conn);
    integer n;
    begin
        decode = DEC_SEL;
        for (n = M_COUNT-1; n >= 0; n = n - 1) begin
            if (conn[n] && (a & WIN_MASK[n*ADDR_WIDTH +: ADDR_WIDTH]) == WIN_BASE[n*ADDR_WIDTH +: ADDR_WIDTH]) begin
                decode = n[MW-1:0];
            end
        end
    end
endfunction

generate
for (i = 0; i < S_COUNT; i = i + 1) begin : dec
    localparam [M_COUNT-1:0] ROW = conn_row(i);
    assign sel[i*MW +: MW] = decode(addr[i*ADDR_WIDTH +: ADDR_WIDTH], ROW);
end
endgenerate

endmodule

`default_nettype wire
