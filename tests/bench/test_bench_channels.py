"""Smoke run of ``pushpush bench channels --smoke`` (issue 18's benchmark) through the CLI,
so the benchmark cannot rot: the files it writes, a row per direction and size, the data
checked, exact cycles within the bounds the bus sets (64 KiB one way cannot take fewer
cycles than its 16384 words, both ways than 16384), the round-trip row, RIFFA's tables
beside ours. Bandwidth targets are reported (``targets``), not asserted: that is the
benchmark's job (``pushpush bench channels --check``)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pynq.pl_server")

from pushpush.cli import main  # noqa: E402


def test_channels_smoke(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["bench", "channels", "--smoke", "--sim", "verilator", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    res = json.loads((out / "channels.json").read_text())
    assert (out / "channels.md").exists() and res["plots"] in ([], ["channels.png"])
    rows = {(r["kind"], r["size"]): r for r in res["rows"]}
    assert {(k, n) for k in ("send", "recv", "both") for n in (4, 1024, 65536)} <= set(rows)
    assert all(r["ok"] for r in res["rows"])
    for kind in ("send", "recv", "both"):
        r = rows[(kind, 65536)]
        assert 16384 <= r["cycles"] <= 16384 * 1.5, r
    rt = rows[("round trip", 4)]
    assert 2 <= rt["cycles"] <= 500
    assert "Virtex 7 VC707" in text and "host read from FPGA, round trip" in text
    assert len(res["targets"]) == 3
