"""pushpush build: FuseSoC/Edalize lint, sim, synth and the pynq_z1 setup stage on a small
generated system (tests/gen/fixtures/tiny: one rtl component, one python caller)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pushpush.build.fusesoc import BuildError, build, fusesoc_command, work_root
from pushpush.build.synth import INFRA, TOTAL
from pushpush.cli import main
from pushpush.link import load
from pushpush.resources import cores_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TINY = FIXTURES / "tiny"

def _have_fusesoc() -> bool:
    from pushpush.build.fusesoc import BuildError, _fusesoc_exe
    try:
        _fusesoc_exe()
    except BuildError:
        return False
    return True


needs_fusesoc = pytest.mark.skipif(not _have_fusesoc(), reason="needs fusesoc (pushpush-fpga[sim])")


def tiny():
    linked = load(TINY / "system.yaml")
    return None, linked


def quiet(_: str) -> None:
    pass


@needs_fusesoc
@pytest.mark.skipif(shutil.which("verilator") is None, reason="needs verilator")
def test_lint(tmp_path: Path) -> None:
    spec, linked = tiny()
    lines: list[str] = []
    result = build(linked, tmp_path / "out", "lint", progress=lines.append)
    assert result.log == tmp_path / "out" / "build" / "lint.log"
    assert "verilator" in result.log.read_text()
    assert lines[0] == f"pushpush: generating tiny into {tmp_path / 'out'}"
    assert "  INFO: Preparing pushpush:system:tiny:0.1.0" in lines


@needs_fusesoc
@needs_fusesoc
def test_lint_warnings_point_at_the_users_file(tmp_path: Path) -> None:
    """Verilator's warnings name the user's own source, not FuseSoC's build copy of it."""
    d = tmp_path / "tiny"
    shutil.copytree(TINY, d)
    src = next((d / "rtl").glob("*.v"))
    text = src.read_text()
    i = text.index(");", text.index("module ")) + 2
    src.write_text(text[:i] + "\nwire [3:0] pp_test_unused_wire = 8'hff;  // WIDTHTRUNC\n" + text[i:])
    lines: list[str] = []
    with pytest.raises(BuildError) as e:
        build(load(d / "system.yaml"), tmp_path / "out", "lint", progress=lines.append)
    shown = "\n".join(lines) + str(e.value)
    warnings = [ln for ln in shown.splitlines() if "%Warning" in ln and "tiny_acc.v" in ln]
    assert warnings, shown
    assert all(os.path.relpath(src) in ln or str(src) in ln for ln in warnings), warnings
    assert "src/pushpush_system" not in "\n".join(warnings)


@needs_fusesoc
def test_fusesoc_command_line_works_by_hand(tmp_path: Path) -> None:
    """The documented fusesoc command on a generated folder (no pushpush in between)."""
    spec, linked = tiny()
    assert main(["generate", str(TINY), "-o", str(tmp_path / "out"), "-q"]) == 0
    cmd = ["fusesoc", "--cores-root", str(cores_dir()), "--cores-root", str(tmp_path / "out"),
           "run", "--build-root", str(tmp_path / "b"), "--setup", "--build", "--target", "sim",
           "pushpush:system:tiny"]
    assert fusesoc_command(linked, tmp_path / "out", "sim", ("setup", "build"))[1:] == [
        *cmd[1:5], "run", "--build-root", str(tmp_path / "out" / "build"), *cmd[8:]]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "b" / "pushpush_system_tiny_0.1.0" / "sim" / "pushpush_system_tiny_0.1.0").exists()


@needs_fusesoc
@pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")
def test_sim_builds(tmp_path: Path) -> None:
    spec, linked = tiny()
    result = build(linked, tmp_path / "out", "sim", progress=quiet)
    assert (result.work_root / "pushpush_system_tiny_0.1.0").is_file()  # the vvp image


_SYNTHESISED: dict[str, object] = {}


