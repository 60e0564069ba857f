"""The request path's size changes keep every handshake and every beat, proved by Yosys.

Two changes made a component's request path smaller (issue 45; cores/req_arbiter and
cores/call_engine READMEs), and neither may change what goes out on AXI or when:

* ``pp_req_arbiter``'s request multiplexers as a chain of 2:1 multiplexers (requester 0 the
  default) instead of AND-OR by the one-hot grant. Proved the same sequential function as the
  previous text (``tests/cores/ref/pp_req_arbiter_andor.v``) with ``equiv_make`` /
  ``equiv_simple`` / ``equiv_induct`` (the state registers match by name), the request
  (address, word count, data) compared where ``out_valid`` is high (it is a don't care
  otherwise: the engine takes it only with its request valid), every other output always.
  Unbounded: the same outputs in every state for every input.
* ``pp_call_engine``'s W data from a shifting register instead of a beat index multiplexer
  (``tests/cores/ref/pp_call_engine_wsel.v``). A miter of the two, WDATA compared where WVALID
  is high (AXI leaves it open otherwise), every other output always, is checked by SAT for
  every input sequence of 12 cycles after a reset (bounded: a request of up to 4 words takes
  at most 4 of them, so every sequence of several requests under any back-pressure fits;
  longer ones are covered by the simulation benches). Word counts of 0 or above MAX_WORDS are
  outside the engine's contract and clamped to 1..MAX_WORDS.

A control run breaks each new text and asserts its check fails, so a passing proof is known
to compare the texts it claims to.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CORES = Path(__file__).resolve().parents[2] / "cores"
REF = Path(__file__).resolve().parent / "ref"

#: the arbiter chain's select (the control run selects by req_valid instead)
ARB_SELECT = "if (grant[i]) begin"
#: the engine's shift (the control run keeps the register instead)
ENG_SHIFT = "data_reg <= data_reg >> DATA_WIDTH;"


def _yosys() -> str:
    exe = shutil.which("yosys")
    assert exe is not None, "no Yosys: ./bootstrap.sh setup installs it (apt: yosys)"
    return exe


def _run(tmp_path: Path, script: str) -> subprocess.CompletedProcess:
    return subprocess.run([_yosys(), "-q", "-p", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)


def _arb_wrapper(name: str, module: str) -> str:
    """``name`` around one ``module`` (the arbiter), its request outputs 0 while not valid."""
    return f"""
module {name} #(parameter N = 2, parameter MW = 2, parameter NWW = 2, parameter TD = 1) (
    input wire clk, input wire rst, input wire [N-1:0] req_valid, output wire [N-1:0] req_ready,
    input wire [N*32-1:0] req_addr, input wire [N*NWW-1:0] req_nwords,
    input wire [N*MW*32-1:0] req_data, output wire [N-1:0] done_err, output wire out_valid,
    input wire out_ready, output wire [31:0] a, output wire [NWW-1:0] n,
    output wire [MW*32-1:0] d, input wire done_valid, input wire [1:0] done_resp);
wire [31:0] oa;
wire [NWW-1:0] on;
wire [MW*32-1:0] od;
{module} #(.N(N), .MAX_WORDS(MW), .NW_WIDTH(NWW), .TRACK_DONE(TD), .TAG_BITS(3)) u (
    .clk(clk), .rst(rst), .req_valid(req_valid), .req_ready(req_ready), .req_addr(req_addr),
    .req_nwords(req_nwords), .req_data(req_data), .done_err(done_err), .out_valid(out_valid),
    .out_ready(out_ready), .out_addr(oa), .out_nwords(on), .out_data(od),
    .done_valid(done_valid), .done_resp(done_resp));
