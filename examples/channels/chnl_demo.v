// chnl_demo: the rtl side of examples/channels, in the style of RIFFA 2.1's tutorial cores
// (a state machine per channel on CHNL_RX*/CHNL_TX*; docs/rtl-ports.md, "Channels").
//
// loop  : every receive transaction (LEN, OFF, LAST) is sent back as a transmit
//         transaction with the same LEN, OFF and LAST, its words through a FIFO of 2**DEPTH_LOG2
//         words, so receiving may start while sending (both at once stream any length).
// acc   : sums the words of receive transactions; when one arrives with LAST, sends two words
//         (the sum, the word count) at offset 0 with LAST and starts over (RIFFA's Figure 2).
// stuck : acknowledges one receive transaction, takes 3 words, then never reads again (a core
//         that stops reading: the channel times out and reports the 3 words).
// add   : a + b, an ordinary export next to the channels.
`default_nettype none

module chnl_demo #(
    parameter integer DEPTH_LOG2 = 9
) (
    input  wire        clk,
    input  wire        rst,
    // channel loop (RIFFA's ports, prefixed loop_)
    output wire        loop_CHNL_RX_CLK,
    input  wire        loop_CHNL_RX,
    output wire        loop_CHNL_RX_ACK,
    input  wire        loop_CHNL_RX_LAST,
    input  wire [31:0] loop_CHNL_RX_LEN,
    input  wire [30:0] loop_CHNL_RX_OFF,
    input  wire [31:0] loop_CHNL_RX_DATA,
    input  wire        loop_CHNL_RX_DATA_VALID,
    output wire        loop_CHNL_RX_DATA_REN,
    output wire        loop_CHNL_TX_CLK,
    output wire        loop_CHNL_TX,
    input  wire        loop_CHNL_TX_ACK,
    output wire        loop_CHNL_TX_LAST,
    output wire [31:0] loop_CHNL_TX_LEN,
    output wire [30:0] loop_CHNL_TX_OFF,
    output wire [31:0] loop_CHNL_TX_DATA,
    output wire        loop_CHNL_TX_DATA_VALID,
    input  wire        loop_CHNL_TX_DATA_REN,
    // channel acc
    input  wire        acc_CHNL_RX,
    output wire        acc_CHNL_RX_ACK,
    input  wire        acc_CHNL_RX_LAST,
    input  wire [31:0] acc_CHNL_RX_LEN,
    input  wire [30:0] acc_CHNL_RX_OFF,
    input  wire [31:0] acc_CHNL_RX_DATA,
    input  wire        acc_CHNL_RX_DATA_VALID,
    output wire        acc_CHNL_RX_DATA_REN,
    output wire        acc_CHNL_TX,
    input  wire        acc_CHNL_TX_ACK,
    output wire        acc_CHNL_TX_LAST,
    output wire [31:0] acc_CHNL_TX_LEN,
    output wire [30:0] acc_CHNL_TX_OFF,
    output wire [31:0] acc_CHNL_TX_DATA,
    output wire        acc_CHNL_TX_DATA_VALID,
    input  wire        acc_CHNL_TX_DATA_REN,
    // channel stuck
    input  wire        stuck_CHNL_RX,
    output wire        stuck_CHNL_RX_ACK,
    input  wire        stuck_CHNL_RX_LAST,
    input  wire [31:0] stuck_CHNL_RX_LEN,
    input  wire [30:0] stuck_CHNL_RX_OFF,
    input  wire [31:0] stuck_CHNL_RX_DATA,
    input  wire        stuck_CHNL_RX_DATA_VALID,
    output wire        stuck_CHNL_RX_DATA_REN,
    output wire        stuck_CHNL_TX,
    input  wire        stuck_CHNL_TX_ACK,
    output wire        stuck_CHNL_TX_LAST,
    output wire [31:0] stuck_CHNL_TX_LEN,
    output wire [30:0] stuck_CHNL_TX_OFF,
    output wire [31:0] stuck_CHNL_TX_DATA,
    output wire        stuck_CHNL_TX_DATA_VALID,
    input  wire        stuck_CHNL_TX_DATA_REN,
    // add
    input  wire        add_valid,
    output wire        add_ready,
    input  wire [31:0] add_a,
    input  wire [31:0] add_b,
    output wire        add_result_valid,
    input  wire        add_result_ready,
    output wire [31:0] add_result
);
    assign loop_CHNL_RX_CLK = clk;
    assign loop_CHNL_TX_CLK = clk;

    // ------------------------------------------------------------------ loop
    localparam integer DEPTH = 1 << DEPTH_LOG2;
    reg [31:0] fifo [0:DEPTH-1];
    reg [DEPTH_LOG2:0] wp, rp;
    wire fifo_full  = (wp - rp) == DEPTH[DEPTH_LOG2:0];
    wire fifo_empty = (wp == rp);

    reg        l_rx_busy, l_tx_busy, l_tx_acked;
    reg [31:0] l_len, l_rx_count, l_tx_count;
    reg [30:0] l_off;
    reg        l_last;
    wire l_accept = loop_CHNL_RX && !l_rx_busy && !l_tx_busy;
    assign loop_CHNL_RX_ACK        = l_accept;
    assign loop_CHNL_RX_DATA_REN   = l_rx_busy && !fifo_full;
    assign loop_CHNL_TX            = l_tx_busy;
    assign loop_CHNL_TX_LEN        = l_len;
    assign loop_CHNL_TX_OFF        = l_off;
    assign loop_CHNL_TX_LAST       = l_last;
    assign loop_CHNL_TX_DATA       = fifo[rp[DEPTH_LOG2-1:0]];
    assign loop_CHNL_TX_DATA_VALID = l_tx_acked && !fifo_empty;
    wire l_push = loop_CHNL_RX_DATA_VALID && loop_CHNL_RX_DATA_REN;
    wire l_pop  = loop_CHNL_TX_DATA_VALID && loop_CHNL_TX_DATA_REN;

    always @(posedge clk) begin
        if (l_accept) begin
            l_len      <= loop_CHNL_RX_LEN;
            l_off      <= loop_CHNL_RX_OFF;
            l_last     <= loop_CHNL_RX_LAST;
            l_rx_count <= 32'd0;
            l_tx_count <= 32'd0;
            l_rx_busy  <= (loop_CHNL_RX_LEN != 32'd0);
            l_tx_busy  <= 1'b1;
            l_tx_acked <= 1'b0;
        end
        if (l_push) begin
            fifo[wp[DEPTH_LOG2-1:0]] <= loop_CHNL_RX_DATA;
            wp <= wp + 1'b1;
            l_rx_count <= l_rx_count + 32'd1;
            if (l_rx_count + 32'd1 == l_len) l_rx_busy <= 1'b0;
        end
        if (l_tx_busy && loop_CHNL_TX_ACK) begin
            l_tx_acked <= 1'b1;
            if (l_len == 32'd0) l_tx_busy <= 1'b0;
        end
        if (l_pop) begin
            rp <= rp + 1'b1;
            l_tx_count <= l_tx_count + 32'd1;
            if (l_tx_count + 32'd1 == l_len) begin
                l_tx_busy  <= 1'b0;
                l_tx_acked <= 1'b0;
            end
        end
        if (rst) begin
            wp <= 0;
            rp <= 0;
            l_rx_busy  <= 1'b0;
            l_tx_busy  <= 1'b0;
            l_tx_acked <= 1'b0;
            l_len      <= 32'd0;
            l_off      <= 31'd0;
            l_last     <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ acc
    // 0 idle, 1 ack, 2 receiving, 3 transmit request, 4 sending the sum, 5 sending the count
    reg [2:0]  a_state;
    reg [31:0] a_sum, a_count, a_left;
    reg        a_last;
    assign acc_CHNL_RX_ACK        = (a_state == 3'd1);
    assign acc_CHNL_RX_DATA_REN   = (a_state == 3'd2);
    assign acc_CHNL_TX            = (a_state >= 3'd3);
    assign acc_CHNL_TX_LAST       = 1'b1;
    assign acc_CHNL_TX_LEN        = 32'd2;
    assign acc_CHNL_TX_OFF        = 31'd0;
    assign acc_CHNL_TX_DATA       = (a_state == 3'd4) ? a_sum : a_count;
    assign acc_CHNL_TX_DATA_VALID = (a_state == 3'd4) || (a_state == 3'd5);
    wire a_read = acc_CHNL_RX_DATA_VALID && acc_CHNL_RX_DATA_REN;
    always @(posedge clk) begin
        case (a_state)
            3'd0: if (acc_CHNL_RX) a_state <= 3'd1;
            3'd1: begin
                a_left  <= acc_CHNL_RX_LEN;
                a_last  <= acc_CHNL_RX_LAST;
                a_state <= 3'd2;
            end
            3'd2: begin
                if (a_read) begin
                    a_sum   <= a_sum + acc_CHNL_RX_DATA;
                    a_count <= a_count + 32'd1;
                    a_left  <= a_left - 32'd1;
                end
                if (a_left == 32'd0 || (a_read && a_left == 32'd1))
                    a_state <= a_last ? 3'd3 : 3'd0;
            end
            3'd3: if (acc_CHNL_TX_ACK) a_state <= 3'd4;
            3'd4: if (acc_CHNL_TX_DATA_REN) a_state <= 3'd5;
            3'd5: if (acc_CHNL_TX_DATA_REN) begin
                a_state <= 3'd0;
                a_sum   <= 32'd0;
                a_count <= 32'd0;
            end
            default: a_state <= 3'd0;
        endcase
        if (rst) begin
            a_state <= 3'd0;
            a_sum   <= 32'd0;
            a_count <= 32'd0;
            a_left  <= 32'd0;
            a_last  <= 1'b0;
        end
    end

    // ------------------------------------------------------------------ stuck
    reg [1:0] s_state;   // 0 idle, 1 ack, 2 reading, 3 stopped for good
    reg [1:0] s_taken;
    assign stuck_CHNL_RX_ACK      = (s_state == 2'd1);
    assign stuck_CHNL_RX_DATA_REN = (s_state == 2'd2);
    assign stuck_CHNL_TX          = 1'b0;
    assign stuck_CHNL_TX_LAST     = 1'b0;
    assign stuck_CHNL_TX_LEN      = 32'd0;
    assign stuck_CHNL_TX_OFF      = 31'd0;
    assign stuck_CHNL_TX_DATA     = 32'd0;
    assign stuck_CHNL_TX_DATA_VALID = 1'b0;
    always @(posedge clk) begin
        case (s_state)
            2'd0: if (stuck_CHNL_RX) s_state <= 2'd1;
            2'd1: s_state <= 2'd2;
            2'd2: if (stuck_CHNL_RX_DATA_VALID) begin
                s_taken <= s_taken + 2'd1;
                if (s_taken == 2'd2) s_state <= 2'd3;
            end
            default: s_state <= 2'd3;
        endcase
        if (rst) begin
            s_state <= 2'd0;
            s_taken <= 2'd0;
        end
    end

    // ------------------------------------------------------------------ add
    reg        ad_held;
    reg [31:0] ad_sum;
    assign add_ready        = !ad_held;
    assign add_result_valid = ad_held || add_valid;
    assign add_result       = ad_held ? ad_sum : add_a + add_b;
    always @(posedge clk) begin
        if (add_valid && add_ready && !add_result_ready) begin
            ad_held <= 1'b1;
            ad_sum  <= add_a + add_b;
        end else if (add_result_ready) begin
            ad_held <= 1'b0;
        end
        if (rst) ad_held <= 1'b0;
    end

    wire unused = &{1'b0, acc_CHNL_RX_OFF, stuck_CHNL_RX_LAST, stuck_CHNL_RX_LEN,
                    stuck_CHNL_RX_OFF, stuck_CHNL_RX_DATA, stuck_CHNL_TX_ACK,
                    stuck_CHNL_TX_DATA_REN};
endmodule

`default_nettype wire
