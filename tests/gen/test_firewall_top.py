"""A generated top with ``firewall:`` (issue 46): pp_mem_firewall between the buffer
engines' interconnect and ``buf_axi``, its register page on the interconnect, lint-clean
under Icarus and Verilator -Wall on a 32- and a 64-bit interconnect (its register slave then
64 bits wide, the checked path 32)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gensim import generate_system, lint

from pushpush.build.cores import cores_rtl
from pushpush.codegen.fabric import core_dependencies
from pushpush.link import load

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bufargs"


@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow)])
def test_firewall_top_lints_clean(tmp_path: Path, width: int) -> None:
    text = (EXAMPLE / "system.yaml").read_text().replace(
        "board: pynq-z1\n", f"board: pynq-z1\nfirewall: {{entries: 5}}\ninterconnect: {{data_width: {width}}}\n")
    (tmp_path / "system.yaml").write_text(text)
    (tmp_path / "buf_core.v").write_text((EXAMPLE / "buf_core.v").read_text())
    linked = load(tmp_path / "system.yaml")
    gen = generate_system(linked, tmp_path / "out")
    top = next(p for p in gen.sources if p.name == f"{gen.top}.v").read_text()
    assert "pp_mem_firewall #(" in top and ".ENTRIES(5)" in top and f".REG_DATA_WIDTH({width})" in top
    assert ".m_axi_awaddr(buf_axi_awaddr)" in top and ".s_axi_awaddr(bf_m_axi_awaddr)" in top
    sources = cores_rtl(core_dependencies(linked)) + [p for p in gen.sources if "cores" not in p.parts]
    assert lint(sources, gen.top) == []
