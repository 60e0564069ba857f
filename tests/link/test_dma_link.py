"""``dma:`` of an rtl component (the DMA-driver form, docs/pynq.md): the loader's checks at
the YAML line, the linker's register pages and HP ports, the system map, the generated
ports, and the .hwh PYNQ reads."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pushpush.codegen.ports import user_ports
from pushpush.codegen.rtl import render_stub
from pushpush.errors import LinkError, SpecError
from pushpush.link import DMA_FIRST_PAGE, link
from pushpush.spec import load_system
from pushpush.sysmap import from_json, to_dict, to_json

BASE = """\
system: d
components:
{rtl}
  host:
    kind: python
    imports: [{imports}]
"""


def _rtl(name: str, dma: str) -> str:
    return (f"  {name}:\n    kind: rtl\n    module: m_{name}\n    sources: [{name}.v]\n"
            f"    exports: {{f: \"(x: i32) -> i32\"}}\n" + (f"    dma: {dma}\n" if dma else ""))


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "system.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def _system(tmp_path: Path, dmas: list[str], extra: str = "") -> Path:
    rtl = "".join(_rtl(f"c{i}", d) for i, d in enumerate(dmas))
    imports = ", ".join(f"c{i}.f" for i in range(len(dmas)))
    return _write(tmp_path, extra + BASE.format(rtl=rtl.rstrip("\n"), imports=imports))


def test_pages_ports_and_map(tmp_path: Path) -> None:
    linked = link(load_system(_system(tmp_path, ["{name: axi_dma_0}", "",
                                                 "{name: dma_b, data_width: 64, max_burst: 256}"])))
    a, b = linked.dmas
    assert (a.name, a.component, a.base, a.size, a.data_width, a.max_burst, a.hp_port) == \
        ("axi_dma_0", "c0", 0x4040_0000, 0x1_0000, 32, 16, "S_AXI_HP2")
    assert (b.name, b.component, b.base, b.data_width, b.max_burst, b.hp_port) == \
        ("dma_b", "c2", 0x4041_0000, 64, 256, "S_AXI_HP3")
    assert linked.dma_of("c1") is None and linked.dma_of("c2") == b
    d = to_dict(linked)
    assert d["dmas"][0] == {"name": "axi_dma_0", "component": "c0", "base": "0x40400000",
                            "size": "0x00010000", "data_width": 32, "max_burst": 16,
                            "hp_port": "S_AXI_HP2"}
    assert from_json(to_json(linked)) == linked
    # a system without dma: has no "dmas" entry (maps of existing systems are unchanged)
    assert "dmas" not in to_dict(link(load_system(_system(tmp_path, [""]))))


def test_defaults_and_empty_dma(tmp_path: Path) -> None:
    linked = link(load_system(_system(tmp_path, ["{}"])))
    assert [(d.name, d.data_width, d.max_burst) for d in linked.dmas] == [("axi_dma_0", 32, 16)]
    linked = link(load_system(_system(tmp_path, ["null"])))
    assert linked.dmas[0].name == "axi_dma_0"


def test_pages_skip_region_pl(tmp_path: Path) -> None:
    extra = "regions:\n  pl: {base: 0x40400000, size: 0x20000}\n"
    linked = link(load_system(_system(tmp_path, ["{}"], extra)))
    assert linked.dmas[0].base == 0x4042_0000 and linked.components[0].base == 0x4040_0000
    assert DMA_FIRST_PAGE == 0x4040_0000


def test_stream_ports_and_stub(tmp_path: Path) -> None:
    linked = link(load_system(_system(tmp_path, ["{data_width: 64}"])))
    ports = {p.name: p for p in user_ports(linked.component("c0"), linked.dma_of("c0"))}
    assert (ports["s_axis_tdata"].direction, ports["s_axis_tdata"].width) == ("input", 64)
    assert (ports["s_axis_tkeep"].width, ports["s_axis_tready"].direction) == (8, "output")
    assert (ports["m_axis_tvalid"].direction, ports["m_axis_tready"].direction) == ("output", "input")
    stub = render_stub(linked, "c0")
    assert "assign m_axis_tdata = s_axis_tdata;" in stub


@pytest.mark.parametrize("dma, where, message", [
    ("{name: 3x}", (8, 17), "dma name of component 'c0' '3x' is not a valid name"),
    ("{data_width: 16}", (8, 23), "dma.data_width of component 'c0' must be one of 32, 64, not '16'"),
    ("{max_burst: 3}", (8, 22), "dma.max_burst of component 'c0' must be one of 2, 4, 8"),
    ("{nmae: x}", (8, 11), "unknown key 'nmae' in dma of component 'c0'; did you mean 'name'?"),
    ("[axi_dma_0]", (8, 10), "dma of component 'c0' must be a mapping"),
])
def test_bad_dma_is_reported_at_its_line(tmp_path: Path, dma: str, where: tuple[int, int],
                                          message: str) -> None:
    with pytest.raises(SpecError) as e:
        load_system(_system(tmp_path, [dma]))
    text = str(e.value)
    assert f"system.yaml:{where[0]}:{where[1]}: {message}" in text, text


def test_dma_on_a_python_component(tmp_path: Path) -> None:
    p = _write(tmp_path, BASE.format(rtl=_rtl("c0", "").rstrip("\n"), imports="c0.f")
               + "    dma: {}\n")
    with pytest.raises(SpecError) as e:
        load_system(p)
    assert "python component 'host' cannot have 'dma' (only rtl components have Verilog " \
           "modules, sources, burst settings and DMA streams)" in str(e.value)


@pytest.mark.parametrize("dmas, line, message", [
    (["{}", "{}"], 14, "component 'c1' has a dma named 'axi_dma_0', as component 'c0' has"),
    (["{name: c1}", ""], 8, "is named 'c1', the name of component 'c1' in the overlay"),
    (["{name: axi_intc_0}"], 8, "the name of the interrupt controller in the overlay"),
    (["{name: a}", "{name: b}", "{name: c}", "{name: d}"], 26,
     "component 'c3' would be DMA 4, but the PS has 3 HP ports for DMAs"),
])
def test_link_errors_at_the_dma_line(tmp_path: Path, dmas: list[str], line: int, message: str) -> None:
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, dmas)))
    text = str(e.value)
    assert f"system.yaml:{line}:5: " in text and message in text, text


def test_hwh_describes_the_dma_for_pynq(tmp_path: Path) -> None:
    pytest.importorskip("pynqmetadata")
    from pynqmetadata.frontends import Metadata
    try:
        from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
    except ImportError:  # PYNQ 4.0
        from pynqmetadata.views.runtime import RuntimeMetadataParser
    from pushpush.codegen.hwh import render_hwh

    linked = link(load_system(_system(tmp_path, ["{data_width: 64, max_burst: 256}"])))
    hwh = tmp_path / "d.hwh"
    hwh.write_text(render_hwh(linked))
    ip = RuntimeMetadataParser(Metadata(input=hwh)).ip_dict
    d = ip["axi_dma_0"]
    assert d["type"] == "xilinx.com:ip:axi_dma:7.1"
    assert (d["phys_addr"], d["addr_range"]) == (0x4040_0000, 0x1_0000)
    par = d["parameters"]
    assert (par["c_include_sg"], par["c_micro_dma"], par["c_sg_length_width"]) == ("0", "0", "26")
    assert par["c_m_axi_mm2s_data_width"] == par["c_m_axi_s2mm_data_width"] == "64"
    assert par["c_include_mm2s_dre"] == par["c_include_s2mm_dre"] == "1"
    assert "system_top_0" in ip


def test_map_table_lists_the_dma(tmp_path: Path) -> None:
    from pushpush.cli.check import map_table
    text = map_table(link(load_system(_system(tmp_path, ["{}"]))))
    assert ("  dma axi_dma_0: registers 0x40400000-0x4040FFFF (64 KiB), 32-bit streams s_axis_* "
            "(MM2S) and m_axis_* (S2MM), bursts of 16 on S_AXI_HP2") in text


def test_interrupt_controller_avoids_dma_pages(tmp_path: Path) -> None:
    from pushpush.codegen.vivado import intc_address_block
    # region pl right below 0x41800000: the DMA pages land after it, where the interrupt
    # controller's default page is; the controller moves past them
    extra = "regions:\n  pl: {base: 0x40400000, size: 0x1400000}\n"
    linked = link(load_system(_system(tmp_path, ["{}", "{name: axi_dma_1}"], extra)))
    assert [d.base for d in linked.dmas] == [0x4180_0000, 0x4181_0000]
    base, size = intc_address_block(linked)
    assert all(base >= d.end or base + size <= d.base for d in linked.dmas), hex(base)


@pytest.mark.parametrize("name, what", [("processing_system7_0", "the PS"), ("system_top_0", "the system top")])
def test_dma_named_like_an_overlay_block_is_refused(tmp_path: Path, name: str, what: str) -> None:
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, [f"{{name: {name}}}"])))
    assert f"system.yaml:8:5: the dma of component 'c0' is named '{name}', the name of {what} in the " \
           "overlay; name it e.g. axi_dma_0" in str(e.value)


def test_dma_pages_follow_the_board(tmp_path: Path) -> None:
    """ZynqMP's PL range starts at 0xA0000000: its first DMA page is 0xA0400000."""
    linked = link(load_system(_system(tmp_path, ["{}"], extra="board: zcu104\n")))
    assert linked.board == "zcu104" and linked.dmas[0].base == 0xA040_0000