assign a = out_valid ? oa : 32'd0;
assign n = out_valid ? on : {{NWW{{1'b0}}}};
assign d = out_valid ? od : {{MW*32{{1'b0}}}};
endmodule
"""


def prove_arbiter(tmp_path: Path, n: int, track: int, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "new.v").write_text(text)
    (tmp_path / "wrap.v").write_text(_arb_wrapper("gold", "ref_pp_req_arbiter")
                                     + _arb_wrapper("gate", "pp_req_arbiter"))
    # the multiplexers' own nets differ while no requester is valid: not matched by name
    (tmp_path / "bl.txt").write_text("\n".join(f"u.{w}" for w in (
        "addr_mux", "data_mux", "nwords_mux", "index_mux", "out_addr", "out_data",
        "out_nwords")) + "\noa\nod\non\n")
    return _run(tmp_path, f"read_verilog {REF / 'pp_req_arbiter_andor.v'}; read_verilog new.v; "
                f"read_verilog wrap.v; chparam -set N {n} -set TD {track} gold gate; "
                "hierarchy -check; proc; flatten; memory; opt_clean; "
                "equiv_make -blacklist bl.txt gold gate eq; hierarchy -top eq; "
                "equiv_simple -seq 2; equiv_induct; equiv_status -assert")


@pytest.mark.parametrize("n,track", [(1, 1), (2, 1), (3, 1), (4, 0), (5, 1)])
def test_arbiter_same_requests(tmp_path: Path, n: int, track: int) -> None:
    proc = prove_arbiter(tmp_path, n, track, (CORES / "req_arbiter" / "pp_req_arbiter.v").read_text())
    assert proc.returncode == 0, proc.stderr + proc.stdout


def test_arbiter_check_catches_a_broken_select(tmp_path: Path) -> None:
    text = (CORES / "req_arbiter" / "pp_req_arbiter.v").read_text()
    assert ARB_SELECT in text
    proc = prove_arbiter(tmp_path, 2, 1, text.replace(ARB_SELECT, "if (req_valid[i]) begin"))
    assert proc.returncode != 0 and "unproven" in proc.stderr + proc.stdout


_ENG_IN = [("clk", "1"), ("rst", "1"), ("req_valid", "1"), ("req_addr", "AW"),
           ("req_nwords", "NWW"), ("req_data", "MW*32"), ("m_axi_awready", "1"),
           ("m_axi_wready", "1"), ("m_axi_bid", "1"), ("m_axi_bresp", "2"), ("m_axi_bvalid", "1"),
           ("m_axi_arready", "1"), ("m_axi_rid", "1"), ("m_axi_rdata", "DW"), ("m_axi_rresp", "2"),
           ("m_axi_rlast", "1"), ("m_axi_rvalid", "1")]
_ENG_OUT = [("req_ready", "1"), ("done_valid", "1"), ("done_resp", "2"), ("busy", "1"),
            ("err_flag", "1"), ("err_count", "16"), ("m_axi_awaddr", "AW"), ("m_axi_awlen", "8"),
            ("m_axi_awvalid", "1"), ("m_axi_wstrb", "DW/8"), ("m_axi_wlast", "1"),
            ("m_axi_wvalid", "1"), ("m_axi_bready", "1")]


def _eng_wrapper(name: str, module: str) -> str:
    """``name`` around one ``module`` (the engine): WDATA 0 while not valid, the word count
    clamped to 1..MAX_WORDS."""
    ports = [f"input wire [{w}-1:0] {p}" for p, w in _ENG_IN] + \
            [f"output wire [{w}-1:0] {p}" for p, w in _ENG_OUT] + ["output wire [DW-1:0] wd"]
    conns = [f".{p}({p})" for p, _ in _ENG_IN + _ENG_OUT if p != "req_nwords"]
    return (f"module {name} #(parameter DW = 32, parameter AW = 12, parameter MW = 2, "
            f"parameter SPLIT = 0, parameter NWW = $clog2(MW + 1)) (\n    "
            + ",\n    ".join(ports) + ");\n"
            "localparam [31:0] MW32 = MW;\nwire [DW-1:0] wdata;\n"
            f"{module} #(.DATA_WIDTH(DW), .ADDR_WIDTH(AW), .ID_WIDTH(1), .MAX_WORDS(MW), "
            ".MAX_OUTSTANDING(2), .SPLIT(SPLIT), .STATUS(1)) u (\n    " + ", ".join(conns)
            + ",\n    .req_nwords((req_nwords > MW32[NWW-1:0]) ? MW32[NWW-1:0] : "
            "(req_nwords == {NWW{1'b0}}) ? {{(NWW-1){1'b0}}, 1'b1} : req_nwords), "
            ".m_axi_wdata(wdata));\nassign wd = m_axi_wvalid ? wdata : {DW{1'b0}};\nendmodule\n")


def check_engine(tmp_path: Path, dw: int, mw: int, split: int, text: str,
                 seq: int = 12) -> subprocess.CompletedProcess:
    (tmp_path / "new.v").write_text(text)
    (tmp_path / "wrap.v").write_text(_eng_wrapper("gold", "ref_pp_call_engine")
                                     + _eng_wrapper("gate", "pp_call_engine"))
    # (read without SYNTHESIS: both data registers start at 0, as in simulation)
    return _run(tmp_path, f"read_verilog -nosynthesis {REF / 'pp_call_engine_wsel.v'}; "
                "read_verilog -nosynthesis new.v; read_verilog wrap.v; "
                f"chparam -set DW {dw} -set MW {mw} -set SPLIT {split} gold gate; "
                "hierarchy -check; proc; flatten; memory; opt_clean; "
                "miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; "
                f"sat -verify -prove-asserts -set-init-zero -seq {seq} -set-at 1 in_rst 1 miter")


@pytest.mark.slow   # about 50 s each (12 cycles of SAT)
@pytest.mark.parametrize("dw,mw,split", [(32, 1, 0), (32, 2, 0), (32, 3, 1), (32, 4, 0), (64, 3, 0)])
def test_engine_same_beats(tmp_path: Path, dw: int, mw: int, split: int) -> None:
    proc = check_engine(tmp_path, dw, mw, split,
                        (CORES / "call_engine" / "pp_call_engine.v").read_text())
    assert proc.returncode == 0, proc.stderr + proc.stdout


@pytest.mark.slow
def test_engine_check_catches_a_broken_shift(tmp_path: Path) -> None:
    text = (CORES / "call_engine" / "pp_call_engine.v").read_text()
    assert ENG_SHIFT in text
    proc = check_engine(tmp_path, 32, 2, 0, text.replace(ENG_SHIFT, "data_reg <= data_reg;"))
    assert proc.returncode != 0 and "proof did fail" in proc.stderr + proc.stdout
