"""``pushpush bench ... --executor slurm`` through the real single-node Slurm gives the local
executor's results, cycle for cycle: a smoke-sized sweep (calls: rtl and Python callers and
callees) in the second tier (-m slow; test_slurm_executor.py and test_slurm_regression.py run
the executor end to end in the default tier), ``bench all --smoke`` (every experiment, the Yosys points too)
under ``-m long``. A second slurm run skips every point (nothing is submitted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pushpush.cli import main

#: what differs between runs by nature: wall-clock time and where the points worked
WALL = {"sim_s", "synth_s", "wall_s", "runtime_s", "wall_calls_per_s", "note", "work", "meta", "markdown",
        "seconds", "yosys_s"}


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in WALL}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _swept(res: dict) -> dict:
    """An experiment's result without wall-clock numbers and without the C rows (those run
    on this machine, measured in wall-clock time, whatever the executor), nor the hls
    result's details (its participant's C simulation is timed by wall clock; its exact
    rows stay in "rows")."""
    out = _strip(res)
    out["rows"] = [r for r in out.get("rows", []) if "c" not in (r.get("caller"), r.get("callee"))]
    for k in ("c", "hls", "targets", "plots"):
        out.pop(k, None)
    return out


def _batches(out: Path) -> int:
    d = out / "work" / "slurm" / "batches"
    return len(list(d.iterdir())) if d.is_dir() else 0


@pytest.mark.slow   # 67 s (the smoke sweep twice); the executor's own end-to-end tests run in the default tier
def test_calls_smoke_through_slurm_equals_local(slurm_env, tmp_path, capsys):
    slurm, local = tmp_path / "slurm", tmp_path / "local"
    assert main(["bench", "calls", "--smoke", "--executor", "slurm", "--out", str(slurm)]) == 0
    err = capsys.readouterr().err
    assert "slurm: job array" in err and "5 point(s) of kind 'sim'" in err and "  done: calls rtl k=0" in err
    assert main(["bench", "calls", "--smoke", "--executor", "local", "--jobs", "2", "--out", str(local)]) == 0
    a, b = (json.loads((d / "calls.json").read_text()) for d in (slurm, local))
    # rtl k=0 and 4, python <-> rtl, python -> python, the five riscv rows per soft core, hls
    swept = [(r["caller"], r["callee"]) for r in _swept(a)["rows"]]
    assert swept.count(("rtl", "rtl")) == 2
    assert {("python", "rtl"), ("rtl", "python"), ("python", "python"), ("rtl", "hls")} <= set(swept)
    assert sum("riscv" in pair for pair in swept) == 5 * len({r.get("core") for r in _swept(a)["rows"]
                                                              if r.get("core")})
    assert _swept(a) == _swept(b)
    rows = {(r["caller"], r["callee"], r["k"]): r for r in a["rows"]}
    assert rows[("rtl", "rtl", 0)]["cycles_per_call"] == 6.0
    assert rows[("rtl", "rtl", 4)]["cycles_per_call"] == 10.0
    # run again: every point is already done, nothing is submitted
    n = _batches(slurm)
    assert main(["bench", "calls", "--smoke", "--executor", "slurm", "--out", str(slurm)]) == 0
    assert "5 of 5 point(s) already done" in capsys.readouterr().err
    assert _batches(slurm) == n
    assert _swept(json.loads((slurm / "calls.json").read_text())) == _swept(a)


def test_executor_options_that_do_not_apply_are_refused(slurm_env, tmp_path, capsys):
    out = str(tmp_path / "r")
    assert main(["bench", "calls", "--smoke", "--executor", "slurm", "--jobs", "2", "--out", out]) == 2
    assert "--jobs does not apply to the slurm executor" in capsys.readouterr().err
    assert main(["bench", "fairness", "--quick", "--executor", "slurm", "--out", out]) == 2
    assert "--executor applies to calls, scaling, area, args, all only" in capsys.readouterr().err


@pytest.mark.long
def test_bench_all_smoke_through_slurm_equals_local(slurm_env, tmp_path):
    slurm, local = tmp_path / "slurm", tmp_path / "local"
    assert main(["bench", "all", "--smoke", "--executor", "slurm", "--out", str(slurm)]) == 0
    assert main(["bench", "all", "--smoke", "--jobs", "2", "--out", str(local)]) == 0
    for exp in ("calls", "scaling", "area", "args"):
        a, b = (json.loads((d / f"{exp}.json").read_text()) for d in (slurm, local))
        assert a["rows"], exp
        assert _swept(a) == _swept(b), exp
    assert (slurm / "summary.md").is_file()
