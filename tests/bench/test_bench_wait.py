"""``pushpush bench wait`` as a smoke test: a few calls per wait mode, idle and with one
CPU hog, on the simulated board, Python and C; the table has every row (ours and the FSL paper's) and
the histogram is written. The numbers are not checked (a benchmark, not a test)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")


def test_bench_wait_smoke(tmp_path):
    from pushpush.bench.wait import MODES, format_table, plot_histogram, run_wait

    result = run_wait(calls=3, warmup=1, idle_s=0.1, hogs=1, outdir=str(tmp_path))
    rows = result["rows"]
    assert [(r["lang"], r["load"], r["mode"]) for r in rows] == \
        [(lang, load, m) for lang in ("python", "c") for load in ("idle", "loaded") for m in MODES]
    for r in rows:
        # (C: a sample whose stamp came late, the simulator descheduled between storing a
        # call and stamping it, is left out and counted)
        assert r["calls"] == 3 and len(r["samples_us"]) + r.get("late_stamps", 0) == 3
        s = r["latency_us"]
        if r["samples_us"]:
            assert 0 <= s["min"] <= s["median"] <= s["max"] and s["p99.9"] == s["max"]
        assert 0 <= r["cpu_share_idle"] and 0 <= r["cpu_share_busy"]
        if r["lang"] == "python":
            assert len(r["trigger_cycles"]) == 3
            assert all(c > 0 for c in r["trigger_cycles"])    # simulated cycle of each trigger
    table = format_table(result)
    for m in MODES:
        assert f"pushpush {m}" in table and f"pushpush C {m}" in table
    assert "FSL paper t2" in table and "1538.8" in table        # 192346 cycles at 125 MHz
    png = plot_histogram(result, tmp_path / "wait.png")
    if png is not None:
        assert png.stat().st_size > 1000
