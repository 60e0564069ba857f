/*
 * pushpush: AXI interconnect register slice (skid buffer).
 *
 * A valid/ready register stage with one cycle of latency and full throughput.
 *
 * SKID = 1: the output register plus one skid register, so that s_ready is a register
 * output and no combinational path runs from m_ready to s_ready (two registers and a 2:1
 * multiplexer per payload bit).
 *
 * SKID = 0: the output register alone (one register with a clock enable per payload bit,
 * no multiplexer); s_ready = m_ready || !m_valid, combinational from m_ready. Where the
 * downstream never stalls (m_ready constant 1) this is all a register stage can be.
 */

`default_nettype none

module pp_axi_ic_reg #
(
    // Width of the payload carried through the stage
    parameter WIDTH = 8,
    // 1 = skid buffer (registered s_ready), 0 = single register (s_ready from m_ready)
    parameter SKID = 1
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire [WIDTH-1:0] s_data,
    input  wire             s_valid,
    output wire             s_ready,

    output wire [WIDTH-1:0] m_data,
    output wire             m_valid,
    input  wire             m_ready
);

reg [WIDTH-1:0] m_data_reg;
initial m_data_reg = {WIDTH{1'b0}};
reg             m_valid_reg;
initial m_valid_reg = 1'b0;

assign m_data  = m_data_reg;
assign m_valid = m_valid_reg;

generate
if (SKID != 0) begin : skid

    reg [WIDTH-1:0] temp_data_reg;
    initial temp_data_reg = {WIDTH{1'b0}};
    reg             temp_valid_reg;
    initial temp_valid_reg = 1'b0;
    reg             s_ready_reg;
    initial s_ready_reg = 1'b0;

    // ready next cycle if the output is taken, or the skid register stays empty
    wire s_ready_early = m_ready || (!temp_valid_reg && (!m_valid_reg || !s_valid));

    assign s_ready = s_ready_reg;

    always @(posedge clk) begin
        s_ready_reg <= s_ready_early;
        if (s_ready_reg) begin
            if (m_ready || !m_valid_reg) begin
                m_valid_reg <= s_valid;
                if (s_valid) begin
                    m_data_reg <= s_data;
                end
            end else begin
                temp_valid_reg <= s_valid;
                if (s_valid) begin
                    temp_data_reg <= s_data;
                end
            end
        end else if (m_ready) begin
            m_valid_reg <= temp_valid_reg;
            m_data_reg <= temp_data_reg;
            temp_valid_reg <= 1'b0;
        end

        if (rst) begin
            s_ready_reg <= 1'b0;
            m_valid_reg <= 1'b0;
            temp_valid_reg <= 1'b0;
        end
    end

end else begin : single

    assign s_ready = m_ready || !m_valid_reg;

    always @(posedge clk) begin
        if (s_ready) begin
            m_valid_reg <= s_valid;
            if (s_valid) begin
                m_data_reg <= s_data;
            end
        end
        if (rst) begin
            m_valid_reg <= 1'b0;
        end
    end

end
endgenerate

endmodule

`default_nettype wire
