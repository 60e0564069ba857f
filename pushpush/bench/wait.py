"""``pushpush bench wait``: how fast a waiting software component wakes, per wait mode.

On the simulated board (through PYNQ, as user code runs): the ``hof`` test system
(tests/gen/hof); Python calls ``mixer.store(v)``, and the Verilog ``mixer`` first calls the
Python export ``host.log(v)`` (hardware -> software), then answers. For every call the
**wake-up latency** is the time from the trigger write of ``host.log``'s call (the moment
the simulator stored the call's words in the ARM's window, with its simulated clock cycle
and a host ``CLOCK_MONOTONIC`` time stamp: the control page's last PL write,
:meth:`pushpush.pynq.simulated.bridge.SimBridge.last_pl_write`) to the first line of the Python
handler (``time.monotonic_ns()``). Both stamps are on the same host clock, so the latency is
what a handler sees: the wait mode's own delay plus the PYNQ process's scheduling.

Per wait mode (``sleep``, ``poll``, ``yield``, ``interrupt``) and load (``idle``;
``loaded``: one CPU-bound process per core, on the same cores, for the whole measurement):
the latency distribution (mean, sigma, min, median, max, 99.9th percentile, in µs), and the
PYNQ process's CPU use while it runs the calls and over one idle second (the runtime
waiting, nothing to do). The table is laid out like Table 1 of the FSL driver paper (Mayer
et al., interrupt latency t1 and preemption latency t1+t2 of a MicroBlaze at 125 MHz under
Linux), whose numbers are printed beside ours, converted to µs.

The C rows (``pushpush C <mode>``, :mod:`pushpush.bench.wait_c`) measure the same for a C
component: the Verilog ``caller`` calls the C export ``callee.f`` of tests/c/data/cboard.yaml,
from the simulator's store of the call to the C handler's first line, and the C process's
CPU use.

Caveats, on purpose in the table's notes: the simulated board is not the board (the PL
runs in a simulator process on the same host; the wake-up path of ``interrupt`` is the
simulated one: the simulator's interrupt pipe, the modelled ``axi_intc``, the stand-in UIO
device, then PYNQ's own ``pynq.Interrupt`` and asyncio); the numbers are x86 host
microseconds, not Cortex-A9 ones. The documented run uses ``--calls 10000``; CI runs it with
a handful of calls (a test), as a smoke test.

Example::

    from pushpush.bench.wait import run_wait, format_table
    result = run_wait(calls=200)
    print(format_table(result))
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any, Optional, Sequence

__all__ = ["MODES", "LOADS", "FSL_TABLE1", "FSL_MHZ", "run_wait", "summarize", "format_table",
           "plot_histogram", "run"]

MODES = ("sleep", "poll", "yield", "interrupt")
LOADS = ("idle", "loaded")
#: The FSL driver paper's Table 1 (clock cycles of its 125 MHz MicroBlaze): t1 interrupt
#: latency (interrupt to ISR), t2 (ISR to the woken process); mean, sigma, min, median,
#: max, 99.9 %.
FSL_MHZ = 125.0
FSL_TABLE1 = {
    ("t1", "idle"): (1473, 137, 1200, 1440, 9415, 1752),
    ("t1", "loaded"): (1605, 612, 1217, 1558, 20722, 11754),
    ("t2", "idle"): (16425, 20760, 6951, 8753, 192346, 84006),
    ("t2", "loaded"): (14658, 26684, 7159, 9077, 1627081, 139813),
}
#: The paper's text: preemption latency (t1 + t2) at least 65 µs, 99.9 % below 686 µs idle
#: and 1210 µs loaded.
FSL_PREEMPTION_US = {"idle": (65.0, 686.0), "loaded": (None, 1210.0)}
STATS = ("mean", "sigma", "min", "median", "max", "p99.9")


def _hog() -> None:  # pragma: no cover - runs in a child process
    x = 0
    while True:
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF


def _start_hogs(n: int) -> list[multiprocessing.Process]:
    ctx = multiprocessing.get_context("fork")
    hogs = [ctx.Process(target=_hog, daemon=True, name=f"pushpush-hog-{i}") for i in range(n)]
    for p in hogs:
        p.start()
        try:
            os.sched_setaffinity(p.pid, os.sched_getaffinity(0))   # the same cores
        except (AttributeError, OSError):  # pragma: no cover
            pass
    return hogs


def _stop_hogs(hogs: Sequence[multiprocessing.Process]) -> None:
    for p in hogs:
        p.terminate()
    for p in hogs:
        p.join(5)
        if p.is_alive():  # pragma: no cover
            p.kill()
            p.join(5)


def summarize(samples_us: Sequence[float]) -> dict[str, float]:
    """mean, sigma, min, median, max and the 99.9th percentile (nearest rank) of samples."""
    xs = sorted(samples_us)
    if not xs:
        return {k: math.nan for k in STATS}
    rank = max(0, math.ceil(0.999 * len(xs)) - 1)
    return {"mean": statistics.fmean(xs), "sigma": statistics.pstdev(xs) if len(xs) > 1 else 0.0,
            "min": xs[0], "median": statistics.median(xs), "max": xs[-1], "p99.9": xs[rank]}


def _run_mode(ol: Any, rt: Any, mode: str, calls: int, warmup: int, idle_s: float) -> dict[str, Any]:
    bridge = ol.device.bridge
    lat: list[float] = []
    cycles: list[int] = []
    ran = [0]

    def log(v: int) -> None:
        t = time.monotonic_ns()
        cyc, ns = bridge.last_pl_write()      # the trigger of this very call (see module doc)
        lat.append((t - ns) / 1000.0)
        cycles.append(cyc)
        ran[0] += 1

    rt.export("log", log)
    rt.start()
    rt.wait = mode
    for i in range(warmup):
        ol.mixer.store(i)
    del lat[:], cycles[:]
    ran[0] = 0
    c0, t0 = time.process_time(), time.monotonic()
    for i in range(calls):
        ol.mixer.store(i)
    wall = time.monotonic() - t0
    cpu = time.process_time() - c0
    if ran[0] != calls:
        raise RuntimeError(f"wait mode {mode}: the handler ran {ran[0]} times for {calls} calls")
    time.sleep(0.2)
    i0, w0 = time.process_time(), time.monotonic()
    time.sleep(idle_s)
    idle_cpu = (time.process_time() - i0) / (time.monotonic() - w0)
    return {"lang": "python", "mode": mode, "calls": calls, "wall_s": wall, "calls_per_s": calls / wall,
            "cpu_share_busy": cpu / wall, "cpu_share_idle": idle_cpu,
            "latency_us": summarize(lat), "samples_us": lat, "trigger_cycles": cycles}


def run_wait(calls: int = 200, *, modes: Sequence[str] = MODES, loads: Sequence[str] = LOADS,
             warmup: int = 5, idle_s: float = 1.0, simulator: str = "auto",
             outdir: Optional[str] = None, hogs: Optional[int] = None,
             c: bool = True) -> dict[str, Any]:
    """Measure every mode under every load (see the module docstring); returns the rows and
    the raw samples. ``c``: also the C rows (:mod:`pushpush.bench.wait_c`; needs a C
    compiler)."""
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import tempfile

    import pushpush.pynq as ppq

    hof = Path(__file__).resolve().parents[2] / "tests" / "gen" / "hof" / "system.yaml"
    if not hof.exists():
        raise FileNotFoundError(f"{hof}: the benchmark's system comes with the pushpush "
                                "source tree (tests/gen/hof); run it from a checkout")
    out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix="pushpush-bench-wait-"))
    ol = ppq.load(hof, outdir=out / "hof", simulator=simulator)
    rows: list[dict[str, Any]] = []
    try:
        rt = ol.runtime()
        for load in loads:
            started = _start_hogs(hogs if hogs is not None else (os.cpu_count() or 1)) \
                if load == "loaded" else []
            try:
                for mode in modes:
                    row = _run_mode(ol, rt, mode, calls, warmup, idle_s)
                    row["load"] = load
                    rows.append(row)
            finally:
                _stop_hogs(started)
        rt.wait = "sleep"
        info = {"simulator": ol.device.simulator, "cpus": os.cpu_count(),
                "clock_mhz": float(ol.device.manifest.get("clock_mhz", 100.0))}
    finally:
        ol.free()
    if c:
        from .wait_c import run_c_wait

        nhogs = hogs if hogs is not None else (os.cpu_count() or 1)
        rows += run_c_wait(calls, modes=modes, loads=loads, warmup=warmup, idle_s=idle_s,
                           simulator=simulator, outdir=str(out / "c"),
                           start_hogs=lambda load: _start_hogs(nhogs) if load == "loaded" else [],
                           stop_hogs=_stop_hogs, summarize=summarize)
    return {"calls": calls, "rows": rows, **info}


def _label(row: dict[str, Any]) -> str:
    return ("pushpush C " if row.get("lang") == "c" else "pushpush ") + row["mode"]


def _us(cycles: float) -> float:
    return cycles / FSL_MHZ


def format_table(result: dict[str, Any]) -> str:
    """The rows as the FSL paper's Table 1 (its numbers beside ours, in µs)."""
    lines = [f"Wake-up latency, trigger write -> handler running (µs; {result['calls']} calls "
             f"per row, simulated board on {result.get('simulator', '?')}, {result.get('cpus', '?')} "
             "host cores; loaded = one CPU hog per core)", ""]
    hdr = f"{'':<22}{'load':<8}" + "".join(f"{s:>10}" for s in STATS) + f"{'CPU busy':>10}{'CPU idle':>10}"
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for r in result["rows"]:
        s = r["latency_us"]
        lines.append(f"{_label(r):<22}{r['load']:<8}"
                     + "".join(f"{s[k]:>10.1f}" for k in STATS)
                     + f"{100 * r['cpu_share_busy']:>9.0f}%{100 * r['cpu_share_idle']:>9.1f}%")
    for (t, load), vals in FSL_TABLE1.items():
        lines.append(f"{'FSL paper ' + t:<22}{load:<8}" + "".join(f"{_us(v):>10.1f}" for v in vals)
                     + f"{'':>10}{'':>10}")
    lines += ["",
              "FSL paper: Mayer et al., a FSL device driver for MicroBlaze Linux (seeds 004), Table 1,",
              "cycles of a 125 MHz MicroBlaze shown in µs; t1 = interrupt -> ISR, t2 = ISR -> woken",
              "process (its preemption latency t1+t2: min 65 µs, 99.9 % < 686 µs idle, < 1210 µs",
              "loaded). Ours: x86 host µs from the simulator's store of the call's trigger word to",
              "the Python handler's first line, through PYNQ (interrupt: simulated irq -> modelled",
              "axi_intc -> stand-in UIO -> pynq.Interrupt). CPU: the PYNQ process's CPU time / wall",
              "time while making the calls (busy) and over an idle second (idle). pushpush C: the",
              "same for a C component (Verilog calls it; to the C handler's first line; interrupt:",
              "poll(2) on the stand-in /dev/uioN), CPU of the C process."]
    late = [(r, r["late_stamps"]) for r in result["rows"] if r.get("late_stamps")]
    if late:
        lines.append("C samples left out (the simulator stamped the call's store late, after the "
                     "handler saw it): " + ", ".join(f"{r['mode']}/{r['load']} {n}" for r, n in late))
    return "\n".join(lines)


