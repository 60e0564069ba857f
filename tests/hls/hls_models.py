"""Verilog models of Vitis HLS top functions under ``ap_ctrl_hs``, written to the timing
UG1399 gives for that block protocol ("Block-Level Control Protocols"; Vitis HLS 2022.2),
for the adapter's tests (tests/hls). Vitis HLS is not here; these are what its exported
RTL does at its ports:

- ``ap_idle`` is high until ``ap_start`` is seen, and low while a call runs;
- ``ap_start`` must stay high until ``ap_ready``; inputs (``ap_none``) may be read in any
  cycle from the start up to ``ap_ready``, so they must stay stable until then;
- ``ap_ready`` says every input was read; in a sequential function it comes with
  ``ap_done``, in a pipelined one in any cycle after the start;
- ``ap_done`` is high for one cycle, and ``ap_return`` is valid only in that cycle;
- a function of latency 0 (combinational) raises ``ap_ready`` and ``ap_done`` in the cycle
  of ``ap_start``, with ``ap_return`` computed from the inputs in that cycle.

Each call draws, from an LFSR, the cycles until ``ap_ready`` (``r``, 0..MAX_R) and then
until ``ap_done`` (``d``: 0 for a sequential function, 1..MAX_D for a pipelined one).
Outside ``ap_done``, ``ap_return`` carries junk (the LFSR), so an adapter that samples it
at another time is caught. The model raises ``violation`` (sticky) when ``ap_start`` falls
before ``ap_ready``, or an input changes between the start and ``ap_ready``; ``overlap``
when a new call starts while one is still in flight (legal for a pipelined HLS function,
never done by the adapter, which serves one call at a time). ``calls`` counts started calls,
``last_lat`` is the last call's latency r + d in cycles, ``last_args`` its arguments.
"""

from __future__ import annotations

import re
from typing import Sequence


def hls_model(top: str, args: Sequence[tuple[str, int]], result_width: int, expr: str,
              max_r: int, max_d: int, seed: int = 0x1D) -> str:
    """Verilog of a model of HLS top ``top`` with arguments ``(name, width)``, returning
    ``expr`` (a Verilog expression over the argument names, ``result_width`` bits; 0 for
    void). ``max_d`` 0: sequential (ready with done)."""
    aw = sum(w for _, w in args) or 1
    cat = "{" + ", ".join(n for n, _ in args) + "}" if args else "1'b0"
    decl = "".join(f",\n    input  wire [{w - 1}:0] {n}" for n, w in args)
    ret = f",\n    output wire [{result_width - 1}:0] ap_return" if result_width else ""
    unpack, off = [], aw
    for n, w in args:
        unpack.append(f"    wire [{w - 1}:0] c_{n} = cap[{off - 1}:{off - w}];")
        off -= w
    ce = expr
    for n, _ in args:
        ce = re.sub(rf"\b{n}\b", f"c_{n}", ce)
    live = f"({expr})" if result_width else ""
    capt = f"({ce})" if result_width else ""
    rw = max(result_width, 1)
    ret_logic = (f"""    wire [{rw - 1}:0] f_live = {live};
    wire [{rw - 1}:0] f_cap = {capt};
    assign ap_return = ap_done ? (start_now ? f_live : f_cap) : {{{(rw + 31) // 32}{{lfsr}}}};
""" if result_width else "")
    return f"""`default_nettype none
// A model of Vitis HLS top '{top}' under ap_ctrl_hs (tests/hls/hls_models.py)
module {top} (
    input  wire ap_clk,
    input  wire ap_rst,
    input  wire ap_start,
    output wire ap_done,
    output wire ap_idle,
    output wire ap_ready{decl}{ret}
);
    localparam MAX_R = {max_r};
    localparam MAX_D = {max_d};
    reg [31:0] lfsr = 32'h{seed:08X};
    reg [1:0] phase = 2'd0;       // 0 idle, 1 before ap_ready, 2 after ap_ready
    reg [7:0] rcnt = 8'd0, dcnt = 8'd0;
    reg [{aw - 1}:0] cap = {aw}'d0;
    reg violation = 1'b0, overlap = 1'b0;
    reg [31:0] calls = 32'd0;
    reg [15:0] last_lat = 16'd0, lat = 16'd0;
    reg [{aw - 1}:0] last_args = {aw}'d0;
    wire [{aw - 1}:0] args_now = {cat};
{chr(10).join(unpack)}
    wire [7:0] nr = {"8'd0" if max_r == 0 else "lfsr[7:0] % (MAX_R + 1)"};
    wire [7:0] nd = {"8'd0" if max_d == 0 else "8'd1 + lfsr[15:8] % MAX_D"};
    wire start_now = phase == 2'd0 && ap_start;
    wire ready_now = (start_now && nr == 8'd0) || (phase == 2'd1 && rcnt == 8'd0);
    wire [7:0] d_now = start_now ? nd : dcnt;
    assign ap_ready = ready_now;
    assign ap_done = (ready_now && d_now == 8'd0) || (phase == 2'd2 && dcnt == 8'd0);
    assign ap_idle = phase == 2'd0 && !ap_start;
{ret_logic}    always @(posedge ap_clk) begin
        lfsr <= {{lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]}};
        if (ap_rst) begin
            phase <= 2'd0;
        end else begin
            if (start_now) begin
                cap <= args_now;
                calls <= calls + 1;
                lat <= {{8'd0, nr}} + {{8'd0, nd}};
                dcnt <= nd;
                if (nr != 8'd0) begin rcnt <= nr - 8'd1; phase <= 2'd1; end
                else if (nd != 8'd0) begin dcnt <= nd - 8'd1; phase <= 2'd2; end
            end
            if (phase == 2'd1) begin
                if (!ap_start || args_now != cap) violation <= 1'b1;
                if (rcnt == 8'd0) begin
                    if (dcnt == 8'd0) phase <= 2'd0;
                    else begin dcnt <= dcnt - 8'd1; phase <= 2'd2; end
                end else rcnt <= rcnt - 8'd1;
            end
            if (phase == 2'd2) begin
                if (ap_start) overlap <= 1'b1;
                if (dcnt == 8'd0) phase <= 2'd0; else dcnt <= dcnt - 8'd1;
            end
            if (ap_done) begin
                last_lat <= start_now ? 16'd0 : lat;
                last_args <= start_now ? args_now : cap;
            end
        end
    end
endmodule
`default_nettype wire
"""


def combinational_top(top: str, args: Sequence[tuple[str, int]], result_width: int, expr: str) -> str:
    """A latency-0 top in the form Vitis HLS writes one: no ``ap_clk``/``ap_rst`` ports,
    ``ap_done = ap_start``, ``ap_ready = ap_start``, ``ap_idle = 1``, ``ap_return`` an assign
    of the inputs (seen in HLS-exported Verilog of a two-argument add)."""
    decl = "".join(f",\n    input  wire [{w - 1}:0] {n}" for n, w in args)
    ret = f",\n    output wire [{result_width - 1}:0] ap_return" if result_width else ""
    body = f"assign ap_return = {expr};\n" if result_width else ""
    return (f"`default_nettype none\nmodule {top} (\n    input  wire ap_start,\n    output wire ap_done,\n"
            f"    output wire ap_idle,\n    output wire ap_ready{decl}{ret}\n);\n"
            f"assign ap_done = ap_start;\nassign ap_idle = 1'b1;\nassign ap_ready = ap_start;\n{body}"
            f"endmodule\n`default_nettype wire\n")
