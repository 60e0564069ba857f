/*
 * fir_core: the FIR filter of the audio_fir example (the PushPush paper's higher-order
 * example). Implements the export
 *
 *     fir: "(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32) -> void"
 *
 * through the pushpush RTL port contract (docs/rtl-ports.md): coeff, src and sink are
 * function values, called through the wrapper's fir_coeff / fir_src / fir_sink groups
 * wherever they live (Python on the ARM, another hardware component, ...).
 *
 * One call of fir:
 *   1. t = min(taps, MAX_TAPS); coeff(0), coeff(1), ..., coeff(t-1) are called one after
 *      the other and the coefficients c[0..t-1] stored. Taps beyond MAX_TAPS are ignored
 *      (their coefficients are not fetched: the filter has MAX_TAPS taps).
 *   2. The stream: src() is called for the next sample x[n]; the filter computes
 *          y[n] = sum_{k=0}^{t-1} c[k] * x[n-k]      (x[m] = 0 for m < 0)
 *      in 32-bit two's complement wraparound arithmetic (every product and sum modulo
 *      2**32, as int32 in C), and calls sink(y[n]). With t = 0 every y[n] is 0.
 *      The delay line starts empty (all zero) in every call of fir.
 *   3. End of the stream: a src() call that answers an ERROR (the wrapper's
 *      fir_src_result_error: the callee raised, e.g. a Python source raising StopIteration,
 *      or the function value was not a valid address) ends the stream. fir waits for the
 *      last sink() call to finish and completes (void result). A coeff() or sink() call
 *      that answers an error also ends the stream early (no further src() calls; the
 *      sample being filtered, if any, is dropped) and fir completes.
 *
 * Overlap: the next src() call is issued as soon as the previous sample has been taken into
 * the delay line, so it runs while the filter multiplies and while sink() of the previous
 * output is in flight. Multiply-accumulate is serial, one tap per cycle (one 32x32
 * multiplier): t + 4 cycles per sample (take the sample, t operand reads, the last
 * accumulate, hand y to sink), or the call round trips where those are longer.
 *
 * Status: calls_reg counts the calls of fir taken, samples_reg the samples filtered in all
 * calls, errors_reg the callback results that came back with an error (each call's normal
 * end of stream counts one).
 */

