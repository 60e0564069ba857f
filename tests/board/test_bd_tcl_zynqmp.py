"""The ZCU104 and KV260 Vivado flow (``zynq_ultra_ps_e``), checked without Vivado: the
project script Edalize writes for the ``zcu104``/``kv260`` target (which sources pushpush's
block-design tcl) runs under ``tclsh`` with the stand-in of ``tests/board/vivado_standin.tcl``.

The stand-in accepts a ``CONFIG.*`` name on the ``zynq_ultra_ps_e`` only when a real design
uses it (``tests/board/psu/``: the PS cell of PYNQ's ZCU104 and Kria-PYNQ's KV260 base.tcl,
and the PS parameters of ``tests/pynq/hwhs/rfsoc_sam.hwh.gz``); this file checks the same
names from Python, the files' sha256, and that the block design states what the generated
``.hwh`` says (port widths, ports on, PL clock divisors, the interrupt).
"""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pushpush.boards import board
from pushpush.build.fusesoc import build, work_root
from pushpush.codegen.rtl import buffer_port
from pushpush.codegen.vivado import (ZU_SAXIGP, intc_address_block, interrupt_sources,
                                     pl_address_block, render_bd_tcl, zu_ps_settings)
from pushpush.link import load
from pushpush.codegen import hwh as _hwh
from test_bd_tcl import _parse, _run  # the stand-in's runner and log reader, shared

REPO = Path(__file__).resolve().parents[2]
PSU = Path(__file__).with_name("psu")
SAM = REPO / "tests" / "pynq" / "hwhs" / "rfsoc_sam.hwh.gz"
SYSTEMS = {
    "pingpong": REPO / "examples" / "pingpong" / "system.yaml",
    "audio_fir": REPO / "examples" / "audio_fir" / "system.yaml",
    "dma_stream": REPO / "examples" / "dma_stream" / "system.yaml",
    "bufargs": REPO / "examples" / "bufargs" / "system.yaml",
    "channels": REPO / "examples" / "channels" / "system.yaml",
    "pingpong_ddr": REPO / "tests" / "board" / "fixtures" / "pingpong_ddr" / "system.yaml",
    "dma_firewall": REPO / "tests" / "board" / "fixtures" / "dma_firewall" / "system.yaml",
}
#: every system on the ZCU104; the KV260 differs only in its part, board part and PS version
CASES = [("zcu104", n) for n in sorted(SYSTEMS)] + [("kv260", "pingpong"), ("kv260", "dma_stream")]
BOARD_FILES = {"zcu104": "xilinx.com:zcu104:part0:1.1", "kv260": "xilinx.com:kv260_som:part0:1.4"}

needs_tclsh = pytest.mark.skipif(shutil.which("tclsh") is None,
                                 reason="tclsh is missing: apt-get install tcl (bootstrap.sh does)")

_SETUPS: dict[tuple[str, str], tuple[object, Path]] = {}


