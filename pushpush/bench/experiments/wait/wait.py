"""``pushpush bench wait``: how fast a waiting software component wakes, per wait mode.

On the simulated board (through PYNQ, as user code runs): the ``hof`` test system
(tests/gen/hof); Python calls ``mixer.store(v)``, and the Verilog ``mixer`` first calls the
Python export ``host.log(v)`` (hardware -> software), then answers. For every call the
**wake-up latency** is the time from the simulator's store of ``host.log``'s call (the one
burst carrying its arguments and trigger word) into the ARM's window to the first line of
the Python handler (``time.monotonic_ns()``). The simulator stamps that store (its
simulated clock cycle and a host ``CLOCK_MONOTONIC`` time, in the control page:
:meth:`pushpush.pynq.simulated.bridge.SimBridge.last_pl_write`) just *before* storing the
words, so a handler that sees the call reads this call's stamp, never the previous one.
Both stamps are on the same host clock, so the latency is what a handler sees: the wait
mode's own delay plus the PYNQ process's scheduling. It is **host wall-clock** time (the
software path is the thing measured); the **simulated cycle** of each store is kept too
(``trigger_cycles``, exact), and the table gives the simulated PL cycles from one stored
call to the next (the hardware leg of a call, plus the cycles the simulator ran while
software worked: not a wake-up latency).

Per wait mode (``sleep``, ``poll``, ``yield``, ``interrupt``) and load (``idle``;
``loaded``: ``hogs`` CPU-bound processes, by default one per core, on the same cores, for the
whole measurement): the latency distribution (mean, sigma, min, median, p99, p99.9, max, in
µs; percentiles by nearest rank), the waiting process's CPU time per call and its share of
a core while it runs the calls and over one idle second (the runtime waiting, nothing to
do), and the host's load average (``os.getloadavg``, 1 min) at the row's start and end:
an "idle" row on a shared machine is not idle, and this says how busy it was. The table
is laid out like Table 1 of the FSL driver paper (Mayer et al., interrupt latency t1 and
the ISR-to-process time t2 of a MicroBlaze at 125 MHz under Linux), whose numbers are
printed beside ours, converted to µs.

The C rows (``pushpush C <mode>``, :mod:`.wait_c`) measure the same for a C component: the Verilog ``caller`` calls the C export ``callee.f`` of tests/c/data/cboard.yaml,
from the simulator's store of the call to the C handler's first line, and the C process's
CPU use.

**Time budget.** Every row makes at most ``calls`` calls and stops early, between two
calls, once it has run ``budget_s`` seconds (or at a failed call: the error is kept); its
``calls`` is the number it made, ``calls_requested`` the number asked for and ``stopped``
says why it stopped short (None: it made them all). The table prints ``made/asked`` for
such a row: nothing is truncated silently. One simulated board per language serves all of
its rows (the Verilator build comes from the build cache after the first time).

Caveats, on purpose in the table's notes: the simulated board is not the board (the PL
runs in a simulator process on the same host; the wake-up path of ``interrupt`` is the
simulated one: the simulator's interrupt pipe, the modelled ``axi_intc``, the stand-in UIO
device, then PYNQ's own ``pynq.Interrupt`` and asyncio); the numbers are x86 host
microseconds, not Cortex-A9 ones.

Example::

    from pushpush.bench.experiments.wait.wait import run_wait, format_table
    result = run_wait(calls=200, budget_s=30)
    print(format_table(result))
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.bench.experiments.wait.measure import (CALL_TIMEOUT_S, STATS, Measured, idle_share,
                                                     measure_calls, row_label, row_line, row_of)
from pushpush.bench.experiments.wait.wait_c import run_c_wait
from pushpush.bench.paths import CHECKOUT

__all__ = ["MODES", "LOADS", "FSL_TABLE1", "FSL_MHZ", "DEFAULT_BUDGET_S", "run_wait", "merge_rows",
           "format_table", "plot_histogram", "run"]

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
_FSL_STATS = ("mean", "sigma", "min", "median", "max", "p99.9")
#: The paper's text: preemption latency (t1 + t2) at least 65 µs, 99.9 % below 686 µs idle
#: and 1210 µs loaded (µs: min, 99.9 %).
FSL_PREEMPTION_US = {"idle": (65.0, 686.0), "loaded": (None, 1210.0)}
#: Seconds a row may run (its calls; then it stops between two calls and says so).
DEFAULT_BUDGET_S = 60.0


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


def _run_mode(ol: Any, rt: Any, mode: str, load: str, hogs: int, calls: int, warmup: int,
              idle_s: float, budget_s: float) -> dict[str, Any]:
    bridge = ol.device.bridge
    lat: list[float] = []
    cycles: list[int] = []
    ran = [0]

    def log(v: int) -> None:
        t = time.monotonic_ns()
        cyc, ns = bridge.last_pl_write()      # the store of this very call (module doc)
        lat.append((t - ns) / 1000.0)
        cycles.append(cyc)
        ran[0] += 1

    def call(i: int) -> None:
        ol.mixer.store(i, timeout=CALL_TIMEOUT_S)

    rt.export("log", log)
    rt.start()
    rt.wait = mode
    warm = measure_calls(call, warmup, CALL_TIMEOUT_S * max(1, warmup), time.process_time)
    del lat[:], cycles[:]
    ran[0] = 0
    if warm.stopped is not None:   # the row did not start: say why, with no calls
        m = Measured(0, 0.0, 0.0, f"warm-up {warm.stopped}", warm.loadavg_start, warm.loadavg_end)
    else:
        m = measure_calls(call, calls, budget_s, time.process_time)
    if m.stopped is None and ran[0] != m.calls:
        raise RuntimeError(f"wait mode {mode}: the handler ran {ran[0]} times for {m.calls} calls")
    samples = lat[:m.calls]
    share = idle_share(time.process_time, idle_s)
    return row_of("python", mode, load, hogs, calls, budget_s, m, samples, share,
                  trigger_cycles=cycles[:m.calls])


def run_wait(calls: int = 200, *, modes: Sequence[str] = MODES, loads: Sequence[str] = LOADS,
             warmup: int = 5, idle_s: float = 1.0, simulator: str = "auto",
             outdir: Optional[str] = None, hogs: Optional[int] = None,
             c: bool = True, python: bool = True, budget_s: float = DEFAULT_BUDGET_S,
             progress: Optional[Callable[[str], None]] = None) -> dict[str, Any]:
    """Measure every mode under every load (see the module docstring); returns the rows and
    the raw samples. ``python``/``c``: the Python rows, the C rows (:mod:`pushpush.bench.experiments.wait.wait_c`;
    needs a C compiler). ``hogs``: busy processes of the loaded rows (default one per core).
    ``progress``: told of every row when it is done."""
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import tempfile

    nhogs = hogs if hogs is not None else (os.cpu_count() or 1)
    say = progress or (lambda text: None)
    out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix="pushpush-bench-wait-"))
    rows: list[dict[str, Any]] = []
    info: dict[str, Any] = {"cpus": os.cpu_count(), "hogs": nhogs, "budget_s": budget_s}
    if python:
        import pushpush.pynq as ppq

        hof = CHECKOUT / "tests" / "gen" / "hof" / "system.yaml"
        if not hof.exists():
            raise FileNotFoundError(f"{hof}: the benchmark's system comes with the pushpush "
                                    "source tree (tests/gen/hof); run it from a checkout")
        t0 = time.monotonic()
        ol = ppq.load(hof, outdir=out / "hof", simulator=simulator)
        info.update(simulator=ol.device.simulator,
                    clock_mhz=float(ol.device.manifest.get("clock_mhz", 100.0)))
        say(f"python: hof loaded on {ol.device.simulator} in {time.monotonic() - t0:.1f} s")
        try:
            rt = ol.runtime()
            for load in loads:
                started = _start_hogs(nhogs) if load == "loaded" else []
                try:
                    for mode in modes:
                        row = _run_mode(ol, rt, mode, load, nhogs, calls, warmup, idle_s, budget_s)
                        row["simulator"] = ol.device.simulator
                        rows.append(row)
                        say(row_line(row))
                finally:
                    _stop_hogs(started)
            rt.wait = "sleep"
        finally:
            ol.free()
    if c:
        for row in run_c_wait(calls, modes=modes, loads=loads, warmup=warmup, idle_s=idle_s,
                              simulator=simulator, outdir=str(out / "c"), hogs=nhogs,
                              start_hogs=lambda load: _start_hogs(nhogs) if load == "loaded" else [],
                              stop_hogs=_stop_hogs, budget_s=budget_s, progress=say):
            rows.append(row)
            info.setdefault("simulator", row.get("simulator"))
    return {"calls": calls, "rows": rows, **info}


def _key(row: dict[str, Any]) -> tuple[str, str, str]:
    return (row["lang"], row["load"], row["mode"])


def merge_rows(earlier: Sequence[dict[str, Any]], now: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of this run and those of an earlier one (its ``wait.json``) that this run
    did not measure (another load, say: the idle half re-run on a quiet machine beside the
    loaded half), in the table's order. Earlier rows without this format's keys are
    dropped."""
    have = {_key(r) for r in now}
    kept = [r for r in earlier if "loadavg_start" in r and "calls_requested" in r
            and _key(r) not in have]
    order = {(lang, load, m): i for i, (lang, load, m) in enumerate(
        (lang, load, m) for lang in ("python", "c") for load in LOADS for m in MODES)}
    return sorted([*kept, *now], key=lambda r: order.get(_key(r), len(order)))


