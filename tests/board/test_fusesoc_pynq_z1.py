"""``fusesoc run --target pynq_z1`` on your own .core that uses the generator 'pushpush' (the
one ``pushpush init`` scaffolds), without Vivado.

FuseSoC runs the generator (with ``block_design: true``: the generated core holds the
block-design tcl), Edalize writes the Vivado project and its Makefile, and the Makefile's
first step, ``vivado -mode batch -source <project>.tcl``, runs the project script and the
block-design tcl under ``tclsh`` with the command stand-ins of ``vivado_standin.tcl`` (a
``vivado`` script on PATH, FAKE_VIVADO below). The next step, synthesis, implementation and
the bitstream on the project, needs a real Vivado: the stand-in refuses it, and that is where
the run stops. docs/board.md says what the stand-in checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pushpush.build.fusesoc import check_vivado_project
from pushpush.fusesoc_gen import cores_root
from pushpush.link import load
from pushpush.scaffold import scaffold

REPO = Path(__file__).resolve().parents[2]
STANDIN = Path(__file__).with_name("vivado_standin.tcl")
BIN = Path(sys.executable).parent
PROJECT = "local_demo_system_0.1.0"

pytestmark = [
    pytest.mark.skipif(shutil.which("tclsh") is None, reason="tclsh is missing: apt-get install tcl"),
    pytest.mark.skipif(shutil.which("make") is None, reason="needs make"),
    pytest.mark.skipif(not (BIN / "fusesoc").exists(), reason="needs FuseSoC (pip install 'pushpush-fpga[sim]')"),
    pytest.mark.skipif(shutil.which("vivado") is not None, reason="Vivado present: would build"),
]

FAKE_VIVADO = """#!/bin/sh
# Vivado stand-in: the project step runs under tclsh with the command stand-ins; anything
# on the project (.xpr: synthesis, implementation, bitstream) needs a real Vivado.
case "$*" in *-version*) echo "Vivado v0000.0 (stand-in)"; exit 0;; esac
for last in "$@"; do :; done
case "$last" in
  *.xpr) echo "vivado stand-in: '$*' needs a real Vivado" >&2; exit 3;;
  *.tcl) tclsh {standin} "$last" || exit 1; touch "${{last%.tcl}}.xpr";;
  *) echo "vivado stand-in: unexpected command '$*'" >&2; exit 2;;
esac
"""


def fusesoc(cwd: Path, *args: str, path: str = "", log: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO),
               PATH=f"{path}{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if log is not None:
        env["STANDIN_LOG"] = str(log)
    return subprocess.run([str(BIN / "fusesoc"), "--cores-root", ".", "--cores-root", str(cores_root()),
                           *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    scaffold(tmp_path / "demo")
    return tmp_path / "demo"


def test_pynq_z1_target_runs_up_to_vivado_synthesis(demo: Path, tmp_path: Path) -> None:
    fake = tmp_path / "bin" / "vivado"
    fake.parent.mkdir()
    fake.write_text(FAKE_VIVADO.format(standin=STANDIN))
    fake.chmod(0o755)
    log = tmp_path / "standin.log"
    proc = fusesoc(demo, "run", "--target", "pynq_z1", "local:demo:system",
                   path=f"{fake.parent}{os.pathsep}", log=log)
    out = proc.stdout + proc.stderr
    assert "Generating local:demo:system-system_bd:0.1.0" in out
    root = demo / "build" / PROJECT / "pynq_z1"
    # the project FuseSoC/Edalize wrote holds the part, the sources, the block design, the top
    assert check_vivado_project(load(demo / "system.yaml"), root, project=PROJECT) == []
    # Vivado's project step ran under the stand-in, without an error ...
    assert (root / f"{PROJECT}.xpr").is_file(), out
    lines = log.read_text().splitlines()
    assert "create_bd_cell -type module -reference demo_top system_top_0" in lines
    assert "=top demo_bd_wrapper" in lines
    assert "=source_mgmt_mode All" in lines
    assert any(ln.startswith("make_wrapper -files") for ln in lines)
    # ... and the run stops at the first step only a real Vivado can do
    assert proc.returncode != 0
    assert f"vivado stand-in: '-notrace -mode batch -source {PROJECT}_synth.tcl {PROJECT}_run.tcl " \
           f"{PROJECT}.xpr' needs a real Vivado" in out


def test_pynq_z1_setup_writes_the_project(demo: Path) -> None:
    """Without Vivado at all: --setup generates the system and writes the Vivado project."""
    proc = fusesoc(demo, "run", "--setup", "--target", "pynq_z1", "local:demo:system")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    root = demo / "build" / PROJECT / "pynq_z1"
    assert check_vivado_project(load(demo / "system.yaml"), root, project=PROJECT) == []
    bd = next(root.glob("src/*/vivado/demo_bd.tcl")).read_text()
    assert "local:demo:system-system_bd:0.1.0" in bd  # its comments name the core holding it


def test_block_design_needs_the_pynq_z1_board(demo: Path) -> None:
    yml = demo / "system.yaml"
    text = yml.read_text().replace("board: pynq-z1 ", "board: none    ")
    yml.write_text(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("board: none"))
    proc = fusesoc(demo, "run", "--setup", "--target", "pynq_z1", "local:demo:system")
    assert proc.returncode != 0
    assert (f"{yml}:{line}:8: system 'demo' has board: none, but core 'local:demo:system-system_bd:0.1.0' "
            f"asks for a board's block design (block_design: true); set board: pynq-z1, pynq-z2, "
            f"zcu104, kv260 in system.yaml") in proc.stderr
    # lint does not ask for the block design: it still works with board: none
    assert fusesoc(demo, "run", "--target", "lint", "local:demo:system").returncode == 0