@pytest.fixture(scope="module")
def setups(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    def get(b: str, name: str, tmp_path: Path) -> tuple[object, Path]:
        """FuseSoC's setup stage for (board, system) once per module; a copy per test."""
        if (b, name) not in _SETUPS:
            linked = load(SYSTEMS[name], board=b)
            out = tmp_path_factory.mktemp(f"setup-{b}-{name}") / "out"
            result = build(linked, out, b, progress=lambda _m: None, vivado=None)
            assert result.setup_only, "Vivado is on PATH: this check is for machines without it"
            _SETUPS[(b, name)] = (linked, work_root(linked, out, b))
        linked, root = _SETUPS[(b, name)]
        shutil.copytree(root, tmp_path / "root")
        return linked, tmp_path / "root"
    return get


def _real_psu_names() -> set[str]:
    """CONFIG names the real designs set on zynq_ultra_ps_e, and the PSU parameters of a
    Vivado-written .hwh of that IP."""
    names: set[str] = set()
    for f in PSU.glob("*.tcl"):
        names |= set(re.findall(r"CONFIG\.([A-Za-z0-9_]+)", f.read_text()))
    names |= set(re.findall(r'NAME="(PSU_[A-Za-z0-9_]+)"', gzip.decompress(SAM.read_bytes()).decode()))
    return names


# ---------------------------------------------------------------- the test data


def test_the_real_ps_configurations_are_the_files_the_readme_names() -> None:
    readme = (PSU / "README.md").read_text()
    for f in ("zcu104_base_ps_e.tcl", "kv260_base_ps_e.tcl"):
        digest = hashlib.sha256((PSU / f).read_bytes()).hexdigest()
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{f}`"))
        assert row.rstrip(" |").endswith(f"`{digest}`"), f"{f}: sha256 {digest} is not the README's"
    zcu = (PSU / "zcu104_base_ps_e.tcl").read_text()
    assert "create_bd_cell -type ip -vlnv xilinx.com:ip:zynq_ultra_ps_e:3.5 ps_e_0" in zcu
    kv = (PSU / "kv260_base_ps_e.tcl").read_text()
    assert "create_bd_cell -type ip -vlnv xilinx.com:ip:zynq_ultra_ps_e:3.3 zynq_ultra_ps_e_0" in kv
    # what the block design relies on, as the real files have it
    assert "CONFIG.PSU__USE__S_AXI_GP2 {1}" in zcu and "CONFIG.PSU__SAXIGP2__DATA_WIDTH {128}" in zcu
    assert "CONFIG.PSU__USE__IRQ0 {1}" in zcu and "CONFIG.PSU__USE__FABRIC__RST {1}" in zcu
    assert "CONFIG.PSU__MAXIGP0__DATA_WIDTH {128}" in kv
    assert "CONFIG.PSU__CRL_APB__PL0_REF_CTRL__SRCSEL {IOPLL}" in kv


@pytest.mark.parametrize("b, name", CASES)
def test_every_ps_setting_is_a_name_a_real_design_uses(b: str, name: str) -> None:
    linked = load(SYSTEMS[name], board=b)
    real = _real_psu_names()
    settings = zu_ps_settings(linked)
    assert {k for k, _ in settings} <= real, sorted({k for k, _ in settings} - real)
    tcl = render_bd_tcl(linked, "x")
    ps_block = tcl[tcl.index("apply_bd_automation"):tcl.index("] $ps\n")]
    assert set(re.findall(r"CONFIG\.(\w+)", ps_block)) <= real


def test_the_port_numbers_are_the_hwh_writers() -> None:
    assert {k: v for k, v in ZU_SAXIGP.items() if k in _hwh.ZU_SAXIGP} == _hwh.ZU_SAXIGP


@pytest.mark.parametrize("b, name", CASES)
def test_the_block_design_says_what_the_hwh_says(b: str, name: str) -> None:
    """Every PS parameter both write (ports on, their widths, PL clock 0, the fabric reset,
    pl_ps_irq0) has the same value in the block design and in the generated .hwh, the
    .hwh PYNQ reads widths from to program the AFIFM/SLCR registers."""
    linked = load(SYSTEMS[name], board=b)
    root = ET.fromstring(_hwh.render_hwh(linked))
    mod = next(m for m in root.iter("MODULE") if m.get("MODTYPE") == "zynq_ultra_ps_e")
    params = {p.get("NAME"): p.get("VALUE") for p in mod.iter("PARAMETER")}
    settings = dict(zu_ps_settings(linked))
    both = set(settings) & set(params)
    assert {"PSU__USE__M_AXI_GP0", "PSU__MAXIGP0__DATA_WIDTH", "PSU__CRL_APB__PL0_REF_CTRL__DIVISOR0",
            "PSU__USE__IRQ0"} <= both
    for k in sorted(both):
        assert settings[k] == params[k], f"{k}: block design {settings[k]}, .hwh {params[k]}"
    for k, v in settings.items():   # a port the block design switches on is in the .hwh
        if k.startswith("PSU__USE__S_AXI_GP") and v == "1":
            n = k[-1]
            assert params.get(f"C_SAXIGP{n}_DATA_WIDTH") == settings[f"PSU__SAXIGP{n}__DATA_WIDTH"]
    assert params["C_MAXIGP0_DATA_WIDTH"] == settings["PSU__MAXIGP0__DATA_WIDTH"]


# ---------------------------------------------------------------- under the stand-in


@needs_tclsh
@pytest.mark.parametrize("b, name", CASES)
def test_project_and_block_design_run_under_the_standin(b: str, name: str, tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups(b, name, tmp_path)
    bo = board(b)
    log = tmp_path / "vivado.log"
    proc = _run(root, linked, log, BOARD_FILES[b])
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "WARNING" not in proc.stdout, proc.stdout
    cmds, summary = _parse(log)
    text = "\n".join(cmds)
    assert f"set_property part {bo.part}" in text
    assert f"set_property board_part {BOARD_FILES[b]} project:" in text
    assert f"create_bd_cell -type ip -vlnv {bo.ps_vlnv} zynq_ultra_ps_e_0" in cmds
    assert any(c.startswith("apply_bd_automation -rule xilinx.com:bd_rule:zynq_ultra_ps_e -config "
                            "{apply_board_preset \"1\"}") for c in cmds)
    assert "processing_system7" not in text
    assert summary["=top"] == f"{linked.name}_bd_wrapper"  # type: ignore[attr-defined]
    dw = linked.interconnect.data_width  # type: ignore[attr-defined]
    ps_pl = next(c for c in cmds if "CONFIG.PSU__USE__M_AXI_GP0" in c)
    assert (f"CONFIG.PSU__USE__M_AXI_GP0 1 CONFIG.PSU__MAXIGP0__DATA_WIDTH {dw} "
            "CONFIG.PSU__USE__M_AXI_GP1 0 CONFIG.PSU__USE__M_AXI_GP2 0") in ps_pl
    # the rtl windows behind M_AXI_HPM0_FPD, at the linked model's addresses
    base, size = pl_address_block(linked)  # type: ignore[arg-type]
    assert bo.pl_range[0] <= base and base + size <= bo.pl_range[1]
    assert (f"{{zynq_ultra_ps_e_0/Data system_top_0/s_axi/reg0 0x{base:08X} 0x{size:08X}}}"
            in summary["=assigned"])
    assert "connect_bd_intf_net pin:/zynq_ultra_ps_e_0/M_AXI_HPM0_FPD pin:/axi_gp0_to_pl/S00_AXI" in cmds
    # kind: riscv: each program image read_mem'd into the project (docs/riscv.md, "Board
    # builds"), the core's window inside the block the PS reaches
    riscv = [c for c in linked.components if c.kind == "riscv"]  # type: ignore[attr-defined]
    assert summary["=mem"].split() == [f"{c.name}.mem" for c in riscv]
    assert all(base <= c.base and c.end <= base + size for c in riscv)
    # the software windows: OCM through S_AXI_HPC0_FPD (SAXIGP0) or DDR through S_AXI_HP0_FPD
    if linked.software_windows == "ddr":  # type: ignore[attr-defined]
        assert ("{system_top_0/m_axi zynq_ultra_ps_e_0/SAXIGP2/HP0_DDR_LOW 0x00000000 0x80000000}"
                in summary["=assigned"])
        assert f"CONFIG.PSU__USE__S_AXI_GP2 1 CONFIG.PSU__SAXIGP2__DATA_WIDTH {dw}" in ps_pl
        assert "CONFIG.PSU__USE__S_AXI_GP0 0" in ps_pl
    else:
        assert ("{system_top_0/m_axi zynq_ultra_ps_e_0/SAXIGP0/HPC0_LPS_OCM 0xFF000000 0x01000000}"
                in summary["=assigned"])
        assert linked.ps.base >= 0xFFFC0000  # type: ignore[attr-defined]
        assert f"CONFIG.PSU__USE__S_AXI_GP0 1 CONFIG.PSU__SAXIGP0__DATA_WIDTH {dw}" in ps_pl
    port = buffer_port(linked)  # type: ignore[arg-type]
    if port is not None:
        n = ZU_SAXIGP[bo.port(port)]
        pre = bo.port(port).replace("S_AXI_", "").replace("_FPD", "")
        assert (f"{{system_top_0/buf_axi zynq_ultra_ps_e_0/SAXIGP{n}/{pre}_DDR_LOW 0x00000000 0x80000000}}"
                in summary["=assigned"])
        assert f"CONFIG.PSU__USE__S_AXI_GP{n} 1 CONFIG.PSU__SAXIGP{n}__DATA_WIDTH 32" in ps_pl
    for d in linked.dmas:  # type: ignore[attr-defined]
        n = ZU_SAXIGP[bo.port(d.hp_port)]
        pre = bo.port(d.hp_port).replace("S_AXI_", "").replace("_FPD", "")
        assert (f"{{zynq_ultra_ps_e_0/Data {d.name}/S_AXI_LITE/Reg 0x{d.base:08X} 0x00010000}}"
                in summary["=assigned"])
        for space in ("Data_MM2S", "Data_S2MM"):
            # with firewall: the DMA's masters see DDR through its firewall's s_axi
            seg = (f"{d.name}_firewall/s_axi/reg0" if d.firewall is not None
                   else f"zynq_ultra_ps_e_0/SAXIGP{n}/{pre}_DDR_LOW")
            assert f"{{{d.name}/{space} {seg} 0x00000000 0x80000000}}" in summary["=assigned"]
        if d.firewall is not None:
            assert (f"{{{d.name}_firewall/m_axi zynq_ultra_ps_e_0/SAXIGP{n}/{pre}_DDR_LOW 0x00000000 "
                    "0x80000000}" in summary["=assigned"])
            assert (f"{{zynq_ultra_ps_e_0/Data {d.name}_firewall/reg_axi/reg0 "
                    f"0x{d.firewall.base:08X} 0x00001000}}" in summary["=assigned"])
        assert f"CONFIG.PSU__USE__S_AXI_GP{n} 1 CONFIG.PSU__SAXIGP{n}__DATA_WIDTH {d.data_width}" in ps_pl
    nets = [c for c in cmds if c.startswith("connect_bd_net")]
    if interrupt_sources(linked):  # type: ignore[arg-type]
        assert "CONFIG.PSU__USE__IRQ0 1" in ps_pl
        assert "connect_bd_net pin:/axi_intc_0/irq pin:/zynq_ultra_ps_e_0/pl_ps_irq0" in nets
        ib, isz = intc_address_block(linked)  # type: ignore[arg-type, misc]
        assert bo.pl_range[0] <= ib and ib + isz <= bo.pl_range[1]
        assert (f"{{zynq_ultra_ps_e_0/Data axi_intc_0/S_AXI/Reg 0x{ib:08X} 0x{isz:08X}}}"
                in summary["=assigned"])
    else:
        assert "CONFIG.PSU__USE__IRQ0 0" in ps_pl and "pl_ps_irq0" not in "\n".join(nets)


@needs_tclsh
def test_without_the_board_files_the_design_stops_with_the_reason(tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups("zcu104", "pingpong", tmp_path)
    proc = _run(root, linked, tmp_path / "vivado.log", "")
    assert proc.returncode == 1
    assert "the ZCU104 board files (*:zcu104:part0:*) are not installed" in proc.stderr
    cmds, _ = _parse(tmp_path / "vivado.log")
    assert not any(c.startswith("create_bd_cell -type ip -vlnv xilinx.com:ip:zynq_ultra_ps_e") for c in cmds)


@needs_tclsh
@pytest.mark.parametrize("what, old, new, error", [
    ("a PS parameter no real design has", "CONFIG.PSU__MAXIGP0__DATA_WIDTH {32}",
     "CONFIG.PSU__MAXIGP0_DATA_WIDTH {32}", "zynq_ultra_ps_e has no parameter 'CONFIG.PSU__MAXIGP0_DATA_WIDTH'"),
    ("a port width the PS does not have", "CONFIG.PSU__SAXIGP0__DATA_WIDTH {32}",
     "CONFIG.PSU__SAXIGP0__DATA_WIDTH {256}", "is 32, 64 or 128, not '256'"),
    ("M_AXI_HPM1_FPD left on as the preset leaves it", "  CONFIG.PSU__USE__M_AXI_GP1 {0} \\\n", "",
     "maxihpm1_fpd_aclk is not connected to a valid clock source"),
    ("the window port's clock not driven", "  [get_bd_pins zynq_ultra_ps_e_0/saxihpc0_fpd_aclk] \\\n", "",
     "saxihpc0_fpd_aclk is not connected to a valid clock source"),
    ("the rtl block outside M_AXI_HPM0_FPD's range", "-offset 0xA0000000", "-offset 0x40000000",
     "outside what the enabled masters reach (M_AXI_HPM0_FPD 0xA0000000..0xB0000000)"),
    ("the software windows on a port that is off", "CONFIG.PSU__USE__S_AXI_GP0 {1}",
     "CONFIG.PSU__USE__S_AXI_GP0 {0}", "connect_bd_intf_net: '' is not one interface pin"),
    ("the interrupt without PSU__USE__IRQ0", "CONFIG.PSU__USE__IRQ0 {1}", "CONFIG.PSU__USE__IRQ0 {0}",
     "needs two or more pins, each found"),
    ("a PL clock other than the top's", "CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ {100}",
     "CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ {125}", "differs from pl_clk0 (125000000)"),
])
def test_the_standin_refuses(tmp_path: Path, what: str, old: str, new: str, error: str, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups("zcu104", "pingpong", tmp_path)
    (path,) = root.glob("src/*/vivado/pingpong_bd.tcl")
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))
    proc = _run(root, linked, tmp_path / "vivado.log", BOARD_FILES["zcu104"])
    assert proc.returncode == 1, f"{what}: accepted\n{proc.stdout}"
    assert error in proc.stderr, f"{what}:\n{proc.stderr}"
