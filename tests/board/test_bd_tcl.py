"""The PYNQ-Z1 Vivado flow, checked without Vivado: the project script Edalize writes for the
``pynq_z1`` target (which sources pushpush's block-design tcl) runs under ``tclsh`` with the
stand-in command set of ``tests/board/vivado_standin.tcl``.

The stand-in records every Vivado command, rejects commands it does not define, options a
command does not have and wrong numbers of arguments, and keeps a small model of the project
and block design (files read, cells and their pins as their CONFIG makes them, nets, address
segments). docs/board.md says exactly what this catches and what only Vivado can.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pushpush.build.fusesoc import build, work_root
from pushpush.codegen.fabric import buffer_port, top_module_name
from pushpush.codegen.vivado import interrupt_sources, intc_address_block, pl_address_block
from pushpush.link import link
from pushpush.spec import load_system

REPO = Path(__file__).resolve().parents[2]
STANDIN = Path(__file__).with_name("vivado_standin.tcl")
SYSTEMS = {
    "pingpong": REPO / "examples" / "pingpong" / "system.yaml",
    "audio_fir": REPO / "examples" / "audio_fir" / "system.yaml",
    "tiny": REPO / "tests" / "gen" / "fixtures" / "tiny" / "system.yaml",
    "pingpong_ddr": REPO / "tests" / "board" / "fixtures" / "pingpong_ddr" / "system.yaml",
    "bufargs": REPO / "examples" / "bufargs" / "system.yaml",
    "dma_stream": REPO / "examples" / "dma_stream" / "system.yaml",
    "dma_firewall": REPO / "tests" / "board" / "fixtures" / "dma_firewall" / "system.yaml",
    "channels": REPO / "examples" / "channels" / "system.yaml",
    "riscv_pingpong": REPO / "examples" / "riscv_pingpong" / "system.yaml",
    "hls_pingpong": REPO / "examples" / "hls_pingpong" / "system.yaml",
    "hls_callback": REPO / "examples" / "hls_callback" / "system.yaml",
}  # every example, the generate/build tests' PYNQ-Z1 fixture (the others are board: none), and
#    a system with its software windows in DDR (software_windows: ddr: S_AXI_HP0)

pytestmark = pytest.mark.skipif(shutil.which("tclsh") is None,
                                reason="tclsh is missing: apt-get install tcl (bootstrap.sh does)")


#: examples the board flow does not build yet, and why (none: riscv_pingpong since issue 33)
NO_BOARD_FLOW: dict[str, str] = {}


def test_every_example_is_covered() -> None:
    examples = {p.parent.name for p in (REPO / "examples").glob("*/system.yaml")} - set(NO_BOARD_FLOW)
    assert examples <= set(SYSTEMS), f"add {sorted(examples - set(SYSTEMS))} to SYSTEMS"


_SETUPS: dict[str, tuple[object, Path]] = {}


@pytest.fixture(scope="module")
def setups(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    def get(name: str, tmp_path: Path) -> tuple[object, Path]:
        """Generate the system and let FuseSoC/Edalize write the Vivado project (setup
        stage: no Vivado on this machine, or the build would start), once per module;
        each test gets its own copy of the project folder."""
        if name not in _SETUPS:
            spec = load_system(str(SYSTEMS[name]))
            linked = link(spec)
            out = tmp_path_factory.mktemp(f"setup-{name}") / "out"
            result = build(linked, out, "pynq_z1", progress=lambda _m: None, vivado=None)
            assert result.setup_only, "Vivado is on PATH: this check is for machines without it"
            _SETUPS[name] = (linked, work_root(linked, out, "pynq_z1"))
        linked, root = _SETUPS[name]
        shutil.copytree(root, tmp_path / "root")
        return linked, tmp_path / "root"
    return get


def _run(root: Path, linked: object, log: Path, board_parts: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, STANDIN_LOG=str(log))
    env.pop("STANDIN_BOARD_PARTS", None)
    if board_parts:
        env["STANDIN_BOARD_PARTS"] = board_parts
    project = f"pushpush_system_{linked.name}_0.1.0.tcl"  # type: ignore[attr-defined]
    return subprocess.run(["tclsh", str(STANDIN), project], cwd=root, capture_output=True,
                          text=True, timeout=120, env=env)


def _parse(log: Path) -> tuple[list[str], dict[str, str]]:
    """(command lines in order, {=key: rest of the line})."""
    cmds, summary = [], {}
    for line in log.read_text().splitlines():
        if line.startswith("="):
            key, _, rest = line.partition(" ")
            summary[key] = rest
        else:
            cmds.append(line)
    return cmds, summary


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_project_and_block_design_run_under_the_standin(name: str, tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups(name, tmp_path)
    log = tmp_path / "vivado.log"
    proc = _run(root, linked, log)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "WARNING" not in proc.stdout, proc.stdout
    cmds, summary = _parse(log)
    top = top_module_name(linked)  # type: ignore[arg-type]
    first = [c.split(" ", 1)[0] for c in cmds]
    # the order Vivado needs: sources read, then the block design, then the wrapper as top
    assert first.index("create_project") < first.index("read_verilog") < first.index("create_bd_design")
    assert f"create_bd_cell -type module -reference {top} system_top_0" in cmds
    assert "set_property source_mgmt_mode All project:" + f"pushpush_system_{linked.name}_0.1.0" in cmds  # type: ignore[attr-defined]
    assert first.index("validate_bd_design") < first.index("make_wrapper")
    assert summary["=top"] == f"{linked.name}_bd_wrapper"  # type: ignore[attr-defined]
    assert summary["=source_mgmt_mode"] == "All"
    # the address map the linked model asks for
    base, size = pl_address_block(linked)  # type: ignore[arg-type]
    assert (f"{{processing_system7_0/Data system_top_0/s_axi/reg0 0x{base:08X} 0x{size:08X}}}"
            in summary["=assigned"])
    if linked.software_windows == "ddr":  # type: ignore[attr-defined]
        # the top's m_axi on S_AXI_HP0 over DDR; the windows' base register in the top's block
        assert ("{system_top_0/m_axi processing_system7_0/S_AXI_HP0/HP0_DDR_LOWOCM 0x00000000 0x20000000}"
                in summary["=assigned"])
        assert "S_AXI_GP0" not in "\n".join(cmds)
        reg = linked.ps_window_register  # type: ignore[attr-defined]
        assert base <= reg and reg + 4096 <= base + size
        ps_pl = next(c for c in cmds if "CONFIG.PCW_USE_M_AXI_GP0" in c)
        assert "CONFIG.PCW_USE_S_AXI_HP0 1 CONFIG.PCW_S_AXI_HP0_DATA_WIDTH 64" in ps_pl
        assert "PCW_USE_S_AXI_GP0" not in ps_pl and "PCW_USE_HIGH_OCM" not in ps_pl
    else:
        assert ("{system_top_0/m_axi processing_system7_0/S_AXI_GP0/GP0_HIGH_OCM 0xFFFC0000 0x00040000}"
                in summary["=assigned"])
    ps_pl = next(c for c in cmds if "CONFIG.PCW_USE_M_AXI_GP0" in c)
    port = buffer_port(linked)  # type: ignore[arg-type]
    assert (port is not None) == (name in ("bufargs", "dma_stream", "dma_firewall", "channels"))
    if port is not None:
        # buffer parameters: the engines' buf_axi on S_AXI_HP0 (32 bits) over DDR (dma_stream:
        # beside its AXI DMA's HP2, through the DMA shell's pass-through)
        hp = port.replace("S_AXI_", "")
        assert (f"{{system_top_0/buf_axi processing_system7_0/{port}/{hp}_DDR_LOWOCM 0x00000000 0x20000000}}"
                in summary["=assigned"])
        assert f"CONFIG.PCW_USE_{port} 1 CONFIG.PCW_{port}_DATA_WIDTH 32" in ps_pl
        assert any("system_top_0/buf_axi" in c and "axi_buf_to_ps/S00_AXI" in c for c in cmds)
        assert all(d.hp_port != port for d in linked.dmas)  # type: ignore[attr-defined]
    if name == "dma_stream":
        assert port == "S_AXI_HP0" and [d.hp_port for d in linked.dmas] == ["S_AXI_HP2"]  # type: ignore[attr-defined]
    for d in linked.dmas:  # type: ignore[attr-defined]
        # the Xilinx AXI DMA in simple mode where pp_axi_dma is on the simulated board
        assert f"create_bd_cell -type ip -vlnv xilinx.com:ip:axi_dma:7.1 {d.name}" in cmds
        conf = next(c for c in cmds if c.startswith("set_property -dict") and "c_include_sg" in c)
        assert "CONFIG.c_include_sg 0" in conf and f"CONFIG.c_m_axi_mm2s_data_width {d.data_width}" in conf
        assert (f"{{processing_system7_0/Data {d.name}/S_AXI_LITE/Reg 0x{d.base:08X} 0x00010000}}"
                in summary["=assigned"])
        hp = d.hp_port.replace("S_AXI_", "")
        assert f"CONFIG.PCW_USE_{d.hp_port} 1 CONFIG.PCW_{d.hp_port}_DATA_WIDTH {d.data_width}" in ps_pl
        fw = d.firewall
        for space in ("Data_MM2S", "Data_S2MM"):
            # with firewall: the DMA's masters see DDR through its firewall's s_axi
            seg = f"{d.name}_firewall/s_axi/reg0" if fw else f"processing_system7_0/{d.hp_port}/{hp}_DDR_LOWOCM"
            assert f"{{{d.name}/{space} {seg} 0x00000000 0x20000000}}" in summary["=assigned"]
        assert (fw is not None) == (name == "dma_firewall")
        if fw is not None:
            cell = f"{d.name}_firewall"
            assert f"create_bd_cell -type module -reference {linked.name}_dma_firewall {cell}" in cmds  # type: ignore[attr-defined]
            assert (f"{{{cell}/m_axi processing_system7_0/{d.hp_port}/{hp}_DDR_LOWOCM 0x00000000 "
                    "0x20000000}" in summary["=assigned"])
            # its register page where the linker put it, after the top's block
            assert (f"{{processing_system7_0/Data {cell}/reg_axi/reg0 0x{fw.base:08X} 0x00001000}}"
                    in summary["=assigned"])
            assert not base <= fw.base < base + size
            assert any(f"pin:/{d.name}_to_ps/M00_AXI" in c and f"pin:/{cell}/s_axi" in c for c in cmds)
            assert any(f"pin:/{cell}/m_axi" in c and f"processing_system7_0/{d.hp_port}" in c for c in cmds)
        assert any(f"pin:/system_top_0/{d.name}_mm2s" in c and "M_AXIS_MM2S" in c for c in cmds)
        assert any(f"pin:/system_top_0/{d.name}_s2mm" in c and "S_AXIS_S2MM" in c for c in cmds)
    # the interrupt lines (the top's irq first, then each DMA's mm2s/s2mm_introut) into
    # axi_intc_0, through an xlconcat when there are several, its irq on IRQ_F2P[0]
    sources = interrupt_sources(linked)  # type: ignore[arg-type]
    if name in ("dma_stream", "dma_firewall"):
        assert sources == [("system_top_0", "irq"), ("axi_dma_0", "mm2s_introut"),
                           ("axi_dma_0", "s2mm_introut")]
    nets = [c for c in cmds if c.startswith("connect_bd_net")]
    if sources:
        assert "CONFIG.PCW_USE_FABRIC_INTERRUPT 1 CONFIG.PCW_IRQ_F2P_INTR 1" in ps_pl
        assert "connect_bd_net pin:/axi_intc_0/irq pin:/processing_system7_0/IRQ_F2P" in nets
        ib, isz = intc_address_block(linked)  # type: ignore[arg-type, misc]
        assert (f"{{processing_system7_0/Data axi_intc_0/S_AXI/Reg 0x{ib:08X} 0x{isz:08X}}}"
                in summary["=assigned"])
    if len(sources) > 1:
        assert "create_bd_cell -type ip -vlnv xilinx.com:ip:xlconcat:2.1 xlconcat_0" in cmds
        assert f"set_property -dict {{CONFIG.NUM_PORTS {len(sources)}}} cell:/xlconcat_0" in cmds
        for i, (cell, pin) in enumerate(sources):
            assert f"connect_bd_net pin:/{cell}/{pin} pin:/xlconcat_0/In{i}" in nets
        assert "connect_bd_net pin:/xlconcat_0/dout pin:/axi_intc_0/intr" in nets
    elif sources:
        assert "connect_bd_net pin:/system_top_0/irq pin:/axi_intc_0/intr" in nets
        assert "xlconcat" not in "\n".join(cmds)
    else:
        assert "axi_intc" not in "\n".join(cmds) and "IRQ_F2P" not in "\n".join(cmds)
    # no Vivado refusal can be swallowed
    bd = next(root.glob(f"src/*/vivado/{linked.name}_bd.tcl")).read_text()  # type: ignore[attr-defined]
    assert "catch" not in bd


def test_a_riscv_system_reads_the_cores_verilog_and_its_program_as_a_memory_file(tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    """kind: riscv (docs/riscv.md, "Board builds"): the project Edalize's Vivado backend wrote
    reads pp_riscv.v and the package's picorv32.v, and adds each program image with read_mem
    (file type mem) before the block design is sourced; the top's pp_riscv reads the image by
    the bare name of a file the project holds (UG901/UG835: a $readmemh file is found in the
    project, not by a path), and the PS reaches the core's window."""
    from pushpush.codegen.riscv import picorv32_dir
    from pushpush.codegen.top_model import riscv_mem_init

    linked, root = setups("riscv_pingpong", tmp_path)
    log = tmp_path / "vivado.log"
    proc = _run(root, linked, log)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    cmds, summary = _parse(log)
    first = [c.split(" ", 1)[0] for c in cmds]
    reads = [c.split(" ", 1)[1] for c in cmds if c.startswith("read_verilog ")]
    core = [r for r in reads if r.endswith(("/pp_riscv.v", "/picorv32.v"))]
    assert sorted(Path(r).name for r in core) == ["picorv32.v", "pp_riscv.v"], reads
    # the package's file, byte for byte (its ISC notice included)
    pico = next(root / r for r in core if r.endswith("picorv32.v"))
    assert pico.read_bytes() == (picorv32_dir() / "picorv32.v").read_bytes()
    riscv = [c for c in linked.components if c.kind == "riscv"]  # type: ignore[attr-defined]
    images = [riscv_mem_init(c.name) for c in riscv]
    assert images == ["callee.mem"]
    assert [c for c in cmds if c.startswith("read_mem")] == [f"read_mem {i}" for i in images]
    assert summary["=mem"].split() == images
    assert first.index("read_mem") < first.index("create_bd_design")
    # synthesised in the top-level run, which has the project's memory files (UG912)
    ckpt = [c for c in cmds if c.startswith("set_property synth_checkpoint_mode")]
    assert len(ckpt) == 1 and ckpt[0].startswith("set_property synth_checkpoint_mode None ")
    assert ckpt[0].endswith(f"{linked.name}_bd.bd")  # type: ignore[attr-defined]
    # the image: every word of the memory, one 8-digit hex word a line, nothing else
    for c, image in zip(riscv, images):
        lines = (root / image).read_text().splitlines()
        assert len(lines) == c.memory // 4
        assert all(len(w) == 8 and int(w, 16) >= 0 for w in lines)
    # the top names it bare: the name of a file in the project, as Vivado resolves it
    top = next(root.glob(f"src/*/rtl/{top_module_name(linked)}.v")).read_text()  # type: ignore[arg-type]
    inits = re.findall(r'\.MEM_INIT\("([^"]*)"\)', top)
    assert inits == images and all("/" not in i for i in inits)
    assert {Path(f).name for f in summary["=mem"].split()} >= set(inits)
    # the PS reaches the core's window: inside the top's s_axi block
    base, size = pl_address_block(linked)  # type: ignore[arg-type]
    for c in riscv:
        assert base <= c.base and c.base + c.size <= base + size


