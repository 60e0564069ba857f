"""``pushpush bench calls``: the PushPush paper's Table II (and Table III) in simulation.

``int f(int)`` in a dependency chain (each argument the previous result) with a stateful
callee (:mod:`pushpush.bench.pairs_system`), one caller/callee pair on the 32-bit crossbar, for every
caller/callee kind pair that exists:

- **rtl -> rtl**, the callee answering k = 0, 4 and 8 cycles after the call, so the
  protocol's own cycles (cycles per call - k; the caller issues the next call in the cycle a
  result arrives) are separated from the callee's, as the paper separates its 14 protocol
  cycles from 8 component cycles; also on the shared interconnect for k = 0;
- **python -> rtl**, **rtl -> python**, **python -> python**: Python on the simulated ARM (the
  cocotb PS model, :mod:`pushpush.sim.ps`); its polls and writes take simulated cycles but
  its computation takes none, so these cycles are NOT a Cortex-A9's;
- **riscv -> rtl**, **rtl -> riscv**, **python -> riscv**: examples/riscv_pingpong, C on the
  soft RISC-V core (:mod:`pushpush.bench.experiments.calls.riscv_rows`; docs/riscv.md): the core's software time
  IS simulated cycles, so riscv <-> rtl rows are exact and have MCalls/s (beside the paper's
  MicroBlaze rows); **riscv -> riscv** (exact) and **riscv -> python** (bus only) from a
  second system of two cores (``pushpush/bench/experiments/calls/riscv_pairs``);
- **c -> rtl**, **rtl -> c**, **python -> c**, **c -> python**, **c -> c**:
  ``examples/pingpong/c`` on the simulated board (:mod:`pushpush.bench.experiments.calls.c_rows`): the C process
  runs on this host while the simulator waits or runs, so again not an ARM's time; c -> python
  and c -> c are wall clock only.

Cycles per call are exact simulated cycle counts; MCalls/s = 100 MHz / cycles per call, for
rows with hardware on both ends only. A row with software in it has **no** MCalls/s: a
simulated board's software takes no Cortex-A9 time, so 100 MHz / its cycles would compare the
bus alone with the paper's measured ARM. Its simulated cycles stand in their own column,
``sim_cycles_per_call``, named by what they measure (``sim_cycles_meaning``), and the reason
for the dash is in ``mcalls_reason``. Beside them, an **estimate** for a PYNQ-Z1's Cortex-A9 at
650 MHz (:mod:`pushpush.bench.a9.model`: the C runtime's call path counted on an emulated
Cortex-A9, published latencies of its PS-PL accesses, the row's bus cycles): ``a9_mcalls``
with ``a9_mcalls_low``/``a9_mcalls_high``, or ``a9_reason`` (rows with Python in them); the
counts and the model are in the result's ``a9`` and in the markdown's "Model" section.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

from pushpush.bench import paper
from pushpush.bench.a9 import model as a9model
from pushpush.bench.experiments.calls.buffer_rows import buffer_rows, buffer_rows_markdown, firewall_target
from pushpush.bench.experiments.calls.window_rows import window_rows, window_rows_markdown, window_target
from pushpush.bench.report import md_table, meta, pyplot, save_figure
from pushpush.bench.sweep import CLOCK_MHZ, run_points, simulate_chain

__all__ = ["run_calls", "TARGET_HW_CYCLES"]

#: ours: rtl -> rtl int f(int) through the 32-bit crossbar, at most this many cycles per call
TARGET_HW_CYCLES = 6.0

#: why a row with software in it has no MCalls/s (shown as the row's note and in Table III)
NO_ARM_MCALLS = ("no MCalls/s: software on the simulated board takes no Cortex-A9 time, so "
                 "100 MHz / its simulated cycles would not be comparable with the paper's "
                 "measured ARM")
#: what the simulated cycles of each kind of software row measure
SIM_CYCLES_BUS_ONLY = ("bus only: the cocotb ARM model's reads and writes take simulated "
                       "cycles, its computation none")
SIM_CYCLES_HOST = ("host-dependent: the simulator runs on while the C process computes on "
                   "this host, so the count depends on the host's speed")


def _points(work: Path, calls: int, smoke: bool, simulator: str) -> list[dict[str, Any]]:
    xbar = {"topology": "crossbar", "arbitration": "round_robin"}
    shared = {"topology": "shared", "arbitration": "round_robin"}
    specs: list[tuple[str, int, dict[str, str]]] = [("rtl", 0, xbar), ("rtl", 4, xbar)]
    if not smoke:
        specs.append(("rtl", 8, xbar))
    if not smoke:
        specs.append(("rtl", 0, shared))
    specs += [("py2rtl", 0, xbar), ("rtl2py", 0, xbar), ("py2py", 0, xbar)]
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
          ("python", "c"): ("ARM", "ARM"), ("c", "python"): ("ARM", "ARM"), ("c", "c"): ("ARM", "ARM"),
          # C on the soft RISC-V core (kind: riscv) stands where the paper's MicroBlaze does
          ("riscv", "rtl"): ("MBlaze", "VHLS"), ("rtl", "riscv"): ("VHLS", "MBlaze"),
          ("python", "riscv"): ("ARM", "MBlaze"), ("riscv", "riscv"): ("MBlaze", "MBlaze"),
          ("riscv", "python"): ("MBlaze", "ARM"),
          # a Vitis HLS function (kind: hls) is the paper's VHLS participant
          ("rtl", "hls"): ("VHLS", "VHLS"), ("python", "hls"): ("ARM", "VHLS")}
#: the riscv rows (pushpush.bench.experiments.calls.riscv_rows): (its key, caller, callee)
_RISCV = (("riscv_to_rtl", "riscv", "rtl"), ("rtl_to_riscv", "rtl", "riscv"),
          ("python_to_riscv", "python", "riscv"), ("riscv_to_riscv", "riscv", "riscv"),
          ("riscv_to_python", "riscv", "python"))
#: the soft cores the riscv rows run on (cores/riscv's CPU; the first is the default)
RISCV_CORES = (("picorv32", "PicoRV32"), ("vexriscv", "VexRiscv"))
RISCV_NOTE = ("C on the soft core ({core}, cores/riscv) in the simulated PL: its software "
              "time is simulated cycles, exact")
#: issue 45 item 4: within 2x of the paper's MicroBlaze (Table II: 47, 57 and 88 cycles)
RISCV_TARGETS = {("riscv", "rtl"): 94, ("rtl", "riscv"): 114, ("riscv", "riscv"): 176}


def run_calls(out: Path, smoke: bool = False, jobs: Optional[int] = None, simulator: str = "icarus",
              c_rows: bool = True, log: Callable[[str], None] = print,
              riscv_rows: bool = True, hls_rows: bool = True) -> dict[str, Any]:
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
        hw = s["mode"] == "rtl"
        rows.append({"caller": caller, "callee": callee, "k": k,
                     "topology": s["interconnect"]["topology"], "calls": s["calls"],
                     "cycles_per_call": cpc if hw else None,
                     "mcalls": round(CLOCK_MHZ / cpc, 3) if hw else None,
                     "sim_cycles_per_call": None if hw else cpc,
                     "sim_cycles_meaning": None if hw else SIM_CYCLES_BUS_ONLY,
                     "mcalls_reason": None if hw else NO_ARM_MCALLS,
                     "protocol_cycles": round(cpc - k, 2) if hw else None,
                     "note": "" if hw else "Python: the cocotb ARM model (pushpush.sim.ps)",
                     "paper_mcalls": paper.TABLE_II[_PAPER[(caller, callee)][0]][_PAPER[(caller, callee)][1]]})
    c_result: Optional[dict[str, Any]] = None
    if c_rows:
        from pushpush.bench.experiments.calls.c_rows import run_c_rows
        try:
            c_result = run_c_rows(work / "c", c_calls=30 if smoke else 100,
                                  hw_n=(5, 20) if smoke else (10, 60),
                                  py_calls=20 if smoke else 50, cc_calls=2000 if smoke else 20000,
                                  cpy_calls=20 if smoke else 50,
                                  log=log)
        except RuntimeError as exc:
            c_result = {"ok": False, "rows": [], "problems": [str(exc)]}
        for r in c_result["rows"]:
            cpc = r["cycles_per_call"]
            pair = (r["caller"], r["callee"])
            note = ("C on this host, attached to the simulated board" if cpc else
                    "two C processes on this host, wall clock" if pair == ("c", "c") else
                    "C and Python on this host through the simulated board's memory, wall clock")
            if pair == ("python", "c"):
                # Python and the C process talk through the board's memory: the simulated
                # clock hardly runs meanwhile, so its cycles say nothing; wall clock only
                note = (f"Python and C on this host through the simulated board's memory, wall "
                        f"clock ({cpc:.1f} simulated cycles/call passed meanwhile)")
                cpc = None
            rows.append({"caller": r["caller"], "callee": r["callee"], "k": 0, "topology": "crossbar",
                         "calls": None, "cycles_per_call": None, "mcalls": None,
                         "sim_cycles_per_call": round(cpc, 2) if cpc else None,
                         "sim_cycles_meaning": SIM_CYCLES_HOST if cpc else None,
                         "mcalls_reason": NO_ARM_MCALLS,
                         "protocol_cycles": None,
                         "wall_calls_per_s": round(r["wall_calls_per_s"]) if r.get("wall_calls_per_s") else None,
                         "note": note,
                         "paper_mcalls": paper.TABLE_II[_PAPER[pair][0]][_PAPER[pair][1]]})
    riscv_result: Optional[dict[str, Any]] = None
    if riscv_rows:
        from pushpush.errors import PushPushError

        from pushpush.bench.experiments.calls.riscv_rows import run_riscv_pair_rows, run_riscv_rows
        for cpu, core in RISCV_CORES:
            n = 8 if smoke else 40
            try:
                res = {"ok": True, **run_riscv_rows(work / "riscv" / cpu, calls=n, simulator="icarus", cpu=cpu)}
                pair = run_riscv_pair_rows(work / "riscv_pairs" / cpu, calls=n, simulator="icarus", cpu=cpu)
                res.update(riscv_to_riscv=pair["riscv_to_riscv"], riscv_to_python=pair["riscv_to_python"],
                           pair_programs=pair["programs"])
            except (RuntimeError, AssertionError, PushPushError) as exc:
                res = {"ok": False, "problems": [str(exc)]}
            if riscv_result is None:
                riscv_result = res   # the default core's, as before; the others under their name
            else:
                riscv_result[cpu] = res
            note = RISCV_NOTE.format(core=core)
            for key, caller, callee in _RISCV if res["ok"] else ():
                cpc = round(res[key], 2)
                exact = "python" not in (caller, callee)
                rows.append({"caller": caller, "callee": callee, "k": 0, "topology": "crossbar",
                             "calls": res["calls"], "core": cpu,
                             "cycles_per_call": cpc if exact else None,
                             "mcalls": round(CLOCK_MHZ / cpc, 3) if exact else None,
                             "sim_cycles_per_call": None if exact else cpc,
                             "sim_cycles_meaning": None if exact else SIM_CYCLES_BUS_ONLY,
                             "mcalls_reason": None if exact else NO_ARM_MCALLS,
                             "protocol_cycles": None,
                             "note": note if exact else "Python: the cocotb ARM model; " + note,
                             "paper_mcalls": paper.TABLE_II[_PAPER[(caller, callee)][0]][_PAPER[(caller, callee)][1]]})
    hls_result = _hls_rows(rows, work / "hls", 8 if smoke else 40) if hls_rows else None
    a9 = _a9_estimates(rows, log)
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
    for (caller, callee), bar in RISCV_TARGETS.items():
        soft = [r for r in rows if (r["caller"], r["callee"]) == (caller, callee) and r.get("core")]
        if soft:
            best = min(soft, key=lambda r: r["cycles_per_call"])
            targets.append({
                "target": f"{caller} -> {callee} <= {bar} cycles/call (2x the paper's MicroBlaze)",
                "ours": ", ".join(f"{r['core']} {r['cycles_per_call']:g}" for r in soft),
                "met": best["cycles_per_call"] <= bar,
                "note": "exact simulated cycles, examples/riscv_pingpong and riscv_pairs (docs/riscv.md)"})
    buffers = buffer_rows(work, 256 if smoke else 1024, simulator, log)
    targets.append(firewall_target(buffers))
    window = window_rows(work, 10 if smoke else 40, simulator, jobs, log)
    targets.append(window_target(window))
    plots = _plot(rows, out)
    md = (_markdown(rows, c_result, riscv_result, a9) + _hls_markdown(hls_result) + "\n\n"
          + buffer_rows_markdown(buffers) + "\n\n" + window_rows_markdown(window))
    return {"experiment": "calls", "title": "calls: int f(int) between component kinds (Table II, III)",
            "meta": meta(simulator, jobs), "smoke": smoke, "rows": rows, "c": c_result,
            "riscv": riscv_result, "hls": hls_result, "buffers": buffers, "window_guard": window,
            "a9": {k: v for k, v in a9.items() if k != "model_md"},
            "targets": targets, "markdown": md, "plots": plots,
            "wall_s": round(time.monotonic() - t0, 1)}


def _hls_rows(rows: list[dict[str, Any]], work: Path, calls: int) -> dict[str, Any]:
    """Append the hls rows (examples/hls_pingpong: rtl -> hls exact, python -> hls bus only)."""
    from pushpush.errors import PushPushError

    from pushpush.bench.experiments.calls.hls_rows import HLS_NOTE, HLS_ROWS, run_hls_rows
    try:
        result = {"ok": True, **run_hls_rows(work, calls=calls, simulator="icarus")}
    except (RuntimeError, AssertionError, PushPushError) as exc:
        return {"ok": False, "problems": [str(exc)]}
    result["participant"] = _participant_rows(work / "participant", max(8, calls // 2))
    for key, caller, callee in HLS_ROWS:
        cpc = round(result[key], 2)
        exact = caller != "python"
        rows.append({"caller": caller, "callee": callee, "k": 0, "topology": "crossbar",
                     "calls": calls, "cycles_per_call": cpc if exact else None,
                     "mcalls": round(CLOCK_MHZ / cpc, 3) if exact else None,
                     "sim_cycles_per_call": None if exact else cpc,
                     "sim_cycles_meaning": None if exact else SIM_CYCLES_BUS_ONLY,
                     "mcalls_reason": None if exact else NO_ARM_MCALLS, "protocol_cycles": None,
                     "note": HLS_NOTE if exact else "Python: the cocotb ARM model; " + HLS_NOTE,
                     "paper_mcalls": paper.TABLE_II[_PAPER[(caller, callee)][0]][_PAPER[(caller, callee)][1]]})
    return result


def _participant_rows(work: Path, calls: int) -> dict[str, Any]:
    """The full HLS participant's rows (examples/hls_callback as C simulation: wall clock)."""
    from pushpush.errors import PushPushError

    from pushpush.bench.experiments.calls.hls_participant_rows import run_participant_rows, run_pl_rows
    try:
        return {"ok": True, **run_participant_rows(work, calls=calls, simulator="icarus"),
                "pl": run_pl_rows(work, calls=calls, simulator="icarus")}
    except (RuntimeError, AssertionError, PushPushError, OSError) as exc:
        return {"ok": False, "problems": [str(exc)]}


