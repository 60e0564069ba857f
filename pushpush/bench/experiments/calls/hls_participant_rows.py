"""The full HLS participant's rows of ``pushpush bench calls``: examples/hls_callback run as C
simulation on the simulated board (docs/hls.md, "The full HLS participant").

worker.apply(f, x) = f(x) + 1 is the HLS C++ around the generated worker_pp.hpp, compiled with
g++ and attached to the simulated board as the component. There is no RTL of the HLS function
here (no Vitis HLS), so these rows are the host's **wall clock**, not cycles:

- ``python_to_hls_us``: one ``ol.worker.apply(py_f, x)`` from Python, its hls -> python
  callback included;
- ``rtl_to_hls_us``: one of ``driver.run(n, x)``'s n chained Verilog calls of apply, its
  hls -> rtl callback (driver.g) included; ``rtl_to_hls_pl_cycles``: the simulated PL cycles
  per chained call (the interrupt block's counter), which run only while the host answers;
- ``hls_to_rtl_us``: one callback into driver.g as the HLS side timed it (from its call burst
  to its reply seen), and ``hls_to_python_us`` the same into Python.

Every result is checked against the model. The numbers depend on the host's load (reported)::

    from pushpush.bench.experiments.calls.hls_participant_rows import run_participant_rows
    run_participant_rows(Path("/tmp/hlsp"), calls=40)

:func:`run_pl_rows` runs the same system with worker's IP in the PL (the example's hand-written
model of the Vitis HLS output): rtl -> hls in exact simulated cycles.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from pushpush.resources import examples_dir

__all__ = ["PARTICIPANT_EXAMPLE", "PARTICIPANT_NOTE", "run_participant_rows", "run_pl_rows"]

PARTICIPANT_EXAMPLE = "hls_callback"
PARTICIPANT_NOTE = ("full HLS participant (examples/hls_callback) as C simulation on the simulated "
                    "board: host wall clock per call, not cycles; no Vitis HLS schedule")
_MASK = 0xFFFF_FFFF


def _i32(v: int) -> int:
    v &= _MASK
    return v - (1 << 32) if v & 0x8000_0000 else v


def _read_lines(proc: subprocess.Popen, lines: list[str], serving: threading.Event) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if "SERVING" in line:
            serving.set()
    serving.set()


def run_pl_rows(work: Path, calls: int = 40, simulator: str = "icarus") -> dict[str, Any]:
    """examples/hls_callback as loaded: worker's IP in the PL (the example's hand-written model
    of what Vitis HLS would export). ``rtl_to_hls_cycles``: simulated PL cycles per chained
    driver.run call (its hls -> rtl callback included), exact: the slope between n and 2n
    chained calls (the model's schedule, not Vitis's)."""
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import pushpush.pynq as ppq
    from pushpush.link import load

    linked = load(examples_dir() / PARTICIPANT_EXAMPLE / "system.yaml")
    bit = ppq.write_sim_overlay(linked, Path(work).resolve() / "ol_pl", simulator=simulator)
    ol = ppq.load(str(bit))
    try:
        ol.runtime(timeout=120)
        got_cycles = {}
        for n in (calls, 2 * calls):
            want = 1
            for _ in range(n):
                want = _i32(3 * want + 2)
            c0 = ol.system.cycles()
            got = ol.driver.run(n, 1, timeout=600)
            got_cycles[n] = ol.system.cycles() - c0
            if got != want:
                raise AssertionError(f"rtl -> hls (PL): driver.run({n}, 1) = {got}, not {want}")
        if ol.worker.apply(lambda v: v * 2, 21) != 43:
            raise AssertionError("python -> hls (PL): apply(2v, 21) is not 43")
    finally:
        ol.free()
    return {"rtl_to_hls_cycles": (got_cycles[2 * calls] - got_cycles[calls]) / calls, "calls": calls}


def run_participant_rows(work: Path, calls: int = 40, simulator: str = "icarus") -> dict[str, Any]:
    """Build and run examples/hls_callback as C simulation; the rows (see the module's text)."""
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import pushpush.pynq as ppq
    from pushpush.c.hls_csim import build_csim
    from pushpush.link import load_csim
    from pushpush.pynq.simulated.c_programs import CAttach

    work = Path(work).resolve()
    linked = load_csim(examples_dir() / PARTICIPANT_EXAMPLE / "system.yaml")
    bit = ppq.write_sim_overlay(linked, work / "ol", simulator=simulator)
    exe = build_csim(work / "ol" / "c", linked, "worker", work / "csim")
    ol = ppq.load(str(bit))
    lines: list[str] = []
    try:
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe)])
            serving = threading.Event()
            reader = threading.Thread(target=_read_lines, args=(proc, lines, serving), daemon=True)
            reader.start()
            try:
                if not serving.wait(300) or "SERVING" not in lines:
                    raise RuntimeError(f"the C simulation program did not start serving: {lines}")
                ol.runtime(timeout=120)
                ol.worker.apply(lambda v: v, 1)                    # warm up both paths
                ol.driver.run(1, 1, timeout=120)
                t0 = time.perf_counter()
                for x in range(calls):
                    got = ol.worker.apply(lambda v: v * 2, x)
                    if got != _i32(2 * x + 1):
                        raise AssertionError(f"python -> hls: apply(2v, {x}) = {got}, not {2 * x + 1}")
                py_us = (time.perf_counter() - t0) / calls * 1e6
                c0 = ol.system.cycles()
                t0 = time.perf_counter()
                got = ol.driver.run(calls, 1, timeout=600)
                rtl_us = (time.perf_counter() - t0) / calls * 1e6
                cycles = (ol.system.cycles() - c0) / calls
                want = 1
                for _ in range(calls):
                    want = _i32(3 * want + 2)
                if got != want:
                    raise AssertionError(f"rtl -> hls: driver.run({calls}, 1) = {got}, not {want}")
            finally:
                proc.terminate()
                proc.wait(timeout=30)
                reader.join(timeout=30)  # its last lines: the callbacks' times
    finally:
        ol.free()
    timed = [ln.split() for ln in lines if ln.startswith("timed ")]
    if not timed:
        raise RuntimeError(f"the C simulation program printed no callback times: {lines}")
    pl_n, pl_ns, ps_n, ps_ns = int(timed[-1][2]), int(timed[-1][3]), int(timed[-1][5]), int(timed[-1][6])
    return {"python_to_hls_us": round(py_us, 1), "rtl_to_hls_us": round(rtl_us, 1),
            "rtl_to_hls_pl_cycles": round(cycles, 1),
            "hls_to_rtl_us": round(pl_ns / pl_n / 1e3, 1), "hls_to_python_us": round(ps_ns / ps_n / 1e3, 1),
            "calls": calls, "loadavg": [round(v, 2) for v in os.getloadavg()]}
