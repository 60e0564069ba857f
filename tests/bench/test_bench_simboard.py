"""``pushpush bench simboard`` runs and reports every column (a tiny run; not timed)."""

from __future__ import annotations


import pytest

pytest.importorskip("pynq.pl_server")


def test_simboard_bench_reports_every_column(monkeypatch):
    from pushpush.bench.experiments.simboard import COLUMNS, format_table, run_simboard_bench

    monkeypatch.delenv("PUSHPUSH_SIM", raising=False)
    rows = run_simboard_bench(["icarus"], calls=10)
    assert [(r["simulator"], r["ps"]) for r in rows] == [("icarus", "hdl")]
    for row in rows:
        for key in ("load_cold_s", "load_warm_s", "py_rtl_calls_per_s", "rtl_py_calls_per_s",
                    "cycles_per_s", "idle_cpu_pct", "py_rtl_us"):
            assert row[key] not in (None, ""), key
        assert row["py_rtl_calls_per_s"] > 0 and row["rtl_py_calls_per_s"] > 0
    table = format_table(rows)
    assert all(h in table for _, h in COLUMNS)
