"""Overlays made outside pushpush on the simulated board (issue 48): a Vivado block design's
``.hwh`` and the user's RTL, and the user's PYNQ notebook run unchanged.

The three overlays of tests/pynq/foreign/ stand for block designs a PYNQ user makes in
Vivado (their ``.hwh`` written by tests/pynq/foreign/hwhgen.py in Vivado's structure, no
Vivado here): ``hls_mac`` (an HLS AXI-Lite accelerator), ``dma_scale`` (an AXI DMA
streaming through an HLS stream accelerator, its interrupts on an axi_intc) and ``irq_mac``
(the accelerator's ap_done interrupt through xlconcat and axi_intc, and an AXI GPIO). Each
``<design>/notebook.py`` imports only PYNQ and runs as a subprocess in the overlay's folder
(:func:`pushpush.pynq.foreign.run_unchanged`), on Icarus here and on Verilator in the second
tier. Then what is refused: a Xilinx IP without a model (the real Vivado ``resizer.hwh``'s
``axis_dwidth_converter``; an ``axi_vdma``), a scatter-gather DMA, a cell without RTL.
"""

from __future__ import annotations

import gzip
import textwrap
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")

from pushpush.codegen.foreign_plan import ForeignOverlayError  # noqa: E402
from pushpush.errors import PushPushError  # noqa: E402
from pushpush.codegen.foreign_shell import render_foreign_shell  # noqa: E402
from pushpush.pynq.foreign import plan_overlay, run_unchanged, write_foreign_overlay  # noqa: E402

HERE = Path(__file__).resolve().parent
FOREIGN = HERE / "foreign"
RTL = sorted((FOREIGN / "rtl").glob("*.v"))
NAMES = ("hls_mac", "dma_scale", "irq_mac")
sys.path.insert(0, str(FOREIGN))
import designs  # noqa: E402
from hwhgen import Cell  # noqa: E402


def _pynq_parser(hwh: Path):  # type: ignore[no-untyped-def]
    from pynqmetadata.frontends import Metadata
    try:
        from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
    except ImportError:  # PYNQ 4.0
        from pynqmetadata.views.runtime import RuntimeMetadataParser
    return RuntimeMetadataParser(Metadata(input=hwh))


@pytest.mark.parametrize("name", NAMES)
def test_checked_in_hwh_is_the_generators(name: str) -> None:
    """tests/pynq/foreign/<name>/<name>.hwh is what hwhgen writes (python hwhgen.py)."""
    assert (FOREIGN / name / f"{name}.hwh").read_text(encoding="utf-8") == designs.render(name)


def test_hwh_has_vivados_structure() -> None:
    """The written .hwh files have the element structure of the Vivado-written resizer.hwh:
    the same top-level sections, and every tag and attribute they use is one Vivado uses."""
    import xml.etree.ElementTree as ET

    real = ET.fromstring(gzip.decompress((HERE / "hwhs" / "resizer.hwh.gz").read_bytes()))

    def shape(root: ET.Element) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for e in root.iter():
            out.setdefault(e.tag, set()).update(e.attrib)
        return out

    vivado = shape(real)
    assert [e.tag for e in real] == ["SYSTEMINFO", "EXTERNALPORTS", "EXTERNALINTERFACES", "MODULES"]
    for name in NAMES:
        ours = ET.fromstring((FOREIGN / name / f"{name}.hwh").read_bytes())
        assert [e.tag for e in ours] == [e.tag for e in real]
        for tag, attrs in shape(ours).items():
            assert tag in vivado, (name, tag)
            assert attrs <= vivado[tag] | {"SENSITIVITY"}, (name, tag, attrs - vivado[tag])


@pytest.mark.parametrize("name", NAMES)
def test_pynq_reads_the_design_and_the_plan_agrees(name: str) -> None:
    """PYNQ's own parser reads each .hwh; the shell reaches every IP PYNQ lists at PYNQ's
    address, and feeds the interrupt controller's inputs in PYNQ's order."""
    hwh = FOREIGN / name / f"{name}.hwh"
    parser = _pynq_parser(hwh)
    plan = plan_overlay(hwh, RTL)
    slaves = {s.cell: (s.base, s.size) for s in plan.slaves}
    for ip, d in parser.ip_dict.items():      # PYNQ names a cell by its path ("stream/axi_dma")
        if "phys_addr" not in d or ip.replace("/", "_") == plan.intc:
            continue
        assert slaves[ip.replace("/", "_")] == (d["phys_addr"], d["addr_range"]), ip
    pins = {v["index"]: k for k, v in parser.interrupt_pins.items() if not k.startswith("xlconcat")}
    assert len(plan.intr) == len(pins)
    for i, expr in enumerate(plan.intr):
        cell, pin = pins[i].rsplit("/", 1)
        assert expr.startswith(f"n_{cell.replace('/', '_')}_{pin}"), (i, expr, pins[i])
    assert "module " in render_foreign_shell(plan)


