"""A generated system with the interconnect's fairness options (issue 7).

tests/gen/fixtures/pingpong_fair: the pingpong example with ``interconnect: {arbitration:
fair}`` and an ``abe:`` on both rtl components (caller: nominal burst 16, 4 outstanding;
callee: nominal burst 1, 2 outstanding, so the callee's two-word result writes are split
into single-beat sub-bursts by its ABE). The generated top must instantiate the interconnect
with ``ARBITRATION(1)`` and one ``pp_abe`` per such component, lint clean (Icarus and
Verilator ``-Wall``), and compute exactly what the plain pingpong computes: the cocotb test
is test_pingpong's (every call and result checked against the model, three concurrent
callers, a one-way call).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pushpush.build.sim import run_cocotb
from pushpush.link import link
from pushpush.spec import load_system
from pushpush.testing import sim_matrix

FIXTURE = Path(__file__).parent / "fixtures" / "pingpong_fair" / "system.yaml"


def _generate(tmp_path: Path):
    from gensim import generate_system

    return generate_system(link(load_system(FIXTURE)), tmp_path / "gen")


def test_fair_system_generates(tmp_path):
    from gensim import lint

    gen = _generate(tmp_path)
    top = (gen.outdir / "rtl" / f"{gen.top}.v").read_text()
    assert ".ARBITRATION(1)" in top
    abes = re.findall(r"pp_abe #\((.*?)\)\s*(\w+) \(", top, re.S)
    assert [name for _, name in abes] == ["caller_abe_inst", "callee_abe_inst"]
    params = [dict(re.findall(r"\.(\w+)\(([^)]*)\)", p)) for p, _ in abes]
    assert params[0]["NOMINAL_BURST"] == "16" and params[0]["MAX_OUTSTANDING_W"] == "4"
    assert params[1]["NOMINAL_BURST"] == "1" and params[1]["MAX_OUTSTANDING_R"] == "2"
    # the engine reaches the interconnect only through its ABE
    assert ".m_axi_awvalid(caller_eng_axi_awvalid)" in top
    assert ".m_axi_awvalid(ic_s_axi_awvalid[1])" in top
    assert lint(gen.sources, gen.top) == []


@pytest.mark.parametrize("simulator,params", sim_matrix([{"pause": 0.0}, {"pause": 0.3}]))
def test_fair_system(simulator, params, tmp_path):
    gen = _generate(tmp_path)
    report = tmp_path / "report.json"
    env = {
        "PP_MAP": str(gen.map_path),
        "PP_PAUSE": str(params["pause"]),
        "PP_REPORT": str(report),
        "PP_MAX_CPC": "16",
        "PP_EXACT": "0" if params["pause"] else "1",
    }
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_pingpong",
               test_dir=Path(__file__).parent, simulator=simulator,
               build_dir=tmp_path / "sim", extra_env=env)
    data = json.loads(report.read_text())
    print(f"\n{simulator} {params}: cycles per call {data['cycles_per_call']}")
    print("  one hardware call, cycle by cycle:\n    " + "\n    ".join(data["timeline"]))
