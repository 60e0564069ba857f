"""The timeline of a trace drawn with matplotlib (for docs and for Jupyter users who do not
open Perfetto): one row per component, its calls' slices as bars (a nested call drawn
thinner inside the one that caused it), the callee's execution in a second colour, arrows
from each call to its callee and back, DMA/send spans below their component.

Example::

    from pushpush.trace import read_trace
    from pushpush.trace.plot import plot_timeline
    plot_timeline(read_trace("fir.trace"), "fir.png", first=200, last=420)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

from .model import Call, Trace

__all__ = ["plot_timeline"]

_COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c", "#ccb974", "#64b5cd"]


def _depth(trace: Trace, c: Call) -> int:
    d, seen = 0, set()
    while c.parent is not None and c.parent not in seen:
        seen.add(c.parent)
        c = trace.call(c.parent)
        d += 1
    return d


def plot_timeline(trace: Trace, path: Union[None, str, Path] = None, *,
                  first: Optional[int] = None, last: Optional[int] = None,
                  ax: Any = None, title: Optional[str] = None) -> Any:
    """Draw ``trace`` between cycles ``first`` and ``last`` (default: all) on ``ax`` (a new
    figure when None); saved as ``path`` (PNG) if given. Returns the figure."""
    import matplotlib
    if path is not None and ax is None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    starts = [c.start for c in trace.calls if c.start is not None]
    lo = (max(trace.start, min(starts) - 10) if starts else trace.start) if first is None else first
    hi = trace.end if last is None else last
    tracks = list(trace.components)
    for s in trace.spans:
        if s.track not in tracks:
            tracks.append(s.track)
    row = {t: len(tracks) - 1 - i for i, t in enumerate(tracks)}
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(12, 1.1 + 0.9 * len(tracks)))
    else:
        fig = ax.figure
    functions = sorted({c.function for c in trace.calls})
    color = {f: _COLORS[i % len(_COLORS)] for i, f in enumerate(functions)}
    labelled: set[str] = set()
    for c in trace.calls:
        if c.start is None or c.end is None or c.end < lo or c.start > hi:
            continue
        d = _depth(trace, c)
        h = max(0.15, 0.7 - 0.2 * d)
        y = row[c.caller] - h / 2 if c.caller in row else None
        if y is not None:
            lab = None if c.function in labelled else c.function
            labelled.add(c.function)
            ax.broken_barh([(c.start, max(c.end - c.start, 0.4))], (y, h),
                           facecolors=color[c.function], edgecolor="black", linewidth=0.4,
                           alpha=0.9, label=lab)
        if c.taken is not None and c.result is not None and c.callee in row:
            ax.broken_barh([(c.taken, max(c.result - c.taken, 0.4))],
                           (row[c.callee] - 0.5, 0.14), facecolors=color[c.function],
                           edgecolor="black", linewidth=0.3, hatch="//", alpha=0.6)
            if c.caller in row:
                ax.annotate("", xy=(c.taken, row[c.callee] - 0.43), xytext=(c.start, row[c.caller]),
                            arrowprops={"arrowstyle": "->", "color": "0.35", "lw": 0.5})
                if c.end >= c.result:
                    ax.annotate("", xy=(c.end, row[c.caller]), xytext=(c.result, row[c.callee] - 0.43),
                                arrowprops={"arrowstyle": "->", "color": "0.6", "lw": 0.5,
                                            "linestyle": "--"})
    for s in trace.spans:
        if s.end < lo or s.start > hi:
            continue
        ax.broken_barh([(s.start, max(s.end - s.start, 0.4))], (row[s.track] - 0.3, 0.6),
                       facecolors="#bbbbbb", edgecolor="black", linewidth=0.4)
        ax.text(s.start, row[s.track], f" {s.name}", va="center", fontsize=7)
    ax.set_yticks([row[t] for t in tracks])
    ax.set_yticklabels([f"{t} ({trace.components[t]})" if t in trace.components else t
                        for t in tracks])
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.8, len(tracks) - 0.1)
    ax.set_xlabel(f"clock cycle ({trace.clock_mhz:g} MHz)")
    ax.grid(axis="x", alpha=0.3)
    if labelled:
        ax.legend(loc="upper right", fontsize=7, ncol=min(4, len(labelled)))
    ax.set_title(title or f"{trace.meta.get('system', 'system')}: calls (bars: caller's view; "
                          "thin hatched bars below a track: it executes the call; arrows: call and return)", fontsize=9)
    if fig is not None:
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=110)
    return fig


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m pushpush.trace.plot TRACE PNG [--first N] [--last N]``."""
    import argparse
    from .chrome import read_trace
    p = argparse.ArgumentParser(prog="python -m pushpush.trace.plot",
                                description="draw a pushpush trace's timeline into a PNG")
    p.add_argument("trace")
    p.add_argument("png")
    p.add_argument("--first", type=int, default=None, help="first cycle shown")
    p.add_argument("--last", type=int, default=None, help="last cycle shown")
    a = p.parse_args(argv)
    plot_timeline(read_trace(a.trace), a.png, first=a.first, last=a.last)
    return 0


if __name__ == "__main__":
    # The documented command (docs/trace.md): the pushpush command has no trace subcommand.
    raise SystemExit(main())
