"""The hls rows of ``pushpush bench calls`` (pushpush.bench.experiments.calls.hls_rows):
examples/hls_pingpong in cocotb, every result checked against the function's model by the
bench's cocotb side (hls_tb.py); rtl -> hls is exact (the pingpong caller's 6-cycle round
trip to a combinational callee plus the function's 2 cycles: the adapter adds none), python
-> hls counts the ARM model's bus cycles; the full participant's rows (examples/hls_callback as
C simulation: python -> hls, rtl -> hls, hls -> rtl, hls -> python in host wall clock); the rows
sit beside the paper's VHLS figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.bench.experiments.calls import calls as calls_mod


@pytest.mark.slow
def test_hls_rows(tmp_path: Path) -> None:
    rows: list[dict] = []
    result = calls_mod._hls_rows(rows, tmp_path, 6)
    assert result["ok"], result
    assert result["rtl_to_hls"] == 8.0 and result["calls"] == 6
    assert 0 < result["python_to_hls"] < 100
    by = {(x["caller"], x["callee"]): x for x in rows}
    assert by[("rtl", "hls")]["mcalls"] == 12.5 and by[("rtl", "hls")]["paper_mcalls"] == 4.54
    assert by[("python", "hls")]["mcalls"] is None and by[("python", "hls")]["paper_mcalls"] == 2.48
    assert "not a Vitis HLS schedule" in by[("rtl", "hls")]["note"]
    md = calls_mod._hls_markdown(result)
    p = result["participant"]
    assert p["ok"], p
    assert all(p[k] > 0 for k in ("python_to_hls_us", "rtl_to_hls_us", "hls_to_rtl_us", "hls_to_python_us"))
    assert "| hls -> rtl |" in md and "host wall clock" in md and "VHLS -> VHLS 4.54" in md
    assert 20 <= p["pl"]["rtl_to_hls_cycles"] <= 80 and "exact, simulated PL" in md
