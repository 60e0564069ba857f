"""riscv_pingpong: the soft core's rows of the calls table (PushPush paper, Table II).

C on a soft RISC-V core in the PL (kind: riscv, docs/riscv.md) between the real Verilog
pingpong caller and callee and Python on the ARM. ``pushpush run examples/riscv_pingpong``
runs it on the simulated board: pushpush builds the core's program into the overlay, the
simulated PL runs the top with PicoRV32, and ``main(ol)`` checks every result against the
pingpong state machine's model and measures:

* **riscv -> rtl**: ``callee.bench(n)``, n chained calls of the Verilog ``hw.f`` from C, timed
  by the core's cycle counter (exact);
* **rtl -> riscv**: ``caller.run(n)``, the Verilog caller's n chained calls of the C
  ``callee.f`` (exact);
* **python -> riscv**: Python calling ``callee.f`` (simulated cycles that passed per call
  while Python waited: the simulation's pace, not the ARM's).

Printed beside the paper's MicroBlaze rows. ``main(None, outdir)`` runs the same in cocotb
(:func:`pushpush.bench.experiments.calls.riscv_rows.run_riscv_rows`, what ``pushpush bench calls`` uses).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

CLOCK_MHZ = 100.0
#: (our key, caller, callee, the paper's Table II client and server)
ROWS = (("riscv_to_rtl", "riscv", "rtl", "MBlaze", "VHLS"),
        ("rtl_to_riscv", "rtl", "riscv", "VHLS", "MBlaze"),
        ("python_to_riscv", "python", "riscv", "ARM", "MBlaze"))


GOLDEN = 0x9E3779B9
MASK = 0xFFFFFFFF


def model_f(state: int, x: int) -> int:
    """The pingpong callee's state machine (pingpong_callee.v, and c/callee.c's f)."""
    return ((((state << 5) | (state >> 27)) & MASK) ^ (x & MASK)) + GOLDEN & MASK


def state_before(result: int, x: int) -> int:
    """The state before a call f(x) that returned ``result`` (f is invertible)."""
    rot = ((result - GOLDEN) & MASK) ^ (x & MASK)
    return ((rot >> 5) | (rot << 27)) & MASK


#: Seconds a call on the simulated board may take before it is a failure: the core first
#: runs its program's start-up (thousands of simulated cycles), and a simulated PicoRV32 on a
#: loaded host makes a few thousand cycles a second
T = 600.0


def _on_overlay(ol: Any, calls: int) -> tuple[dict[str, Any], list[str]]:
    """The three rows on a loaded overlay (the simulated board), every result checked
    against the model; the first calls learn each state machine's state, so the checks
    hold whatever ran on this overlay before."""
    problems: list[str] = []
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    cycle = (lambda: int(bridge.info()["cycle"])) if bridge is not None and hasattr(bridge, "info") else None

    def check(what: str, got: int, want: int) -> None:
        if got & MASK != want and len(problems) < 5:
            problems.append(f"{what} = {got & MASK:#010x}, the model says {want:#010x}")

    # python -> riscv
    r = ol.callee.f(1, timeout=T) & MASK
    cstate = model_f(state_before(r, 1), 1)
    x, spent = 5, 0
    for _ in range(calls):
        c0 = cycle() if cycle else 0
        got = ol.callee.f(x, timeout=T)
        spent += (cycle() - c0) if cycle else 0
        cstate = model_f(cstate, x)
        check(f"callee.f({x})", got, cstate)
        x = got
    # rtl -> riscv: the Verilog caller's chained calls of callee.f, the first with x = n
    cycles = int(ol.caller.run(calls, timeout=T)) & MASK
    x = calls
    for _ in range(calls):
        cstate = model_f(cstate, x)
        x = cstate
    cstate = model_f(cstate, 7)
    check("callee.f(7) after caller.run", ol.callee.f(7, timeout=T), cstate)
    rtl_to_riscv = cycles / calls
    # riscv -> rtl: chained calls of hw.f from C (the first with x = 3), timed by the core
    r = ol.hw.f(1, timeout=T) & MASK
    hstate = model_f(state_before(r, 1), 1)
    cycles = int(ol.callee.bench(calls, timeout=T)) & MASK
    if cycles == MASK:
        problems.append("a call of hw.f from the core failed (callee.bench returned 0xFFFFFFFF)")
    x = 3
    for _ in range(calls):
        hstate = model_f(hstate, x)
        x = hstate
    check("callee.last()", ol.callee.last(timeout=T), hstate)
    return ({"riscv_to_rtl": cycles / calls, "rtl_to_riscv": rtl_to_riscv,
             "python_to_riscv": spent / calls if cycle else None, "calls": calls}, problems)


def main(ol: Any = None, outdir: str = "build/riscv_pingpong", calls: int = 40,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure and print the rows: on the loaded overlay ``ol`` (the simulated board), or
    with ``ol`` None in cocotb (builds and simulates into ``outdir``)."""
    from pushpush.bench.paper import TABLE_II
    from pushpush.bench.experiments.calls.riscv_rows import run_riscv_rows

    problems: list[str] = []
    if ol is None:
        r = run_riscv_rows(Path(outdir) / "cocotb", calls=calls)
        where = "cocotb (Icarus)"
    else:
        r, problems = _on_overlay(ol, calls)
        where = "the simulated board"
    out(f"riscv_pingpong on {where}, {calls} calls per row, {CLOCK_MHZ:g} MHz")
    out(f"{'caller -> callee':<18} {'cycles/call':>12} {'MCalls/s @100 MHz':>18}   paper (Table II)")
    rows = []
    for key, caller, callee, pc, ps in ROWS:
        cpc = r[key]
        exact = caller != "python"
        if cpc is None:
            continue
        rate = f"{CLOCK_MHZ / cpc:.3f}" if exact else ("- (bus only)" if ol is None else "- (simulation pace)")
        paper = TABLE_II[pc][ps]
        out(f"{caller + ' -> ' + callee:<18} {cpc:>12.2f} {rate:>18}   {pc} -> {ps} {paper:.2f} "
            f"({CLOCK_MHZ / paper:.0f} cycles)")
        rows.append({"caller": caller, "callee": callee, "cycles_per_call": cpc,
                     "mcalls": round(CLOCK_MHZ / cpc, 3) if exact else None, "paper_mcalls": paper})
    if "programs" in r:
        prog = r["programs"]["callee"]
        out(f"program: {prog['used_bytes']} of {prog['memory_bytes']} bytes of the core's memory")
    for p in problems:
        out(f"PROBLEM: {p}")
    return {"ok": not problems, "rows": rows, "problems": problems}
