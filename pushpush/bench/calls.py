"""``pushpush bench calls``: the PushPush paper's Table II (and Table III) in simulation.

``int f(int)`` in a dependency chain (each argument the previous result) with a stateful
callee (:mod:`pushpush.bench.gen`), one caller/callee pair on the 32-bit crossbar, for every
caller/callee kind pair that exists:

- **rtl -> rtl**, the callee answering k = 0, 4 and 8 cycles after the call, so the
  protocol's own cycles (cycles per call - k; the caller issues the next call in the cycle a
  result arrives) are separated from the callee's, as the paper separates its 14 protocol
  cycles from 8 component cycles; also on the shared interconnect for k = 0;
- **python -> rtl**, **rtl -> python**, **python -> python**: Python on the simulated ARM (the
  cocotb PS model, :mod:`pushpush.sim.ps`); its polls and writes take simulated cycles but
  its computation takes none, so these cycles are NOT a Cortex-A9's;
- **c -> rtl**, **rtl -> c**, **python -> c**, **c -> c**: ``examples/pingpong/c`` on the
  simulated board (:mod:`pushpush.bench.c_rows`): the C process runs on this host while the
  simulator waits or runs, so again not an ARM's time; c -> c is wall clock only.

Cycles per call are exact simulated cycle counts; MCalls/s = 100 MHz / cycles per call.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

from . import paper
from .report import md_table, meta, pyplot
from .sweep import CLOCK_MHZ, run_points, simulate_chain

__all__ = ["run_calls", "TARGET_HW_CYCLES"]

#: ours: rtl -> rtl int f(int) through the 32-bit crossbar, at most this many cycles per call
TARGET_HW_CYCLES = 6.0

_SW_NOTE = "simulated board: software time is the simulation's, not a Cortex-A9's"


def _points(work: Path, calls: int, smoke: bool, simulator: str) -> list[dict[str, Any]]:
    xbar = {"topology": "crossbar", "arbitration": "round_robin"}
    shared = {"topology": "shared", "arbitration": "round_robin"}
    specs: list[tuple[str, int, dict[str, str]]] = [("rtl", 0, xbar), ("rtl", 4, xbar)]
    if not smoke:
        specs.append(("rtl", 8, xbar))
    if not smoke:
        specs.append(("rtl", 0, shared))
    specs += [("py2rtl", 0, xbar), ("rtl2py", 0, xbar)] + ([] if smoke else [("py2py", 0, xbar)])
    pts = []
    for mode, k, ic in specs:
        n = calls if mode == "rtl" else max(10, calls // 4)
        pts.append({"work": str(work / f"{mode}_k{k}_{ic['topology']}"),
                    "label": f"calls {mode} k={k} {ic['topology']}", "pairs": 1, "nargs": 1,
                    "delay": k, "mode": mode, "calls": n, "interconnect": ic,
                    "simulator": simulator})
    return pts


_KINDS = {"rtl": ("rtl", "rtl"), "py2rtl": ("python", "rtl"), "rtl2py": ("rtl", "python"),
          "py2py": ("python", "python")}
#: the paper's nearest row for each of ours: (client, server) in Table II
_PAPER = {("rtl", "rtl"): ("VHLS", "VHLS"), ("python", "rtl"): ("ARM", "VHLS"),
          ("rtl", "python"): ("VHLS", "ARM"), ("python", "python"): ("ARM", "ARM"),
          ("c", "rtl"): ("ARM", "VHLS"), ("rtl", "c"): ("VHLS", "ARM"),
          ("python", "c"): ("ARM", "ARM"), ("c", "c"): ("ARM", "ARM")}


def run_calls(out: Path, smoke: bool = False, jobs: Optional[int] = None, simulator: str = "icarus",
              c_rows: bool = True, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the experiment; returns the common result dict (see :mod:`pushpush.bench.report`)."""
    t0 = time.monotonic()
    calls = 40 if smoke else 200
    work = out / "work" / "calls"
    log(f"calls: {'smoke' if smoke else 'full'} run, {calls} calls per rtl point")
    sims = run_points(simulate_chain, _points(work, calls, smoke, simulator), jobs, log)
    rows: list[dict[str, Any]] = []
    for s in sims:
        caller, callee = _KINDS[s["mode"]]
        cpc = s["cpc"][0]
        k = s["delay"]
        rows.append({"caller": caller, "callee": callee, "k": k,
                     "topology": s["interconnect"]["topology"], "calls": s["calls"],
                     "cycles_per_call": cpc, "mcalls": round(CLOCK_MHZ / cpc, 3),
                     "protocol_cycles": round(cpc - k, 2) if s["mode"] == "rtl" else None,
                     "note": "" if s["mode"] == "rtl" else _SW_NOTE,
                     "paper_mcalls": paper.TABLE_II[_PAPER[(caller, callee)][0]][_PAPER[(caller, callee)][1]]})
    c_result: Optional[dict[str, Any]] = None
    if c_rows:
        from .c_rows import run_c_rows
        try:
            c_result = run_c_rows(work / "c", c_calls=30 if smoke else 100,
                                  hw_n=(5, 20) if smoke else (10, 60),
                                  py_calls=20 if smoke else 50, cc_calls=2000 if smoke else 20000,
                                  log=log)
        except RuntimeError as exc:
            c_result = {"ok": False, "rows": [], "problems": [str(exc)]}
        for r in c_result["rows"]:
            cpc = r["cycles_per_call"]
            pair = (r["caller"], r["callee"])
            note = _SW_NOTE if cpc else "two C processes on this host, wall clock"
            if pair == ("python", "c"):
                # Python and the C process talk through the board's memory: the simulated
                # clock hardly runs meanwhile, so its cycles say nothing; wall clock only
                note = (f"Python and C on this host through the simulated board's memory, wall "
                        f"clock ({cpc:.1f} simulated cycles/call passed meanwhile)")
                cpc = None
            rows.append({"caller": r["caller"], "callee": r["callee"], "k": 0, "topology": "crossbar",
                         "calls": None, "cycles_per_call": round(cpc, 2) if cpc else None,
                         "mcalls": round(CLOCK_MHZ / cpc, 3) if cpc else None,
                         "protocol_cycles": None,
                         "wall_calls_per_s": round(r["wall_calls_per_s"]) if r.get("wall_calls_per_s") else None,
                         "note": note,
                         "paper_mcalls": paper.TABLE_II[_PAPER[pair][0]][_PAPER[pair][1]]})
    hw = [r for r in rows if r["caller"] == "rtl" and r["callee"] == "rtl"]
    hw0 = next(r for r in hw if r["k"] == 0 and r["topology"] == "crossbar")
    protocol = sorted({r["protocol_cycles"] for r in hw if r["topology"] == "crossbar"})
    targets = [{
        "target": f"rtl -> rtl int f(int) <= {TARGET_HW_CYCLES:g} cycles/call (crossbar)",
        "ours": f"{hw0['cycles_per_call']:g} cycles ({hw0['mcalls']:.2f} MCalls/s)",
        "met": hw0["cycles_per_call"] <= TARGET_HW_CYCLES,
        "note": (f"protocol {', '.join(f'{p:g}' for p in protocol)} cycles at k = "
                 f"{'/'.join(str(r['k']) for r in hw if r['topology'] == 'crossbar')} "
                 "(constant: the callee's k cycles add one for one); the paper: "
                 f"{paper.HW_HW_CYCLES} = {paper.HW_HW_PROTOCOL_CYCLES} protocol + "
                 f"{paper.HW_HW_COMPONENT_CYCLES} component"),
    }]
    plots = _plot(rows, out)
    md = _markdown(rows, c_result)
    return {"experiment": "calls", "title": "calls: int f(int) between component kinds (Table II, III)",
            "meta": meta(simulator, jobs), "smoke": smoke, "rows": rows, "c": c_result,
            "targets": targets, "markdown": md, "plots": plots,
            "wall_s": round(time.monotonic() - t0, 1)}