@pytest.mark.parametrize("change, error", [
    ("missing", "read_mem: no file 'callee.mem'"),
    ("hex", "read_mem: 'callee.hex' is not a .mem, .coe, .dat or .mif file"),
])
def test_the_standin_refuses_a_program_image_vivado_would_not_read(change: str, error: str, tmp_path: Path,
                                                                  setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups("riscv_pingpong", tmp_path)
    if change == "missing":
        (root / "callee.mem").unlink()
    else:   # the name the images had before (UG835 lists .mem .coe .dat for read_mem)
        (root / "callee.mem").rename(root / "callee.hex")
        project = root / f"pushpush_system_{linked.name}_0.1.0.tcl"  # type: ignore[attr-defined]
        project.write_text(project.read_text().replace("read_mem {callee.mem}", "read_mem {callee.hex}"))
    proc = _run(root, linked, tmp_path / "vivado.log")
    assert proc.returncode == 1 and error in proc.stderr, proc.stderr


def test_with_the_board_files_the_board_preset_is_applied(tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups("tiny", tmp_path)
    log = tmp_path / "vivado.log"
    proc = _run(root, linked, log, board_parts="www.digilentinc.com:pynq-z1:part0:1.0 "
                                                "www.digilentinc.com:arty-z7-20:part0:1.1")
    assert proc.returncode == 0, proc.stderr
    cmds, _ = _parse(log)
    assert any(c.startswith("set_property board_part www.digilentinc.com:pynq-z1:part0:1.0 project:")
               for c in cmds)
    assert any(c.startswith("apply_bd_automation -rule xilinx.com:bd_rule:processing_system7") for c in cmds)
    assert not any("PCW_UIPARAM_DDR_PARTNO" in c for c in cmds)


def test_without_the_board_files_pynqs_own_values_are_set(tmp_path: Path, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups("tiny", tmp_path)
    log = tmp_path / "vivado.log"
    assert _run(root, linked, log).returncode == 0
    cmds, summary = _parse(log)
    preset = next(c for c in cmds if "PCW_UIPARAM_DDR_PARTNO" in c)
    assert "CONFIG.PCW_UIPARAM_DDR_PARTNO {MT41J256M16 RE-125}" in preset
    assert "pin:/processing_system7_0/DDR" in summary["=external"]
    assert not any(c.startswith("apply_bd_automation") for c in cmds)


# ---------------------------------------------------------------- what the stand-in refuses


def _mutate(root: Path, linked: object, rel_glob: str, old: str, new: str) -> None:
    (path,) = root.glob(rel_glob)
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize("what, where, old, new, error", [
    ("a Vivado command it does not know", "src/*/vivado/tiny_bd.tcl", "validate_bd_design\n",
     "validate_bd_designs\n", "unknown Vivado command 'validate_bd_designs'"),
    ("an option the command does not have", "src/*/vivado/tiny_bd.tcl", "make_wrapper -files",
     "make_wrapper -file", "make_wrapper: unknown option '-file'"),
    ("a wrong number of arguments", "src/*/vivado/tiny_bd.tcl",
     "connect_bd_net [get_bd_pins rst_fclk0/peripheral_reset] [get_bd_pins system_top_0/rst]",
     "connect_bd_net [get_bd_pins rst_fclk0/peripheral_reset]", "connect_bd_net: 1 positional"),
    ("a pin the cell does not have", "src/*/vivado/tiny_bd.tcl", "rst_fclk0/peripheral_reset]",
     "rst_fclk0/peripheral_rst]", "connect_bd_net: needs two or more pins, each found"),
    ("the high OCM segment without PCW_USE_HIGH_OCM", "src/*/vivado/tiny_bd.tcl",
     "  CONFIG.PCW_USE_HIGH_OCM {1} \\\n", "", "assign_bd_address: no address segment"),
    ("a GP0 block outside M_AXI_GP0's range", "src/*/vivado/tiny_bd.tcl", "-offset 0x43C00000",
     "-offset 0x83C00000", "outside M_AXI_GP0"),
    ("a module reference that is not in the sources", "src/*/vivado/tiny_bd.tcl",
     "-reference tiny_top", "-reference tiny_topp", "Failed to resolve reference 'tiny_topp'"),
    ("a module reference under Edalize's default source management", "src/*/vivado/tiny_bd.tcl",
     "set_property source_mgmt_mode All [current_project]",
     "set_property source_mgmt_mode None [current_project]", "source_mgmt_mode is 'None'"),
    ("interface properties set on the module reference in Tcl", "src/*/vivado/tiny_bd.tcl",
     "set top [create_bd_cell -type module -reference tiny_top system_top_0]\n",
     "set top [create_bd_cell -type module -reference tiny_top system_top_0]\n"
     "set_property CONFIG.POLARITY ACTIVE_HIGH $top\n", "interface properties come from X_INTERFACE"),
    ("a reset without its ACTIVE_HIGH polarity", "src/*/rtl/tiny_top.v",
     '(* X_INTERFACE_PARAMETER = "POLARITY ACTIVE_HIGH" *)', "",
     "rst is ACTIVE_LOW but driven by peripheral_reset"),
    ("a clock FREQ_HZ other than FCLK0's", "src/*/rtl/tiny_top.v", "FREQ_HZ 100000000",
     "FREQ_HZ 125000000", "differs from FCLK_CLK0 (100000000)"),
    ("a Verilog source that is not there", "src/*/rtl/tiny_top.v", "module tiny_top", "module tiny_top",
     None),
    ("a DMA interrupt into a concat input that is not there", "src/*/vivado/dma_stream_bd.tcl",
     "CONFIG.NUM_PORTS {3}", "CONFIG.NUM_PORTS {2}", "connect_bd_net: needs two or more pins, each found"),
    ("a concat input left open", "src/*/vivado/dma_stream_bd.tcl",
     "connect_bd_net [get_bd_pins axi_dma_0/s2mm_introut] [get_bd_pins xlconcat_0/In2]\n", "",
     "xlconcat_0/In2 is not connected"),
    ("the controller's intr left open", "src/*/vivado/dma_stream_bd.tcl",
     "connect_bd_net [get_bd_pins xlconcat_0/dout] [get_bd_pins axi_intc_0/intr]\n", "",
     "axi_intc_0/intr is not connected"),
    ("a synth_checkpoint_mode UG912 does not list", "src/*/vivado/riscv_pingpong_bd.tcl",
     "set_property synth_checkpoint_mode None $bd_file", "set_property synth_checkpoint_mode Global $bd_file",
     "None, Singular or Hierarchical, not 'Global'"),
])
def test_the_standin_refuses(tmp_path: Path, what: str, where: str, old: str, new: str,
                             error: str | None, setups) -> None:  # type: ignore[no-untyped-def]
    linked, root = setups(where.split("/")[-1].removesuffix("_bd.tcl").removesuffix("_top.v"), tmp_path)
    if error is None:   # a source Edalize lists that is missing
        next(root.glob(where)).unlink()
        error = "read_verilog: no file"
    else:
        _mutate(root, linked, where, old, new)
    proc = _run(root, linked, tmp_path / "vivado.log")
    assert proc.returncode == 1, f"{what}: accepted\n{proc.stdout}"
    assert error in proc.stderr, f"{what}:\n{proc.stderr}"
