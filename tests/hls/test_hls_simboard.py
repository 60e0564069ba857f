"""examples/hls_pingpong on the simulated board: a Vitis HLS function (kind: hls, the
``ap_ctrl_hs`` adapter around the example's stand-in of the exported Verilog) called by the
Verilog caller (rtl -> hls) and by Python (python -> hls), every result checked against the
function's model; and the example's whole generated top lints clean (Verilator -Wall)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush import apps  # noqa: E402
from pushpush.build.sim import verilator_bin_dir  # noqa: E402
from pushpush.link import load  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "hls_pingpong"


def test_hls_pingpong_runs_on_the_simulated_board(tmp_path: Path) -> None:
    app = apps.load_app(EXAMPLE)
    ol = apps.open_system(EXAMPLE, outdir=tmp_path / "ol", simulator="icarus")
    ol.runtime(timeout=300)
    lines: list[str] = []
    try:
        result = app.main(ol, hw_n=(4, 20), sw_calls=8, out=lines.append)
    finally:
        ol.free()
    assert result["ok"], result["problems"]
    rows = {(r["caller"], r["callee"]): r for r in result["rows"]}
    assert set(rows) == {("rtl", "hls"), ("python", "hls")}
    # the pingpong caller's round trip to a combinational rtl callee is 6 cycles
    # (docs/architecture.md §4); pingpong_step takes 2 more, and the adapter adds none
    assert rows[("rtl", "hls")]["cycles_per_call"] == 8.0, rows
    assert lines[0].startswith("hls_pingpong: calls of callee.f")


def test_the_generated_top_lints_clean(tmp_path: Path) -> None:
    from pushpush.codegen.generate import generate

    linked = load(EXAMPLE / "system.yaml")
    generate(linked, tmp_path / "gen")
    top = f"{linked.name}_top"
    sources = sorted((tmp_path / "gen" / "rtl").glob("*.v"))
    for c in linked.components:
        if c.kind == "rtl":
            sources += linked.source_paths(c.name)
    search = [a for d in sorted((REPO / "cores").iterdir()) if d.is_dir() for a in ("-y", str(d))]
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    r = subprocess.run([str(bindir / "verilator"), "--lint-only", "-Wall", *search,
                        "--top-module", top, *map(str, sources)],
                       capture_output=True, text=True, timeout=300)
    warnings = re.findall(r"^%Warning-\S+.*$", r.stderr, re.M)
    assert r.returncode == 0 and not warnings, "\n".join(warnings) or r.stderr[-3000:]