`default_nettype none

module fir_core #
(
    // Largest number of taps (coefficients stored); a power of two, at least 2
    parameter MAX_TAPS = 32
)
(
    input  wire        clk,
    input  wire        rst,

    // export fir: "(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32) -> void"
    input  wire        fir_valid,
    output wire        fir_ready,
    input  wire [31:0] fir_coeff,
    input  wire [31:0] fir_src,
    input  wire [31:0] fir_sink,
    input  wire [31:0] fir_taps,
    output wire        fir_result_valid,
    input  wire        fir_result_ready,

    // function parameter coeff: "(u32) -> i32"
    output wire        fir_coeff_valid,
    input  wire        fir_coeff_ready,
    output wire [31:0] fir_coeff_arg0,
    input  wire        fir_coeff_result_valid,
    output wire        fir_coeff_result_ready,
    input  wire [31:0] fir_coeff_result,
    input  wire        fir_coeff_result_error,

    // function parameter src: "() -> i32"
    output wire        fir_src_valid,
    input  wire        fir_src_ready,
    input  wire        fir_src_result_valid,
    output wire        fir_src_result_ready,
    input  wire [31:0] fir_src_result,
    input  wire        fir_src_result_error,

    // function parameter sink: "(i32) -> void"
    output wire        fir_sink_valid,
    input  wire        fir_sink_ready,
    output wire [31:0] fir_sink_arg0,
    input  wire        fir_sink_result_valid,
    output wire        fir_sink_result_ready,
    input  wire        fir_sink_result_error
);

localparam TAP_BITS = $clog2(MAX_TAPS);

// main state
localparam [2:0]
    ST_IDLE = 3'd0,      // waiting for a call of fir
    ST_COEFF = 3'd1,     // calling coeff(idx)
    ST_COEFF_WAIT = 3'd2,// waiting for coeff's result
    ST_SAMPLE = 3'd3,    // waiting for a sample (or the end of the stream)
    ST_MAC = 3'd4,       // multiply-accumulate over the taps
    ST_OUT = 3'd5,       // y ready, waiting for the sink group to be free
    ST_FINISH = 3'd6,    // stream over, waiting for outstanding src/sink calls
    ST_DONE = 3'd7;      // completing fir

reg [2:0]  state_reg;
reg [31:0] ntaps_reg;        // taps of this call, min(taps, MAX_TAPS)
reg [31:0] idx_reg;          // coefficient being fetched
reg        end_reg;          // src() answered an error: the end of the stream
reg        abort_reg;        // sink() answered an error: stop now

// the sample buffer, filled by src() calls
reg        src_call_reg;     // fir_src_valid
reg        src_wait_reg;     // waiting for src's result
reg        sample_full_reg;  // sample_reg holds a sample not yet filtered
reg [31:0] sample_reg;

// the output, drained by sink() calls
reg        sink_call_reg;    // fir_sink_valid
reg        sink_wait_reg;    // waiting for sink's result
reg [31:0] sink_y_reg;

// the filter
reg [31:0] coeff_mem [0:MAX_TAPS-1];
reg [31:0] delay_mem [0:MAX_TAPS-1];
reg [TAP_BITS-1:0] wp_reg;   // delay_mem index of the newest sample x[n]
reg [31:0] have_reg;         // samples in the delay line, saturating at MAX_TAPS
reg [31:0] k_reg;            // next tap to read
reg        mac_v1_reg;       // stage 1 (operands) valid
reg [31:0] mac_a_reg;
reg [31:0] mac_b_reg;
reg [31:0] acc_reg;

reg [31:0] calls_reg;
reg [31:0] samples_reg;
reg [31:0] errors_reg;

integer i;

initial begin
    state_reg = ST_IDLE;
    ntaps_reg = 32'd0;
    idx_reg = 32'd0;
    end_reg = 1'b0;
    abort_reg = 1'b0;
    src_call_reg = 1'b0;
    src_wait_reg = 1'b0;
    sample_full_reg = 1'b0;
    sample_reg = 32'd0;
    sink_call_reg = 1'b0;
    sink_wait_reg = 1'b0;
    sink_y_reg = 32'd0;
    wp_reg = {TAP_BITS{1'b0}};
    have_reg = 32'd0;
    k_reg = 32'd0;
    mac_v1_reg = 1'b0;
    mac_a_reg = 32'd0;
    mac_b_reg = 32'd0;
    acc_reg = 32'd0;
    calls_reg = 32'd0;
    samples_reg = 32'd0;
    errors_reg = 32'd0;
    for (i = 0; i < MAX_TAPS; i = i + 1) begin
        coeff_mem[i] = 32'd0;
        delay_mem[i] = 32'd0;
    end
end

wire streaming = state_reg == ST_SAMPLE || state_reg == ST_MAC || state_reg == ST_OUT;

assign fir_ready = state_reg == ST_IDLE;
assign fir_result_valid = state_reg == ST_DONE;

assign fir_coeff_valid = state_reg == ST_COEFF;
assign fir_coeff_arg0 = idx_reg;
assign fir_coeff_result_ready = state_reg == ST_COEFF_WAIT;

assign fir_src_valid = src_call_reg;
assign fir_src_result_ready = src_wait_reg;

assign fir_sink_valid = sink_call_reg;
assign fir_sink_arg0 = sink_y_reg;
assign fir_sink_result_ready = sink_wait_reg;

// callback results that came back with an error, this cycle
wire src_err = src_wait_reg && fir_src_result_valid && fir_src_result_error;
wire sink_err = sink_wait_reg && fir_sink_result_valid && fir_sink_result_error;
wire coeff_err = state_reg == ST_COEFF_WAIT && fir_coeff_result_valid && fir_coeff_result_error;

wire [TAP_BITS-1:0] k_bits = k_reg[TAP_BITS-1:0];
wire [TAP_BITS-1:0] x_idx = wp_reg - k_bits;          // x[n-k], modulo MAX_TAPS
wire [TAP_BITS-1:0] wp_next = wp_reg + 1'b1;
wire [31:0] mac_product = mac_a_reg * mac_b_reg;
wire mac_issue = state_reg == ST_MAC && k_reg < ntaps_reg;
wire [31:0] taps_clamped = fir_taps > MAX_TAPS ? MAX_TAPS : fir_taps;

always @(posedge clk) begin
    // --- src: keep one sample buffered while streaming
    if (src_call_reg && fir_src_ready) begin
        src_call_reg <= 1'b0;
        src_wait_reg <= 1'b1;
    end
    if (src_wait_reg && fir_src_result_valid) begin
        src_wait_reg <= 1'b0;
        if (fir_src_result_error) begin
            end_reg <= 1'b1;
        end else begin
            sample_reg <= fir_src_result;
            sample_full_reg <= 1'b1;
        end
    end
    if (streaming && !end_reg && !abort_reg && !src_call_reg && !src_wait_reg && !sample_full_reg) begin
        src_call_reg <= 1'b1;
    end

    // --- sink: one call in flight
    if (sink_call_reg && fir_sink_ready) begin
        sink_call_reg <= 1'b0;
        sink_wait_reg <= 1'b1;
    end
    if (sink_wait_reg && fir_sink_result_valid) begin
        sink_wait_reg <= 1'b0;
        if (fir_sink_result_error) begin
            abort_reg <= 1'b1;
        end
    end

    errors_reg <= errors_reg + {31'd0, src_err} + {31'd0, sink_err} + {31'd0, coeff_err};

    // --- multiply-accumulate pipeline: operands, then accumulate
    mac_v1_reg <= mac_issue;
    if (mac_issue) begin
        mac_a_reg <= coeff_mem[k_bits];
        mac_b_reg <= k_reg < have_reg ? delay_mem[x_idx] : 32'd0;
        k_reg <= k_reg + 32'd1;
    end
    if (mac_v1_reg) begin
        acc_reg <= acc_reg + mac_product;
    end

    case (state_reg)
        ST_IDLE: begin
            if (fir_valid) begin
                calls_reg <= calls_reg + 32'd1;
                ntaps_reg <= taps_clamped;
                idx_reg <= 32'd0;
                end_reg <= 1'b0;
                abort_reg <= 1'b0;
                have_reg <= 32'd0;
                state_reg <= taps_clamped == 32'd0 ? ST_SAMPLE : ST_COEFF;
            end
        end
        ST_COEFF: begin
            if (fir_coeff_ready) begin
                state_reg <= ST_COEFF_WAIT;
            end
        end
        ST_COEFF_WAIT: begin
            if (fir_coeff_result_valid) begin
                coeff_mem[idx_reg[TAP_BITS-1:0]] <= fir_coeff_result;
                idx_reg <= idx_reg + 32'd1;
                if (fir_coeff_result_error) begin
                    state_reg <= ST_DONE;
                end else if (idx_reg + 32'd1 == ntaps_reg) begin
                    state_reg <= ST_SAMPLE;
                end else begin
                    state_reg <= ST_COEFF;
                end
            end
        end
        ST_SAMPLE: begin
            if (abort_reg || (end_reg && !sample_full_reg)) begin
                state_reg <= ST_FINISH;
            end else if (sample_full_reg) begin
                // x[n] into the delay line, then filter
                sample_full_reg <= 1'b0;
                delay_mem[wp_next] <= sample_reg;
                wp_reg <= wp_next;
                if (have_reg < MAX_TAPS) begin
                    have_reg <= have_reg + 32'd1;
                end
                samples_reg <= samples_reg + 32'd1;
                k_reg <= 32'd0;
                acc_reg <= 32'd0;
                state_reg <= ST_MAC;
            end
        end
        ST_MAC: begin
            if (!mac_issue && !mac_v1_reg) begin
                state_reg <= ST_OUT;
            end
        end
        ST_OUT: begin
            if (abort_reg) begin
                state_reg <= ST_FINISH;
            end else if (!sink_call_reg && !sink_wait_reg) begin
                sink_y_reg <= acc_reg;
                sink_call_reg <= 1'b1;
                state_reg <= ST_SAMPLE;
            end
        end
        ST_FINISH: begin
            if (!src_call_reg && !src_wait_reg && !sink_call_reg && !sink_wait_reg) begin
                sample_full_reg <= 1'b0;
                state_reg <= ST_DONE;
            end
        end
        default: begin
            if (fir_result_ready) begin
                state_reg <= ST_IDLE;
            end
        end
    endcase

    if (rst) begin
        state_reg <= ST_IDLE;
        end_reg <= 1'b0;
        abort_reg <= 1'b0;
        src_call_reg <= 1'b0;
        src_wait_reg <= 1'b0;
        sample_full_reg <= 1'b0;
        sink_call_reg <= 1'b0;
        sink_wait_reg <= 1'b0;
        wp_reg <= {TAP_BITS{1'b0}};
        have_reg <= 32'd0;
        k_reg <= 32'd0;
        mac_v1_reg <= 1'b0;
        acc_reg <= 32'd0;
        calls_reg <= 32'd0;
        samples_reg <= 32'd0;
        errors_reg <= 32'd0;
    end
end

// the handles are not needed: the wrapper routes fir_coeff/src/sink calls to them
wire unused = &{1'b0, fir_coeff, fir_src, fir_sink};

endmodule

`default_nettype wire
