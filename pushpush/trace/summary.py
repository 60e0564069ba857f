"""The summary of a trace: per function the count, min/median/p99/max latency in cycles and
the bytes moved; per component the share of the trace's window it was busy.

Every figure is computed from the :class:`~pushpush.trace.model.Trace` alone, so the same
summary comes out of a trace read back from its file (a test checks it).

* latency: :attr:`Call.latency` (first beat of the call to the status word of its return);
  calls without it (one-way, or still open at the end) are counted, not timed;
* p99: the nearest rank (the smallest latency that at least 99 % of the calls do not
  exceed); the median: the lower median (a latency that occurred);
* busy: the union of the cycles a component executed calls (taken to result) or ran spans,
  over the window ``end - start``.

Example::

    s = summarize(trace)
    s.functions["callee.f"].median     # cycles
    print(s.text())
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from .model import Trace

__all__ = ["FunctionStats", "Summary", "summarize", "nearest_rank"]


def nearest_rank(sorted_values: list[int], q: float) -> int:
    """The ``q`` quantile (0 < q <= 1) of ``sorted_values`` by the nearest-rank method."""
    if not sorted_values:
        raise ValueError("no values")
    k = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[k - 1]


@dataclass
class FunctionStats:
    """Calls of one function."""

    count: int = 0
    timed: int = 0
    min: Optional[int] = None
    median: Optional[int] = None
    p99: Optional[int] = None
    max: Optional[int] = None
    bytes: int = 0


@dataclass
class Summary:
    """See the module docstring. ``busy``: component -> share (0..1) of the window."""

    window: int
    clock_mhz: float
    functions: dict[str, FunctionStats] = field(default_factory=dict)
    busy: dict[str, float] = field(default_factory=dict)
    span_bytes: dict[str, int] = field(default_factory=dict)

    def text(self) -> str:
        """The summary as a table (what ``pushpush run --trace`` prints)."""
        lines = [f"trace: {self.window} cycles ({self.window / self.clock_mhz:.2f} us at "
                 f"{self.clock_mhz:g} MHz)",
                 f"  {'function':<24} {'calls':>6} {'min':>6} {'median':>7} {'p99':>6} "
                 f"{'max':>6} {'bytes':>9}   (latency in cycles)"]
        for name, f in sorted(self.functions.items()):
            def v(x: Optional[int]) -> str:
                return "-" if x is None else str(x)
            lines.append(f"  {name:<24} {f.count:>6} {v(f.min):>6} {v(f.median):>7} "
                         f"{v(f.p99):>6} {v(f.max):>6} {f.bytes:>9}")
        for kind, b in sorted(self.span_bytes.items()):
            lines.append(f"  {kind + ' transfers':<24} {'':>6} {'':>6} {'':>7} {'':>6} {'':>6} "
                         f"{b:>9}")
        lines.append("  busy: " + ", ".join(f"{c} {100 * s:.1f}%" for c, s in self.busy.items()))
        return "\n".join(lines)


def _union(intervals: list[tuple[int, int]], lo: int, hi: int) -> int:
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted((max(lo, s), min(hi, e)) for s, e in intervals):
        if e <= s:
            continue
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def summarize(trace: Trace) -> Summary:
    """The :class:`Summary` of ``trace``."""
    window = max(0, trace.end - trace.start)
    out = Summary(window=window, clock_mhz=trace.clock_mhz)
    lat: dict[str, list[int]] = {}
    for c in trace.calls:
        f = out.functions.setdefault(c.function, FunctionStats())
        f.count += 1
        f.bytes += c.bytes
        if c.latency is not None:
            lat.setdefault(c.function, []).append(c.latency)
    for name, values in lat.items():
        values.sort()
        f = out.functions[name]
        f.timed = len(values)
        f.min, f.max = values[0], values[-1]
        f.median = values[(len(values) - 1) // 2]
        f.p99 = nearest_rank(values, 0.99)
    for s in trace.spans:
        out.span_bytes[s.kind] = out.span_bytes.get(s.kind, 0) + s.bytes
    busy: dict[str, list[tuple[int, int]]] = {c: [] for c in trace.components}
    for c in trace.calls:
        if c.taken is not None and c.result is not None:
            busy.setdefault(c.callee, []).append((c.taken, c.result))
    for s in trace.spans:
        busy.setdefault(s.track, []).append((s.start, s.end))
    for comp, ivs in busy.items():
        out.busy[comp] = _union(ivs, trace.start, trace.end) / window if window else 0.0
    return out
