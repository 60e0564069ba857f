"""Smoke run of ``pushpush bench dma --smoke`` (issue 17's benchmark): a few sizes, through
the CLI, so the benchmark cannot rot. Asserted: the common result format (JSON, Markdown,
PNG), the rows of every kind, exact simulated cycles within the bounds the data width sets
(a 64 KiB transfer cannot take fewer cycles than its beats, nor many more), the 97% target
at 64 KiB, the data checked, and the seed paper's Table I beside ours. Wall-clock numbers
are reported, never asserted. The full grid is a benchmark (``pushpush bench dma``).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pynq.pl_server")

from pushpush.cli import main  # noqa: E402


def test_dma_smoke(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["bench", "dma", "--smoke", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    res = json.loads((out / "dma.json").read_text())
    assert (out / "dma.md").exists() and (out / "dma.png").exists()
    assert res["experiment"] == "dma" and res["plots"] == ["dma.png"]
    rows = {(r["kind"], r["bytes"]): r for r in res["rows"]}
    assert set(rows) == {(k, n) for k in ("TX", "RX", "both") for n in (8, 4096, 65536)}
    beats = 65536 // (res["config"]["width"] // 8)
    for kind in ("TX", "RX", "both"):
        r = rows[(kind, 65536)]
        assert beats <= r["cycles"] <= beats * 1.03, r
        assert r["of_hp_limit"] >= 0.97, r
        assert r["host_s"] > 0
    assert all(r.get("ok", True) for r in res["rows"])
    assert all(t["met"] for t in res["targets"]), res["targets"]
    assert "user-level polling | 0.0054 | 0.197" in text
    assert "simulated board's software time" in text
