"""The .hwh generator: PYNQ's own metadata parser reads it (PYNQ 3.1.x and 4.0)."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from pushpush.codegen.hwh import fclk_divisors, module_ref_vlnv, render_hwh

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


# ------------------------------------------------------------ against a real Vivado .hwh
#
# resizer.hwh: a Vivado 2019.2 hardware handoff of a 7z020/clg400 Zynq design (PS7 with
# M_AXI_GP0 through an AXI interconnect to PL IP, an axi_dma on S_AXI_HP0, a proc_sys_reset,
# FCLK0 100 MHz), kept as test data in tests/pynq/hwhs/ (source and checksum in its README).

HWHS = __import__("pathlib").Path(__file__).resolve().parent / "hwhs"


def vivado_hwh(name: str, tmp_dir) -> "object":
    """The Vivado-written ``<name>.hwh`` of tests/pynq/hwhs/, uncompressed into ``tmp_dir``."""
    import gzip
    from pathlib import Path

    out = Path(tmp_dir) / f"vivado_{name}.hwh"
    if not out.is_file():
        out.write_bytes(gzip.decompress((HWHS / f"{name}.hwh.gz").read_bytes()))
    return out


_RESIZER_DIR = None


def _resizer():
    global _RESIZER_DIR
    import tempfile
    if _RESIZER_DIR is None:
        _RESIZER_DIR = tempfile.mkdtemp(prefix="pp_hwh_")
    return vivado_hwh("resizer", _RESIZER_DIR)


def _ours(tmp_path):
    _, linked = hof()
    path = tmp_path / f"{linked.name}.hwh"
    path.write_text(render_hwh(linked))
    return linked, path


def test_pynq_reads_ours_as_it_reads_vivados(tmp_path):
    vivado = _parse(_resizer())
    linked, path = _ours(tmp_path)
    ours = _parse(path)
    # a PL IP behind M_AXI_GP0: the same fields, of the same types
    theirs_ip, our_ip = vivado.ip_dict["resize_accel_0"], ours.ip_dict["system_top_0"]
    assert sorted(our_ip) == sorted(theirs_ip)
    for k in theirs_ip:
        assert type(our_ip[k]) is type(theirs_ip[k]), k
    assert our_ip["memtype"] == theirs_ip["memtype"] == "REGISTER"
    assert sorted(ours.ip_dict["processing_system7_0"]) == sorted(vivado.ip_dict["processing_system7_0"])
    # the clocks: same structure, and FCLK0's rate from the parameters PYNQ reads
    assert {k: sorted(v) for k, v in ours.clock_dict.items()} == {k: sorted(v) for k, v in vivado.clock_dict.items()}

    def fclk0_mhz(p):
        params = p.ip_dict["processing_system7_0"]["parameters"]
        clk = p.clock_dict[0]
        return float(params["PCW_IO_IO_PLL_FREQMHZ"]) / (clk["divisor0"] * clk["divisor1"])

    assert fclk0_mhz(vivado) == 100.0 == float(linked.clock_mhz) == fclk0_mhz(ours)
    # interrupts: the resizer design has none; ours has the top's irq through axi_intc_0 on
    # IRQ_F2P[0] (raw IRQ 61), as PYNQ's pynq.Interrupt("system_top_0/irq") needs it
    assert vivado.interrupt_controllers == vivado.interrupt_pins == {}
    # (PYNQ 3.1 also repeats the controller's name in its entry; PYNQ 4.0 does not)
    intcs = {k: {f: v for f, v in e.items() if f != "name"}
             for k, e in ours.interrupt_controllers.items()}
    assert intcs == {"axi_intc_0": {"parent": "", "index": 0, "raw_irq": 61}}
    assert ours.interrupt_controllers["axi_intc_0"].get("name", "axi_intc_0") == "axi_intc_0"
    assert ours.interrupt_pins["system_top_0/irq"] == {"controller": "axi_intc_0", "index": 0,
                                                       "fullpath": "system_top_0/irq"}
    intc = ours.ip_dict["axi_intc_0"]
    assert intc["type"] == "xilinx.com:ip:axi_intc:4.1" and intc["addr_range"] == 0x10000
    assert not (intc["phys_addr"] < our_ip["phys_addr"] + our_ip["addr_range"]
                and our_ip["phys_addr"] < intc["phys_addr"] + intc["addr_range"])
    # nothing PYNQ would treat as memory
    assert ours.mem_dict == vivado.mem_dict == {}


def test_no_interrupt_without_a_software_component(tmp_path):
    from pushpush.link import link
    from pushpush.spec import parse_system
    linked = link(parse_system(
        "system: hw\nboard: none\ncomponents:\n  a:\n    kind: rtl\n    module: a\n"
        "    sources: [a.v]\n    exports: {f: \"(x: i32) -> i32\"}\n", file="hw.yaml"))
    assert linked.irq is None
    path = tmp_path / "hw.hwh"
    path.write_text(render_hwh(linked))
    parsed = _parse(path)
    assert parsed.interrupt_controllers == parsed.interrupt_pins == {}


def test_every_ps7_parameter_we_write_is_one_vivado_writes(tmp_path):
    names = {p.get("NAME") for m in ElementTree.parse(_resizer()).iter("MODULE")
             if m.get("MODTYPE") == "processing_system7" for p in m.iter("PARAMETER")}
    _, path = _ours(tmp_path)
    ps = next(m for m in ElementTree.parse(path).iter("MODULE") if m.get("MODTYPE") == "processing_system7")
    ours = {p.get("NAME") for p in ps.find("PARAMETERS").iter("PARAMETER")}
    assert ours <= names, sorted(ours - names)


def _gp0_path(root, ps_if):
    """(protocol at the PS, the module on the other end, its protocol) of a PS GP0 port."""
    mods = list(root.iter("MODULE"))
    ps = next(m for m in mods if m.get("MODTYPE") == "processing_system7")
    bus = next(b for b in ps.iter("BUSINTERFACE") if b.get("NAME") == ps_if)
    proto = {p.get("NAME"): p.get("VALUE") for p in bus.iter("PARAMETER")}["PROTOCOL"]
    peers = [(m, b) for m in mods if m is not ps for b in m.iter("BUSINTERFACE")
             if b.get("BUSNAME") == bus.get("BUSNAME")]
    assert len(peers) == 1, [m.get("INSTANCE") for m, _ in peers]
    m, b = peers[0]
    return proto, m, b


def test_gp0_ports_are_axi3_into_a_converter_as_vivado_writes(tmp_path):
    theirs = ElementTree.parse(_resizer()).getroot()
    proto, peer, peer_bus = _gp0_path(theirs, "M_AXI_GP0")
    assert (proto, peer.get("IPTYPE"), peer_bus.get("NAME")) == ("AXI3", "BUS", "S00_AXI")
    vivado_phys = {pm.get("LOGICAL"): pm.get("PHYSICAL") for pm in peer_bus.iter("PORTMAP")}
    _, path = _ours(tmp_path)
    ours = ElementTree.parse(path).getroot()
    for ps_if, top_if in (("M_AXI_GP0", "s_axi"), ("S_AXI_GP0", "m_axi")):
        proto, peer, peer_bus = _gp0_path(ours, ps_if)
        assert (proto, peer.get("IPTYPE"), peer.get("MODTYPE")) == ("AXI3", "BUS", "smartconnect")
        phys = {pm.get("LOGICAL"): pm.get("PHYSICAL") for pm in peer_bus.iter("PORTMAP")}
        if ps_if == "M_AXI_GP0":   # the converter's ports are named as Vivado names them
            assert all(phys[k] == v for k, v in vivado_phys.items()), (phys, vivado_phys)
        # the converter's other side is the top's AXI4 port
        other = next(b for b in peer.iter("BUSINTERFACE") if b.get("NAME").endswith("00_AXI")
                     and {p.get("NAME"): p.get("VALUE") for p in b.iter("PARAMETER")}["PROTOCOL"] == "AXI4")
        top = next(m for m in ours.iter("MODULE") if m.get("INSTANCE") == "system_top_0")
        assert any(b.get("BUSNAME") == other.get("BUSNAME") and b.get("NAME") == top_if
                   for b in top.iter("BUSINTERFACE"))


def test_the_software_windows_segment_is_the_whole_high_ocm(tmp_path):
    _, path = _ours(tmp_path)
    (rng,) = [r for r in ElementTree.parse(path).iter("MEMRANGE") if r.get("SLAVEBUSINTERFACE") == "S_AXI_GP0"]
    assert rng.get("ADDRESSBLOCK") == "GP0_HIGH_OCM"
    assert (int(rng.get("BASEVALUE"), 16), int(rng.get("HIGHVALUE"), 16)) == (0xFFFC0000, 0xFFFFFFFF)


def _ddr_system():
    """hof with its software windows in DDR (software_windows: ddr) on a 64-bit interconnect."""
    import dataclasses

    from pushpush.link import link
    spec, _ = hof()
    return link(dataclasses.replace(spec, software_windows="ddr")).with_interconnect(data_width=64)


def test_ddr_windows_are_reached_through_hp0_as_vivado_writes_it(tmp_path):
    """With software_windows: ddr the top's m_axi goes to S_AXI_HP0 (AXI3, 64-bit, 6-bit
    IDs) over HP0_DDR_LOWOCM, exactly as Vivado writes HP0 in resizer.hwh (its DMA's
    masters); S_AXI_GP0 and the high OCM are not used; PYNQ's parser reads it."""
    linked = _ddr_system()
    path = tmp_path / "hofddr.hwh"
    path.write_text(render_hwh(linked))
    ours = ElementTree.parse(path).getroot()
    theirs = ElementTree.parse(_resizer()).getroot()

    def hp0_ranges(root):
        return [{k: v for k, v in r.attrib.items() if k != "MASTERBUSINTERFACE"}
                for r in root.iter("MEMRANGE") if r.get("SLAVEBUSINTERFACE") == "S_AXI_HP0"]

    (ours_rng,) = hp0_ranges(ours)
    assert ours_rng == hp0_ranges(theirs)[0]
    assert not [r for r in ours.iter("MEMRANGE") if r.get("SLAVEBUSINTERFACE") == "S_AXI_GP0"]
    proto, peer, _ = _gp0_path(ours, "S_AXI_HP0")
    assert (proto, peer.get("MODTYPE")) == ("AXI3", "smartconnect")

    def hp0_bus(root):
        ps = next(m for m in root.iter("MODULE") if m.get("MODTYPE") == "processing_system7")
        bus = next(b for b in ps.iter("BUSINTERFACE") if b.get("NAME") == "S_AXI_HP0")
        return {p.get("NAME"): p.get("VALUE") for p in bus.iter("PARAMETER")}

    for key in ("PROTOCOL", "DATA_WIDTH", "ID_WIDTH", "ADDR_WIDTH"):
        assert hp0_bus(ours)[key] == hp0_bus(theirs)[key], key
    ps = next(m for m in ours.iter("MODULE") if m.get("MODTYPE") == "processing_system7")
    params = {p.get("NAME"): p.get("VALUE") for p in ps.find("PARAMETERS").iter("PARAMETER")}
    assert (params["PCW_USE_S_AXI_HP0"], params["PCW_S_AXI_HP0_DATA_WIDTH"]) == ("1", "64")
    assert (params["PCW_USE_S_AXI_GP0"], params["PCW_USE_HIGH_OCM"]) == ("0", "0")
    names = {p.get("NAME") for m in theirs.iter("MODULE") if m.get("MODTYPE") == "processing_system7"
             for p in m.iter("PARAMETER")}
    assert set(params) <= names, sorted(set(params) - names)
    # the top's block holds the windows' base register, as PYNQ reads it
    top = _parse(path).ip_dict["system_top_0"]
    reg = linked.ps_window_register
    assert top["phys_addr"] <= reg and reg + 4096 <= top["phys_addr"] + top["addr_range"]


