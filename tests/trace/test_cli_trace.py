"""``pushpush run EXAMPLE --trace FILE``: the trace written and its summary printed; options
that do not apply refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pushpush.trace import read_trace, summarize

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, tmp: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PUSHPUSH_BOARD="sim", PYTHONPATH=str(ROOT))
    env.pop("PUSHPUSH_SIM", None)
    return subprocess.run([sys.executable, "-m", "pushpush", "run", *args], cwd=tmp, env=env,
                          capture_output=True, text=True, timeout=900)


def test_run_audio_fir_with_trace(tmp_path: Path) -> None:
    p = _run(str(ROOT / "examples" / "audio_fir"), "--trace", "fir.trace", "-o", "out", tmp=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    t = read_trace(tmp_path / "fir.trace")
    firs = [c for c in t.calls if c.function == "fir.fir"]
    assert firs and all(t.children(c.id) for c in firs)
    kids = {c.function for f in firs for c in t.children(f.id)}
    assert {"host.coeff", "host.source", "host.sink"} <= kids
    # the printed summary is the one of the file
    assert summarize(t).text() in p.stdout
    assert "trace written to fir.trace" in p.stderr


@pytest.mark.parametrize("args, message", [
    (["audio_fir", "pingpong"], "records one example"),
])
def test_trace_refuses_what_does_not_apply(args: list[str], message: str, tmp_path: Path) -> None:
    p = _run(*args, "--trace", "x.trace", tmp=tmp_path)
    assert p.returncode == 2 and message in p.stderr
    assert not (tmp_path / "x.trace").exists()
