"""hls_callback: an HLS function that calls back (docs/hls.md, "The full HLS participant").

``worker.apply(f, x) = f(x) + 1`` is HLS C++ (hls/apply.cpp) around pushpush's generated
worker_pp.hpp. Here it runs as C simulation on the simulated board: ``main(ol)`` compiles it
with g++ (pushpush.c.hls_csim) and attaches it as the component, then

* **python -> hls**: Python calls ``worker.apply`` with Python functions (the HLS side calls
  them back: hls -> python);
* **rtl -> hls**: ``driver.run(n, x)`` makes n chained Verilog calls ``x = apply(g, x)`` with
  its own export ``g(x) = 3x + 1`` (the HLS side calls it back: hls -> rtl).

Every result is checked against the model. The times are the host's wall clock (C
simulation), not cycles. On a board the component needs its IP in the PL, which the system top
does not place yet (docs/hls.md, "Not yet"): ``main`` says so.

Run: ``pushpush run examples/hls_callback``.
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


def main(ol: Any, *, calls: int = 20, out: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the C simulation of worker, make the calls, print the rows; ``{"ok", "problems", ...}``."""
    if getattr(getattr(ol, "device", None), "bridge", None) is None:
        return {"ok": False, "problems": ["worker (a full HLS participant) runs as C simulation on the "
                                          "simulated board only: its IP is not placed in a board's PL yet"]}
    from pushpush.c.hls_csim import build_csim
    from pushpush.link import load
    from pushpush.pynq.simulated.c_programs import CAttach

    problems: list[str] = []
    linked = load(Path(__file__).resolve().parent / "system.yaml")  # hls_sources beside it
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
                t0 = time.perf_counter()
                for x in range(calls):
                    got = ol.worker.apply(lambda v: v * v, x)
                    if got != i32(x * x + 1) and len(problems) < 5:
                        problems.append(f"worker.apply(v*v, {x}) = {got}, model {i32(x * x + 1)}")
                py_us = (time.perf_counter() - t0) / calls * 1e6
                t0 = time.perf_counter()
                got = ol.driver.run(calls, 1, timeout=600)
                rtl_us = (time.perf_counter() - t0) / calls * 1e6
                want = 1
                for _ in range(calls):
                    want = i32(g_model(want) + 1)
                if got != want:
                    problems.append(f"driver.run({calls}, 1) = {got}, model {want}")
            finally:
                proc.terminate()
                proc.wait(timeout=30)
                reader.join(timeout=30)
    out(f"python -> hls (-> python): {py_us:10.1f} us/call, host wall clock (C simulation)")
    out(f"rtl -> hls (-> rtl):       {rtl_us:10.1f} us/call, host wall clock (C simulation)")
    out("C simulation: " + " | ".join(ln for ln in lines if ln.startswith(("served", "timed"))))
    ok = not problems
    for p in problems:
        out("problem: " + p)
    return {"ok": ok, "problems": problems, "python_to_hls_us": py_us, "rtl_to_hls_us": rtl_us}
