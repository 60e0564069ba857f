// pp_axi_dma_realign: the byte realigner of pp_axi_dma's channels (the role of PG021's DRE).
//
// Takes words carrying in_n bytes (starting at byte lane in_shift of in_data) and gives
// words of NB bytes, low-justified: out_n bytes (NB, or fewer for the last word), out_last
// on the word that holds the last byte after a word with in_end was taken. init loads the
// count of bytes already held with init_cnt (S2MM: the destination's offset in its first
// memory word, so the first word's data starts at that lane; MM2S: 0).
//
// A 2*NB-byte holding buffer: one input word and one output word per cycle at any offset.
`default_nettype none

module pp_axi_dma_realign #(
    parameter integer NB   = 4,      // bytes per word (power of two)
    parameter integer NB_W = 2       // $clog2(NB)
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              clr,
    input  wire              init,
    input  wire [NB_W-1:0]   init_cnt,
    input  wire              in_valid,
    output wire              in_ready,
    input  wire [8*NB-1:0]   in_data,
    input  wire [NB_W-1:0]   in_shift,
    input  wire [NB_W:0]     in_n,
    input  wire              in_end,
    output wire              out_valid,
    input  wire              out_ready,
    output wire [8*NB-1:0]   out_data,
    output wire [NB_W:0]     out_n,
    output wire              out_last,
    output wire              empty
);
    reg [16*NB-1:0] buf_q;     // 2*NB bytes, byte 0 = oldest
    reg [NB_W+1:0]  cnt;       // bytes held, 0 .. 2*NB
    reg             ended;     // the last input word was taken

    localparam [31:0]     NB32 = NB;
    localparam [NB_W+1:0] NBC  = NB32[NB_W+1:0];

    wire            full_word = (cnt >= NBC);
    assign out_valid = full_word || (ended && cnt != 0);
    assign out_n     = full_word ? NBC[NB_W:0] : cnt[NB_W:0];
    assign out_last  = ended && (cnt <= NBC);
    assign out_data  = buf_q[8*NB-1:0];
    assign empty     = (cnt == 0) && !ended;

    wire            pop     = out_valid && out_ready;
    wire [NB_W+1:0] cnt_pop = pop ? (full_word ? cnt - NBC : {(NB_W+2){1'b0}}) : cnt;
    assign in_ready = !ended && (cnt_pop <= NBC);
    wire            push    = in_valid && in_ready;

    wire [16*NB-1:0] base    = pop ? {{(8*NB){1'b0}}, buf_q[16*NB-1:8*NB]} : buf_q;
    wire [8*NB-1:0]  in_low  = in_data >> (8 * in_shift);
    wire [16*NB-1:0] in_wide = {{(8*NB){1'b0}}, in_low} << (8 * cnt_pop);

    wire [NB_W+2:0]  lo_b = {1'b0, cnt_pop};
    wire [NB_W+2:0]  hi_b = {1'b0, cnt_pop} + {2'b00, in_n};
    wire [16*NB-1:0] buf_d;
    genvar i;
    generate
        for (i = 0; i < 2*NB; i = i + 1) begin : g_byte
            localparam [31:0]     I32 = i;
            localparam [NB_W+2:0] IB  = I32[NB_W+2:0];
            assign buf_d[8*i +: 8] = (push && IB >= lo_b && IB < hi_b) ? in_wide[8*i +: 8] : base[8*i +: 8];
        end
    endgenerate

    always @(posedge clk) begin
        if (rst || clr) begin
            cnt   <= {(NB_W+2){1'b0}};
            ended <= 1'b0;
            buf_q <= {(16*NB){1'b0}};
        end else if (init) begin
            cnt   <= {1'b0, 1'b0, init_cnt};
            ended <= 1'b0;
        end else begin
            cnt <= cnt_pop + (push ? {1'b0, in_n} : {(NB_W+2){1'b0}});
            if (push && in_end)
                ended <= 1'b1;
            else if (pop && out_last)
                ended <= 1'b0;
            buf_q <= buf_d;
        end
    end
endmodule

`default_nettype wire
