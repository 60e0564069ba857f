"""A Cortex-A9 estimate for the software rows of ``pushpush bench calls`` (issue 32 item 1).

On the simulated board software takes no ARM time, so a row with software in it has only its
bus cycles. This module adds what a PYNQ-Z1's Cortex-A9 (650 MHz) would take, from a model::

    CPU cycles of a part of the path = instructions x CPI
                    + (PS-PL accesses, M_AXI_GP0) x their latency
                    + (uncached OCM and timer accesses) x their latency
    bus time = (bus cycles of the simulation) x 650 / 100

and the parts and the bus time combine per row as :func:`path_cycles` says (the caller's
work after its trigger write overlaps the PL's answer).

The instruction and access counts are counted (:mod:`pushpush.bench.a9.count`: the generated C
runtime of examples/pingpong/c run on an emulated Cortex-A9); CPI and latencies are the
published or assumed figures below, each with its source and a range; the bus cycles are
the simulated row's own (its "bus only" cycles). MCalls/s = 650 / CPU cycles per call; the
range takes every parameter at its low and at its high end together.

Rows and what they take:

- ``c -> rtl``: the caller's path per call + the bus cycles of ``python -> rtl`` (the same
  bus traffic: a call burst into the PL callee, its reply burst into the OCM);
- ``rtl -> c``: the callee's path per call + the bus cycles of ``rtl -> python``;
- ``c -> c``: both paths with both windows in the OCM (the C runtime's Linux layer stores
  straight into the OCM: no bus), so each side's GP0 writes are OCM writes;
- rows with Python in them: no estimate (:data:`PYTHON_REASON`).

Reproduce the counts and the estimate: ``python -m pushpush.bench.a9.model``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, Optional

__all__ = ["CPU_MHZ", "PL_MHZ", "Param", "CPI", "GP0_NS", "OCM_NS", "PYTHON_REASON", "PROTOCOL_ACCESSES",
           "estimate_cycles", "protocol_limit", "row_estimates", "model_markdown", "main"]

#: the PYNQ-Z1's ARM clock (Digilent, PYNQ-Z1 reference manual: "650 MHz dual-core Cortex-A9")
CPU_MHZ = 650.0
#: the PL's clock (the simulated cycles' clock)
PL_MHZ = 100.0
#: the paper's ARM clock (Fleming et al. §V: "The ARM CPUs were clocked at 800MHz")
PAPER_CPU_MHZ = 800.0


@dataclass(frozen=True)
class Param:
    """A model parameter: the value used, its range, its unit and where it comes from."""
    value: float
    low: float
    high: float
    unit: str
    source: str


#: cycles per instruction of the runtime's integer control code on the Cortex-A9
CPI = Param(1.0, 0.7, 1.5, "cycles/instruction",
            "assumed: the Cortex-A9 issues up to two instructions per cycle, out of order (ARM, "
            "Cortex-A9 Technical Reference Manual, DDI 0388, ch. 1); branchy load/store code like "
            "this runtime's runs near one per cycle. No measured CPI for this code")
#: one 32-bit access from the CPU to a PL slave through M_AXI_GP0, strongly-ordered (the CPU
#: waits for the response): the stores of a call's burst and of a reply into the PL
GP0_NS = Param(160.0, 100.0, 300.0, "ns",
               "Xilinx UG585 (Zynq-7000 TRM) Table 22-8: CPU programmed I/O through the M_AXI_GP "
               "ports < 25 MB/s, i.e. >= 160 ns per 32-bit access; range: single accesses measured "
               "from a Zynq UltraScale+'s CPUs to PL slaves, 96 ns (APU read, 333 MHz port; "
               "zenn.dev/ryuz88 'kv260_pl_ps_speed') to 304-314 ns (R5 read/write through an "
               "AXI interconnect; Xilinx forum 'Strategy for lowest latency to access AXI "
               "register')")
#: one uncached (strongly-ordered) access from the CPU to the OCM (the software windows) or
#: to the MPCore's global timer
OCM_NS = Param(60.0, 30.0, 100.0, "ns",
               "assumed from JBLopen 'Zynq-7000 Bare-Metal Benchmarks' (the OCM is clocked as the "
               "L2 cache and has a similar latency) plus the uncached path; about 39 CPU cycles "
               "at 650 MHz. No published figure for a strongly-ordered OCM access was found")

#: why rows with Python in them have no Cortex-A9 estimate
PYTHON_REASON = ("no A9 estimate: Python's call path is CPython's interpreter loop, not code "
                 "this project compiles, so it cannot be counted as the C runtime's is; scaling "
                 "this host's count would need CPython's ARM/x86 instruction ratio and its CPI "
                 "on a Cortex-A9, for which no source was found")


def _cycles(counts: dict[str, float], cpi: float, gp_ns: float, ocm_ns: float, bus_pl: float,
            cpu_mhz: float) -> float:
    ns_cycles = cpu_mhz / 1000.0
    return (counts["instructions"] * cpi
            + (counts["gp_reads"] + counts["gp_writes"]) * gp_ns * ns_cycles
            + (counts["ocm_reads"] + counts["ocm_writes"] + counts["timer_reads"]) * ocm_ns * ns_cycles
            + bus_pl * cpu_mhz / PL_MHZ)


def estimate_cycles(counts: dict[str, float], bus_pl: float, cpu_mhz: float = CPU_MHZ) -> dict[str, float]:
    """CPU cycles per call for a path's counts and the row's bus cycles (at PL_MHZ): central,
    low (every parameter at its low end) and high. ``{"cycles", "cycles_low", "cycles_high",
    "mcalls", "mcalls_low", "mcalls_high", "pl_cycles"}`` (pl_cycles: the central estimate in
    100 MHz cycles, to set beside the paper's)."""
    mid = _cycles(counts, CPI.value, GP0_NS.value, OCM_NS.value, bus_pl, cpu_mhz)
    lo = _cycles(counts, CPI.low, GP0_NS.low, OCM_NS.low, bus_pl, cpu_mhz)
    hi = _cycles(counts, CPI.high, GP0_NS.high, OCM_NS.high, bus_pl, cpu_mhz)
    return {"cycles": round(mid, 1), "cycles_low": round(lo, 1), "cycles_high": round(hi, 1),
            "mcalls": round(cpu_mhz / mid, 3), "mcalls_low": round(cpu_mhz / hi, 3),
            "mcalls_high": round(cpu_mhz / lo, 3), "pl_cycles": round(mid * PL_MHZ / cpu_mhz, 1)}


def _to_ocm(counts: dict[str, float]) -> dict[str, float]:
    """A path whose GP0 accesses go to the OCM instead (both ends on the ARM)."""
    c = dict(counts)
    c["ocm_reads"] += c["gp_reads"]
    c["ocm_writes"] += c["gp_writes"]
    c["gp_reads"] = c["gp_writes"] = 0
    return c


def _sum(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {k: a[k] + b[k] for k in a if isinstance(a[k], (int, float))}


_PARAMS = {"mid": (CPI.value, GP0_NS.value, OCM_NS.value), "low": (CPI.low, GP0_NS.low, OCM_NS.low),
           "high": (CPI.high, GP0_NS.high, OCM_NS.high)}


def path_cycles(kind: str, counts: dict[str, Any], bus_pl: float, cpi: float, gp_ns: float, ocm_ns: float,
                cpu_mhz: float = CPU_MHZ) -> float:
    """CPU cycles per call of row kind ``c_rtl``, ``rtl_c`` or ``c_c`` from the counted paths
    (:func:`pushpush.bench.a9.count.count_call_path`):

    - c_rtl: the caller's cycles up to its trigger write and after its first status read, plus
      the longer of its work between them and the PL's answer (the bus cycles, then half a
      wait round until the caller looks again);
    - rtl_c: the serve round that takes the call, half an empty sweep before it (the call
      lands half-way through one, on average) and the bus cycles;
    - c_c: c_rtl with the callee's serve time (its GP0 writes made OCM writes) for the bus's.
    """
    def cy(c: dict[str, float]) -> float:
        return _cycles(c, cpi, gp_ns, ocm_ns, 0.0, cpu_mhz)
    caller, callee = counts["caller"], counts["callee"]
    bus = bus_pl * cpu_mhz / PL_MHZ
    if kind == "rtl_c":
        return cy(callee["take_call"]) + cy(callee["empty_sweep"]) / 2 + bus
    if kind == "c_c":
        bus = cy(_to_ocm(callee["take_call"])) + cy(_to_ocm(callee["empty_sweep"])) / 2
        caller = {k: _to_ocm(v) if isinstance(v, dict) and "gp_writes" in v else v for k, v in caller.items()}
    elif kind != "c_rtl":
        raise ValueError(f"unknown row kind {kind!r} (c_rtl, rtl_c, c_c)")
    return (cy(caller["to_trigger"]) + cy(caller["after_status"])
            + max(cy(caller["trigger_to_status"]), bus + cy(caller["wait_iteration"]) / 2))


def estimate_path(kind: str, counts: dict[str, Any], bus_pl: float, cpu_mhz: float = CPU_MHZ) -> dict[str, float]:
    """:func:`path_cycles` at the central parameters and at both ends of their ranges, in the
    form of :func:`estimate_cycles`."""
    mid, lo, hi = (path_cycles(kind, counts, bus_pl, *_PARAMS[k], cpu_mhz) for k in ("mid", "low", "high"))
    return {"cycles": round(mid, 1), "cycles_low": round(lo, 1), "cycles_high": round(hi, 1),
            "mcalls": round(cpu_mhz / mid, 3), "mcalls_low": round(cpu_mhz / hi, 3),
            "mcalls_high": round(cpu_mhz / lo, 3), "pl_cycles": round(mid * PL_MHZ / cpu_mhz, 1)}


#: The accesses the protocol itself makes per call of each row kind (docs/architecture.md
#: section 2; one argument and one result word, as pingpong's f), as issue 45 defines them:
#: what any runtime must pay on this bus, with no instruction counted. c_rtl, the C caller:
#: the argument and the trigger into the PL, the status and the result read, the status
#: cleared. rtl_c, the C callee: its trigger and argument read, the slot re-armed, the result
#: and the status written into the PL. c_c: both, every access the OCM's.
PROTOCOL_ACCESSES = {
    "c_rtl": {"gp_writes": 2, "gp_reads": 0, "ocm_reads": 2, "ocm_writes": 1, "timer_reads": 0},
    "rtl_c": {"gp_writes": 2, "gp_reads": 0, "ocm_reads": 2, "ocm_writes": 1, "timer_reads": 0},
    "c_c": {"gp_writes": 0, "gp_reads": 0, "ocm_reads": 4, "ocm_writes": 6, "timer_reads": 0},
}


def _only(**accesses: int) -> dict[str, int]:
    return {"instructions": 0, "gp_reads": 0, "gp_writes": 0, "ocm_reads": 0, "ocm_writes": 0,
            "timer_reads": 0, **accesses}


#: A runtime that makes only the protocol's accesses (PROTOCOL_ACCESSES) and executes no
#: instruction, in the parts :func:`path_cycles` adds up (the form of
#: :func:`pushpush.bench.a9.count.count_call_path`'s counts): the caller writes the argument
#: and the trigger, looks at the status (a wait round: that read alone), then reads the
#: result and clears the status; the callee looks at its trigger (an empty round: that read
#: alone), then reads the trigger and the argument, re-arms and writes the result and status.
#: Its cycles through the same formula as ours are the row's limit: like with like.
PROTOCOL_PATHS: dict[str, Any] = {
    "caller": {"to_trigger": _only(gp_writes=2), "trigger_to_status": _only(ocm_reads=1),
               "after_status": _only(ocm_reads=1, ocm_writes=1), "wait_iteration": _only(ocm_reads=1)},
    "callee": {"take_call": _only(ocm_reads=2, ocm_writes=1, gp_writes=2), "empty_sweep": _only(ocm_reads=1)},
}


def protocol_limit(kind: str, bus_pl: float, cpu_mhz: float = CPU_MHZ) -> dict[str, Any]:
    """The limit of row kind ``kind``: :func:`path_cycles` of :data:`PROTOCOL_PATHS` (the
    protocol's own accesses, :data:`PROTOCOL_ACCESSES`, and the bus cycles, no instruction),
    the same formula as the estimate of ours: ``{"accesses", "cycles", "mcalls",
    "mcalls_low_latency", "serial_mcalls"}`` at the central latencies (and at their low
    ends); serial_mcalls: the accesses and the bus one after the other, no wait round (issue
    45's plain sum, for comparison)."""
    mid = path_cycles(kind, PROTOCOL_PATHS, bus_pl, *_PARAMS["mid"], cpu_mhz)
    lo = path_cycles(kind, PROTOCOL_PATHS, bus_pl, *_PARAMS["low"], cpu_mhz)
    serial = _cycles({"instructions": 0, **PROTOCOL_ACCESSES[kind]}, CPI.value, GP0_NS.value, OCM_NS.value,
                     bus_pl, cpu_mhz)
    return {"accesses": sum(PROTOCOL_ACCESSES[kind].values()), "cycles": round(mid, 1),
            "mcalls": round(cpu_mhz / mid, 3), "mcalls_low_latency": round(cpu_mhz / lo, 3),
            "serial_mcalls": round(cpu_mhz / serial, 3)}


def _uncached(c: dict[str, Any]) -> int:
    return c["gp_reads"] + c["gp_writes"] + c["ocm_reads"] + c["ocm_writes"] + c["timer_reads"]


def path_counts(kind: str, counts: dict[str, Any], bus_pl: float = 0.0) -> dict[str, float]:
    """Instructions and uncached accesses per call of row kind ``kind`` (bus cycles bus_pl),
    as :func:`path_cycles` adds them up at the central values (half a round where it takes
    half a round; of the caller's work while the answer comes and the answer, the longer)."""
    caller, callee = counts["caller"], counts["callee"]

    def half(c: dict[str, Any]) -> dict[str, float]:
        return {k: c[k] / 2 for k in ("instructions", "gp_reads", "gp_writes", "ocm_reads", "ocm_writes",
                                       "timer_reads")}
    keys = ("instructions", "gp_reads", "gp_writes", "ocm_reads", "ocm_writes", "timer_reads")
    take = lambda *parts: {k: sum(p[k] for p in parts) for k in keys}  # noqa: E731
    if kind == "rtl_c":
        return take(callee["take_call"], half(callee["empty_sweep"]))
    # the caller waits (the longer of its work and the answer: path_cycles' max, central values)
    if kind == "c_c":
        caller = {k: _to_ocm(v) if isinstance(v, dict) and "gp_writes" in v else v for k, v in caller.items()}
        answer = take(_to_ocm(callee["take_call"]), half(_to_ocm(callee["empty_sweep"])),
                      half(caller["wait_iteration"]))
    else:
        answer = half(caller["wait_iteration"])
    cy = lambda c, bus=0.0: _cycles(c, CPI.value, GP0_NS.value, OCM_NS.value, bus, CPU_MHZ)  # noqa: E731
    ours = caller["trigger_to_status"] if cy(caller["trigger_to_status"]) > cy(answer, bus_pl) else answer
    return take(caller["to_trigger"], caller["after_status"], ours)


def row_estimates(counts: Optional[dict[str, Any]], bus: dict[tuple[str, str], Optional[float]],
                  problem: Optional[str] = None) -> dict[tuple[str, str], dict[str, Any]]:
    """The estimate of every software row kind pair: ``{(caller, callee): {"mcalls", ...,
    "kind", "bus_pl"} or {"reason"}}``. counts: :func:`pushpush.bench.a9.count.count_call_path`'s
    result (None: not counted, problem says why); bus: the simulated bus cycles of
    (python, rtl) and (rtl, python)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for pair in (("python", "rtl"), ("rtl", "python"), ("python", "python"), ("python", "c"),
                 ("c", "python"), ("python", "riscv"), ("riscv", "python")):
        out[pair] = {"reason": PYTHON_REASON}
    if counts is None:
        why = f"no A9 estimate: the call path was not counted ({problem})"
        for pair in (("c", "rtl"), ("rtl", "c"), ("c", "c")):
            out[pair] = {"reason": why}
        return out
    for pair, kind, bus_key in ((("c", "rtl"), "c_rtl", ("python", "rtl")),
                                (("rtl", "c"), "rtl_c", ("rtl", "python"))):
        b = bus.get(bus_key)
        if b is None:
            out[pair] = {"reason": f"no A9 estimate: the {bus_key[0]} -> {bus_key[1]} row's bus "
                                   "cycles (this row's bus time) were not simulated"}
            continue
        out[pair] = {**estimate_path(kind, counts, b), "kind": kind, "bus_pl": b}
    out[("c", "c")] = {**estimate_path("c_c", counts, 0.0), "kind": "c_c", "bus_pl": 0.0}
    for pair in (("c", "rtl"), ("rtl", "c"), ("c", "c")):
        e = out[pair]
        if "mcalls" not in e:
            continue
        lim = protocol_limit(e["kind"], e["bus_pl"])
        e["limit_mcalls"] = lim["mcalls"]
        e["of_limit"] = round(e["mcalls"] / lim["mcalls"], 3)
        pc = path_counts(e["kind"], counts, e["bus_pl"])
        e["instructions"], e["uncached"] = pc["instructions"], _uncached(pc)
        # the same in every wait mode counted (the default, sleep, beside poll)
        e["modes"] = {}
        for mode, mc in counts.get("modes", {"poll": counts}).items():
            em = estimate_path(e["kind"], mc, e["bus_pl"])
            pm = path_counts(e["kind"], mc, e["bus_pl"])
            e["modes"][mode] = {"mcalls": em["mcalls"], "mcalls_low": em["mcalls_low"],
                                "mcalls_high": em["mcalls_high"], "cycles": em["cycles"],
                                "of_limit": round(em["mcalls"] / lim["mcalls"], 3),
                                "instructions": pm["instructions"], "uncached": _uncached(pm)}
    return out


#: the hand count of an empty serve round (gcc 12.2, -O2 -mcpu=cortex-a9, Thumb-2): a spin
#: round of pp_serve, 7 instructions (the hot trigger's read and its test-and-branch, the
#: stop pointer's test, the stop word's read and its test-and-branch, the loop count and
#: its branch)
HAND_COUNT_EMPTY_SWEEP = 7


def model_markdown(counts: Optional[dict[str, Any]], est: dict[tuple[str, str], dict[str, Any]],
                   paper_sw_hw: float, paper_hw_sw: float, problem: Optional[str] = None) -> str:
    """The results file's "Model" section: formula, parameters and sources, the counts, and
    the comparison with the paper's measured ARM rows."""
    from pushpush.bench.report import md_table

    lines = ["### Cortex-A9 estimate: the model", "",
             f"Estimated, not measured: what the software rows would take on a PYNQ-Z1's "
             f"Cortex-A9 at {CPU_MHZ:.0f} MHz, with the logic at {PL_MHZ:.0f} MHz:", "",
             "    CPU cycles of a part = instructions x CPI + (M_AXI_GP0 accesses) x their latency",
             "                         + (uncached OCM and timer accesses) x their latency",
             f"    bus time = (the row's simulated bus cycles) x {CPU_MHZ:.0f} / {PL_MHZ:.0f}",
             "    CPU cycles/call = the call path's parts and the bus time, as below",
             f"    MCalls/s = {CPU_MHZ:.0f} / CPU cycles per call", "",
             "The range takes every parameter at its low, then at its high end. The bus cycles of "
             "a call's own write burst (about 3 of the 10) are also inside the GP0 latency: "
             "counted twice, so the estimate leans slow by up to that much.", "",
             md_table(("parameter", "value", "range", "source"),
                      [(f"CPI ({CPI.unit})", CPI.value, f"{CPI.low:g}-{CPI.high:g}", CPI.source),
                       (f"GP0 access ({GP0_NS.unit}; strongly-ordered: the CPU waits for it)",
                        GP0_NS.value, f"{GP0_NS.low:g}-{GP0_NS.high:g}", GP0_NS.source),
                       (f"OCM or timer access ({OCM_NS.unit}, uncached)", OCM_NS.value,
                        f"{OCM_NS.low:g}-{OCM_NS.high:g}", OCM_NS.source)]),
             ""]
    if counts is None:
        lines += [f"The call path was not counted: {problem}.", ""]
        return "\n".join(lines)
    lines += [f"The counts: `python -m pushpush.bench.a9.model` (the generated C runtime of "
              f"{counts['system']}, bare-metal platform layer, wait mode poll; {counts['compiler']}, "
              f"`{counts['cflags']}`, Thumb-2; run under the Unicorn emulator, which plays the PL: "
              "pushpush/bench/a9/count.py). c -> rtl: the caller's cycles up to its trigger write "
              "and after its first status read, plus the longer of its own work between them "
              "and the PL's answer (the bus cycles of python -> rtl, then half a wait round "
              "until it looks again). rtl -> c: the serve round that takes the call, half an "
              "empty sweep before it (the call lands half-way through one, on average) and the "
              "bus cycles of rtl -> python. c -> c: as c -> rtl with the callee's serve time in "
              "place of the PL's answer, both windows in the OCM (GP0 writes made OCM writes, "
              "no bus). "
              + (f"An empty serve round's {HAND_COUNT_EMPTY_SWEEP} instructions equal the hand "
                 "count of its disassembly (a spin round of pp_serve: the hot trigger's read and "
                 "test, the stop pointer and word and their tests, the loop)."
                 if counts["callee"]["empty_sweep"]["instructions"] == HAND_COUNT_EMPTY_SWEEP else
                 f"An empty serve round counts {counts['callee']['empty_sweep']['instructions']} "
                 f"instructions; the hand count ({HAND_COUNT_EMPTY_SWEEP}) was made for gcc 12.2's "
                 "code: recount it for this compiler."), ""]
    keys = ("instructions", "gp_writes", "gp_reads", "ocm_reads", "ocm_writes", "timer_reads", "barriers",
            "now_us_calls")
    rows = []
    for side, parts in (("caller (C -> Verilog, callee_hw_f)", ("to_trigger", "trigger_to_status", "after_status",
                                                               "first_look", "wait_iteration", "full_round")),
                        ("callee (Verilog -> C, pp_serve)", ("take_call", "empty_sweep", "full_round"))):
        key = "caller" if side.startswith("caller") else "callee"
        for p in parts:
            if p in counts[key]:
                rows.append((side, p.replace("_", " "), *(counts[key][p][k] for k in keys)))
    lines += [md_table(("path", "part", "instructions", "GP0 writes", "GP0 reads", "OCM reads",
                        "OCM writes", "timer reads", "dmb", "clock reads"), rows), ""]
    spin = counts.get("spin_rounds")
    if spin is not None:
        lines += [f"A wait spins {spin} rounds that read only the awaited word (a call: its status; "
                  "the serve loop: the trigger of the slot that took the last call) before a full "
                  "round (the clock, the whole window swept, the wait mode's pause): wait iteration "
                  "and empty sweep are spin rounds, full round the one after them. The replies and "
                  "calls here come within the spin rounds, so the estimate is the same in every "
                  "wait mode (counted in poll and in sleep, the default).", ""]
    lim_rows = []
    for pair in (("c", "rtl"), ("rtl", "c"), ("c", "c")):
        e = est.get(pair, {})
        if "limit_mcalls" not in e:
            continue
        lim = protocol_limit(e["kind"], e["bus_pl"])
        for mode, em in e["modes"].items():
            lim_rows.append((f"{pair[0]} -> {pair[1]}", mode + (" (default)" if mode == "sleep" else ""),
                             f"{em['instructions']:g}", f"{em['uncached']:g}",
                             f"{em['mcalls']:.2f} ({em['mcalls_low']:.2f}-{em['mcalls_high']:.2f})",
                             f"{lim['mcalls']:.2f} ({lim['accesses']} accesses + {e['bus_pl']:g} bus cycles)",
                             f"{100 * em['of_limit']:.0f}%"))
    if lim_rows:
        lines += ["Each row against the limit set by the protocol's own accesses and the bus "
                  "(PROTOCOL_ACCESSES: c -> rtl the argument and trigger writes, the status and "
                  "result reads, the clear; rtl -> c the trigger and argument reads, the re-arm, the "
                  "result and status writes; c -> c both), put through the estimate's own formula "
                  "as a runtime that executes no instruction (PROTOCOL_PATHS: its wait rounds are "
                  "the status read alone, its empty serve rounds the trigger read alone), so the "
                  "two are counted alike; central latencies. Instructions and uncached accesses per "
                  "call as the estimate adds them up (the caller's own between its trigger and the "
                  "answer only when they take longer than the answer):", "",
                  md_table(("row", "wait mode", "instructions", "uncached accesses", "MCalls/s (range)",
                            "limit MCalls/s", "of the limit"), lim_rows), ""]
    sw_hw, hw_sw = est.get(("c", "rtl"), {}), est.get(("rtl", "c"), {})
    if "mcalls" in sw_hw and "mcalls" in hw_sw:
        at800_sw = estimate_path("c_rtl", counts, sw_hw["bus_pl"], PAPER_CPU_MHZ)
        at800_hw = estimate_path("rtl_c", counts, hw_sw["bus_pl"], PAPER_CPU_MHZ)
        wait = counts["caller"]["wait_iteration"]["instructions"]
        empty = counts["callee"]["empty_sweep"]["instructions"]

        def inside(e: dict[str, float], paper: float) -> str:
            return "inside" if e["mcalls_low"] <= paper <= e["mcalls_high"] else "outside"
        below = at800_sw["mcalls_high"] < paper_sw_hw or at800_hw["mcalls_high"] < paper_hw_sw
        lines += [
            f"Against the paper (its ARM at {PAPER_CPU_MHZ:.0f} MHz, measured): SW -> HW "
            f"{paper_sw_hw:.2f} MCalls/s, ours estimated {sw_hw['mcalls']:.2f} "
            f"({sw_hw['mcalls_low']:.2f}-{sw_hw['mcalls_high']:.2f}) at {CPU_MHZ:.0f} MHz and "
            f"{at800_sw['mcalls']:.2f} ({at800_sw['mcalls_low']:.2f}-{at800_sw['mcalls_high']:.2f}) "
            f"at {PAPER_CPU_MHZ:.0f} MHz: {inside(at800_sw, paper_sw_hw)} the range; HW -> SW "
            f"{paper_hw_sw:.2f}, ours {hw_sw['mcalls']:.2f} ({hw_sw['mcalls_low']:.2f}-"
            f"{hw_sw['mcalls_high']:.2f}) at {CPU_MHZ:.0f} MHz and {at800_hw['mcalls']:.2f} "
            f"({at800_hw['mcalls_low']:.2f}-{at800_hw['mcalls_high']:.2f}) at "
            f"{PAPER_CPU_MHZ:.0f} MHz: {inside(at800_hw, paper_hw_sw)} the range.", "",
            "Where the estimate's time goes" + (", and why it is below the paper's" if below else "")
            + ": a wait round "
            f"of the caller is {wait} instructions and an empty serve round {empty}, one "
            "uncached read each; the uncached accesses per call are the protocol's own (table "
            "above), so what is left between a row and its limit is the runtime's instructions "
            f"(a call {counts['caller']['first_look']['instructions']}, taking one "
            f"{counts['callee']['take_call']['instructions']}). The protocol's own accesses of "
            f"c -> rtl alone would allow {protocol_limit('c_rtl', sw_hw['bus_pl'])['mcalls']:.2f} "
            f"MCalls/s at {CPU_MHZ:.0f} MHz with the central latencies, "
            f"{protocol_limit('c_rtl', sw_hw['bus_pl'])['mcalls_low_latency']:.2f} with their low "
            "ends. The latencies are the weakest part of the model: the paper's SW -> HW "
            f"{paper_sw_hw:.2f} MCalls/s ({1000 / paper_sw_hw:.0f} ns per call, two "
            "GP0 writes among it) says its board's GP0 writes took less than the central "
            f"{GP0_NS.value:g} ns.", ""]
    lines += ["Not in the estimate: the Linux layer's extras (its range checks in pp_linux_write, "
              "the pending check of a software slot, clock_gettime per full round), the wait "
              "mode's pause (in a full round only: sched_yield in the default mode, sleep, as "
              "the paper's client did, a system call), cache and "
              "branch-predictor misses beyond the CPI, other processes; the paper's ARM rows "
              "also ran on Linux.", ""]
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m pushpush.bench.a9.model [--json]``: count the call path and print the counts
    and the estimate of c -> rtl and rtl -> c with the bus cycles of the last results (10
    simulated cycles each: benchmarks/results/calls.md's python -> rtl and rtl -> python),
    and c -> c."""
    from pushpush.bench import paper
    from pushpush.bench.a9.count import A9CountError, count_call_path

    args = list(sys.argv[1:] if argv is None else argv)
    try:
        counts = count_call_path()
    except A9CountError as exc:
        print(f"a9model: {exc}", file=sys.stderr)
        return 1
    bus = {("python", "rtl"): 10.0, ("rtl", "python"): 10.0}
    est = row_estimates(counts, bus)
    if "--json" in args:
        print(json.dumps({"counts": counts, "estimates": {f"{a} -> {b}": v for (a, b), v in est.items()}},
                         indent=1))
        return 0
    print(model_markdown(counts, est, paper.TABLE_II["ARM"]["VHLS"], paper.TABLE_II["VHLS"]["ARM"]))
    for pair in (("c", "rtl"), ("rtl", "c"), ("c", "c")):
        e = est[pair]
        print(f"{pair[0]} -> {pair[1]}: {e['mcalls']:.2f} MCalls/s ({e['mcalls_low']:.2f}-"
              f"{e['mcalls_high']:.2f}), {e['cycles']:.0f} CPU cycles/call (bus {e['bus_pl']:g} PL cycles)")
    return 0


if __name__ == "__main__":
    # The documented command for the counts and the estimate alone (this docstring,
    # benchmarks/results/calls.md); 'pushpush bench calls' prints them inside its tables.
    raise SystemExit(main())
