"""pingpong: the calls table of the PushPush paper (Table II), on a PYNQ-Z1 or the simulated board.

``main(ol)`` takes the loaded overlay (``pushpush.pynq.load`` / ``pushpush.apps.open_system``)
and measures calls of ``callee.f`` (Verilog) by

* **rtl -> rtl**: ``caller.run(n)`` makes n chained calls of ``callee.f`` in hardware and
  returns the clock cycles they took; cycles per call = the slope between two values of n
  (so the start and the return of ``run`` itself cancel), MCalls/s = clock MHz / cycles.
* **python -> rtl**: Python calls ``callee.f`` in a loop. On a board that is the real
  ARM's speed. On the simulated board it is the speed of the *simulation* on this machine
  (wall clock), and the simulated cycles that pass per call (the simulator runs while
  Python works, so this is the simulation's turnaround, not a Cortex-A9's).

Every result is checked against a model of the callee (its state after every call, also
across the hardware runs), so each call is known to have happened exactly once, in order.

Run: ``pushpush run examples/pingpong`` (or in a notebook: ``main(ol)``).
"""

from __future__ import annotations

import time
from typing import Any, Callable

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9

#: caller kind x callee kind pairs not measured by this example (yet)
NOT_MEASURED = [
    ("rtl", "python", "see audio_fir: fir calls src()/sink() in Python"),
    ("python", "python", "needs a second python component"),
    ("c", "*", "C rows: pushpush run examples/pingpong/c"),
    ("*", "c", "C rows: pushpush run examples/pingpong/c"),
]


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def callee_model(state: int, x: int) -> int:
    """``pingpong_callee``: state <= rotl(state, 5) ^ x + 0x9E3779B9; returns the new state."""
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


def callee_state_before(result: int, x: int) -> int:
    """The state the callee had before a call f(x) that returned ``result``."""
    rot = ((result - GOLDEN) & MASK) ^ (x & MASK)
    return ((rot >> 5) | (rot << 27)) & MASK


def _sim_cycle(ol: Any) -> Any:
    """The simulated board's cycle counter, or None on a board."""
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    if bridge is None or not hasattr(bridge, "info"):
        return None
    return lambda: int(bridge.info()["cycle"])


def main(ol: Any, *, hw_n: tuple[int, int] = (10, 200), sw_calls: int = 200,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure and print the calls table; returns ``{"ok", "rows", "clock_mhz", ...}``."""
    linked = ol.system.linked
    clock = float(linked.clock_mhz)
    cycle = _sim_cycle(ol)
    simulated = cycle is not None
    f = ol.callee.f
    run = ol.caller.run
    problems: list[str] = []
    state = 0

    def host_call(x: int) -> None:
        nonlocal state
        got = f(x) & MASK
        state = callee_model(state, x)
        if got != state and len(problems) < 5:
            problems.append(f"callee.f({x}) = {got:#010x}, model {state:#010x}")

    # ---------------------------------------------------------------- python -> rtl
    # warm-up; the first result also tells the callee's state before it (f is invertible),
    # so the checks hold whatever ran on this overlay before
    r = f(1) & MASK
    state = callee_model(callee_state_before(r, 1), 1)
    c0 = cycle() if simulated else None
    t0 = time.perf_counter()
    for i in range(sw_calls):
        host_call(i * 7919)
    wall = time.perf_counter() - t0
    sw_cycles = (cycle() - c0) / sw_calls if simulated else None

    # ---------------------------------------------------------------- rtl -> rtl
    runs = {}
    for n in hw_n:
        t0 = time.perf_counter()
        cycles = int(run(n, timeout=120)) & MASK
        runs[n] = (cycles, time.perf_counter() - t0)
        x = n
        for _ in range(n):                          # the chain: argument = previous result
            state = callee_model(state, x)
            x = i32(state)
        host_call(12345)                            # checks the hardware calls happened
    (n1, (c1, _)), (n2, (c2, _)) = sorted(runs.items())[:2]
    hw_cpc = (c2 - c1) / (n2 - n1)

    rows = [
        {"caller": "rtl", "callee": "rtl", "cycles_per_call": hw_cpc,
         "mcalls_per_s": clock / hw_cpc if hw_cpc else None,
         "how": f"caller.run(n): ({c2} - {c1}) cycles / ({n2} - {n1}) calls"
                + (", simulated cycles" if simulated else "")},
        {"caller": "python", "callee": "rtl", "cycles_per_call": sw_cycles,
         "mcalls_per_s": sw_calls / wall / 1e6,
         "how": (f"{sw_calls} calls of callee.f from Python: wall clock of the SIMULATION "
                 f"on this machine; cycles = simulated cycles per call")
                if simulated else f"{sw_calls} calls of callee.f from Python on the ARM (wall clock)"},
    ]

    out(f"pingpong: calls of callee.f (Verilog), system clock {clock:g} MHz, "
        + ("SIMULATED board" if simulated else "board"))
    out("")
    head = f"MCalls/s @{clock:g}MHz"
    out(f"  {'caller -> callee':<17} {'cycles/call':>11} {head:>17} {'wall calls/s':>13}  note")
    out(f"  {'-' * 17} {'-' * 11} {'-' * 17} {'-' * 13}  {'-' * 4}")
    hw = rows[0]
    out(f"  {'rtl -> rtl':<17} {hw_cpc:>11.2f} {clock / hw_cpc:>17.3f} {'-':>13}  [1]")
    sw_cpc = f"{sw_cycles:.1f}" if sw_cycles is not None else "-"
    sw_mcps = "-" if simulated else f"{sw_calls / wall / 1e6:.4f}"
    out(f"  {'python -> rtl':<17} {sw_cpc:>11} {sw_mcps:>17} {sw_calls / wall:>13,.0f}  [2]")
    for a, b, why in NOT_MEASURED:
        out(f"  {a + ' -> ' + b:<17} {'-':>11} {'-':>17} {'-':>13}  not measured yet: {why}")
    out("")
    out(f"  [1] {hw['how']}; MCalls/s = {clock:g} MHz / cycles per call")
    if simulated:
        out(f"  [2] {sw_calls} calls of callee.f from Python. wall calls/s = speed of the "
            "SIMULATION on this machine, not of a PYNQ-Z1;")
        out("      cycles/call = simulated cycles that passed per call while Python waited "
            "(the simulated ARM is this process)")
    else:
        out(f"  [2] {sw_calls} calls of callee.f from Python on the ARM (wall clock)")
    for n, (cycles, secs) in sorted(runs.items()):
        out(f"  caller.run({n}) = {cycles} cycles ({cycles / n:.2f} per call incl. start/return; "
            f"{secs:.2f} s wall clock)")
    ok = not problems
    out(f"  checks: {'all results match the callee model' if ok else 'FAILED'} "
        f"({sw_calls + 1 + len(hw_n)} Python calls, {sum(hw_n)} hardware calls)")
    for p in problems:
        out(f"    {p}")
    return {"ok": ok, "rows": rows, "clock_mhz": clock, "simulated": simulated, "runs": runs,
            "sw_calls_per_s": sw_calls / wall, "problems": problems}