def test_buffer_engines_reach_ddr_through_hp0(tmp_path):
    """A system with buffer parameters (examples/bufargs): the top's buf_axi goes through
    its own SmartConnect to S_AXI_HP0 (AXI3, 32-bit, 6-bit IDs) over HP0_DDR_LOWOCM, the
    range Vivado writes for HP0 in resizer.hwh; m_axi stays on S_AXI_GP0; PYNQ's parser
    reads it."""
    from pathlib import Path

    from pushpush.link import load

    linked = load(Path(__file__).resolve().parents[2] / "examples" / "bufargs" / "system.yaml")
    path = tmp_path / "bufargs.hwh"
    path.write_text(render_hwh(linked))
    ours = ElementTree.parse(path).getroot()
    theirs = ElementTree.parse(_resizer()).getroot()
    ranges = [r.attrib for r in ours.iter("MEMRANGE") if r.get("SLAVEBUSINTERFACE") == "S_AXI_HP0"]
    assert [r["MASTERBUSINTERFACE"] for r in ranges] == ["buf_axi"]
    want = next(r.attrib for r in theirs.iter("MEMRANGE") if r.get("SLAVEBUSINTERFACE") == "S_AXI_HP0")
    assert {k: v for k, v in ranges[0].items() if k != "MASTERBUSINTERFACE"} == \
        {k: v for k, v in want.items() if k != "MASTERBUSINTERFACE"}
    assert [r.get("MASTERBUSINTERFACE") for r in ours.iter("MEMRANGE")
            if r.get("SLAVEBUSINTERFACE") == "S_AXI_GP0"] == ["m_axi"]
    proto, peer, _ = _gp0_path(ours, "S_AXI_HP0")
    assert (proto, peer.get("MODTYPE"), peer.get("INSTANCE")) == ("AXI3", "smartconnect", "axi_buf_to_ps")
    ps = next(m for m in ours.iter("MODULE") if m.get("MODTYPE") == "processing_system7")
    params = {p.get("NAME"): p.get("VALUE") for p in ps.find("PARAMETERS").iter("PARAMETER")}
    assert (params["PCW_USE_S_AXI_HP0"], params["PCW_S_AXI_HP0_DATA_WIDTH"]) == ("1", "32")
    assert params["PCW_USE_S_AXI_GP0"] == "1"
    p = _parse(path)
    assert "system_top_0" in p.ip_dict