def _us(cycles: float) -> float:
    return cycles / FSL_MHZ


def _cycles_between(row: dict[str, Any]) -> str:
    cyc = row.get("trigger_cycles") or []
    gaps = sorted(b - a for a, b in zip(cyc, cyc[1:]))
    return f"{statistics.median(gaps):.0f}" if gaps else "-"


def _num(v: Optional[float], fmt: str) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, fmt)


def format_table(result: dict[str, Any]) -> str:
    """The rows as the FSL paper's Table 1 (its numbers beside ours, in µs), with the calls
    each row made, the waiter's CPU and the host's load average."""
    rows = result["rows"]
    hogs = sorted({r["hogs"] for r in rows if r["load"] == "loaded"})
    sims = sorted({str(r.get("simulator", result.get("simulator", "?"))) for r in rows})
    asked = "/".join(str(n) for n in sorted({r["calls_requested"] for r in rows})) or result["calls"]
    budget = "/".join(f"{b:g}" for b in sorted({r["budget_s"] for r in rows})) or "?"
    lines = [f"Wake-up latency, simulator's store of the call -> handler running: host wall-clock "
             f"µs ({asked} calls asked per row, at most {budget} s each; simulated board on {', '.join(sims) or '?'}, {result.get('cpus', '?')} host "
             f"cores; loaded = {', '.join(map(str, hogs)) or result.get('hogs', '?')} busy "
             "process(es) beside it)", ""]
    hdr = (f"{'':<21}{'load':<7}{'calls':>12}" + "".join(f"{s:>10}" for s in STATS)
           + f"{'CPU/call':>10}{'busy':>6}{'idle':>6}{'load avg':>12}{'PL cyc':>8}")
    lines += [hdr, "-" * len(hdr)]
    for r in rows:
        s = r["latency_us"]
        n = f"{r['calls']}" if r["calls"] == r["calls_requested"] else \
            f"{r['calls']}/{r['calls_requested']}"
        lines.append(f"{row_label(r):<21}{r['load']:<7}{n:>12}"
                     + "".join(f"{_num(s[k], '.1f'):>10}" for k in STATS)
                     + f"{_num(r['cpu_us_per_call'], '.0f') + ' µs':>10}"
                     + f"{_num(100 * r['cpu_share_busy'], '.0f') + '%':>6}"
                     + f"{_num(100 * r['cpu_share_idle'], '.1f') + '%':>6}"
                     + f"{r['loadavg_start']:>6.1f}{r['loadavg_end']:>6.1f}"
                     + f"{_cycles_between(r):>8}")
    for (t, load), vals in FSL_TABLE1.items():
        v = dict(zip(_FSL_STATS, vals))
        lines.append(f"{'FSL paper ' + t:<21}{load:<7}{'-':>12}"
                     + "".join(f"{_num(_us(v[k]), '.1f') if k in v else '-':>10}" for k in STATS))
    for load, (lo, p999) in FSL_PREEMPTION_US.items():
        cells = {"min": lo, "p99.9": p999}
        lines.append(f"{'FSL paper t1+t2':<21}{load:<7}{'-':>12}"
                     + "".join(f"{_num(cells.get(k), '.1f'):>10}" for k in STATS))
    lines += ["",
              "Ours: host wall-clock µs (x86, CLOCK_MONOTONIC) from the simulator's stamp, taken",
              "just before it stores the call's burst in the waiter's window, to the handler's first",
              "line: the wait mode's delay, the runtime's sweep and the host's scheduling of the",
              "waiting process (Python: PYNQ's; interrupt: simulated irq -> modelled axi_intc ->",
              "stand-in UIO -> pynq.Interrupt; C: its handler, interrupt: poll(2) on the stand-in",
              "/dev/uioN). Percentiles by nearest rank. CPU/call: the waiting process's CPU time",
              "per call (Python: the PYNQ process, which also makes the calls; C: the C process);",
              "busy/idle: its share of one core while the calls run and over an idle second. load",
              "avg: os.getloadavg() 1-min at the row's start and end (an 'idle' row on a shared",
              "machine is not idle). calls a/b: the row stopped after a of b calls (its time",
              "budget or a failed call, below). PL cyc: simulated clock cycles (exact) from one",
              "stored call to the next, median: the PL's leg plus the cycles the simulator ran",
              "while software worked, not a wake-up latency.",
              "FSL paper: Mayer et al., a FSL device driver for MicroBlaze Linux (seeds 004), Table 1:",
              "clock cycles of a 125 MHz MicroBlaze counted in hardware (exact), shown in µs (its",
              "recorder holds 16384 samples; how many it took is not stated); t1 = FSL interrupt ->",
              "the driver's ISR, t2 = ISR -> the woken reading",
              "process; t1+t2 (its preemption latency, the quantity ours compares with) is given",
              "only as min 65 µs and 99.9 % < 686 µs idle, < 1210 µs loaded. Its 'loaded' is NFS",
              "copies (I/O and interrupts, load average > 1), ours CPU-bound busy loops. Its",
              "waiter is a process blocked in the kernel; ours a user-space runtime in a process",
              "that shares the host's cores with the simulated PL."]
    stopped = [r for r in rows if r.get("stopped")]
    if stopped:
        lines.append("Rows that stopped short: " + "; ".join(
            f"{row_label(r)} {r['load']} after {r['calls']} of {r['calls_requested']} calls "
            f"({r['stopped']})" for r in stopped))
    late = [r for r in rows if r.get("late_stamps")]
    if late:
        lines.append("C samples left out (the stamp read was not this call's: before the call "
                     "was made or after the handler started): "
                     + ", ".join(f"{r['mode']}/{r['load']} {r['late_stamps']}" for r in late))
    runs = sorted({r["measured_at"][:16] for r in rows if r.get("measured_at")})
    if len(runs) > 1:
        lines.append("Rows measured at: " + ", ".join(
            f"{load} {min(r['measured_at'] for r in rows if r['load'] == load)[:16]}Z"
            for load in LOADS if any(r["load"] == load for r in rows)))
    return "\n".join(lines)


