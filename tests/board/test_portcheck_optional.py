"""pyslang is an extra: ``pushpush generate`` checks ports with it and, without it, still
generates and says that the check was skipped and how to get it."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pushpush.codegen.generate import GenerateError, generate
from pushpush.codegen.portcheck import SKIPPED_HINT, pyslang_available
from pushpush.link import link
from pushpush.spec import load_system

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "gen" / "fixtures" / "tiny"


def _tiny_with_wrong_port(tmp_path: Path) -> Path:
    """The tiny system whose module's input is 16 bits where the wrapper connects 32."""
    shutil.copytree(TINY, tmp_path / "tiny")
    v = tmp_path / "tiny" / "rtl" / "tiny_acc.v"
    text = v.read_text()
    assert "[31:0] add_x" in text, "fixture changed: adapt this test"
    v.write_text(text.replace("[31:0] add_x", "[15:0] add_x", 1))
    return tmp_path / "tiny" / "system.yaml"


def _block_pyslang(monkeypatch: pytest.MonkeyPatch) -> None:
    # a None entry makes 'import pyslang' raise ImportError, as on a board without it
    monkeypatch.setitem(sys.modules, "pyslang", None)


def test_with_pyslang_the_port_check_runs(tmp_path: Path) -> None:
    assert pyslang_available(), "the dev/sim extras install pyslang: the port check must run in CI"
    yaml = _tiny_with_wrong_port(tmp_path)
    spec = load_system(str(yaml))
    with pytest.raises(GenerateError, match="add_x.*16 bits wide"):
        generate(link(spec), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_without_pyslang_generate_works_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    _block_pyslang(monkeypatch)
    assert not pyslang_available()
    spec = load_system(str(TINY / "system.yaml"))
    with caplog.at_level(logging.WARNING, logger="pushpush.generate"):
        written = generate(link(spec), tmp_path / "out")
    names = {p.relative_to(tmp_path / "out").as_posix() for p in written}
    assert {"rtl/tiny_top.v", "rtl/acc_wrapper.v", "vivado/tiny_bd.tcl", "tiny.core"} <= names
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1, msgs
    assert "component 'acc': port check skipped: pyslang is not installed" in msgs[0]
    assert SKIPPED_HINT in msgs[0] and "pushpush-fpga[check]" in msgs[0]
    assert "system.yaml:" in msgs[0]   # points at the component in the YAML


def test_without_pyslang_missing_sources_are_still_errors(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _block_pyslang(monkeypatch)
    shutil.copytree(TINY, tmp_path / "tiny")
    (tmp_path / "tiny" / "rtl" / "tiny_acc.v").unlink()
    spec = load_system(str(tmp_path / "tiny" / "system.yaml"))
    with pytest.raises(GenerateError, match="source 'rtl/tiny_acc.v' of component 'acc' does not exist"):
        generate(link(spec), tmp_path / "out")


def test_cli_prints_the_skipped_check(tmp_path: Path) -> None:
    """What a board user sees: `pushpush generate` without pyslang exits 0 and prints the hint."""
    code = ("import sys; sys.modules['pyslang'] = None; from pushpush.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", code, "generate", str(TINY / "system.yaml"),
                           "-o", str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "port check skipped" in proc.stderr and "pip install 'pushpush-fpga[check]'" in proc.stderr
    assert (tmp_path / "out" / "rtl" / "tiny_top.v").exists()