def test_dmas_leave_the_buffer_engines_port_free(tmp_path: Path) -> None:
    """With software_windows: ddr the buffer parameters' engines take S_AXI_HP1 (HP0 carries
    the windows): DMAs get the other HP ports, and the one DMA too many is told why."""
    text = BASE.format(rtl="".join(_rtl(f"c{i}", "{}" if i else "{name: d0}") for i in range(3)).rstrip("\n")
                       + '\n  b:\n    kind: rtl\n    module: b\n    sources: [b.v]\n'
                         '    exports: {g: "(src: in u32[], n: u32) -> u32"}',
                       imports="c0.f, c1.f, c2.f, b.g")
    with pytest.raises(LinkError) as e:
        link(load_system(_write(tmp_path, "software_windows: ddr\n" + text.replace("  c1:", "  c1:", 1)
                                .replace("    dma: {}\n", "    dma: {name: d1}\n", 1)
                                .replace("    dma: {}\n", "    dma: {name: d2}\n", 1))))
    assert "component 'c2' would be DMA 3, but the PS has 2 HP ports for DMAs (S_AXI_HP2, S_AXI_HP3) " \
           "(S_AXI_HP1 carries the buffer parameters' engines); remove a dma" in str(e.value), str(e.value)


def test_dma_pages_at_the_edges_of_the_pl_range(tmp_path: Path) -> None:
    """A page just below region pl is free; the last page of GP0 (ending at 0x80000000) is
    usable; with none left the dma's line says so."""
    below = link(load_system(_system(tmp_path, ["{}"], "regions:\n  pl: {base: 0x40410000, size: 0x10000}\n")))
    assert below.dmas[0].base == 0x4040_0000
    last = link(load_system(_system(tmp_path, ["{}"], "regions:\n  pl: {base: 0x40400000, size: 0x3FBF0000}\n")))
    assert last.dmas[0].base == 0x7FFF_0000
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, ["{}"], "regions:\n  pl: {base: 0x40400000, size: 0x3FC00000}\n")))
    assert str(e.value).count("system.yaml:") == 1 and \
        "system.yaml:10:5: no free 64 KiB page in M_AXI_GP0 for the dma of component 'c0'; move regions.pl" \
        in str(e.value), str(e.value)