def _run(name: str, simulator: str, tmp_path: Path) -> None:
    bit = write_foreign_overlay(FOREIGN / name / f"{name}.hwh", RTL, tmp_path / name)
    assert {p.name for p in bit.parent.iterdir()} >= {f"{name}.bit", f"{name}.hwh", f"{name}.dtbo", "rtl"}
    assert (bit.parent / f"{name}.hwh").read_bytes() == (FOREIGN / name / f"{name}.hwh").read_bytes()
    r = run_unchanged(FOREIGN / name / "notebook.py", bit.parent, simulator=simulator,
                      timeout=900, capture=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-6000:]
    assert f"{name}: ok" in r.stdout


@pytest.mark.parametrize("name", NAMES)
def test_notebook_unchanged_icarus(name: str, tmp_path: Path) -> None:
    _run(name, "icarus", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_unchanged_verilator(name: str, tmp_path: Path) -> None:
    _run(name, "verilator", tmp_path)


# ---------------------------------------------------------------------------- refusals


def test_real_vivado_design_with_an_unmodelled_ip_is_refused(tmp_path: Path) -> None:
    """PYNQ-HelloWorld's resizer (a Vivado-written .hwh): its axis_dwidth_converter has no
    model; the refusal names the cell, its VLNV and what to do."""
    hwh = tmp_path / "resizer.hwh"
    hwh.write_bytes(gzip.decompress((HERE / "hwhs" / "resizer.hwh.gz").read_bytes()))
    stub = tmp_path / "resize_accel.v"
    stub.write_text("module resize_accel(input wire ap_clk); endmodule\n")
    with pytest.raises(ForeignOverlayError) as e:
        write_foreign_overlay(hwh, [stub], tmp_path / "out")
    msg = str(e.value)
    assert "axis_dwidth_converter_0" in msg and "xilinx.com:ip:axis_dwidth_converter:1.1" in msg
    assert "no model" in msg and "--top-map axis_dwidth_converter_0=MODULE" in msg
    assert not (tmp_path / "out").exists()


def _with_vdma(tmp_path: Path) -> Path:
    d = designs.hls_mac()
    v = d.add(Cell("axi_vdma_0", "xilinx.com:ip:axi_vdma:6.3", {"C_INCLUDE_SG": "0"}))
    v.port("s_axi_lite_aclk", "I", 1, "clk")
    d.clock(("axi_vdma_0", "s_axi_lite_aclk"))
    hwh = tmp_path / "vdma.hwh"
    hwh.write_text(d.render(), encoding="utf-8")
    return hwh


def test_unmodelled_xilinx_ip_is_refused_never_skipped(tmp_path: Path) -> None:
    with pytest.raises(ForeignOverlayError, match=r"cell 'axi_vdma_0' \(xilinx.com:ip:axi_vdma:6.3\): "
                       r"this Xilinx IP has no model"):
        plan_overlay(_with_vdma(tmp_path), RTL)


def test_a_model_of_ones_own_takes_an_unmodelled_ips_place(tmp_path: Path) -> None:
    """--top-map CELL=MODULE: the user's Verilog stands for the IP (by the .hwh's ports)."""
    model = tmp_path / "vdma_model.v"
    model.write_text("module vdma_model(input wire s_axi_lite_aclk); endmodule\n")
    plan = plan_overlay(_with_vdma(tmp_path), RTL + [model], ["axi_vdma_0=vdma_model"])
    assert plan.user["axi_vdma_0"] == "vdma_model"
    assert "vdma_model axi_vdma_0 (\n    .s_axi_lite_aclk(clk)\n);" in render_foreign_shell(plan)


def test_scatter_gather_dma_is_refused(tmp_path: Path) -> None:
    text = (FOREIGN / "dma_scale" / "dma_scale.hwh").read_text(encoding="utf-8")
    hwh = tmp_path / "sg.hwh"
    hwh.write_text(text.replace('NAME="C_INCLUDE_SG" VALUE="0"', 'NAME="C_INCLUDE_SG" VALUE="1"')
                   .replace('NAME="c_include_sg" VALUE="0"', 'NAME="c_include_sg" VALUE="1"'))
    with pytest.raises(ForeignOverlayError, match=r"'stream_axi_dma' \(xilinx.com:ip:axi_dma:7.1\): "
                       r"the AXI DMA is in scatter-gather mode"):
        plan_overlay(hwh, RTL)


def test_cell_without_rtl_is_refused() -> None:
    with pytest.raises(ForeignOverlayError, match=r"cell 'mac_0' \(xilinx.com:hls:mac:1.0\): no "
                       r"Verilog module 'mac' in the RTL given .*solution/impl/verilog"):
        plan_overlay(FOREIGN / "hls_mac" / "hls_mac.hwh", [FOREIGN / "rtl" / "scale.v"])


def test_bad_top_map_is_refused() -> None:
    with pytest.raises(ForeignOverlayError, match="names cell.*nope"):
        plan_overlay(FOREIGN / "hls_mac" / "hls_mac.hwh", RTL, ["nope=mac"])
    with pytest.raises(ForeignOverlayError, match="write CELL=MODULE"):
        plan_overlay(FOREIGN / "hls_mac" / "hls_mac.hwh", RTL, ["mac_0"])
    with pytest.raises(ForeignOverlayError, match="no module 'other'"):
        plan_overlay(FOREIGN / "hls_mac" / "hls_mac.hwh", RTL, ["mac_0=other"])


def test_not_a_hwh_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.hwh"
    bad.write_text("<xml><nope/></xml>")
    with pytest.raises(PushPushError, match=r"x.hwh: the root element is <xml>"):
        plan_overlay(bad, RTL)
    bad.write_text("<EDKSYSTEM><MODULES>")
    with pytest.raises(PushPushError, match=r"x.hwh:1:\d+: not valid XML"):
        plan_overlay(bad, RTL)


def test_cli_writes_the_folder_and_refuses_with_exit_1(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "pushpush", "sim-overlay", str(FOREIGN / "hls_mac" / "hls_mac.hwh"),
           "--rtl", *map(str, RTL), "-o", str(tmp_path / "ok")]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "ok" / "hls_mac.bit").is_file() and "mac_0" in r.stdout
    r = subprocess.run(cmd[:5] + ["--rtl", str(FOREIGN / "rtl" / "scale.v"), "-o", str(tmp_path / "no")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 1 and "no Verilog module 'mac'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("name", NAMES)
def test_shell_lints_clean(name: str, tmp_path: Path) -> None:
    """The generated shell passes verilator --lint-only -Wall and iverilog -Wall with no
    warning of its own (the user's RTL and pushpush's cores are linted elsewhere)."""
    import shutil

    from pushpush.pynq.simulated.simbit import read_manifest

    bit = write_foreign_overlay(FOREIGN / name / f"{name}.hwh", RTL, tmp_path / name)
    m = read_manifest(bit)
    shell = f"{name}_foreign_shell.v"
    v = subprocess.run(["verilator", "--lint-only", "-Wall", "-Wno-fatal", "--top-module", m["top"],
                        *m["sources"]], capture_output=True, text=True, check=False)
    assert not [ln for ln in v.stderr.splitlines() if ln.startswith("%") and shell in ln], v.stderr
    if shutil.which("iverilog"):
        i = subprocess.run(["iverilog", "-g2005", "-Wall", "-o", str(tmp_path / "x"), "-s", m["top"],
                            *m["sources"]], capture_output=True, text=True, check=False)
        assert i.returncode == 0, i.stderr
        assert not [ln for ln in i.stderr.splitlines() if shell in ln], i.stderr


def test_posted_write_error_is_raised_at_the_next_access(tmp_path: Path) -> None:
    """A register write is posted (as the ARM posts stores to device memory): a write to an
    address nothing decodes returns at once, and its DECERR is raised by the next access,
    naming the posted write; the accesses after it work."""
    bit = write_foreign_overlay(FOREIGN / "hls_mac" / "hls_mac.hwh", RTL, tmp_path / "hls_mac")
    script = tmp_path / "posted.py"
    script.write_text(textwrap.dedent("""
        from pynq import MMIO, Overlay
        from pushpush.protocol import BusWriteError
        ol = Overlay("hls_mac.bit")
        nowhere = MMIO(0x50000000, 0x1000)
        nowhere.write(0x0, 1)                   # posted: no error yet
        try:
            ol.mac_0.read(0x18)
        except BusWriteError as e:
            assert e.address == 0x50000000 and e.resp == "DECERR", e
        else:
            raise AssertionError("the posted write's DECERR was not raised")
        ol.mac_0.write(0x18, 7)
        assert ol.mac_0.read(0x18) == 7
        print("posted: ok")
        ol.free()
    """))
    r = run_unchanged(script, bit.parent, simulator="icarus", timeout=600, capture=True)
    assert r.returncode == 0 and "posted: ok" in r.stdout, r.stdout[-2000:] + r.stderr[-4000:]
