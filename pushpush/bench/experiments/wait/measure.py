"""What the Python and the C rows of ``pushpush bench wait`` share: how a row is measured.

:func:`measure_calls` makes a row's calls within its time budget (stopping, and saying why,
at the budget or at a failed call), :func:`idle_share` measures the waiting process's CPU
use with nothing to do, :func:`row_of` puts a row together (:func:`summarize`: its latency
statistics) and :func:`row_line` / :func:`row_label` say what it is. The Python rows are
:mod:`.wait`, the C rows :mod:`.wait_c`.
"""

from __future__ import annotations

import datetime
import math
import os
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

__all__ = ["STATS", "CALL_TIMEOUT_S", "Measured", "measure_calls", "summarize", "row_of",
           "idle_share", "row_line", "row_label"]

STATS = ("mean", "sigma", "min", "median", "p99", "p99.9", "max")
#: Seconds one call of the bench may take before it counts as failed (the row stops there).
CALL_TIMEOUT_S = 60.0
#: Failures of a call that stop its row (kept in the row) instead of the whole bench.
_CALL_FAILURES: tuple[type[BaseException], ...] = (TimeoutError, RuntimeError, OSError, ValueError)


def _rank(xs: Sequence[float], q: float) -> float:
    """The q-quantile of sorted ``xs`` by nearest rank (a sample, never an interpolation)."""
    return xs[max(0, math.ceil(q * len(xs)) - 1)]


def summarize(samples_us: Sequence[float]) -> dict[str, float]:
    """mean, sigma, min, median, the 99th and 99.9th percentiles (nearest rank) and max of
    samples (NaN for none)."""
    xs = sorted(samples_us)
    if not xs:
        return {k: math.nan for k in STATS}
    return {"mean": statistics.fmean(xs), "sigma": statistics.pstdev(xs) if len(xs) > 1 else 0.0,
            "min": xs[0], "median": statistics.median(xs), "p99": _rank(xs, 0.99),
            "p99.9": _rank(xs, 0.999), "max": xs[-1]}


@dataclass
class Measured:
    """What :func:`measure_calls` did: calls made, their wall and CPU seconds (between the
    calls' chunks only), why it stopped short (None: all made) and the load averages."""

    calls: int
    wall_s: float
    cpu_s: float
    stopped: Optional[str]
    loadavg_start: float
    loadavg_end: float


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}".rstrip(": ")


def measure_calls(call: Callable[[int], None], calls: int, budget_s: float, cpu: Callable[[], float],
                  *, chunk: int = 0, between: Optional[Callable[[], None]] = None) -> Measured:
    """Make ``call(i)`` for i = 0 .. ``calls``-1, stopping between two calls once
    ``budget_s`` seconds have passed (``stopped`` "budget") or at the first call that fails
    (``stopped`` the error; the failed call is not counted). Every ``chunk`` calls (0:
    never) ``between()`` runs (collecting the samples, say), outside the wall and CPU
    (``cpu()``: the waiting process's CPU seconds) counted for the calls."""
    load0 = os.getloadavg()[0]
    begin = time.monotonic()
    wall = cpu_s = 0.0
    done = 0
    stopped: Optional[str] = None
    while done < calls and stopped is None:
        c0, t0 = cpu(), time.monotonic()
        end = calls if not chunk else min(calls, done + chunk)
        while done < end:
            if time.monotonic() - begin >= budget_s:
                stopped = f"budget: {budget_s:g} s"
                break
            try:
                call(done)
            except _CALL_FAILURES as e:
                stopped = f"error: {_why(e)}"
                break
            done += 1
        wall += time.monotonic() - t0
        cpu_s += cpu() - c0
        if between is not None and (chunk or stopped is not None or done >= calls):
            between()
    return Measured(done, wall, cpu_s, stopped, load0, os.getloadavg()[0])


def row_of(lang: str, mode: str, load: str, hogs: int, requested: int, budget_s: float,
           m: Measured, samples_us: list[float], idle_share: float, **more: Any) -> dict[str, Any]:
    """One row of the results (its keys: :mod:`.wait`'s docstring)."""
    return {"lang": lang, "mode": mode, "load": load, "hogs": hogs if load == "loaded" else 0,
            "calls": m.calls, "calls_requested": requested, "stopped": m.stopped,
            "budget_s": budget_s, "wall_s": m.wall_s,
            "calls_per_s": m.calls / m.wall_s if m.wall_s > 0 else math.nan,
            "cpu_s": m.cpu_s, "cpu_us_per_call": 1e6 * m.cpu_s / m.calls if m.calls else math.nan,
            "cpu_share_busy": m.cpu_s / m.wall_s if m.wall_s > 0 else math.nan,
            "cpu_share_idle": idle_share, "loadavg_start": m.loadavg_start,
            "loadavg_end": m.loadavg_end,
            "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "latency_us": summarize(samples_us), "samples_us": samples_us, **more}


def idle_share(cpu: Callable[[], float], idle_s: float) -> float:
    """The share of a core ``cpu()`` (a process's CPU seconds) grows by over ``idle_s``
    seconds of waiting with nothing to do."""
    time.sleep(min(0.2, idle_s))
    i0, w0 = cpu(), time.monotonic()
    time.sleep(idle_s)
    return (cpu() - i0) / (time.monotonic() - w0)


def row_label(row: dict[str, Any]) -> str:
    """A row's name in the table: ``pushpush <mode>`` (Python) or ``pushpush C <mode>``."""
    return ("pushpush C " if row.get("lang") == "c" else "pushpush ") + row["mode"]


def row_line(row: dict[str, Any]) -> str:
    """One line about a finished row (progress)."""
    s = row["latency_us"]
    return (f"{row_label(row)} {row['load']}: {row['calls']}/{row['calls_requested']} calls in "
            f"{row['wall_s']:.1f} s, median {s['median']:.1f} µs, p99.9 {s['p99.9']:.1f} µs, "
            f"load average {row['loadavg_start']:.1f} -> {row['loadavg_end']:.1f}"
            + (f" (stopped: {row['stopped']})" if row.get("stopped") else ""))
