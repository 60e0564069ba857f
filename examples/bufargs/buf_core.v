// buf_core: the rtl side of examples/bufargs (docs/rtl-ports.md, "Buffers").
//
// scale(src, dst, k): streams src into dst, each element times k, until src's tlast (its
//   last element); returns the number of elements. Both streams stall at random when
//   STALL is set (a 16-bit LFSR: about one cycle in two), to test back-pressure.
// widen(src, dst): the same from u8 to i16 elements (dst = src - 128); returns the count.
// stuck(src): answers src_len at once and never reads its stream (the engine times out).
// add(a, b): a + b (a plain call, to show the component still serves).
`default_nettype none

module buf_core #(
    parameter integer STALL = 0
) (
    input  wire        clk,
    input  wire        rst,
    // scale
    input  wire        scale_valid,
    output wire        scale_ready,
    input  wire [31:0] scale_src_len,
    input  wire [31:0] scale_dst_len,
    input  wire [31:0] scale_k,
    output wire        scale_result_valid,
    input  wire        scale_result_ready,
    output wire [31:0] scale_result,
    input  wire [31:0] scale_src_tdata,
    input  wire        scale_src_tvalid,
    output wire        scale_src_tready,
    input  wire        scale_src_tlast,
    output wire [31:0] scale_dst_tdata,
    output wire        scale_dst_tvalid,
    input  wire        scale_dst_tready,
    output wire        scale_dst_tlast,
    // widen
    input  wire        widen_valid,
    output wire        widen_ready,
    input  wire [31:0] widen_src_len,
    input  wire [31:0] widen_dst_len,
    output wire        widen_result_valid,
    input  wire        widen_result_ready,
    output wire [31:0] widen_result,
    input  wire [7:0]  widen_src_tdata,
    input  wire        widen_src_tvalid,
    output wire        widen_src_tready,
    input  wire        widen_src_tlast,
    output wire [15:0] widen_dst_tdata,
    output wire        widen_dst_tvalid,
    input  wire        widen_dst_tready,
    output wire        widen_dst_tlast,
    // stuck
    input  wire        stuck_valid,
    output wire        stuck_ready,
    input  wire [31:0] stuck_src_len,
    output wire        stuck_result_valid,
    input  wire        stuck_result_ready,
    output wire [31:0] stuck_result,
    input  wire [31:0] stuck_src_tdata,
    input  wire        stuck_src_tvalid,
    output wire        stuck_src_tready,
    input  wire        stuck_src_tlast,
    // add
    input  wire        add_valid,
    output wire        add_ready,
    input  wire [31:0] add_a,
    input  wire [31:0] add_b,
    output wire        add_result_valid,
    input  wire        add_result_ready,
    output wire [31:0] add_result
);
    reg [15:0] lfsr;
    wire stall = (STALL != 0) && lfsr[0];
    always @(posedge clk) begin
        lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
        if (rst) lfsr <= 16'hACE1;
    end

    // ---------------------------------------------------------------- scale
    reg        s_busy, s_done;
    reg [31:0] s_k, s_count;
    assign scale_ready        = !s_busy && !s_done;
    assign scale_result_valid = s_done;
    assign scale_result       = s_count;
    assign scale_dst_tdata    = scale_src_tdata * s_k;
    assign scale_dst_tlast    = scale_src_tlast;
    assign scale_dst_tvalid   = s_busy && scale_src_tvalid && !stall;
    assign scale_src_tready   = s_busy && scale_dst_tready && !stall;
    wire   s_fire = scale_src_tvalid && scale_src_tready;
    always @(posedge clk) begin
        if (scale_valid && scale_ready) begin
            s_k     <= scale_k;
            s_count <= 32'd0;
            s_busy  <= (scale_src_len != 32'd0);
            s_done  <= (scale_src_len == 32'd0);
        end
        if (s_fire) begin
            s_count <= s_count + 32'd1;
            if (scale_src_tlast) begin
                s_busy <= 1'b0;
                s_done <= 1'b1;
            end
        end
        if (s_done && scale_result_ready) s_done <= 1'b0;
        if (rst) begin
            s_busy <= 1'b0;
            s_done <= 1'b0;
        end
    end

    // ---------------------------------------------------------------- widen
    reg        w_busy, w_done;
    reg [31:0] w_count;
    assign widen_ready        = !w_busy && !w_done;
    assign widen_result_valid = w_done;
    assign widen_result       = w_count;
    assign widen_dst_tdata    = {8'd0, widen_src_tdata} - 16'd128;
    assign widen_dst_tlast    = widen_src_tlast;
    assign widen_dst_tvalid   = w_busy && widen_src_tvalid && !stall;
    assign widen_src_tready   = w_busy && widen_dst_tready && !stall;
    wire   w_fire = widen_src_tvalid && widen_src_tready;
    always @(posedge clk) begin
        if (widen_valid && widen_ready) begin
            w_count <= 32'd0;
            w_busy  <= (widen_src_len != 32'd0);
            w_done  <= (widen_src_len == 32'd0);
        end
        if (w_fire) begin
            w_count <= w_count + 32'd1;
            if (widen_src_tlast) begin
                w_busy <= 1'b0;
                w_done <= 1'b1;
            end
        end
        if (w_done && widen_result_ready) w_done <= 1'b0;
        if (rst) begin
            w_busy <= 1'b0;
            w_done <= 1'b0;
        end
    end

    // ---------------------------------------------------------------- stuck
    reg        t_done;
    reg [31:0] t_len;
    assign stuck_ready        = !t_done;
    assign stuck_result_valid = t_done;
    assign stuck_result       = t_len;
    assign stuck_src_tready   = 1'b0;
    always @(posedge clk) begin
        if (stuck_valid && stuck_ready) begin
            t_done <= 1'b1;
            t_len  <= stuck_src_len;
        end else if (t_done && stuck_result_ready) begin
            t_done <= 1'b0;
        end
        if (rst) t_done <= 1'b0;
    end

    // ---------------------------------------------------------------- add
    // answer in the call cycle when the result is taken at once, else hold it
    reg        a_held;
    reg [31:0] a_sum;
    assign add_ready        = !a_held;
    assign add_result_valid = a_held || add_valid;
    assign add_result       = a_held ? a_sum : add_a + add_b;
    always @(posedge clk) begin
        if (add_valid && add_ready && !add_result_ready) begin
            a_held <= 1'b1;
            a_sum  <= add_a + add_b;
        end else if (add_result_ready) begin
            a_held <= 1'b0;
        end
        if (rst) a_held <= 1'b0;
    end

    wire unused = &{1'b0, scale_dst_len, widen_dst_len, stuck_src_tdata, stuck_src_tvalid,
                    stuck_src_tlast};
endmodule

`default_nettype wire