def _participant_markdown(p: Optional[dict[str, Any]]) -> str:
    if p is None:
        return ""
    if not p.get("ok", False):
        return "\n\nhls participant rows: **failed**: " + "; ".join(p.get("problems", []))
    vhls = paper.TABLE_II["VHLS"]
    pl = p["pl"]["rtl_to_hls_cycles"]
    exact = md_table(("caller -> callee", "cycles/call (exact, simulated PL)", "MCalls/s @100 MHz",
                      "what it includes", "paper MCalls/s (VHLS)"),
                     [("rtl -> hls", f"{pl:g}", f"{CLOCK_MHZ / pl:.2f}",
                       "one of driver.run's chained calls of apply with its hls -> rtl callback of "
                       "driver.g: two calls and two returns, the protocol and the generated placement "
                       "exact, the IP the example's hand-written model (its schedule, not Vitis's)",
                       f"VHLS -> VHLS {vhls['VHLS']:.2f} ({CLOCK_MHZ / vhls['VHLS']:.0f} cycles, one call)")])
    table = md_table(("caller -> callee", "µs/call (host wall clock, C simulation)", "what it includes",
                      "paper MCalls/s (VHLS)"),
                     [("python -> hls", p["python_to_hls_us"], "Python's call of apply, its hls -> python "
                       "callback included", f"ARM -> VHLS {paper.TABLE_II['ARM']['VHLS']:.2f}"),
                      ("rtl -> hls", p["rtl_to_hls_us"], f"one of driver.run's chained calls, its hls -> rtl "
                       f"callback included ({p['rtl_to_hls_pl_cycles']:g} simulated PL cycles per call, which "
                       f"run only while the host answers: not the function's cycles)",
                       f"VHLS -> VHLS {vhls['VHLS']:.2f}"),
                      ("hls -> rtl", p["hls_to_rtl_us"], "the HLS C++'s call of driver.g, burst to reply, "
                       "as the C simulation timed it", f"VHLS -> VHLS {vhls['VHLS']:.2f}"),
                      ("hls -> python", p["hls_to_python_us"], "the same into Python's lent function",
                       f"VHLS -> ARM {vhls['ARM']:.2f}")])
    return ("\n\nhls participant rows: examples/hls_callback (docs/hls.md, \"The full HLS "
            "participant\"), apply(f, x) = f(x) + 1 as HLS C++ around the generated worker_pp.hpp, "
            "run as C simulation on the simulated board (g++; no Vitis HLS, so no RTL of the "
            f"function): the host's wall clock, not cycles, {p['calls']} calls each, load average "
            f"{p['loadavg']}. Only an RTL of the IP (Vitis HLS's) gives the paper's kind of figure.\n\n"
            + table + "\n\nThe same system with worker's IP in the PL (the example's `sources:`, a "
            "hand-written model of what Vitis HLS would export, placed by the generated "
            "`worker_hls_place`), exact simulated cycles (the slope between n and 2n chained calls):\n\n"
            + exact)


