"""The .hwh generator: PYNQ's own metadata parser reads it (PYNQ 3.1.x and 4.0)."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from pushpush.pynq.hwh import fclk_divisors, module_ref_vlnv, render_hwh

from pynq_systems import hof, loop


def test_deterministic_and_well_formed():
    _, linked = hof()
    a, b = render_hwh(linked), render_hwh(linked)
    assert a == b
    root = ElementTree.fromstring(a.encode())
    mods = {m.get("INSTANCE"): m for m in root.iter("MODULE")}
    ps = mods["processing_system7_0"]
    assert ps.get("IS_PL") == "FALSE" and ps.get("MODTYPE") == "processing_system7"
    top = mods["system_top_0"]
    assert top.get("VLNV") == "xilinx.com:module_ref:hof_top:1.0"
    assert top.get("MODTYPE") == "hof_top"


@pytest.mark.parametrize("mhz,product", [(100, 10), (50, 20), (125, 8), (142.86, 7)])
def test_fclk_divisors(mhz, product):
    f = fclk_divisors(mhz)
    assert f.div0 * f.div1 == product
    assert 1 <= f.div0 < 64 and 1 <= f.div1 < 64


def _parse(path):
    pytest.importorskip("pynq.pl_server")
    from pynqmetadata.frontends import Metadata
    try:
        from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
    except ImportError:
        from pynqmetadata.views.runtime import RuntimeMetadataParser
    return RuntimeMetadataParser(Metadata(input=path))


@pytest.mark.parametrize("which", ["hof", "loop"])
def test_pynq_parser_reads_it(tmp_path, which):
    linked = hof()[1] if which == "hof" else loop()
    path = tmp_path / f"{linked.name}.hwh"
    path.write_text(render_hwh(linked))
    p = _parse(path)
    top = p.ip_dict["system_top_0"]
    rtl = [c for c in linked.components if c.kind == "rtl"]
    assert top["type"] == module_ref_vlnv(f"{linked.name}_top")
    assert top["phys_addr"] <= min(c.base for c in rtl)
    assert top["phys_addr"] + top["addr_range"] >= max(c.end for c in rtl)
    assert p.ps_name == "processing_system7_0"
    assert p.family_ps == "processing_system7"
    assert p.ip_dict["processing_system7_0"]["type"] == "xilinx.com:ip:processing_system7:5.5"
    clk = p.clock_dict[0]
    assert clk["enable"] == 1 and clk["divisor0"] * clk["divisor1"] == 10
    assert all(p.clock_dict[i]["enable"] == 0 for i in (1, 2, 3))
