"""``pushpush build`` over several systems and targets: one executor point per system, through
the real single-node Slurm (one job per system, kind ``build``), the same output as local;
a failed build is reported per system with its tool log, and the other systems still build."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pushpush.cli import main

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "gen" / "fixtures" / "tiny"


def _broken_tiny(tmp_path: Path) -> Path:
    d = tmp_path / "tiny"
    shutil.copytree(TINY, d)
    v = d / "rtl" / "tiny_acc.v"
    # an unused signal: Verilator -Wall warns, lint fails
    v.write_text(v.read_text().replace("assign add_ready", "wire spare = add_x[0];\nassign add_ready"))
    return d


def test_build_several_systems_through_slurm(slurm_env, tmp_path, capsys):
    systems = [str(REPO / "examples" / "pingpong"), str(_broken_tiny(tmp_path))]
    out = str(tmp_path / "out" / "{system}")
    assert main(["build", *systems, "--target", "lint", "--executor", "slurm", "-o", out]) == 1
    cap = capsys.readouterr()
    assert "slurm: job array" in cap.err and "2 point(s) of kind 'build'" in cap.err
    assert "== pingpong lint: " in cap.out and "Verilator -Wall: no warnings" in cap.out
    log = tmp_path / "out" / "tiny" / "build" / "lint.log"
    assert "== tiny lint: " in cap.err and "FAILED" in cap.err and f"full tool output: {log}" in cap.err
    assert "spare" in log.read_text()
    assert "1 build(s) failed" in cap.err
    # the same on the local executor
    assert main(["build", *systems, "--target", "lint", "--jobs", "2", "-o", out]) == 1
    local = capsys.readouterr()
    assert [ln for ln in local.out.splitlines() if ln.startswith(("==", "pushpush:"))] == \
        [ln for ln in cap.out.splitlines() if ln.startswith(("==", "pushpush:"))]


@pytest.mark.parametrize("argv,message", [
    (["examples/pingpong", "examples/audio_fir", "-t", "lint", "-o", "out"], "must contain {system}"),
    (["examples/pingpong", "-t", "lint,bogus"], "unknown target bogus"),
    (["examples/pingpong", "-t", "lint", "--jobs", "2"], "--jobs applies to several systems only"),
    (["examples/pingpong", "examples/audio_fir", "-t", "synth", "--json"], "--json applies to a single"),
    (["examples/pingpong", "-t", "lint", "--executor", "slurm", "--jobs", "2"], "--jobs does not apply"),
])
def test_build_options_that_do_not_apply(argv, message, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("PUSHPUSH_EXECUTOR", raising=False)
    assert main(["build", *argv]) == 2
    assert message in capsys.readouterr().err
