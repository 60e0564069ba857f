"""The window guard's rows of ``pushpush bench calls``: the exact simulated cycles of calls
whose writes cross the guard (``firewall:``: a call the guard allows takes no extra cycle).

``python -> rtl`` (the rtl callee's return crosses it into the caller's rep slot) and ``rtl
-> python`` (the rtl caller's call crosses it into the callee's static slot), with the
cocotb ARM model (:mod:`pushpush.sim.ps`), once without ``firewall:`` and once with it: the
same chain of calls, the cycles per call compared. The cocotb ARM's polls and writes take
simulated cycles and its computation none, so the cycles are the bus's, exact and
repeatable::

    from pushpush.bench.experiments.calls.window_rows import window_rows, window_target
    rows = window_rows(Path("out"), calls=20)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from pushpush.bench.report import md_table

__all__ = ["window_rows", "window_target", "window_rows_markdown"]

_MODES = (("py2rtl", "python", "rtl"), ("rtl2py", "rtl", "python"))


def window_rows(work: Path, calls: int = 40, simulator: str = "icarus", jobs: Optional[int] = None,
                log: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """One row per (mode, firewall): ``sim_cycles_per_call`` of ``calls`` chained calls."""
    from pushpush.bench.sweep import run_points, simulate_chain

    xbar = {"topology": "crossbar", "arbitration": "round_robin"}
    pts = [{"work": str(work / f"window_{mode}_fw{int(fw)}"), "label": f"calls {mode} window guard {'on' if fw else 'off'}",
            "pairs": 1, "nargs": 1, "delay": 0, "mode": mode, "calls": calls, "interconnect": xbar,
            "simulator": simulator, "firewall": fw} for mode, _, _ in _MODES for fw in (False, True)]
    log(f"calls: {len(pts)} simulations across the window guard (off and on)")
    rows = []
    for s in run_points(simulate_chain, pts, jobs, log):
        caller, callee = next((a, b) for m, a, b in _MODES if m == s["mode"])
        rows.append({"caller": caller, "callee": callee, "firewall": bool(s["firewall"]),
                     "calls": s["calls"], "sim_cycles_per_call": s["cpc"][0]})
    rows.sort(key=lambda r: (r["caller"], r["firewall"]))
    return rows


def window_target(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The target: every row's cycles the same with the window guard as without."""
    by = {(r["caller"], r["callee"], r["firewall"]): r["sim_cycles_per_call"] for r in rows}
    pairs = sorted({(a, b) for a, b, _ in by})
    same = all(by[(a, b, False)] == by[(a, b, True)] for a, b in pairs)
    return {"target": "a call whose writes the window guard allows takes no extra cycle",
            "ours": ("the same cycles" if same else
                     "; ".join(f"{a} -> {b}: off {by[(a, b, False)]}, on {by[(a, b, True)]}" for a, b in pairs)),
            "met": same, "note": "cores/mem_firewall with the link's constant table on m_axi: "
                                 "the check is combinational on AW"}


def window_rows_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "Calls across the window guard (`firewall:`: the PL's writes into the software windows "
        "checked against the link's table), the cocotb ARM model, simulated cycles per call "
        "(the bus's: exact), without and with it:",
        "",
        md_table(("caller", "callee", "window guard", "calls", "simulated cycles/call"),
                 [(r["caller"], r["callee"], "on" if r["firewall"] else "off", r["calls"],
                   f"{r['sim_cycles_per_call']:g}") for r in rows]),
    ])