def test_dma_and_buffer_engines_in_one_hwh(tmp_path):
    """Both forms of bulk data in one system (examples/dma_stream: an AXI DMA and buffer
    parameters): buf_axi on S_AXI_HP0, the DMA's MM2S and S2MM on S_AXI_HP2, both ports on
    in the PS's parameters; PYNQ's parser binds the DMA by its VLNV and the system top."""
    from pathlib import Path

    from pushpush.link import load

    linked = load(Path(__file__).resolve().parents[2] / "examples" / "dma_stream" / "system.yaml")
    path = tmp_path / "dma_stream.hwh"
    path.write_text(render_hwh(linked))
    ours = ElementTree.parse(path).getroot()
    by_port: dict = {}
    for r in ours.iter("MEMRANGE"):
        by_port.setdefault(r.get("SLAVEBUSINTERFACE"), []).append(r.get("MASTERBUSINTERFACE"))
    assert by_port["S_AXI_HP0"] == ["buf_axi"]
    assert sorted(by_port["S_AXI_HP2"]) == ["M_AXI_MM2S", "M_AXI_S2MM"]
    assert by_port["S_AXI_GP0"] == ["m_axi"]
    ps = next(m for m in ours.iter("MODULE") if m.get("MODTYPE") == "processing_system7")
    params = {p.get("NAME"): p.get("VALUE") for p in ps.find("PARAMETERS").iter("PARAMETER")}
    assert (params["PCW_USE_S_AXI_HP0"], params["PCW_S_AXI_HP0_DATA_WIDTH"]) == ("1", "32")
    assert (params["PCW_USE_S_AXI_HP2"], params["PCW_S_AXI_HP2_DATA_WIDTH"]) == ("1", "32")
    ip = _parse(path).ip_dict
    assert ip["axi_dma_0"]["type"] == "xilinx.com:ip:axi_dma:7.1"
    assert ip["axi_dma_0"]["phys_addr"] == linked.dmas[0].base
    top = ip["system_top_0"]
    assert top["phys_addr"] == min(c.base for c in linked.components if c.kind == "rtl")