def test_one_dma_too_many_without_buffers(tmp_path: Path) -> None:
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, ["{name: a}", "{name: b}", "{name: c}", "{name: d}", "{name: e}"])))
    text = str(e.value)
    assert "system.yaml:26:5: component 'c3' would be DMA 4, but the PS has 3 HP ports for DMAs (S_AXI_HP2, " \
           "S_AXI_HP3, S_AXI_HP1); remove a dma" in text, text
    # every dma after the first one too many is reported as well
    assert "component 'c4' would be DMA 4" in text, text


def test_hp1_goes_to_a_dma_unless_buffer_engines_need_it(tmp_path: Path) -> None:
    """Buffer engines take HP1 only with software_windows: ddr (HP0 otherwise); without
    buffer parameters ddr windows leave HP1 to the DMAs."""
    three = ["{name: da}", "{name: db}", "{name: dc}"]
    ddr = link(load_system(_system(tmp_path, three, "software_windows: ddr\n")))
    assert [d.hp_port for d in ddr.dmas] == ["S_AXI_HP2", "S_AXI_HP3", "S_AXI_HP1"]
    text = BASE.format(rtl="".join(_rtl(f"c{i}", d) for i, d in enumerate(three)).rstrip("\n")
                       + '\n  b:\n    kind: rtl\n    module: b\n    sources: [b.v]\n'
                         '    exports: {g: "(src: in u32[], n: u32) -> u32"}',
                       imports="c0.f, c1.f, c2.f, b.g")
    bufs = link(load_system(_write(tmp_path, text)))
    assert [d.hp_port for d in bufs.dmas] == ["S_AXI_HP2", "S_AXI_HP3", "S_AXI_HP1"]


def test_every_bad_dma_is_reported_and_each_dma_knows_its_line(tmp_path: Path) -> None:
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, ["{name: x}", "{name: x}", "{name: x}"])))
    assert str(e.value).count("as component 'c0' has") == 2, str(e.value)
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, ["{name: system_top_0}", "{name: axi_intc_0}"])))
    assert "the name of the system top" in str(e.value) and "the name of the interrupt controller" in str(e.value)
    with pytest.raises(LinkError) as e:
        link(load_system(_system(tmp_path, ["{name: a}", "{name: b}"],
                                 "regions:\n  pl: {base: 0x40400000, size: 0x3FC00000}\n")))
    assert "for the dma of component 'c0'" in str(e.value) and "for the dma of component 'c1'" in str(e.value)
    linked = link(load_system(_system(tmp_path, ["{}"])))
    assert str(linked.dmas[0].loc).endswith("system.yaml:8:5")
