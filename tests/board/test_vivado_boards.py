"""The Vivado flow per board: ``pushpush build --target <board>`` (FuseSoC targets named
after the boards). The PYNQ-Z2's block design is the Z1's PS7 design with the Z2's board part
(same device, same PS7 preset); it is run under the Tcl stand-in of test_bd_tcl.py. The
ZynqMP targets write the zynq_ultra_ps_e block design (test_bd_tcl_zynqmp.py runs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pushpush.build.fusesoc import TARGETS, BuildError, build, work_root
from pushpush.codegen.generate import generate_files
from pushpush.link import load

REPO = Path(__file__).resolve().parents[2]
STANDIN = Path(__file__).with_name("vivado_standin.tcl")
PINGPONG = REPO / "examples" / "pingpong" / "system.yaml"


def test_one_vivado_target_per_board():
    assert {"pynq_z1", "pynq_z2", "zcu104", "kv260"} <= set(TARGETS)


@pytest.mark.skipif(shutil.which("tclsh") is None, reason="tclsh is missing: apt-get install tcl")
@pytest.mark.parametrize("board_files", ["", "tul.com.tw:pynq-z2:part0:1.0 www.digilentinc.com:pynq-z1:part0:1.0"])
def test_pynq_z2_project_and_block_design_under_the_standin(tmp_path, board_files):
    fusesoc = Path(os.environ.get("VIRTUAL_ENV", "/nonexistent")) / "bin" / "fusesoc"
    if shutil.which("fusesoc") is None and not fusesoc.exists():
        pytest.skip("needs FuseSoC (pip install 'pushpush-fpga[sim]')")
    linked = load(PINGPONG, board="pynq-z2")
    out = tmp_path / "out"
    result = build(linked, out, "pynq_z2", progress=lambda _m: None, vivado=None)
    assert result.setup_only
    root = work_root(linked, out, "pynq_z2")
    core = (out / "pingpong.core").read_text()
    assert "  pynq_z2:\n    description: PYNQ-Z2 bitstream with Vivado (xc7z020clg400-1)" in core
    assert "pynq_z1:" not in core
    bd = next(root.glob("src/*/vivado/pingpong_bd.tcl")).read_text()
    assert "get_board_parts -quiet -latest_file_version {*:pynq-z2:part0:*}" in bd
    assert "for the PYNQ-Z2" in bd and "--target pynq_z2" in bd
    env = dict(os.environ, STANDIN_LOG=str(tmp_path / "vivado.log"))
    env.pop("STANDIN_BOARD_PARTS", None)
    if board_files:
        env["STANDIN_BOARD_PARTS"] = board_files
    proc = subprocess.run(["tclsh", str(STANDIN), "pushpush_system_pingpong_0.1.0.tcl"], cwd=root,
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    log = (tmp_path / "vivado.log").read_text()
    assert "set_property part xc7z020clg400-1" in log
    if board_files:
        assert "set_property board_part tul.com.tw:pynq-z2:part0:1.0 project:" in log
    else:
        assert "CONFIG.PCW_UIPARAM_DDR_PARTNO {MT41J256M16 RE-125}" in log


def test_a_target_for_another_board_is_refused(tmp_path):
    linked = load(PINGPONG)                        # board: pynq-z1
    with pytest.raises(BuildError, match="has board: pynq-z1; set board: pynq-z2 in .* to build for the PYNQ-Z2"):
        build(linked, tmp_path, "pynq_z2", progress=lambda _m: None)


@pytest.mark.parametrize("name", ["zcu104", "kv260"])
def test_zynqmp_vivado_targets_write_the_zynq_ultra_ps_e_design(tmp_path, name):
    """``--target zcu104|kv260`` is no longer refused: the core has the board's target and the
    block design is the zynq_ultra_ps_e one (tests/board/test_bd_tcl_zynqmp.py runs it under
    the stand-in)."""
    linked = load(PINGPONG, board=name)
    files = generate_files(linked)
    tcl = files["vivado/pingpong_bd.tcl"]
    assert "xilinx.com:ip:zynq_ultra_ps_e:" in tcl and "processing_system7" not in tcl
    core = files["pingpong.core"]
    assert f"  {name}:\n    description: " in core and "pynq_z1:" not in core
