"""The shared-bus scaling benchmark: ``pushpush bench scaling`` (issue 12, item 3).

Runs the benchmark through the CLI (pushpush/cli/bench.py -> pushpush/bench/experiments/scaling/scaling.py, cocotb
side pushpush/bench/experiments/scaling/scaling_tb.py) on 1 and 4 pairs of pingpong callers with 30 calls each,
and asserts what the simulated cycle counts must show (exact, no wall-clock timing):

- every pair's calls happened (the cocotb side checks results, errors and the callees' counts);
- one pair: 6 cycles per call on both topologies (the shared bus no longer waits for the call
  burst's write response before the result burst);
- 4 pairs on the shared bus (round robin and fair): at least 20 MCalls/s at 100 MHz (the
  4-beat bus limit is 25), every pair within one cycle of the others;
- the crossbar: 6 cycles per call per pair whatever the number of pairs.
"""

from __future__ import annotations

import json

from pushpush.cli import main


def test_bench_scaling(tmp_path, capsys):
    out = tmp_path / "bench"
    status = main(["bench", "scaling", "--pairs", "1,4", "--calls", "30", "-o", str(out), "--check"])
    text = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + text)
    assert status == 0
    result = json.loads((out / "scaling.json").read_text())
    assert result["targets_missed"] == []
    assert "MCalls/s" in text
    rows = {(r["config"], r["pairs"]): r for r in result["rows"]}
    assert set(rows) == {(c, n) for c in ("shared", "shared_fair", "crossbar") for n in (1, 4)}
    for c in ("shared", "shared_fair", "crossbar"):
        assert rows[(c, 1)]["cpc"] == [6.0], rows[(c, 1)]
        assert rows[(c, 1)]["run_cycles"] == [180]
    for c in ("shared", "shared_fair"):
        r = rows[(c, 4)]
        assert r["mcalls"] >= 20.0, r
        assert max(r["cpc"]) - min(r["cpc"]) <= 1.0, r
        # no pair is starved: each got a quarter of the bus (16 cycles per call) +- 1
    # (each pair's own count: 30 calls x 6 cycles; the window's per-pair figures carry the
    # quantisation of a short run)
    assert rows[("crossbar", 4)]["run_cycles"] == [180] * 4