def _hls_markdown(hls_result: Optional[dict[str, Any]]) -> str:
    if hls_result is None:
        return ""
    if not hls_result.get("ok", False):
        return "\n\nhls rows: **failed**: " + "; ".join(hls_result.get("problems", []))
    return _participant_markdown(hls_result.get("participant")) + ("\n\nhls rows: examples/hls_pingpong (docs/hls.md), a Vitis HLS function under ap_ctrl_hs "
            "behind the generated adapter, beside the paper's VHLS rows. rtl -> hls is timed by the "
            "Verilog caller (exact: the protocol, the adapter, which adds no cycle, and the "
            "function's 2 cycles in the example's hand-written stand-in of Vitis HLS's Verilog; a "
            "Vitis HLS schedule of the same C++ may differ); python -> hls counts Python's bus "
            "cycles only (the cocotb ARM model). An ap_ctrl_hs function calls no one: hls -> rtl is "
            "the full participant's row (above, C simulation).")


def _a9_estimates(rows: list[dict[str, Any]], log: Callable[[str], None]) -> dict[str, Any]:
    """Count the C call path on an emulated Cortex-A9 and put the estimate (or the reason for
    none) into each software row: a9_mcalls, a9_mcalls_low, a9_mcalls_high, a9_cycles, or
    a9_reason. Returns the counts, the bus cycles used and the model's markdown."""
    from pushpush.bench.a9.count import A9CountError, count_call_path

    log("calls: the Cortex-A9 estimate (the C runtime's call path on an emulated Cortex-A9)")
    try:
        counts, problem = count_call_path(), None
    except A9CountError as exc:
        counts, problem = None, str(exc)
    bus: dict[tuple[str, str], Optional[float]] = {}
    for r in rows:
        key = (r["caller"], r["callee"])
        if (key in (("python", "rtl"), ("rtl", "python")) and r["k"] == 0 and r["topology"] == "crossbar"
                and r.get("sim_cycles_meaning") == SIM_CYCLES_BUS_ONLY):
            bus.setdefault(key, r["sim_cycles_per_call"])
    est = a9model.row_estimates(counts, bus, problem)
    for r in rows:
        e = est.get((r["caller"], r["callee"]))
        if e is None:
            continue  # hardware on both ends (rtl, riscv): no ARM in the call
        for k in ("mcalls", "mcalls_low", "mcalls_high", "cycles", "pl_cycles", "reason"):
            r["a9_" + k] = e.get(k)
    md = a9model.model_markdown(counts, est, paper.TABLE_II["ARM"]["VHLS"], paper.TABLE_II["VHLS"]["ARM"],
                                problem)
    return {"counts": counts, "problem": problem, "cpu_mhz": a9model.CPU_MHZ,
            "bus_pl_cycles": {f"{a} -> {b}": v for (a, b), v in bus.items()}, "model_md": md}


