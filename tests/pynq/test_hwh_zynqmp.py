"""The .hwh of a ZynqMP board (ZCU104, KV260): zynq_ultra_ps_e as Vivado writes it
(compared with rfsoc_sam.hwh, a Vivado 2020.2 handoff kept in tests/pynq/hwhs/), read by
PYNQ's metadata parser as a ZynqMP design on this x86 host: the parser takes the PS family
from the .hwh itself, not from platform.machine()."""

from __future__ import annotations

import gzip
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pushpush.boards import BOARDS
from pushpush.link import load
from pushpush.codegen.hwh import render_hwh

REPO = Path(__file__).resolve().parents[2]
HWHS = Path(__file__).resolve().parent / "hwhs"
ZU = ("zcu104", "kv260")


def _vivado(tmp_path):
    out = tmp_path / "rfsoc_sam.hwh"
    out.write_bytes(gzip.decompress((HWHS / "rfsoc_sam.hwh.gz").read_bytes()))
    return out


def _ours(tmp_path, example, name):
    linked = load(REPO / "examples" / example / "system.yaml", board=name)
    path = tmp_path / f"{example}_{name}.hwh"
    path.write_text(render_hwh(linked))
    return linked, path


def _ps(path):
    return next(m for m in ElementTree.parse(path).iter("MODULE") if m.get("MODTYPE") == "zynq_ultra_ps_e")


def _parse(path):
    pytest.importorskip("pynq.pl_server")
    from pynqmetadata.frontends import Metadata
    try:
        from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
    except ImportError:
        from pynqmetadata.views.runtime import RuntimeMetadataParser
    return RuntimeMetadataParser(Metadata(input=path))


@pytest.mark.parametrize("name", ZU)
@pytest.mark.parametrize("example", ["pingpong", "dma_stream", "audio_fir"])
def test_every_ps_parameter_is_one_vivado_writes_once(tmp_path, name, example):
    theirs = {p.get("NAME") for p in _ps(_vivado(tmp_path)).find("PARAMETERS").iter("PARAMETER")}
    _, path = _ours(tmp_path, example, name)
    ours = [p.get("NAME") for p in _ps(path).find("PARAMETERS").iter("PARAMETER")]
    assert len(ours) == len(set(ours))
    assert set(ours) <= theirs, sorted(set(ours) - theirs)


@pytest.mark.parametrize("name", ZU)
def test_pynq_reads_a_zynqmp_design(tmp_path, name):
    b = BOARDS[name]
    linked, path = _ours(tmp_path, "dma_stream", name)
    p = _parse(path)
    assert p.family_ps == "zynq_ultra_ps_e" and p.ps_name == "zynq_ultra_ps_e_0"
    top = p.ip_dict["system_top_0"]
    assert b.pl_range[0] <= top["phys_addr"] < b.pl_range[1]
    assert p.ip_dict["axi_dma_0"]["phys_addr"] == linked.dmas[0].base == 0xA040_0000
    # pl_ps_irq0 bit 0 is GIC 121 (PYNQ's UltrascaleProcSysCore)
    intcs = {k: {f: v for f, v in e.items() if f != "name"} for k, e in p.interrupt_controllers.items()}
    assert intcs == {"axi_intc_0": {"parent": "", "index": 0, "raw_irq": 121}}
    assert p.interrupt_pins["axi_dma_0/s2mm_introut"]["index"] == 2
    clk = p.clock_dict[0]
    assert clk["enable"] == 1 and b.pll_mhz / (clk["divisor0"] * clk["divisor1"]) == 100.0
    params = p.ip_dict["zynq_ultra_ps_e_0"]["parameters"]
    # the widths PYNQ programs at load (embedded_device.set_axi_port_width): the fabric's
    assert params["C_MAXIGP0_DATA_WIDTH"] == str(linked.interconnect.data_width)
    assert params["C_SAXIGP0_DATA_WIDTH"] == str(linked.interconnect.data_width)   # HPC0: windows
    assert params["C_SAXIGP4_DATA_WIDTH"] == str(linked.dmas[0].data_width)       # HP2: the DMA
    assert _registers_ok(p)


def _registers_ok(p):
    return "MM2S_DMACR" in p.ip_dict["axi_dma_0"]["registers"]


def test_the_ports_are_named_as_vivado_names_them(tmp_path):
    vivado = {b.get("NAME"): {q.get("NAME"): q.get("VALUE") for q in b.iter("PARAMETER")}
              for b in _ps(_vivado(tmp_path)).iter("BUSINTERFACE")}
    theirs_ports = {p.get("NAME") for p in _ps(_vivado(tmp_path)).iter("PORT")}
    _, path = _ours(tmp_path, "dma_stream", "zcu104")
    ps = _ps(path)
    ours = {b.get("NAME"): {q.get("NAME"): q.get("VALUE") for q in b.iter("PARAMETER")}
            for b in ps.iter("BUSINTERFACE")}
    # the windows on HPC0, the buffer engines on HP0 (the DMA's masters appear in its memory map)
    assert set(ours) == {"M_AXI_HPM0_FPD", "S_AXI_HPC0_FPD", "S_AXI_HP0_FPD"}
    for k in ("PROTOCOL", "ID_WIDTH", "MAX_BURST_LENGTH"):
        assert ours["M_AXI_HPM0_FPD"][k] == vivado["M_AXI_HPM0_FPD"][k], k
        assert ours["S_AXI_HP0_FPD"][k] == vivado["S_AXI_HP2_FPD"][k], k
    ours_ports = {p.get("NAME") for p in ps.iter("PORT")}
    for pin in ("pl_clk0", "pl_resetn0", "maxihpm0_fpd_aclk", "maxigp0_awaddr"):
        assert pin in ours_ports and pin in theirs_ports, pin
    # HP<n>_FPD is saxigp<n+2>, HPC0 saxigp0 (Vivado's HP2_FPD: saxigp4, saxihp2_fpd_aclk)
    assert {"saxigp4_wdata", "saxihp2_fpd_aclk"} <= theirs_ports
    assert {"saxigp0_wdata", "saxihpc0_fpd_aclk", "saxigp2_wdata", "saxihp0_fpd_aclk"} <= ours_ports


def test_windows_reach_the_ocm_through_hpc0(tmp_path):
    _, path = _ours(tmp_path, "pingpong", "kv260")
    (rng,) = [r for r in ElementTree.parse(path).iter("MEMRANGE") if r.get("MASTERBUSINTERFACE") == "m_axi"]
    assert rng.get("SLAVEBUSINTERFACE") == "S_AXI_HPC0_FPD"
    assert (int(rng.get("BASEVALUE"), 16), int(rng.get("HIGHVALUE"), 16)) == (0xFF000000, 0xFFFFFFFF)
