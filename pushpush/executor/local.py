"""The ``local`` executor: points in a process pool on this machine (what pushpush always did).

``jobs`` worker processes (default :func:`default_jobs`: ``$PUSHPUSH_BENCH_JOBS``, else the
cores this process may use); ``jobs=1`` runs the points in this process. The results keep
the points' order; a point's exception propagates as it is (the first failed point in order),
after the points already started have finished. The kind of work does not matter here.

Example::

    from pushpush.executor.local import LocalExecutor
    rows = LocalExecutor(jobs=2).map(simulate_chain, points)
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Optional, Sequence

from .base import KINDS, Executor, Log, PointFn, label_of

__all__ = ["LocalExecutor", "default_jobs"]


def default_jobs() -> int:
    """Worker processes: ``$PUSHPUSH_BENCH_JOBS``, else the cores this process may use."""
    env = os.environ.get("PUSHPUSH_BENCH_JOBS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class LocalExecutor(Executor):
    """A process pool of ``jobs`` workers (None: :func:`default_jobs`)."""

    name = "local"

    def __init__(self, jobs: Optional[int] = None) -> None:
        self.jobs = jobs

    def map(self, fn: PointFn, points: Sequence[dict[str, Any]], kind: str = "sim",
            log: Log = print, reuse: bool = True) -> list[dict[str, Any]]:
        if kind not in KINDS:
            raise ValueError(f"unknown kind of work '{kind}' (known: {', '.join(KINDS)})")
        n = self.jobs or default_jobs()
        if n <= 1 or len(points) <= 1:
            out = []
            for i, p in enumerate(points):
                out.append(fn(p))
                log(f"  done: {label_of(p, i)}")
            return out
        with ProcessPoolExecutor(max_workers=min(n, len(points))) as pool:
            futures = [pool.submit(fn, p) for p in points]
            results = []
            for i, (p, fut) in enumerate(zip(points, futures)):
                results.append(fut.result())
                log(f"  done: {label_of(p, i)}")
            return results