def _markdown(rows: list[dict[str, Any]], c_result: Optional[dict[str, Any]]) -> str:
    lines = [
        "One caller/callee pair, `int f(int)` in a dependency chain, stateful callee; k = cycles "
        "the callee takes to answer; protocol = cycles per call - k. Paper: Table II, the "
        "nearest kind pair (VHLS for rtl, ARM for software).",
        "",
        md_table(("caller -> callee", "k", "interconnect", "cycles/call", "MCalls/s",
                  "protocol cycles", "paper MCalls/s (cycles)", "note"),
                 [(f"{r['caller']} -> {r['callee']}", r["k"], r["topology"], r["cycles_per_call"],
                   r["mcalls"] if r["mcalls"] is not None else
                   (f"{r['wall_calls_per_s']:,} calls/s wall" if r.get("wall_calls_per_s") else None),
                   r["protocol_cycles"],
                   f"{r['paper_mcalls']:.2f} ({CLOCK_MHZ / r['paper_mcalls']:.0f})", r["note"])
                  for r in rows]),
        "",
        "The paper's Table II (MCalls/s, client rows, server columns):",
        "",
        md_table(("client \\ server", *paper.TABLE_II["ARM"].keys()),
                 [(c, *v.values()) for c, v in paper.TABLE_II.items()]),
        "",
        "Table III (MCalls/s) with ours (HW: rtl on the crossbar, k = 0; SW: Python on the "
        "simulated ARM, not an ARM's time):",
        "",
    ]
    ours = {("rtl", "rtl"): None, ("rtl", "python"): None, ("python", "rtl"): None}
    for r in rows:
        key = (r["caller"], r["callee"])
        if key in ours and ours[key] is None and r["k"] == 0 and r["topology"] == "crossbar":
            ours[key] = r["mcalls"]
    t3 = []
    for (d, (legup, conn, pp)), key in zip(paper.TABLE_III.items(),
                                           [("rtl", "rtl"), ("rtl", "python"), ("python", "rtl")]):
        t3.append((d, legup, conn, pp, ours[key]))
    lines.append(md_table(("", "LegUp", "Connectal", "PushPush (paper)", "pushpush (ours)"), t3))
    if c_result is not None and not c_result.get("ok", False):
        lines += ["", "C rows: **failed**: " + "; ".join(c_result.get("problems", []))]
    return "\n".join(lines)


def _plot(rows: list[dict[str, Any]], out: Path) -> list[str]:
    plt = pyplot()
    if plt is None:
        return []
    sel = [r for r in rows if r["cycles_per_call"] and r["topology"] == "crossbar"]
    labels = [f"{r['caller']}->{r['callee']}" + (f" k={r['k']}" if r["k"] else "") for r in sel]
    fig, ax = plt.subplots(figsize=(9, 4))
    x = range(len(sel))
    ax.bar([i - 0.2 for i in x], [r["mcalls"] for r in sel], 0.4, label="pushpush (simulated)")
    ax.bar([i + 0.2 for i in x], [r["paper_mcalls"] for r in sel], 0.4,
           label="paper Table II (nearest kinds, Zynq)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel("MCalls/s at 100 MHz")
    ax.set_title("int f(int) in a dependency chain (software rows: simulated ARM)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "calls.png", dpi=110)
    plt.close(fig)
    return ["calls.png"]
