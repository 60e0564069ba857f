"""``pushpush run examples/pingpong/c``: a C application compiled with the system's
generated files and run against the simulated board; the C rows of the calls table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server", reason="pushpush run needs PYNQ (pushpush-fpga[pynq])")

REPO = Path(__file__).resolve().parents[2]


def test_run_pingpong_c_prints_c_rows(tmp_path: Path) -> None:
    env = dict(os.environ, PUSHPUSH_BOARD="sim",
               PYTHONPATH=os.pathsep.join([str(REPO)] + ([os.environ["PYTHONPATH"]]
                                                         if os.environ.get("PYTHONPATH") else [])))
    p = subprocess.run([sys.executable, "-m", "pushpush", "run", str(REPO / "examples" / "pingpong" / "c")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1500)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = {" ".join(ln.split()[:3]): ln.split() for ln in p.stdout.splitlines()
            if "->" in ln and not ln.strip().startswith("[")}
    assert {"c -> rtl", "rtl -> c", "python -> c", "c -> python", "c -> c"} <= set(rows), p.stdout
    assert float(rows["c -> python"][4].replace(",", "")) > 0   # wall calls/s: C calls Python
    assert float(rows["c -> rtl"][3]) > 0 and float(rows["rtl -> c"][3]) > 0
    assert "ratio" in p.stdout and "all results match the callee model" in p.stdout