def _a9_cell(r: dict[str, Any]) -> Optional[str]:
    """The Cortex-A9 estimate's cell: MCalls/s (range), or a dash with the reason's note."""
    if r.get("a9_mcalls") is not None:
        return f"{r['a9_mcalls']:.2f} ({r['a9_mcalls_low']:.2f}-{r['a9_mcalls_high']:.2f}), est."
    if r.get("a9_reason"):
        return "- [b]" if "Python" in r["a9_reason"] else "- [c]"
    return None


def _sim_cell(r: dict[str, Any]) -> Optional[str]:
    """The software rows' simulated cycles, with a tag saying what they measure."""
    if r.get("sim_cycles_per_call") is None:
        return None
    tag = "bus only" if r.get("sim_cycles_meaning") == SIM_CYCLES_BUS_ONLY else "host-dependent"
    return f"{r['sim_cycles_per_call']:.2f} ({tag})"


def _rate_cell(r: dict[str, Any]) -> Any:
    if r["mcalls"] is not None:
        return r["mcalls"]
    if r.get("wall_calls_per_s"):
        return f"- ({r['wall_calls_per_s']:,} calls/s wall, this host)"
    return "- [a]"


def _markdown(rows: list[dict[str, Any]], c_result: Optional[dict[str, Any]],
              riscv_result: Optional[dict[str, Any]] = None, a9: Optional[dict[str, Any]] = None) -> str:
    lines = [
        "One caller/callee pair, `int f(int)` in a dependency chain, stateful callee; k = cycles "
        "the callee takes to answer; protocol = cycles per call - k. Paper: Table II, the "
        "nearest kind pair (VHLS for rtl, ARM for software), measured on a Zynq-7020 (ARM at "
        "800 MHz, logic at 100 MHz).",
        "",
        "Only rows with hardware on both ends have MCalls/s: their cycles are exact and are "
        "what a board's logic takes. A row with software in it has its simulated cycles in a "
        "column of their own, named by what they measure:",
        "",
        "- " + SIM_CYCLES_BUS_ONLY + ";",
        "- " + SIM_CYCLES_HOST + ".",
        "",
        "[a] " + NO_ARM_MCALLS + "; the column \"Cortex-A9 estimate\" gives a modelled figure "
        "instead (see \"Cortex-A9 estimate: the model\" below).",
        "",
        "[b] " + a9model.PYTHON_REASON + ".",
        "",
        *(["[c] no A9 estimate: the call path was not counted (" + str(a9["problem"]) + ").", ""]
          if a9 is not None and a9.get("problem") else []),
        md_table(("caller -> callee", "k", "interconnect", "cycles/call (hardware, exact)",
                  "MCalls/s @100 MHz", "protocol cycles", "simulated cycles/call (software rows)",
                  "Cortex-A9 estimate MCalls/s @650 MHz (range; model)",
                  "paper MCalls/s (cycles)", "note"),
                 [(f"{r['caller']} -> {r['callee']}" + (f" ({r['core']})" if r.get("core") else ""), r["k"], r["topology"], r["cycles_per_call"],
                   _rate_cell(r), r["protocol_cycles"], _sim_cell(r), _a9_cell(r),
                   f"{r['paper_mcalls']:.2f} ({CLOCK_MHZ / r['paper_mcalls']:.0f})", r["note"])
                  for r in rows]),
        "",
        "The paper's Table II (MCalls/s, client rows, server columns):",
        "",
        md_table(("client \\ server", *paper.TABLE_II["ARM"].keys()),
                 [(c, *v.values()) for c, v in paper.TABLE_II.items()]),
        "",
        "Table III (MCalls/s) with ours (HW: rtl on the crossbar, k = 0; SW: Python on the "
        "simulated board, no MCalls/s [a], its simulated cycles in their column; the Cortex-A9 "
        "estimate is C's, c -> rtl and rtl -> c):",
        "",
    ]
    ours: dict[tuple[str, str], Optional[dict[str, Any]]] = {
        ("rtl", "rtl"): None, ("rtl", "python"): None, ("python", "rtl"): None}
    for r in rows:
        key = (r["caller"], r["callee"])
        if key in ours and ours[key] is None and r["k"] == 0 and r["topology"] == "crossbar":
            ours[key] = r
    c_rows = {(r["caller"], r["callee"]): r for r in rows if r["caller"] == "c" or r["callee"] == "c"}
    t3 = []
    for (d, (legup, conn, pp)), key, ckey in zip(paper.TABLE_III.items(),
                                                 [("rtl", "rtl"), ("rtl", "python"), ("python", "rtl")],
                                                 [None, ("rtl", "c"), ("c", "rtl")]):
        r = ours[key]
        cr = c_rows.get(ckey) if ckey else None
        t3.append((d, legup, conn, pp, None if r is None else _rate_cell(r),
                   None if r is None else (r["cycles_per_call"] if r["mcalls"] is not None
                                           else _sim_cell(r)),
                   None if cr is None else _a9_cell(cr)))
    lines.append(md_table(("", "LegUp", "Connectal", "PushPush (paper)", "pushpush (ours)",
                           "ours: cycles/call (simulated)", "ours: Cortex-A9 estimate (C), MCalls/s"), t3))
    if a9 is not None:
        lines += ["", a9["model_md"].rstrip()]
    if c_result is not None and not c_result.get("ok", False):
        lines += ["", "C rows: **failed**: " + "; ".join(c_result.get("problems", []))]
    if riscv_result is not None and not riscv_result.get("ok", False):
        lines += ["", "riscv rows: **failed**: " + "; ".join(riscv_result.get("problems", []))]
    elif riscv_result is not None:
        lines += ["", "riscv rows: examples/riscv_pingpong (docs/riscv.md), C on each soft core (PicoRV32, "
                      "VexRiscv: `cpu:` of the riscv component, in brackets) beside the "
                      "paper's MicroBlaze (MBlaze) rows; riscv -> rtl is timed by the core's cycle "
                      "counter, rtl -> riscv by the Verilog caller: both exact. riscv -> riscv and "
                      "riscv -> python: a second system of two cores (pushpush/bench/experiments/calls/riscv_pairs), timed "
                      "by the calling core's cycle counter; riscv -> riscv is exact, riscv -> python "
                      "includes Python's bus cycles only (the cocotb ARM model). c <-> riscv (C on the "
                      "ARM) is tested (tests/riscv/test_riscv_carm.py) but has no row: as for the other "
                      "C rows, its time on the simulated board depends on this host."]
    return "\n".join(lines)