@pytest.fixture
def synth_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The synth tests below measure the tiny system once (two Yosys runs, ~25 s) and each
    renders that one measurement its own way (the table, the JSON), asserting the
    measurement's invariants on it: both call pushpush.build.fusesoc.build, which is what is
    shared."""
    from pushpush.build import fusesoc

    real = fusesoc.build

    def build_once(linked, outdir, target, *args, **kwargs):  # type: ignore[no-untyped-def]
        if target != "synth":
            return real(linked, outdir, target, *args, **kwargs)
        if linked.name not in _SYNTHESISED:
            _SYNTHESISED[linked.name] = real(linked, outdir, target, *args, **kwargs)
        return _SYNTHESISED[linked.name]

    monkeypatch.setattr(fusesoc, "build", build_once)


@needs_fusesoc
@pytest.mark.usefixtures("yosys", "synth_once")
def test_synth_resources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", str(TINY), "--target", "synth", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    text = out[out.index("resources of 'tiny'"):].splitlines()
    assert text[0] == "resources of 'tiny' (Yosys synth_xilinx, xc7; estimates):"
    # first the flattened measurement (each wrapper flat, only its user module kept apart)
    assert text[1].startswith("flattened, as Vivado does, each wrapper with only its user module")
    assert text[2].split() == ["LUT", "FF", "LUTRAM", "depth"]
    split = text.index("hierarchy kept (no constant crosses a module boundary):")
    flat = {}
    paths = [ln for ln in text[3:split] if "'s longest path, flattened: " in ln]
    assert len(paths) == 1 and paths[0].strip().startswith("acc's longest path, flattened: ")
    for ln in text[3:split]:
        if ln.strip() and ln not in paths:
            name, nums = " ".join(ln.split()[:-4]), ln.split()[-4:]
            flat[name] = [int(x) if x != "-" else None for x in nums]
    pp = flat["acc: PushPush logic, flattened"]
    user = next(v for k, v in flat.items() if k.startswith("user module "))
    attribution = flat["hierarchy kept (attribution):"]
    cores = {k: v for k, v in flat.items() if k.startswith("pp_") or k == "wrapper"}
    assert {"pp_endpoint_mem", "pp_call_engine", "pp_export", "wrapper"} <= set(cores)
    assert pp[0] > 0 and pp[1] > 0 and user[0] > 0 and 1 <= pp[3]
    assert paths[0].split(": ", 1)[1].startswith(f"{pp[3]} LUT levels (")
    for col in range(3):        # the cores add up to the attribution's total
        assert sum(v[col] for v in cores.values()) == attribution[col]
    # then the hierarchy-kept system table, as before
    table = text[split + 1:]
    assert table[0].split() == ["LUT", "FF", "LUTRAM", "BRAM36", "DSP", "depth"]
    rows = {ln.split()[0]: [float(x) if x != "-" else None for x in ln.split()[1:]]
            for ln in table[1:] if ln.strip() and not ln.strip().startswith(("-", "depth:", "pushpush:"))}
    assert set(rows) >= {"acc", INFRA, TOTAL}
    assert rows["acc"][0] > 0 and rows["acc"][1] > 0 and rows[INFRA][0] > 0
    # the rows add up to the total
    for col in range(5):
        assert rows["acc"][col] + rows[INFRA][col] == rows[TOTAL][col]
    # the attribution is this table's component row without its user module
    assert attribution[0] + user[0] == rows["acc"][0] and attribution[1] + user[1] == rows["acc"][1]
    # logic depth: the component's and the whole system's (the interconnect has none of its own)
    assert rows[INFRA][5] is None
    assert 1 <= rows["acc"][5] <= rows[TOTAL][5]
    assert any(ln.startswith("depth: the longest register-to-register path") for ln in table)


@needs_fusesoc
@pytest.mark.usefixtures("yosys", "synth_once")
def test_synth_json_measures_a_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pushpush build <system> --target synth --json: both measurements, and the flattened
    one is exact: the PushPush logic plus the user module is the flat wrapper."""
    import json

    assert main(["build", str(TINY), "--target", "synth", "-o", str(tmp_path / "out"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"flattened", "hierarchy_kept"}
    acc = data["flattened"]["acc"]
    assert acc["user_module"] and acc["pushpush"]["luts"] > 0 and acc["pushpush"]["lut_levels"] >= 1
    hier = data["hierarchy_kept"]["acc"]
    cores = acc["cores"]
    assert sum(c["luts"] for c in cores.values()) + acc["user"]["luts"] == hier["luts"]
    assert sum(c["ffs"] for c in cores.values()) + acc["user"]["ffs"] == hier["ffs"]
    # the hierarchy-kept cores carry their own depth
    # (a core with submodules of its own, pp_endpoint_mem over the shared AXI slave front end,
    # has none: netlist_depth measures one flat module; the flattened component's depth above
    # covers it)
    assert all(c["lut_levels"] >= 1 for k, c in cores.items() if k in ("pp_export", "pp_call_engine"))
    assert cores["pp_endpoint_mem"]["lut_levels"] is None


def test_synth_module_sends_a_system_to_pushpush_build(capsys: pytest.CaptureFixture[str]) -> None:
    """python -m pushpush.build.synth measures cores; a system has one front door,
    'pushpush build --target synth', and the module says so instead of building it."""
    from pushpush.build.synth import main as synth_main

    with pytest.raises(SystemExit) as exc:
        synth_main([str(TINY)])
    assert exc.value.code == 2
    assert f"'pushpush build {TINY} --target synth'" in capsys.readouterr().err


@needs_fusesoc
@pytest.mark.skipif(shutil.which("vivado") is not None, reason="Vivado present: would build")
def test_pynq_z1_setup_without_vivado(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", str(TINY), "--target", "pynq_z1", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Vivado is needed for the bitstream and 'vivado' is not on PATH" in out
    spec, linked = tiny()
    root = work_root(linked, tmp_path / "out", "pynq_z1")
    project = (root / "pushpush_system_tiny_0.1.0.tcl").read_text()
    assert "set_property part xc7z020clg400-1 [current_project]" in project
    assert "source {src/pushpush_system_tiny_0.1.0/vivado/tiny_bd.tcl}" in project
    assert "read_verilog {src/pushpush_system_tiny_0.1.0/rtl/tiny_top.v}" in project
    assert "read_verilog {src/pushpush_system_tiny_0.1.0/src/acc/tiny_acc.v}" in project
    assert "set_property top tiny_bd_wrapper [current_fileset]" in project
    # the block design: PS7, the top as a module reference, GP0 in, S_AXI_GP0 out, addresses
    bd = (root / "src" / "pushpush_system_tiny_0.1.0" / "vivado" / "tiny_bd.tcl").read_text()
    acc = linked.component("acc")
    assert "create_bd_cell -type ip -vlnv xilinx.com:ip:processing_system7:5.5 processing_system7_0" in bd
    assert "create_bd_cell -type module -reference tiny_top system_top_0" in bd
    assert "CONFIG.PCW_FPGA0_PERIPHERAL_FREQMHZ {100}" in bd
    assert "CONFIG.PCW_USE_M_AXI_GP0 {1}" in bd and "CONFIG.PCW_USE_S_AXI_GP0 {1}" in bd
    assert ("connect_bd_intf_net [get_bd_intf_pins processing_system7_0/M_AXI_GP0] "
            "[get_bd_intf_pins axi_gp0_to_pl/S00_AXI]") in bd
    assert ("connect_bd_intf_net [get_bd_intf_pins axi_gp0_to_pl/M00_AXI] "
            "[get_bd_intf_pins system_top_0/s_axi]") in bd
    assert ("connect_bd_intf_net [get_bd_intf_pins axi_pl_to_ps/M00_AXI] "
            "[get_bd_intf_pins processing_system7_0/S_AXI_GP0]") in bd
    assert re.search(r"assign_bd_address -target_address_space \[get_bd_addr_spaces "
                     r"processing_system7_0/Data\] \\\n  -offset 0x43C00000 -range 0x00002000 \\\n"
                     r"  \[get_bd_addr_segs system_top_0/s_axi/\*\] -force", bd)
    assert acc.base == 0x43C00000 and acc.size == 0x1000
    # the top's block holds acc's window and the interrupt block (the page after it);
    # the interrupt goes through axi_intc_0 to IRQ_F2P
    assert linked.irq is not None and linked.irq.base == 0x43C01000
    assert "connect_bd_net [get_bd_pins system_top_0/irq] [get_bd_pins axi_intc_0/intr]" in bd
    assert "connect_bd_net [get_bd_pins axi_intc_0/irq] [get_bd_pins processing_system7_0/IRQ_F2P]" in bd
    assert "CONFIG.PCW_USE_FABRIC_INTERRUPT {1}" in bd
    assert f"#     acc  0x{acc.base:08X} .. 0x{acc.end - 1:08X}  (4096 bytes)" in bd
    assert 'get_bd_addr_segs -filter {NAME =~ "*HIGH_OCM*"} processing_system7_0/S_AXI_GP0/*' in bd
    assert "make_wrapper -files $bd_file -top" in bd


@needs_fusesoc
@pytest.mark.skipif(shutil.which("verilator") is None, reason="needs verilator")
def test_failed_build_prints_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "tiny"
    shutil.copytree(TINY, d)
    v = d / "rtl" / "tiny_acc.v"
    # an unused signal: Verilator -Wall warns, lint fails
    v.write_text(v.read_text().replace("assign add_ready", "wire spare = add_x[0];\nassign add_ready"))
    assert main(["build", str(d), "--target", "lint", "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    log = tmp_path / "out" / "build" / "lint.log"
    assert f"full tool output: {log}" in err
    assert "lint failed (fusesoc exit status 1)" in err
    assert "spare" in log.read_text()


def test_unknown_target_and_software_only(tmp_path: Path) -> None:
    spec, linked = tiny()
    with pytest.raises(BuildError, match="unknown target 'bitstream'"):
        build(linked, tmp_path, "bitstream", progress=quiet)


FAKE_VIVADO = """#!/bin/sh
# a stand-in for Vivado: makes the files the real one would
case "$*" in
  *-version*) echo "Vivado v2023.2 (64-bit)";;
  *_run.tcl*)
    name=$(basename "$(ls *.xpr)" .xpr)
    echo bitstream > "$name.bit"
    mkdir -p "$name.gen/sources_1/bd/tiny_bd/hw_handoff"
    echo "<hwh/>" > "$name.gen/sources_1/bd/tiny_bd/hw_handoff/tiny_bd.hwh";;
  *-source*)
    for a in "$@"; do case "$a" in *.tcl) touch "${a%.tcl}.xpr";; esac; done;;
esac
"""


@needs_fusesoc
@pytest.mark.skipif(shutil.which("make") is None,
                    reason="needs make (Edalize's Vivado flow runs a Makefile; ./bootstrap.sh installs it)")
def test_pynq_z1_with_vivado_collects_overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """With 'vivado' on PATH the bitstream is built and .bit/.hwh land in the overlay folder
    (a stand-in script plays Vivado here)."""
    fake = tmp_path / "bin" / "vivado"
    fake.parent.mkdir()
    fake.write_text(FAKE_VIVADO)
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{__import__('os').environ['PATH']}")
    overlays = tmp_path / "overlays"
    assert main(["build", str(TINY), "--target", "pynq_z1", "-o", str(tmp_path / "out"),
                 "--overlays", str(overlays)]) == 0
    out = capsys.readouterr().out
    assert f"overlay for PYNQ: {overlays / 'tiny' / 'tiny.bit'}, {overlays / 'tiny' / 'tiny.hwh'}" in out
    assert (overlays / "tiny" / "tiny.bit").read_text() == "bitstream\n"
    assert (overlays / "tiny" / "tiny.hwh").read_text() == "<hwh/>\n"


@needs_fusesoc
@pytest.mark.skipif(shutil.which("make") is None,
                    reason="needs make (Edalize's Vivado flow runs a Makefile; ./bootstrap.sh installs it)")
def test_pynq_z1_build_lands_in_the_systems_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Without --overlays the three files go to <system folder>/pynq_overlays/<system>/, where
    the board looks first (pushpush.pynq.overlay_files.find_overlay), wherever the command ran."""
    fake = tmp_path / "bin" / "vivado"
    fake.parent.mkdir()
    fake.write_text(FAKE_VIVADO)
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{__import__('os').environ['PATH']}")
    system = tmp_path / "tiny"
    shutil.copytree(TINY, system)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["build", str(system), "--target", "pynq_z1", "-o", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    dest = system / "pynq_overlays" / "tiny"
    assert sorted(p.name for p in dest.iterdir()) == ["tiny.bit", "tiny.hwh", "tiny.map.json"]
    assert not (elsewhere / "pynq_overlays").exists()
