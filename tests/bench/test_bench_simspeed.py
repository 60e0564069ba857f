"""``pushpush bench simspeed`` (pushpush/bench/experiments/simspeed.py), a smoke run: the pingpong example
idle and busy for a few thousand cycles under Icarus, and the scaling system of 2 pairs busy.
Speeds are printed, not asserted; the calls served in the window are exact (one call per 6
cycles a pair, give or take the call in flight at either end of the window)."""

from __future__ import annotations

import json
import shutil

import pytest

from pushpush.cli import main

pytestmark = pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs Icarus Verilog")

CYCLES = 3000


def test_simspeed_pingpong_idle_and_busy(tmp_path, capsys):
    assert main(["bench", "simspeed", "--cycles", str(CYCLES), "-o", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "pingpong idle:" in text and "pingpong busy:" in text
    idle, busy = json.loads((tmp_path / "simspeed.json").read_text())
    assert (idle["mode"], busy["mode"]) == ("idle", "busy")
    assert idle["cycles"] == busy["cycles"] == CYCLES and idle["s_per_100k"] > 0
    assert abs(busy["calls"] - CYCLES / 6) <= 1, busy


def test_simspeed_scaling_pairs_busy(tmp_path, capsys):
    assert main(["bench", "simspeed", "--pairs", "2", "--mode", "busy", "--cycles", str(CYCLES),
                 "-o", str(tmp_path)]) == 0
    (busy,) = json.loads((tmp_path / "simspeed.json").read_text())
    assert busy["calls"] > 0 and busy["cycles_per_call"] >= 4, busy