def _plot(rows: list[dict[str, Any]], out: Path) -> list[str]:
    plt = pyplot()
    if plt is None:
        return []
    sel = [r for r in rows if r["topology"] == "crossbar" and
           (r["mcalls"] is not None or r.get("sim_cycles_per_call") is not None
            or r.get("a9_mcalls") is not None)]
    labels = [f"{r['caller']}->{r['callee']}" + (f" k={r['k']}" if r["k"] else "")
              + (f" ({r['core']})" if r.get("core") else "") for r in sel]
    fig, ax = plt.subplots(figsize=(9, 4))
    x = range(len(sel))
    ax.bar([i - 0.27 for i in x], [r["mcalls"] or 0 for r in sel], 0.27,
           label="pushpush (simulated, hardware rows only)")
    for i, r in zip(x, sel):
        if r["mcalls"] is None and r.get("a9_mcalls") is None:
            ax.text(i - 0.27, 0.1, "no ARM\ntime", ha="center", va="bottom", fontsize=7, rotation=90)
    a9 = [r.get("a9_mcalls") or 0 for r in sel]
    ax.bar(list(x), a9, 0.27, yerr=[[max(0.0, v - (r.get("a9_mcalls_low") or v)) for v, r in zip(a9, sel)],
                                    [max(0.0, (r.get("a9_mcalls_high") or v) - v) for v, r in zip(a9, sel)]],
           label="pushpush, Cortex-A9 @650 MHz estimate (model, C rows)")
    ax.bar([i + 0.27 for i in x], [r["paper_mcalls"] for r in sel], 0.27,
           label="paper Table II (nearest kinds, Zynq)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel("MCalls/s (hardware rows at 100 MHz; A9 estimate at 650 MHz)")
    ax.set_title("int f(int) in a dependency chain (software rows: A9 estimate or none, see calls.md)")
    ax.legend()
    save_figure(fig, out / "calls.png")
    return ["calls.png"]
