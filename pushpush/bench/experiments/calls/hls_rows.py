"""The hls rows of ``pushpush bench calls``: examples/hls_pingpong in cocotb.

A Vitis HLS function under ``ap_ctrl_hs`` (kind: hls, docs/hls.md) behind the generated
adapter, called by the Verilog pingpong caller (rtl -> hls, exact cycles) and by Python on
the cocotb ARM model (python -> hls, the bus cycles only). The function's Verilog is the
example's hand-written stand-in of what Vitis HLS exports (2 cycles from ap_start to
ap_done): the rows are the adapter's and the protocol's exact cycles plus that schedule,
not a schedule Vitis HLS made::

    from pushpush.bench.experiments.calls.hls_rows import run_hls_rows
    cpc = run_hls_rows(Path("/tmp/hls"), calls=8)
    cpc["rtl_to_hls"], cpc["python_to_hls"]
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from pushpush.resources import examples_dir

__all__ = ["HLS_EXAMPLE", "HLS_ROWS", "HLS_NOTE", "run_hls_rows"]

HLS_EXAMPLE = "hls_pingpong"
#: (key, caller, callee) of each row
HLS_ROWS = (("rtl_to_hls", "rtl", "hls"), ("python_to_hls", "python", "hls"))
HLS_NOTE = ("kind: hls (examples/hls_pingpong): the ap_ctrl_hs adapter's exact cycles around a "
            "hand-written stand-in of Vitis HLS's Verilog (2 cycles ap_start -> ap_done), not a "
            "Vitis HLS schedule")


def run_hls_rows(work: Path, calls: int = 8, simulator: str = "icarus") -> dict[str, Any]:
    """Generate and simulate examples/hls_pingpong; cycles per call of each row."""
    from pushpush.build.sim import run_cocotb
    from pushpush.sim.runner import COMPONENT_ENV, MAP_ENV, build_system

    work = Path(work).resolve()
    out = work / "cycles.json"
    if out.exists():
        out.unlink()
    build = build_system(examples_dir() / HLS_EXAMPLE / "system.yaml", work / "gen")
    run = work / "run"
    run.mkdir(parents=True, exist_ok=True)
    tb = Path(__file__).with_name("hls_tb.py")
    shutil.copy(tb, run / tb.name)
    run_cocotb(toplevel=build.top, sources=build.sources, test_module=tb.stem, test_dir=run,
               simulator=simulator, build_dir=work / "sim", cache=False,
               extra_env={MAP_ENV: str(build.map_path.resolve()), COMPONENT_ENV: "host",
                          "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING"),
                          "PYTHONWARNINGS": "ignore::DeprecationWarning",
                          "PP_HLS_N": str(calls), "PP_HLS_OUT": str(out)})
    return {**json.loads(out.read_text()), "calls": calls}
