// bench_chnl: the rtl side of `pushpush bench channels` (pushpush/bench/experiments/channels.py).
//
// One RIFFA-style channel `c` (docs/rtl-ports.md, "Channels") at full speed, with cycle
// stamps (a free-running cycle counter):
// - receive side (software sends): CHNL_RX_ACK the cycle CHNL_RX is seen, CHNL_RX_DATA_REN
//   always high (a sink); rx_stamps = {cycle of the last word (or of the ACK, LEN 0), cycle
//   CHNL_RX was first seen};
// - transmit side (software receives): arm(n, echo) prepares one transaction of n words
//   (OFF 0, LAST 1, data = word index); mode 0: CHNL_TX rises at once (the ACK comes when
//   software posts its buffer); mode 1: after the next receive transaction ended (a round
//   trip); mode 2: when the next receive transaction is acknowledged (both directions from
//   the same cycle); tx_stamps = {cycle of the last word, cycle of the ACK}.
`default_nettype none

module bench_chnl (
    input  wire        clk,
    input  wire        rst,
    input  wire        c_CHNL_RX,
    output wire        c_CHNL_RX_ACK,
    input  wire        c_CHNL_RX_LAST,
    input  wire [31:0] c_CHNL_RX_LEN,
    input  wire [30:0] c_CHNL_RX_OFF,
    input  wire [31:0] c_CHNL_RX_DATA,
    input  wire        c_CHNL_RX_DATA_VALID,
    output wire        c_CHNL_RX_DATA_REN,
    output wire        c_CHNL_TX,
    input  wire        c_CHNL_TX_ACK,
    output wire        c_CHNL_TX_LAST,
    output wire [31:0] c_CHNL_TX_LEN,
    output wire [30:0] c_CHNL_TX_OFF,
    output wire [31:0] c_CHNL_TX_DATA,
    output wire        c_CHNL_TX_DATA_VALID,
    input  wire        c_CHNL_TX_DATA_REN,
    input  wire        arm_valid,
    output wire        arm_ready,
    input  wire [31:0] arm_n,
    input  wire [31:0] arm_mode,
    output wire        arm_result_valid,
    input  wire        arm_result_ready,
    input  wire        rx_stamps_valid,
    output wire        rx_stamps_ready,
    output wire        rx_stamps_result_valid,
    input  wire        rx_stamps_result_ready,
    output wire [63:0] rx_stamps_result,
    input  wire        tx_stamps_valid,
    output wire        tx_stamps_ready,
    output wire        tx_stamps_result_valid,
    input  wire        tx_stamps_result_ready,
    output wire [63:0] tx_stamps_result
);
    reg [31:0] cycle;
    always @(posedge clk) cycle <= rst ? 32'd0 : cycle + 32'd1;

    // receive side: a sink
    reg        rx_busy;
    reg [31:0] rx_left, rx_start, rx_end;
    reg        rx_done_pulse;
    assign c_CHNL_RX_ACK      = c_CHNL_RX && !rx_busy;
    assign c_CHNL_RX_DATA_REN = rx_busy;
    wire rx_word = c_CHNL_RX_DATA_VALID && rx_busy;
    always @(posedge clk) begin
        rx_done_pulse <= 1'b0;
        if (c_CHNL_RX_ACK) begin
            rx_start <= cycle;
            rx_left  <= c_CHNL_RX_LEN;
            rx_busy  <= (c_CHNL_RX_LEN != 32'd0);
            if (c_CHNL_RX_LEN == 32'd0) begin
                rx_end        <= cycle;
                rx_done_pulse <= 1'b1;
            end
        end
        if (rx_word) begin
            rx_left <= rx_left - 32'd1;
            if (rx_left == 32'd1) begin
                rx_busy       <= 1'b0;
                rx_end        <= cycle;
                rx_done_pulse <= 1'b1;
            end
        end
        if (rst) begin
            rx_busy       <= 1'b0;
            rx_left       <= 32'd0;
            rx_start      <= 32'd0;
            rx_end        <= 32'd0;
            rx_done_pulse <= 1'b0;
        end
    end

    // transmit side: a source of n words
    reg        tx_armed, tx_wait_rx, tx_wait_ack, tx_acked;
    reg [31:0] tx_len, tx_sent, tx_start, tx_end;
    assign c_CHNL_TX            = tx_armed && !tx_wait_rx && !tx_wait_ack;
    assign c_CHNL_TX_LAST       = 1'b1;
    assign c_CHNL_TX_LEN        = tx_len;
    assign c_CHNL_TX_OFF        = 31'd0;
    assign c_CHNL_TX_DATA       = tx_sent;
    assign c_CHNL_TX_DATA_VALID = tx_acked && tx_sent != tx_len;
    // each export answers in its call cycle, or holds the answer until it is taken
    reg arm_held, rxs_held, txs_held;
    assign arm_ready            = !arm_held;
    assign arm_result_valid     = arm_held || arm_valid;
    always @(posedge clk) begin
        if (arm_valid && arm_ready && !arm_result_ready) arm_held <= 1'b1;
        else if (arm_result_ready) arm_held <= 1'b0;
        if (rx_stamps_valid && rx_stamps_ready && !rx_stamps_result_ready) rxs_held <= 1'b1;
        else if (rx_stamps_result_ready) rxs_held <= 1'b0;
        if (tx_stamps_valid && tx_stamps_ready && !tx_stamps_result_ready) txs_held <= 1'b1;
        else if (tx_stamps_result_ready) txs_held <= 1'b0;
        if (rst) begin
            arm_held <= 1'b0;
            rxs_held <= 1'b0;
            txs_held <= 1'b0;
        end
    end
    always @(posedge clk) begin
        if (arm_valid && arm_ready) begin
            tx_armed   <= 1'b1;
            tx_wait_rx <= (arm_mode == 32'd1);
            tx_wait_ack <= (arm_mode == 32'd2);
            tx_acked   <= 1'b0;
            tx_len     <= arm_n;
            tx_sent    <= 32'd0;
        end
        if (tx_wait_rx && rx_done_pulse) tx_wait_rx <= 1'b0;
        if (tx_wait_ack && c_CHNL_RX_ACK) tx_wait_ack <= 1'b0;
        if (c_CHNL_TX && c_CHNL_TX_ACK) begin
            tx_acked <= 1'b1;
            tx_start <= cycle;
            if (tx_len == 32'd0) begin
                tx_armed <= 1'b0;
                tx_end   <= cycle;
            end
        end
        if (c_CHNL_TX_DATA_VALID && c_CHNL_TX_DATA_REN) begin
            tx_sent <= tx_sent + 32'd1;
            if (tx_sent + 32'd1 == tx_len) begin
                tx_armed <= 1'b0;
                tx_acked <= 1'b0;
                tx_end   <= cycle;
            end
        end
        if (rst) begin
            tx_armed   <= 1'b0;
            tx_wait_rx <= 1'b0;
            tx_wait_ack <= 1'b0;
            tx_acked   <= 1'b0;
            tx_len     <= 32'd0;
            tx_sent    <= 32'd0;
            tx_start   <= 32'd0;
            tx_end     <= 32'd0;
        end
    end

    // stamps (stable while software reads them: the channel is quiet)
    assign rx_stamps_ready        = !rxs_held;
    assign rx_stamps_result_valid = rxs_held || rx_stamps_valid;
    assign rx_stamps_result       = {rx_end, rx_start};
    assign tx_stamps_ready        = !txs_held;
    assign tx_stamps_result_valid = txs_held || tx_stamps_valid;
    assign tx_stamps_result       = {tx_end, tx_start};

    wire unused = &{1'b0, c_CHNL_RX_LAST, c_CHNL_RX_OFF, c_CHNL_RX_DATA};
endmodule

`default_nettype wire
