"""hls_callback: an HLS function that calls back (docs/hls.md, "The full HLS participant").

``worker.apply(f, x) = f(x) + 1`` is HLS C++ (hls/apply.cpp) around pushpush's generated
worker_pp.hpp. ``main(ol)`` measures

* **python -> hls**: Python calls ``worker.apply`` with Python functions (the HLS side calls
  them back: hls -> python);
* **rtl -> hls**: ``driver.run(n, x)`` makes n chained Verilog calls ``x = apply(g, x)`` with
  its own export ``g(x) = 3x + 1`` (the HLS side calls it back: hls -> rtl).

Every result is checked against the model. ``pushpush run examples/hls_callback`` runs the
system as loaded: worker's IP in the PL (its ``sources:``, here a hand-written model of what
Vitis HLS would export), rtl -> hls in exact PL cycles. Loaded for C simulation
(:func:`pushpush.link.load_csim`), ``main`` builds the C++ with g++ and attaches it instead
(the host's wall clock, not cycles).
"""

from __future__ import annotations

import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

MASK = 0xFFFF_FFFF


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def g_model(x: int) -> int:
    """driver.g: 3x + 1 (32-bit)."""
    return i32(3 * x + 1)


def _serve(proc: subprocess.Popen, lines: list[str], serving: threading.Event) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if "SERVING" in line:
            serving.set()
    serving.set()


def _calls(ol: Any, calls: int, problems: list[str]) -> dict[str, float]:
    """python -> hls and rtl -> hls (each with its callback), checked; per-call times and, on
    the simulated board, simulated PL cycles per chained Verilog call."""
    t0 = time.perf_counter()
    for x in range(calls):
        got = ol.worker.apply(lambda v: v * v, x)
        if got != i32(x * x + 1) and len(problems) < 5:
            problems.append(f"worker.apply(v*v, {x}) = {got}, model {i32(x * x + 1)}")
    py_us = (time.perf_counter() - t0) / calls * 1e6
    c0 = ol.system.cycles()
    t0 = time.perf_counter()
    got = ol.driver.run(calls, 1, timeout=600)
    rtl_us = (time.perf_counter() - t0) / calls * 1e6
    rtl_cycles = (ol.system.cycles() - c0) / calls
    want = 1
    for _ in range(calls):
        want = i32(g_model(want) + 1)
    if got != want:
        problems.append(f"driver.run({calls}, 1) = {got}, model {want}")
    return {"python_to_hls_us": py_us, "rtl_to_hls_us": rtl_us, "rtl_to_hls_cycles": rtl_cycles}


def main(ol: Any, *, calls: int = 20, out: Callable[[str], None] = print) -> dict[str, Any]:
    """Make the calls, print the rows; ``{"ok", "problems", ...}``. With worker in the PL (its
    IP's Verilog: here the hand-written model) the calls go to it; with worker as C simulation
    (pushpush.spec.hls.csim_spec) the program is built and attached first."""
    problems: list[str] = []
    if ol.system.linked.component("worker").kind == "hls":   # the IP in the PL
        rows = _calls(ol, calls, problems)
        out(f"python -> hls (-> python): {rows['python_to_hls_us']:10.1f} us/call (wall clock)")
        out(f"rtl -> hls (-> rtl):       {rows['rtl_to_hls_cycles']:10.1f} PL cycles/call "
            f"(the hand-written model of the IP: its schedule, not Vitis's)")
        for p in problems:
            out("problem: " + p)
        return {"ok": not problems, "problems": problems, **rows}
    if getattr(getattr(ol, "device", None), "bridge", None) is None:
        return {"ok": False, "problems": ["worker as C simulation runs on the simulated board only"]}
    from pushpush.c.hls_csim import build_csim
    from pushpush.link import load_csim
    from pushpush.pynq.simulated.c_programs import CAttach

    linked = load_csim(Path(__file__).resolve().parent / "system.yaml")  # hls_sources beside it
    with tempfile.TemporaryDirectory(prefix="hls_callback_") as tmp:
        exe = build_csim(Path(ol.bitfile_name).parent / "c", linked, "worker", Path(tmp))
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe)])
            lines: list[str] = []
            serving = threading.Event()
            reader = threading.Thread(target=_serve, args=(proc, lines, serving), daemon=True)
            reader.start()
            try:
                if not serving.wait(300) or "SERVING" not in lines:
                    return {"ok": False, "problems": [f"the C simulation did not start: {lines}"]}
                rows = _calls(ol, calls, problems)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
                reader.join(timeout=30)
    out(f"python -> hls (-> python): {rows['python_to_hls_us']:10.1f} us/call, host wall clock (C simulation)")
    out(f"rtl -> hls (-> rtl):       {rows['rtl_to_hls_us']:10.1f} us/call, host wall clock (C simulation)")
    out("C simulation: " + " | ".join(ln for ln in lines if ln.startswith(("served", "timed"))))
    for p in problems:
        out("problem: " + p)
    return {"ok": not problems, "problems": problems, **rows}