def test_dma_interrupts_reach_pynqs_dma_driver(tmp_path):
    """examples/dma_stream: the top's irq and axi_dma_0's mm2s_introut/s2mm_introut through
    xlconcat_0 into axi_intc_0 (three inputs) on IRQ_F2P[0]. PYNQ's parser gives the DMA
    both interrupts (so pynq.lib.dma.DMA's channels get one each and wait_async() works)
    and keeps the top's irq at input 0."""
    from pathlib import Path

    from pushpush.codegen.vivado import interrupt_sources
    from pushpush.link import load

    linked = load(Path(__file__).resolve().parents[2] / "examples" / "dma_stream" / "system.yaml")
    assert interrupt_sources(linked) == [("system_top_0", "irq"), ("axi_dma_0", "mm2s_introut"),
                                         ("axi_dma_0", "s2mm_introut")]
    path = tmp_path / "dma_stream.hwh"
    path.write_text(render_hwh(linked))
    root = ElementTree.parse(path).getroot()
    mods = {m.get("INSTANCE"): m for m in root.iter("MODULE")}
    concat = mods["xlconcat_0"]
    assert concat.get("MODTYPE") == "xlconcat" and concat.get("VLNV") == "xilinx.com:ip:xlconcat:2.1"
    cparams = {p.get("NAME"): p.get("VALUE") for p in concat.iter("PARAMETER")}
    assert cparams["NUM_PORTS"] == cparams["dout_width"] == "3"
    ports = {p.get("NAME"): p for p in concat.iter("PORT")}
    assert [ports[f"In{i}"].get("SIGNAME") for i in range(3)] == [
        "system_top_0_irq", "axi_dma_0_mm2s_introut", "axi_dma_0_s2mm_introut"]
    assert (ports["dout"].get("LEFT"), ports["dout"].get("RIGHT")) == ("2", "0")
    intc = mods["axi_intc_0"]
    iparams = {p.get("NAME"): p.get("VALUE") for p in intc.iter("PARAMETER")}
    assert iparams["C_NUM_INTR_INPUTS"] == "3" and iparams["C_KIND_OF_INTR"] == "0xFFFFFFF8"
    intr = next(p for p in intc.iter("PORT") if p.get("NAME") == "intr")
    assert (intr.get("LEFT"), intr.get("SIGNAME")) == ("2", ports["dout"].get("SIGNAME"))
    for pin in ("mm2s_introut", "s2mm_introut"):
        port = next(p for p in mods["axi_dma_0"].iter("PORT") if p.get("NAME") == pin)
        assert (port.get("DIR"), port.get("SIGIS"), port.get("SENSITIVITY")) == ("O", "INTERRUPT", "LEVEL_HIGH")

    p = _parse(path)
    intcs = {k: {f: v for f, v in e.items() if f != "name"} for k, e in p.interrupt_controllers.items()}
    assert intcs == {"axi_intc_0": {"parent": "", "index": 0, "raw_irq": 61}}
    for pin, index in (("system_top_0/irq", 0), ("axi_dma_0/mm2s_introut", 1),
                       ("axi_dma_0/s2mm_introut", 2)):
        assert p.interrupt_pins[pin] == {"controller": "axi_intc_0", "index": index, "fullpath": pin}
    dma = p.ip_dict["axi_dma_0"]["interrupts"]
    assert sorted(dma) == ["mm2s_introut", "s2mm_introut"]
    assert dma["mm2s_introut"]["index"] == 1 and dma["s2mm_introut"]["index"] == 2
    assert p.ip_dict["system_top_0"]["interrupts"]["irq"]["index"] == 0
    assert p.ip_dict["axi_intc_0"]["parameters"]["C_NUM_INTR_INPUTS"] == "3"


