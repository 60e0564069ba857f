"""hls_pingpong: calls of a Vitis HLS function (``callee.f``, kind: hls) from Verilog and
from Python, on a PYNQ-Z1 or the simulated board.

``main(ol)`` takes the loaded overlay and measures

* **rtl -> hls**: ``caller.run(n)`` makes n chained calls of ``callee.f`` in hardware and
  returns the clock cycles they took; cycles per call = the slope between two values of n.
* **python -> hls**: Python calls ``callee.f`` in a loop (on the simulated board: the
  simulated cycles that pass per call, the simulation's turnaround, not a Cortex-A9's).

Every result is checked against the model of ``pingpong_step`` (hls/pingpong_step.cpp), also
across the hardware runs, so each call is known to have happened exactly once, in order.

Run: ``pushpush run examples/hls_pingpong`` (or in a notebook: ``main(ol)``).
"""

from __future__ import annotations

import time
from typing import Any, Callable

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def step_model(state: int, x: int) -> int:
    """``pingpong_step``: state = rotl(state, 5) ^ x + 0x9E3779B9; returns the new state."""
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


def state_before(result: int, x: int) -> int:
    """The state before a call f(x) that returned ``result`` (the step is invertible)."""
    rot = ((result - GOLDEN) & MASK) ^ (x & MASK)
    return ((rot >> 5) | (rot << 27)) & MASK


def _sim_cycle(ol: Any) -> Any:
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    if bridge is None or not hasattr(bridge, "info"):
        return None
    return lambda: int(bridge.info()["cycle"])


def main(ol: Any, *, hw_n: tuple[int, int] = (10, 100), sw_calls: int = 50,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure and print the two rows; returns ``{"ok", "rows", "problems", ...}``."""
    clock = float(ol.system.linked.clock_mhz)
    cycle = _sim_cycle(ol)
    simulated = cycle is not None
    f, run = ol.callee.f, ol.caller.run
    problems: list[str] = []
    state = 0

    def host_call(x: int) -> None:
        nonlocal state
        got = f(x) & MASK
        state = step_model(state, x)
        if got != state and len(problems) < 5:
            problems.append(f"callee.f({x}) = {got:#010x}, model {state:#010x}")

    r = f(1) & MASK                       # the first result tells the state before it
    state = step_model(state_before(r, 1), 1)
    c0 = cycle() if simulated else None
    t0 = time.perf_counter()
    for i in range(sw_calls):
        host_call(i * 7919 - 5000)
    wall = time.perf_counter() - t0
    sw_cycles = (cycle() - c0) / sw_calls if simulated else None

    runs = {}
    for n in hw_n:
        runs[n] = int(run(n, timeout=120)) & MASK
        x = n
        for _ in range(n):                # the chain: argument = previous result
            state = step_model(state, x)
            x = i32(state)
        host_call(12345)                  # checks that the hardware calls happened
    (n1, c1), (n2, c2) = sorted(runs.items())[:2]
    hw_cpc = (c2 - c1) / (n2 - n1)
    rows = [
        {"caller": "rtl", "callee": "hls", "cycles_per_call": hw_cpc, "mcalls_per_s": clock / hw_cpc,
         "how": f"caller.run(n): ({c2} - {c1}) cycles / ({n2} - {n1}) calls"
                + (", simulated cycles" if simulated else "")},
        {"caller": "python", "callee": "hls", "cycles_per_call": sw_cycles,
         "mcalls_per_s": None if simulated else sw_calls / wall / 1e6,
         "how": (f"{sw_calls} calls from Python: simulated cycles per call while Python waited "
                 f"(the simulation's pace, not the ARM's)") if simulated
                else f"{sw_calls} calls from Python on the ARM (wall clock)"},
    ]
    out(f"hls_pingpong: calls of callee.f (Vitis HLS function pingpong_step, ap_ctrl_hs), "
        f"{clock:g} MHz, " + ("SIMULATED board" if simulated else "board"))
    out(f"  rtl -> hls     {hw_cpc:8.2f} cycles/call  {clock / hw_cpc:6.2f} MCalls/s  [{rows[0]['how']}]")
    sw = f"{sw_cycles:8.1f} cycles/call" if sw_cycles is not None else f"{sw_calls / wall:8.0f} calls/s"
    out(f"  python -> hls  {sw}  [{rows[1]['how']}]")
    ok = not problems
    out(f"  checks: {'all results match the model' if ok else 'FAILED'} "
        f"({sw_calls + 1 + len(hw_n)} Python calls, {sum(hw_n)} hardware calls)")
    for p in problems:
        out(f"    {p}")
    return {"ok": ok, "rows": rows, "clock_mhz": clock, "simulated": simulated, "runs": runs,
            "problems": problems}