def plot_histogram(result: dict[str, Any], path: str | os.PathLike[str]) -> Optional[Path]:
    """Histograms of the latencies per mode, idle and loaded (log x); None without
    matplotlib."""
    from .report import pyplot, save_figure

    plt = pyplot()
    if plt is None:
        return None
    loads = sorted({r["load"] for r in result["rows"]}, key=LOADS.index)
    fig, axes = plt.subplots(1, len(loads), figsize=(6 * len(loads), 4), squeeze=False)
    for ax, load in zip(axes[0], loads):
        rows = [r for r in result["rows"] if r["load"] == load]
        allv = [v for r in rows for v in r["samples_us"] if v > 0]
        if not allv:
            continue
        lo, hi = max(min(allv), 1e-1), max(allv)
        bins = [lo * (hi / lo) ** (i / 40) for i in range(41)] if hi > lo else 10
        for r in rows:
            ax.hist([max(v, lo) for v in r["samples_us"]], bins=bins, histtype="step",
                    label=f"{_label(r)[9:]} (median {r['latency_us']['median']:.0f} µs)")
        ax.set_xscale("log")
        ax.set_xlabel("trigger write -> handler running (µs)")
        ax.set_ylabel("calls")
        ax.set_title(f"{load}")
        ax.legend(fontsize="small")
    fig.suptitle("pushpush bench wait: wake-up latency per wait mode (simulated board)")
    return save_figure(fig, path, dpi=100)


