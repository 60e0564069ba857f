"""``pushpush bench wait``: a small run of every row (a few calls per wait mode, idle and with
one busy process, on the simulated board, Python and C) has every column, each one sane;
the time budget stops a row between two calls and says so (made/asked, why), a failed call
stops its row with the error; the percentiles are samples (nearest rank); an earlier run's
rows of the loads not measured now are kept; options that do not apply are refused. The
numbers themselves are not checked (a benchmark, not a test)."""

from __future__ import annotations

import argparse
import json
import math
import os

import pytest

os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.bench.experiments.wait.measure import STATS, measure_calls, summarize  # noqa: E402
from pushpush.bench.experiments.wait.wait import MODES, format_table, merge_rows  # noqa: E402
from pushpush.cli import main  # noqa: E402


def test_summarize_percentiles_are_samples_by_nearest_rank():
    xs = [float(i) for i in range(1, 1001)]          # 1 .. 1000
    s = summarize(list(reversed(xs)))
    assert (s["min"], s["median"], s["p99"], s["p99.9"], s["max"]) == (1.0, 500.5, 990.0, 999.0, 1000.0)
    assert s["mean"] == 500.5 and list(s) == list(STATS)
    assert summarize([7.0]) == {"mean": 7.0, "sigma": 0.0, "min": 7.0, "median": 7.0, "p99": 7.0,
                                "p99.9": 7.0, "max": 7.0}
    assert all(math.isnan(v) for v in summarize([]).values())


def test_measure_calls_stops_at_the_budget_or_a_failed_call_and_says_so():
    made: list[int] = []
    m = measure_calls(made.append, 5, 1e9, lambda: 0.0)
    assert (m.calls, m.stopped, made) == (5, None, [0, 1, 2, 3, 4])
    assert m.loadavg_start >= 0 and m.loadavg_end >= 0
    m = measure_calls(made.append, 5, 0.0, lambda: 0.0)          # no time at all: no call
    assert (m.calls, m.stopped) == (0, "budget: 0 s")

    def fails_at_3(i: int) -> None:
        if i == 3:
            raise TimeoutError("call to mixer.store timed out after 60 s\nmore lines")
    m = measure_calls(fails_at_3, 10, 1e9, lambda: 0.0)
    assert (m.calls, m.stopped) == (3, "error: TimeoutError: call to mixer.store timed out after 60 s")

    collected: list[int] = []                                  # between(): every chunk, and at the end
    m = measure_calls(lambda i: None, 25, 1e9, lambda: 0.0, chunk=10,
                      between=lambda: collected.append(1))
    assert (m.calls, len(collected)) == (25, 3)


def _row(lang: str, load: str, mode: str, at: str) -> dict:
    return {"lang": lang, "load": load, "mode": mode, "loadavg_start": 1.0, "calls_requested": 3,
            "measured_at": at}


def test_merge_keeps_the_earlier_runs_other_rows_in_table_order():
    earlier = [_row("python", "idle", m, "old") for m in MODES] + \
              [_row("python", "loaded", "poll", "old"), {"lang": "c", "load": "idle", "mode": "poll"}]
    now = [_row("python", "loaded", m, "new") for m in MODES]
    merged = merge_rows(earlier, now)
    assert [(r["load"], r["mode"], r["measured_at"]) for r in merged] == \
        [("idle", m, "old") for m in MODES] + [("loaded", m, "new") for m in MODES]


@pytest.mark.parametrize("argv, says", [
    (["--loads", "idle", "--hogs", "2"], "--hogs 2: only the loaded rows have busy processes"),
    (["--hogs", "0"], "--hogs 0: at least 1 busy process"),
    (["--budget", "0"], "--budget 0: the seconds a row may run"),
    (["--langs", "rust"], "unknown rust"),
    (["--calls", "0"], "--calls 0: at least 1 call"),
])
def test_options_that_do_not_apply_are_refused(tmp_path, capsys, argv, says):
    assert main(["bench", "wait", "-o", str(tmp_path / "out"), *argv]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "out").exists(), "nothing may run (or be written) before the refusal"


def _check_row(r: dict, calls: int) -> None:
    assert r["calls"] == r["calls_requested"] == calls and r["stopped"] is None, r["stopped"]
    assert len(r["samples_us"]) == calls
    assert r.get("late_stamps", 0) == 0      # the simulator stamps a call before storing it
    s = r["latency_us"]
    assert list(s) == list(STATS)
    assert 0 <= s["min"] <= s["median"] <= s["p99"] <= s["p99.9"] <= s["max"], s
    assert s["min"] <= s["mean"] <= s["max"] and s["sigma"] >= 0
    assert r["wall_s"] > 0 and r["calls_per_s"] > 0
    assert r["cpu_s"] >= 0 and r["cpu_us_per_call"] >= 0 and r["cpu_share_busy"] >= 0
    assert r["cpu_share_idle"] >= 0
    assert r["loadavg_start"] >= 0 and r["loadavg_end"] >= 0
    assert r["hogs"] == (1 if r["load"] == "loaded" else 0)
    assert r["simulator"] in ("icarus", "verilator") and r["measured_at"]
    if r["lang"] == "python":
        cyc = r["trigger_cycles"]
        assert len(cyc) == calls and all(b > a > 0 for a, b in zip(cyc, cyc[1:]))


def test_bench_wait_smoke(tmp_path, capsys):
    pytest.importorskip("pynq.pl_server")
    out = tmp_path / "results"
    assert main(["bench", "wait", "--calls", "3", "--hogs", "1", "--budget", "600",
                 "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    result = json.loads((out / "wait.json").read_text())
    rows = result["rows"]
    assert [(r["lang"], r["load"], r["mode"]) for r in rows] == \
        [(lang, load, m) for lang in ("python", "c") for load in ("idle", "loaded") for m in MODES]
    for r in rows:
        _check_row(r, 3)
    for m in MODES:
        assert f"pushpush {m}" in printed and f"pushpush C {m}" in printed
    for col in ("calls", *STATS, "CPU/call", "busy", "idle", "load avg", "PL cyc"):
        assert col in printed
    assert "FSL paper t2" in printed and "1538.8" in printed     # 192346 cycles at 125 MHz
    assert "FSL paper t1+t2" in printed and "686.0" in printed
    assert "stopped short" not in printed
    if (out / "wait.png").exists():
        assert (out / "wait.png").stat().st_size > 1000

    # the loaded half again, one mode, with a budget that ends it at once: the idle rows
    # and the other loaded ones stay; the row made 0 of 3 calls and says why
    assert main(["bench", "wait", "--calls", "3", "--loads", "loaded", "--modes", "sleep",
                 "--langs", "python", "--budget", "1e-9", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    again = json.loads((out / "wait.json").read_text())["rows"]
    assert len(again) == len(rows)
    short = [r for r in again if r["stopped"]]
    assert [(r["lang"], r["load"], r["mode"], r["calls"], r["calls_requested"]) for r in short] \
        == [("python", "loaded", "sleep", 0, 3)]
    assert short[0]["stopped"] == "budget: 1e-09 s"
    assert short[0]["hogs"] == (os.cpu_count() or 1)            # the default: one per core
    assert "0/3" in printed and "pushpush sleep loaded after 0 of 3 calls (budget" in printed
    for r in again:
        if r is not short[0]:
            _check_row(r, 3)
    assert format_table({"calls": 3, "rows": again}).count("\n") > 20