def test_dma_interrupts_without_a_software_component(tmp_path):
    """A DMA in a system without software components (no interrupt block in the top): the
    controller is there for the DMA's two lines alone (inputs 0 and 1)."""
    from pushpush.codegen.vivado import interrupt_sources
    from pushpush.link import link
    from pushpush.spec import parse_system

    rtl = tmp_path / "s.v"
    rtl.write_text("module s(input wire clk); endmodule\n")
    linked = link(parse_system(
        "system: hwdma\nboard: none\ncomponents:\n  a:\n    kind: rtl\n    module: s\n"
        f"    sources: [{rtl}]\n    exports: {{f: \"(x: i32) -> void\"}}\n"
        "    dma: {name: axi_dma_0}\n", file=str(tmp_path / "hwdma.yaml")))
    assert linked.irq is None
    assert interrupt_sources(linked) == [("axi_dma_0", "mm2s_introut"), ("axi_dma_0", "s2mm_introut")]
    path = tmp_path / "hwdma.hwh"
    path.write_text(render_hwh(linked))
    p = _parse(path)
    assert "system_top_0/irq" not in p.interrupt_pins
    assert p.interrupt_pins["axi_dma_0/mm2s_introut"]["index"] == 0
    assert p.interrupt_pins["axi_dma_0/s2mm_introut"]["index"] == 1
    assert p.ip_dict["axi_intc_0"]["parameters"]["C_NUM_INTR_INPUTS"] == "2"


