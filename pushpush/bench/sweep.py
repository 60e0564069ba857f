"""Sweep points of the paper-evaluation benchmarks, run in parallel over the machine's cores
or as cluster jobs.

A point is a plain dict (JSON-able); :func:`run_points` maps a module-level function over
the points with the current executor (:mod:`pushpush.executor`; :func:`using_executor` sets
it, e.g. ``pushpush bench all --executor slurm``), by default a process pool of ``jobs``
workers (default the number of cores), keeping the points' order. Every point works in its
own folder, so points never share a build.

:func:`simulate_chain` is the usual point: generate the pairs system of
:mod:`pushpush.bench.pairs_system`, simulate it with :mod:`pushpush.bench.chain_tb` and return the
cycle counts.

Example::

    from pushpush.bench.sweep import run_points, simulate_chain
    pts = [{"work": f"/tmp/s/{n}", "pairs": n, "nargs": 1, "delay": 0, "mode": "rtl",
            "calls": 50, "interconnect": {"topology": "crossbar"}} for n in (1, 2)]
    rows = run_points(simulate_chain, pts)
"""

from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from pushpush.executor import Executor, LocalExecutor, default_jobs

__all__ = ["default_jobs", "run_points", "using_executor", "simulate_chain", "CLOCK_MHZ"]

CLOCK_MHZ = 100.0

_EXECUTOR: ContextVar[Optional[Executor]] = ContextVar("pushpush_bench_executor", default=None)


@contextmanager
def using_executor(executor: Optional[Executor]) -> Iterator[None]:
    """Within the block, :func:`run_points` runs on ``executor`` (None: the local pool)."""
    token = _EXECUTOR.set(executor)
    try:
        yield
    finally:
        _EXECUTOR.reset(token)


def run_points(fn: Callable[[dict[str, Any]], dict[str, Any]], points: Sequence[dict[str, Any]],
               jobs: Optional[int] = None, log: Callable[[str], None] = print,
               kind: str = "sim") -> list[dict[str, Any]]:
    """``[fn(p) for p in points]`` on the current executor (:func:`using_executor`), else over
    ``jobs`` local processes (1: in this process); ``kind`` (``sim``, ``synth``: see
    :data:`pushpush.executor.KINDS`) sets what a cluster job asks for."""
    executor = _EXECUTOR.get() or LocalExecutor(jobs)
    return executor.map(fn, points, kind=kind, log=log)


def simulate_chain(point: dict[str, Any]) -> dict[str, Any]:
    """Generate and simulate one point; returns the point plus ``window``, ``per_pair_calls``,
    ``run_cycles``, ``cpc`` (cycles per call of every pair in the window), ``mcalls_total``,
    ``mcalls_per_pair`` (mean) at :data:`CLOCK_MHZ`, ``sim_s`` (wall seconds of the point).

    Keys of ``point``: ``work`` (folder), ``pairs``, ``nargs``, ``delay``, ``mode``
    (see :mod:`pushpush.bench.chain_tb`), ``calls``, ``interconnect``, optional
    ``simulator`` (default icarus) and ``firewall`` (the window guard on)."""
    from pushpush.sim import simulate_system

    from pushpush.bench.pairs_system import write_pairs_system

    t0 = time.monotonic()
    work = Path(point["work"]).resolve()  # the simulator runs in another folder
    mode = point["mode"]
    caller_kind = "python" if mode in ("py2rtl", "py2py") else "rtl"
    callee_kind = "python" if mode in ("rtl2py", "py2py") else "rtl"
    yaml = write_pairs_system(work, point["pairs"], point["nargs"], point.get("delay", 0),
                              point["interconnect"], caller_kind=caller_kind, callee_kind=callee_kind,
                              firewall=bool(point.get("firewall")))
    out = work / "result.json"
    if out.exists():
        out.unlink()
    env = {"PP_BENCH": json.dumps({"mode": mode, "pairs": point["pairs"], "calls": point["calls"],
                                   "nargs": point["nargs"]}),
           "PP_BENCH_OUT": str(out),
           "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING"),
           "GPI_LOG_LEVEL": os.environ.get("GPI_LOG_LEVEL", "ERROR"),
           "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    simulate_system(yaml, test_module="chain_tb", test_dir=Path(__file__).parent,
                    simulator=point.get("simulator", "icarus"), build_dir=work / "build",
                    extra_env=env)
    r = json.loads(out.read_text())
    window, per = r["window"], r["per_pair_calls"]
    # a Verilog caller's window spans the handshakes of results 1..n: n-1 calls between them
    total = sum(per)
    row = dict(point)
    row.update({"window": window, "per_pair_calls": per, "run_cycles": r["run_cycles"],
                "cpc": [round(window / c, 3) for c in per],
                "mcalls_total": round(CLOCK_MHZ * total / window, 3),
                "mcalls_per_pair": round(CLOCK_MHZ * total / window / len(per), 3),
                "sim_s": round(time.monotonic() - t0, 1)})
    return row