def plot_histogram(result: dict[str, Any], path: str | os.PathLike[str]) -> Optional[Path]:
    """Histograms of the latencies per mode, idle and loaded (log x); None without
    matplotlib."""
    from pushpush.bench.report import pyplot, save_figure

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
                    label=f"{row_label(r)[9:]} (median {r['latency_us']['median']:.0f} µs)")
        ax.set_xscale("log")
        ax.set_xlabel("store of the call -> handler running (host µs)")
        ax.set_ylabel("calls")
        ax.set_title(f"{load}")
        ax.legend(fontsize="small")
    fig.suptitle("pushpush bench wait: wake-up latency per wait mode (simulated board)")
    return save_figure(fig, path, dpi=100)


def run(opts: Any, log: Any) -> dict[str, Any]:
    """``pushpush bench wait`` (registry, :mod:`pushpush.bench.registry`). The rows go into
    DIR/wait.json beside the rows of an earlier run there that this one did not measure
    (:func:`merge_rows`: run the idle half and the loaded half apart)."""
    import json

    from pushpush.bench.registry import OptionError, result

    calls = opts.calls if opts.calls is not None else 200
    if calls < 1:
        raise OptionError(f"--calls {calls}: at least 1 call")
    modes = tuple(opts.modes.split(",")) if opts.modes else MODES
    loads = tuple(opts.loads.split(","))
    langs = tuple(opts.langs.split(","))
    bad = ([m for m in modes if m not in MODES] + [x for x in loads if x not in LOADS]
           + [x for x in langs if x not in ("python", "c")])
    if bad:
        raise OptionError(f"unknown {', '.join(bad)}: --modes takes {','.join(MODES)}, "
                          f"--loads {','.join(LOADS)}, --langs python,c")
    if not opts.budget > 0:
        raise OptionError(f"--budget {opts.budget:g}: the seconds a row may run, more than 0")
    if opts.hogs is not None:
        if "loaded" not in loads:
            raise OptionError(f"--hogs {opts.hogs}: only the loaded rows have busy processes; "
                              "add --loads loaded (or drop --hogs)")
        if opts.hogs < 1:
            raise OptionError(f"--hogs {opts.hogs}: at least 1 busy process (or --loads idle)")
    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    res = run_wait(calls, modes=modes, loads=loads, simulator=opts.sim or "auto",
                   outdir=str(out / "work" / "wait"), hogs=opts.hogs, python="python" in langs,
                   c="c" in langs, budget_s=float(opts.budget), progress=log)
    path = out / "wait.json"
    if path.exists():
        try:
            earlier = json.loads(path.read_text()).get("rows", [])
        except (ValueError, AttributeError):
            earlier = []
            log(f"{path}: not a wait.json this bench wrote; replaced")
        res["rows"] = merge_rows(earlier, res["rows"])
    path.write_text(json.dumps(res, indent=1))
    table = format_table(res)
    png = plot_histogram(res, out / "wait.png")
    printed = table + f"\n\nresults: {path}" + (
        f", histogram: {png}" if png else " (no histogram: matplotlib is not installed)")
    rows = [{k: v for k, v in r.items() if k not in ("samples_us", "trigger_cycles")}
            for r in res["rows"]]
    return result("wait", "wait: wake-up latency per wait mode", printed, rows=rows,
                  markdown=table, plots=[png.name] if png else [])