def test_two_dmas_number_their_interrupts_after_the_tops(tmp_path):
    """Two DMAs: inputs 0 (the top's irq), 1-2 (the first DMA's mm2s, s2mm), 3-4 (the
    second's), in the .hwh PYNQ reads and in the block design's Tcl alike."""
    from pushpush.codegen.vivado import interrupt_sources, render_bd_tcl
    from pushpush.link import link
    from pushpush.spec import parse_system

    for n in ("a", "b"):
        (tmp_path / f"{n}.v").write_text(f"module m_{n}(input wire clk); endmodule\n")
    linked = link(parse_system(
        "system: two\nboard: pynq-z1\ncomponents:\n"
        f"  a:\n    kind: rtl\n    module: m_a\n    sources: [{tmp_path / 'a.v'}]\n"
        "    exports: {f: \"(x: i32) -> i32\"}\n    dma: {name: dma_a}\n"
        f"  b:\n    kind: rtl\n    module: m_b\n    sources: [{tmp_path / 'b.v'}]\n"
        "    exports: {f: \"(x: i32) -> i32\"}\n    dma: {name: dma_b, data_width: 64}\n"
        "  host:\n    kind: python\n    imports: [a.f, b.f]\n", file=str(tmp_path / "two.yaml")))
    want = [("system_top_0/irq", 0), ("dma_a/mm2s_introut", 1), ("dma_a/s2mm_introut", 2),
            ("dma_b/mm2s_introut", 3), ("dma_b/s2mm_introut", 4)]
    assert [f"{c}/{p}" for c, p in interrupt_sources(linked)] == [w for w, _ in want]
    path = tmp_path / "two.hwh"
    path.write_text(render_hwh(linked))
    p = _parse(path)
    for pin, index in want:
        assert p.interrupt_pins[pin]["index"] == index, pin
    assert sorted(p.ip_dict["dma_b"]["interrupts"]) == ["mm2s_introut", "s2mm_introut"]
    assert p.ip_dict["axi_intc_0"]["parameters"]["C_NUM_INTR_INPUTS"] == "5"
    tcl = render_bd_tcl(linked, "pushpush:system:two:0.1.0")
    assert "set_property -dict [list CONFIG.NUM_PORTS {5}] $concat" in tcl
    for pin, index in want:
        assert f"connect_bd_net [get_bd_pins {pin}] [get_bd_pins xlconcat_0/In{index}]" in tcl


# ------------------------------------------------------------ issue 30: the three defects

def _examples(name):
    from pathlib import Path

    from pushpush.link import load
    return load(Path(__file__).resolve().parents[2] / "examples" / name / "system.yaml")


def _ps_params(path):
    ps = next(m for m in ElementTree.parse(path).iter("MODULE")
              if m.get("MODTYPE") in ("processing_system7", "zynq_ultra_ps_e"))
    return [(p.get("NAME"), p.get("VALUE")) for p in ps.find("PARAMETERS").iter("PARAMETER")]


@pytest.mark.parametrize("which", ["hof", "ddr", "bufargs", "dma_stream"])
def test_each_ps_parameter_is_written_once(tmp_path, which):
    """Vivado writes every PS parameter once; a repeat (PCW_USE_S_AXI_HP0 "0" then "1" when
    a DMA sits on HP0) made PYNQ's two parsers disagree. Both now read the same values."""
    names = [n for n, _ in _ps_params(_resizer())]
    assert len(names) == len(set(names))
    linked = {"hof": lambda: hof()[1], "ddr": _ddr_system}.get(which, lambda: _examples(which))()
    path = tmp_path / f"{which}.hwh"
    path.write_text(render_hwh(linked))
    ours = _ps_params(path)
    assert len(ours) == len({n for n, _ in ours}), sorted(n for n, _ in ours if [m for m, _ in ours].count(n) > 1)
    pytest.importorskip("pynq.pl_server")
    meta = _parse(path).ip_dict["processing_system7_0"]["parameters"]
    try:   # PYNQ 3.1's own parser (HWH is the one platform.machine() picks; here the Zynq's)
        from pynq.pl_server.hwh_parser import _HWHZynq
    except ImportError:          # PYNQ 4.0 has one parser
        return
    legacy = _HWHZynq(str(path)).ip_dict["processing_system7_0"]["parameters"]
    for name, value in ours:
        assert meta[name] == legacy[name] == value, name


