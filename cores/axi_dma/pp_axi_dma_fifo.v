// pp_axi_dma_fifo: synchronous first-word-fall-through FIFO of 2**DEPTH_LOG2 entries
// (the data buffers of pp_axi_dma's channels). clr empties it in one cycle.
`default_nettype none

module pp_axi_dma_fifo #(
    parameter integer WIDTH      = 32,
    parameter integer DEPTH_LOG2 = 5
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clr,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data
);
    localparam integer DEPTH = 1 << DEPTH_LOG2;

    reg [WIDTH-1:0]    mem [0:DEPTH-1];
    reg [DEPTH_LOG2:0] wr_ptr;
    reg [DEPTH_LOG2:0] rd_ptr;

    wire empty = (wr_ptr == rd_ptr);
    wire full  = (wr_ptr[DEPTH_LOG2] != rd_ptr[DEPTH_LOG2]) &&
                 (wr_ptr[DEPTH_LOG2-1:0] == rd_ptr[DEPTH_LOG2-1:0]);

    assign in_ready  = !full;
    assign out_valid = !empty;
    assign out_data  = mem[rd_ptr[DEPTH_LOG2-1:0]];

    always @(posedge clk) begin
        if (in_valid && !full)
            mem[wr_ptr[DEPTH_LOG2-1:0]] <= in_data;
    end

    always @(posedge clk) begin
        if (rst || clr) begin
            wr_ptr <= {(DEPTH_LOG2+1){1'b0}};
            rd_ptr <= {(DEPTH_LOG2+1){1'b0}};
        end else begin
            if (in_valid && !full)
                wr_ptr <= wr_ptr + 1'b1;
            if (out_ready && !empty)
                rd_ptr <= rd_ptr + 1'b1;
        end
    end
endmodule

`default_nettype wire
