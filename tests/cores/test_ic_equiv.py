"""The interconnect's two-text modules compute one function, proved by Yosys for every input.

Two modules of cores/interconnect keep a text for synthesis (`SYNTHESIS`, defined by Yosys
and Vivado; the form Yosys maps smallest) beside the one simulators run fastest:
``pp_axi_ic_req`` (the crossbar's write request and ready block) and ``pp_axi_ic_mux`` (the
N:1 multiplexer). Both are combinational. For each shape below, Yosys reads the module once
with ``SYNTHESIS`` defined and once without (``-nosynthesis``), builds a miter of the two
(``miter -equiv``) and proves with ``sat -prove-asserts`` that no input makes their outputs
differ. A control test changes one term of the simulation text and asserts the proof fails,
so a passing proof is known to compare the texts it claims to.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "cores" / "interconnect"
#: models of the MUXF7 / MUXF8 pp_axi_ic_mux's synthesis text instantiates with HARD = 1
MUXF = Path(__file__).resolve().parent / "xilinx_muxf.v"


def _yosys() -> str:
    exe = shutil.which("yosys")
    assert exe is not None, "no Yosys: ./bootstrap.sh setup installs it (apt: yosys)"
    return exe


def _clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


def _wrapper(name: str, module: str, params: dict[str, str], ports: list[tuple[str, str, int]]) -> str:
    """A module ``name`` with the given ports around one instance of ``module``."""
    decl = ",\n    ".join(f"{d} wire [{w - 1}:0] {p}" for d, p, w in ports)
    pars = ", ".join(f".{k}({v})" for k, v in params.items())
    conn = ", ".join(f".{p}({p})" for _, p, _ in ports)
    return f"module {name} (\n    {decl}\n);\n{module} #({pars}) u ({conn});\nendmodule\n"


def prove_equal(tmp_path: Path, source: Path, module: str, params: dict[str, str],
                ports: list[tuple[str, str, int]], sim_text: str | None = None) -> subprocess.CompletedProcess:
    """Run Yosys's miter + SAT on the synthesis and simulation texts of ``module`` (in
    ``source``; ``sim_text`` replaces the file's text for the simulation side)."""
    text = source.read_text()
    (tmp_path / "syn.v").write_text(text.replace(f"module {module}", f"module {module}_syn"))
    (tmp_path / "sim.v").write_text((sim_text or text).replace(f"module {module}", f"module {module}_sim"))
    (tmp_path / "wrap.v").write_text(_wrapper("gold", f"{module}_syn", params, ports) +
                                     _wrapper("gate", f"{module}_sim", params, ports))
    script = (f"read_verilog {MUXF}; read_verilog -DSYNTHESIS syn.v; read_verilog -nosynthesis sim.v; "
              "read_verilog wrap.v; "
              "hierarchy -check; proc; flatten; opt_clean; "
              "miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter; "
              "sat -verify -prove-asserts miter")
    return subprocess.run([_yosys(), "-q", "-p", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)


def req_case(s: int, m: int, connect: int | None) -> tuple[dict[str, str], list[tuple[str, str, int]]]:
    """pp_axi_ic_req's parameters and ports at S masters x M slaves (connect: M_CONNECT)."""
    mi = m + 1
    mw = _clog2(mi)
    sw = max(1, _clog2(s))
    params = {"S_COUNT": str(s), "M_COUNT": str(m), "MW": str(mw), "SW": str(sw)}
    if connect is not None:
        params["M_CONNECT"] = f"{m * s}'h{connect:x}"
    ports = [("input", "aw_go", s), ("input", "aw_sel", s * mw), ("output", "aw_sel_oh", s * mi),
             ("output", "aw_req", mi * s), ("input", "aw_grant", mi * s), ("input", "w_busy", mi),
             ("input", "aw_in_ready", mi), ("input", "w_src_valid", mi), ("input", "w_src", mi * sw),
             ("input", "w_in_ready", mi), ("output", "awready", s), ("output", "wready", s)]
    return params, ports


#: (S, M, M_CONNECT or None for all): 1x1, the 4x4 and 8x8 full crossbars, padded index
#: ranges (3x5, 5x3), sparse masks as generated systems have them (master 0 the ARM). (The
#: 16x16 proof takes minutes of SAT: not in the default run.)
REQ_CASES = [(1, 1, None), (2, 3, None), (4, 4, None), (3, 5, 0x5B7A), (5, 3, 0x7A5B),
             (4, 4, 0xF3A5), (8, 8, None)]


@pytest.mark.parametrize("s,m,connect", REQ_CASES, ids=lambda v: str(v))
def test_req_texts_equal(tmp_path: Path, s: int, m: int, connect: int | None) -> None:
    params, ports = req_case(s, m, connect)
    r = prove_equal(tmp_path, CORE / "pp_axi_ic_req.v", "pp_axi_ic_req", params, ports)
    assert r.returncode == 0, f"pp_axi_ic_req {s}x{m}: the two texts differ:\n{r.stdout}\n{r.stderr}"


def test_proof_catches_a_changed_text(tmp_path: Path) -> None:
    """Control: without the connectivity mask in the simulation text, a sparse crossbar's
    WREADY differs (a slave's W source naming a master it is not connected to): the proof
    must fail."""
    text = (CORE / "pp_axi_ic_req.v").read_text()
    term = " & CONN[rj*S_COUNT +: S_COUNT])"
    assert term in text
    params, ports = req_case(3, 5, 0x5B7A)
    r = prove_equal(tmp_path, CORE / "pp_axi_ic_req.v", "pp_axi_ic_req", params, ports,
                    sim_text=text.replace(term, ")"))
    assert r.returncode != 0 and "proof did fail" in (r.stdout + r.stderr)


#: (N, WIDTH, SEL_WIDTH, HARD) as tests/cores/test_ic_mux.py: powers of two, padded trees,
#: one input, the 17:1 of generated tops; HARD = 1 (MUXF7 / MUXF8): the 16x16 crossbar's
#: 16:1 and 17:1, a padded 12:1, a 40:1 with a tree above the MUXF8
MUX_CASES = [(1, 4, 1, 0), (2, 5, 1, 0), (4, 3, 2, 0), (5, 7, 3, 0), (17, 9, 5, 0), (33, 6, 6, 0),
             (16, 5, 4, 1), (17, 4, 5, 1), (12, 3, 4, 1), (40, 2, 6, 1)]


@pytest.mark.parametrize("n,w,s,h", MUX_CASES, ids=lambda v: str(v))
def test_mux_texts_equal(tmp_path: Path, n: int, w: int, s: int, h: int) -> None:
    params = {"N": str(n), "WIDTH": str(w), "SEL_WIDTH": str(s), "HARD": str(h)}
    ports = [("input", "in", n * w), ("input", "sel", s), ("output", "out", w)]
    r = prove_equal(tmp_path, CORE / "pp_axi_ic_mux.v", "pp_axi_ic_mux", params, ports)
    assert r.returncode == 0, f"pp_axi_ic_mux N={n}: the two texts differ:\n{r.stdout}\n{r.stderr}"