def run(opts: Any, log: Any) -> dict[str, Any]:
    """``pushpush bench wait`` (registry, :mod:`pushpush.bench.registry`)."""
    import json

    from .registry import OptionError, result

    calls = opts.calls or 200
    if calls < 1:
        raise OptionError(f"--calls {calls}: at least 1 call")
    modes = tuple(opts.modes.split(",")) if opts.modes else MODES
    loads = tuple(opts.loads.split(","))
    bad = [m for m in modes if m not in MODES] + [x for x in loads if x not in LOADS]
    if bad:
        raise OptionError(f"unknown {', '.join(bad)}: --modes takes {','.join(MODES)}, "
                          f"--loads {','.join(LOADS)}")
    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    res = run_wait(calls, modes=modes, loads=loads, simulator=opts.sim or "auto",
                   outdir=str(out / "wait-build"))
    (out / "wait.json").write_text(json.dumps(res, indent=1))
    table = format_table(res)
    png = plot_histogram(res, out / "wait.png")
    printed = table + f"\n\nresults: {out / 'wait.json'}" + (
        f", histogram: {png}" if png else " (no histogram: matplotlib is not installed)")
    return result("wait", "wait: wake-up latency per wait mode", printed, rows=res.get("rows", []),
                  markdown=table, plots=[png.name] if png else [])
