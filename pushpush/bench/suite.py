"""``pushpush bench all``: the PushPush paper's evaluation (§V), every experiment, one folder.

Runs :mod:`~pushpush.bench.calls` (Table II, III), :mod:`~pushpush.bench.scaling_report`
(Fig. 3), :mod:`~pushpush.bench.area` (Fig. 4) and :mod:`~pushpush.bench.args` (Fig. 5, 6),
each sweep's points in parallel over the machine's cores (or as cluster jobs: ``executor``,
see :mod:`pushpush.executor`), and writes into ``out``:
``<experiment>.json``, ``<experiment>.md``, the PNG plots and ``summary.md`` (the machine,
every table, every target). ``smoke=True`` runs a few points per experiment (what CI runs).
A full run also puts the summary into ``<out>/../README.md`` between its results markers
(:func:`pushpush.bench.report.update_readme`), so ``pushpush bench all`` regenerates
``benchmarks/README.md``.

Example::

    from pushpush.bench.suite import run_all
    results = run_all(Path("benchmarks/results"), smoke=True)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.executor import Executor

from .report import update_readme, write_result, write_summary
from .sweep import using_executor

__all__ = ["EXPERIMENTS", "run_experiment", "run_all", "summarise"]

EXPERIMENTS = ("calls", "scaling", "area", "args")


def run_experiment(name: str, out: Path, smoke: bool = False, jobs: Optional[int] = None,
                   simulator: str = "icarus", log: Callable[[str], None] = print,
                   args_nargs: Optional[list[int]] = None,
                   args_pairs: Optional[list[int]] = None,
                   executor: Optional[Executor] = None) -> dict[str, Any]:
    """Run one experiment and write its JSON and Markdown (and plots) into ``out``
    (``args_nargs``/``args_pairs``: a sub-grid for ``args``; ``executor``: where the sweep
    points run, default the current one of :func:`~.sweep.using_executor`, else a local pool
    of ``jobs`` processes)."""
    out.mkdir(parents=True, exist_ok=True)
    if executor is None:  # the current one (using_executor), else the local pool
        return _run_experiment(name, out, smoke, jobs, simulator, log, args_nargs, args_pairs)
    with using_executor(executor):
        return _run_experiment(name, out, smoke, jobs, simulator, log, args_nargs, args_pairs)


def _run_experiment(name: str, out: Path, smoke: bool, jobs: Optional[int], simulator: str,
                    log: Callable[[str], None], args_nargs: Optional[list[int]],
                    args_pairs: Optional[list[int]]) -> dict[str, Any]:
    if name == "calls":
        from .calls import run_calls
        res = run_calls(out, smoke=smoke, jobs=jobs, simulator=simulator, log=log)
    elif name == "scaling":
        from .scaling_report import run_scaling_experiment
        res = run_scaling_experiment(out, smoke=smoke, jobs=jobs, simulator=simulator, log=log)
    elif name == "area":
        from .area import run_area
        res = run_area(out, smoke=smoke, jobs=jobs, log=log)
    elif name == "args":
        from .args import run_args
        res = run_args(out, smoke=smoke, jobs=jobs, simulator=simulator, log=log,
                       nargs=args_nargs, pairs=args_pairs)
    else:
        raise ValueError(f"unknown experiment '{name}' (known: {', '.join(EXPERIMENTS)})")
    write_result(out, res)
    return res


def run_all(out: Path, smoke: bool = False, jobs: Optional[int] = None, simulator: str = "icarus",
            only: Sequence[str] = EXPERIMENTS, command: str = "pushpush bench all",
            log: Callable[[str], None] = print,
            executor: Optional[Executor] = None) -> list[dict[str, Any]]:
    """Every experiment in ``only``, then ``summary.md``; returns the results (``executor``:
    where the sweep points run, default a local pool of ``jobs`` processes)."""
    t0 = time.monotonic()
    results = []
    for name in only:
        t1 = time.monotonic()
        results.append(run_experiment(name, out, smoke, jobs, simulator, log, executor=executor))
        log(f"{name}: {time.monotonic() - t1:.0f} s")
    summary = write_summary(out, results, time.monotonic() - t0, command, smoke)
    if not smoke and update_readme(out.parent / "README.md", summary):
        log(f"updated {out.parent / 'README.md'}")
    return results


def summarise(out: Path, command: str, log: Callable[[str], None] = print) -> Path:
    """``summary.md`` (and the README's results section) from the ``<experiment>.json`` files
    already in ``out`` (e.g. experiments run one by one); the wall time is their sum."""
    import json

    results = [json.loads((out / f"{n}.json").read_text()) for n in EXPERIMENTS
               if (out / f"{n}.json").is_file()]
    if not results:
        raise FileNotFoundError(f"no results in {out}: run pushpush bench all (or an experiment) first")
    smoke = any(r.get("smoke") for r in results)
    summary = write_summary(out, results, sum(float(r.get("wall_s") or 0) for r in results),
                            command, smoke)
    if not smoke and update_readme(out.parent / "README.md", summary):
        log(f"updated {out.parent / 'README.md'}")
    return summary
