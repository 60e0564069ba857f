"""The AXI DMAs' memory firewalls (``firewall:`` with ``dma:``, issue 46): each DMA's register
page in region ``pl`` after the system top's address block (so the block design gives each a
segment of its own), the system map and C header entries, a system whose only PL masters
toward PS memory are DMAs, the refusal when ``pl`` has no room, and the generated files (the
``<sys>_dma_firewall`` module, the shell's GP0 split, the cores)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.codegen.c_map_header import render_c_header
from pushpush.codegen.dma import dma_cores, dma_firewall_files, render_dma_shell
from pushpush.codegen.fabric import core_dependencies
from pushpush.codegen.vivado import pl_address_block
from pushpush.errors import LinkError
from pushpush.link import DMA_FIREWALL_ENTRIES, FirewallBlock, link, pl_block
from pushpush.spec import load_system
from pushpush.sysmap import from_json, to_dict, to_json

SYSTEM = """\
system: d
{opt}components:
  c0:
    kind: rtl
    module: m_c0
    sources: [c0.v]
    exports: {{f: "(x: i32) -> i32"{bufs}}}
    dma: {{name: axi_dma_0}}
  c1:
    kind: rtl
    module: m_c1
    sources: [c1.v]
    exports: {{f: "(x: i32) -> i32"}}
    dma: {{name: dma_b, data_width: 64}}
  host:
    kind: python
    imports: [c0.f, c1.f]
"""


def _linked(tmp_path: Path, opt: str, bufs: bool = False):
    p = tmp_path / "system.yaml"
    p.write_text(SYSTEM.format(opt=opt, bufs=', g: "(a: in u32[]) -> u32"' if bufs else ""))
    return link(load_system(p))


def test_without_firewall_no_pages(tmp_path: Path) -> None:
    s = _linked(tmp_path, "")
    assert [d.firewall for d in s.dmas] == [None, None]
    assert "firewall" not in str(to_dict(s)["dmas"])
    assert "mem_firewall" not in core_dependencies(s) and dma_firewall_files(s) == {}
    assert "firewall" not in render_dma_shell(s)


def test_pages_after_the_tops_block(tmp_path: Path) -> None:
    # only DMAs reach PS memory: the buffer path has no firewall, the DMAs have theirs
    s = _linked(tmp_path, "firewall: true\n")
    assert s.firewall is None
    base, size = pl_address_block(s)
    pages = [d.firewall_base for d in s.dmas]
    assert pages == [base + size, base + size + 0x1000]
    assert all(s.pl.base <= p and p + 0x1000 <= s.pl.end for p in pages)
    assert [d.firewall for d in s.dmas] == [FirewallBlock(p, DMA_FIREWALL_ENTRIES) for p in pages]
    assert DMA_FIREWALL_ENTRIES == 2
    d = to_dict(s)["dmas"]
    assert d[0]["firewall"] == {"base": f"0x{pages[0]:08X}", "size": "0x00001000", "entries": 2}
    assert from_json(to_json(s)) == s
    h = render_c_header(s)
    assert "D_AXI_DMA_0_FIREWALL_BASE" in h and f"0x{pages[1]:08X}" in h
    assert "mem_firewall" in core_dependencies(s) and "mem_firewall" in dma_cores(s)
    (path, text), = dma_firewall_files(s).items()
    assert path == "rtl/d_dma_firewall.v" and "module d_dma_firewall" in text
    assert ".ENTRIES(2)" in text and "ASSOCIATED_BUSIF s_axi:m_axi:reg_axi" in text
    shell = render_dma_shell(s)
    # the firewalls' pages on the GP0 split before the top (the lowest index wins)
    assert shell.count("d_dma_firewall #(") == 2 and "axi_dma_0_dm_axi_awaddr" in shell
    assert f"32'h{pages[0]:08X}" in shell


def test_with_buffer_parameters_both(tmp_path: Path) -> None:
    s = _linked(tmp_path, "firewall: {entries: 4}\n", bufs=True)
    assert s.firewall is not None and s.firewall.entries == 4
    base, size = pl_address_block(s)
    assert base <= s.firewall.base < base + size       # the top's block holds the buffer path's
    assert s.dmas[0].firewall_base == base + size       # the DMAs' pages come after it


def test_no_room_in_pl(tmp_path: Path) -> None:
    # (windows: false: the window guard's page would not fit either, and is placed first)
    with pytest.raises(LinkError, match=r"memory firewalls of the 2 dma\(s\).*regions.pl.size"):
        _linked(tmp_path, "firewall: {windows: false}\nregions:\n  pl: {base: 0x43C00000, size: 0x3000}\n")


def test_pl_block() -> None:
    assert pl_block(0x43C00000, 0x43C01000) == (0x43C00000, 0x1000)
    assert pl_block(0x43C01000, 0x43C03000) == (0x43C00000, 0x4000)


def test_entries_without_a_buffer_path_are_refused(tmp_path: Path) -> None:
    """``{entries: N}`` sizes the buffer engines' table; with DMAs only it would be ignored."""
    with pytest.raises(LinkError, match=r"system.yaml:2:\d+: .*entries sizes the buffer engines' "
                                        r"table.*write 'firewall: true'"):
        _linked(tmp_path, "firewall: {entries: 4}\n")


def test_zynqmp_interrupt_controller_skips_the_firewall_pages(tmp_path: Path) -> None:
    """On ZynqMP the interrupt controller takes the first 64 KiB block after the top's block,
    where the DMAs' firewall pages start when that block ends on a 64 KiB boundary."""
    from pushpush.codegen.vivado import intc_address_block
    p = tmp_path / "system.yaml"
    text = SYSTEM.format(opt="board: zcu104\nfirewall: true\n", bufs="")
    text = text.replace("    dma: {name: axi_dma_0}\n", "    dma: {name: axi_dma_0}\n    window: 0x8000\n")
    p.write_text(text.replace("    dma: {name: dma_b, data_width: 64}\n",
                              "    dma: {name: dma_b, data_width: 64}\n    window: 0x8000\n"))
    s = link(load_system(p))
    base, size = pl_address_block(s)
    assert (base + size) % 0x10000 == 0 and s.dmas[0].firewall_base == base + size
    ib, isz = intc_address_block(s)
    for d in s.dmas:
        assert not ib <= d.firewall_base < ib + isz
    assert ib >= base + size