def test_a_dma_on_hp0_switches_hp0_on_once(tmp_path):
    import dataclasses

    linked = _examples("dma_stream")
    (dma,) = linked.dmas
    linked = dataclasses.replace(linked, dmas=(dataclasses.replace(dma, hp_port="S_AXI_HP0"),))
    path = tmp_path / "hp0.hwh"
    path.write_text(render_hwh(linked))
    hp0 = [v for n, v in _ps_params(path) if n == "PCW_USE_S_AXI_HP0"]
    assert hp0 == ["1"]


def _registers(ip):
    return {name: (r["address_offset"], r["size"], r["access"],
                   {f: (v["bit_offset"], v["bit_width"], v["access"]) for f, v in r["fields"].items()})
            for name, r in ip["registers"].items()}


def test_the_dma_carries_vivados_register_map(tmp_path):
    """ip_dict["axi_dma_0"]["registers"] (what PYNQ's register_map is built from) as in
    Vivado's .hwh of an axi_dma 7.1 without scatter-gather: every register, offset, access
    and field."""
    theirs = _parse(_resizer()).ip_dict["axi_dma_0"]
    path = tmp_path / "dma_stream.hwh"
    path.write_text(render_hwh(_examples("dma_stream")))
    ours = _parse(path).ip_dict["axi_dma_0"]
    assert theirs["registers"], "Vivado's DMA has registers"
    assert _registers(ours) == _registers(theirs)


def test_the_interrupt_controller_carries_a_register_map(tmp_path):
    path = tmp_path / "dma_stream.hwh"
    path.write_text(render_hwh(_examples("dma_stream")))
    regs = _registers(_parse(path).ip_dict["axi_intc_0"])
    assert list(regs)[:10] == ["ISR", "IPR", "IER", "IAR", "SIE", "CIE", "IVR", "MER", "IMR", "ILR"]
    assert regs["MER"][0] == 0x1C and regs["MER"][3] == {"ME": (0, 1, "read-write"), "HIE": (1, 1, "read-write")}
    assert regs["IER"][3]["INT"][:2] == (0, 3)       # three inputs: irq, mm2s, s2mm


def test_fclk0_divisors_are_split_as_vivado_splits_them(tmp_path):
    """Vivado writes 100 MHz of the PYNQ-Z1's 1000 MHz IO PLL as 5 x 2, and of resizer.hwh's
    1600 MHz IO PLL as 4 x 4: fclk_divisors does the same (it used to write 10 x 1)."""
    params = dict(_ps_params(_resizer()))
    pll = float(params["PCW_IO_IO_PLL_FREQMHZ"])
    f = fclk_divisors(100, pll)
    assert (str(f.div0), str(f.div1)) == (params["PCW_FCLK0_PERIPHERAL_DIVISOR0"],
                                          params["PCW_FCLK0_PERIPHERAL_DIVISOR1"]) == ("4", "4")
    _, path = _ours(tmp_path)
    ours = dict(_ps_params(path))
    assert (ours["PCW_FCLK0_PERIPHERAL_DIVISOR0"], ours["PCW_FCLK0_PERIPHERAL_DIVISOR1"]) == ("5", "2")


def test_register_maps_work_on_the_simulated_board(tmp_path):
    """``ol.axi_dma_0.register_map`` raised AttributeError on the simulated board; it now
    reads the simulated DMA's registers (running: PYNQ's DMA driver starts both channels)."""
    pytest.importorskip("pynq.pl_server")
    import os

    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import pushpush.pynq as ppq

    ol = ppq.load(str(ppq.write_sim_overlay(_examples("dma_stream"), tmp_path)))
    try:
        rm = ol.axi_dma_0.register_map
        assert int(rm.MM2S_DMACR.RS) == 1 and int(rm.MM2S_DMASR.Halted) == 0
        assert int(rm.S2MM_DMACR.RS) == 1 and ol.axi_dma_0.recvchannel.running
        assert "S2MM_LENGTH" in repr(rm)
        assert hasattr(ol.axi_intc_0.register_map, "MER")
    finally:
        ol.free()
