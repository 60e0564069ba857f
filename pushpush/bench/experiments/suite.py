"""``pushpush bench all``: the PushPush paper's evaluation (§V), every experiment, one folder.

Runs :mod:`~pushpush.bench.experiments.calls.calls` (Table II, III), :mod:`~pushpush.bench.experiments.scaling.scaling_report`
(Fig. 3), :mod:`~pushpush.bench.experiments.area.area` (Fig. 4) and :mod:`~pushpush.bench.experiments.args` (Fig. 5, 6),
each sweep's points in parallel over the machine's cores (or as cluster jobs: ``executor``,
see :mod:`pushpush.executor`), and writes into ``out``:
``<experiment>.json``, ``<experiment>.md``, the PNG plots and ``summary.md`` (the machine,
every table, every target). ``smoke=True`` runs a few points per experiment (what CI runs).
A full run also puts the summary into ``<out>/../README.md`` between its results markers
(:func:`pushpush.bench.report.update_readme`), so ``pushpush bench all`` regenerates
``benchmarks/README.md``.

``EXPERIMENTS`` are the paper's four (what ``all`` runs); the registry of every ``pushpush
bench`` experiment is :mod:`pushpush.bench.registry`, whose entries for these four, ``all``
and ``summary`` are the ``run_*_cli`` functions at the end of this module.

Example::

    from pushpush.bench.experiments.suite import run_all
    results = run_all(Path("benchmarks/results"), smoke=True)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.executor import Executor

from pushpush.bench.report import update_readme, write_result, write_summary
from pushpush.bench.sweep import using_executor

__all__ = ["EXPERIMENTS", "run_experiment", "run_all", "summarise", "run_experiment_cli", "run_all_cli",
           "run_summary_cli"]

EXPERIMENTS = ("calls", "scaling", "area", "args")


def run_experiment(name: str, out: Path, smoke: bool = False, jobs: Optional[int] = None,
                   simulator: str = "icarus", log: Callable[[str], None] = print,
                   args_nargs: Optional[list[int]] = None,
                   args_pairs: Optional[list[int]] = None,
                   executor: Optional[Executor] = None) -> dict[str, Any]:
    """Run one experiment and write its JSON and Markdown (and plots) into ``out``
    (``args_nargs``/``args_pairs``: a sub-grid for ``args``; ``executor``: where the sweep
    points run, default the current one of :func:`~pushpush.bench.sweep.using_executor`, else a local pool
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
        from pushpush.bench.experiments.calls.calls import run_calls
        res = run_calls(out, smoke=smoke, jobs=jobs, simulator=simulator, log=log)
    elif name == "scaling":
        from pushpush.bench.experiments.scaling.scaling_report import run_scaling_experiment
        res = run_scaling_experiment(out, smoke=smoke, jobs=jobs, simulator=simulator, log=log)
    elif name == "area":
        from pushpush.bench.experiments.area.area import run_area
        res = run_area(out, smoke=smoke, jobs=jobs, log=log)
    elif name == "args":
        from pushpush.bench.experiments.args import run_args
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


# ------------------------------------------------------------------ pushpush bench (registry)


def _reference_verilog_axi(opts: Any) -> None:
    """--reference-verilog-axi: checked before any synthesis runs, then read by
    :mod:`pushpush.bench.experiments.area.area` from the environment (also under ``all``)."""
    path = getattr(opts, "reference_verilog_axi", None)
    if not path:
        return
    import os

    from pushpush.bench.registry import OptionError
    from pushpush.bench.experiments.area.xbar_area import ENV_VERILOG_AXI, verilog_axi_checkout
    try:
        verilog_axi_checkout(path)
    except ValueError as exc:
        raise OptionError(f"--reference-verilog-axi: {exc}") from None
    os.environ[ENV_VERILOG_AXI] = str(Path(path).expanduser().resolve())


def _args_grid(text: Optional[str]) -> list[Optional[list[int]]]:
    from pushpush.bench.registry import OptionError

    if not text:
        return [None, None]
    try:
        grid: list[Optional[list[int]]] = [[int(x) for x in part.split(",")] for part in text.split(":")]
        if len(grid) != 2 or min(grid[0] or [0]) < 0 or max(grid[0] or [0]) > 64 \
                or min(grid[1] or [0]) < 1 or max(grid[1] or [0]) > 15:
            raise ValueError
    except ValueError:
        raise OptionError(f"--args-grid {text}: give argument counts (0..64) and "
                          "pair counts (1..15), e.g. --args-grid 0,8,32:1,8") from None
    return grid


def _printed(results: Sequence[dict[str, Any]], out: Path, summary: bool) -> str:
    lines = [(out / f"{r['experiment']}.md").read_text() for r in results]
    if summary:
        lines.append(f"summary: {out / 'summary.md'}")
    lines.append(f"results: {', '.join(str(out / (r['experiment'] + '.json')) for r in results)}")
    missed = [f"{r['experiment']}: {t['target']}: {t['ours']}" for r in results
              for t in r["targets"] if not t["met"]]
    if missed:
        lines.append("targets missed:\n  " + "\n  ".join(missed))
    return "\n".join(lines)


def run_experiment_cli(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench calls|area|args|scaling --smoke``: one experiment of the paper's."""
    from pushpush.bench.registry import simulator

    sim = simulator(getattr(opts, "sim", None)) if opts.benchmark != "area" else "icarus"
    _reference_verilog_axi(opts)
    nargs, pairs = _args_grid(getattr(opts, "args_grid", None))
    out = Path(opts.output)
    res = run_experiment(opts.benchmark, out, smoke=opts.smoke, jobs=opts.jobs, simulator=sim,
                         log=log, args_nargs=nargs, args_pairs=pairs)
    return {**res, "printed": _printed([res], out, summary=False)}


def run_all_cli(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench all``: every experiment, then ``summary.md``."""
    from pushpush.bench.registry import DEFAULT_OUT, result, simulator

    sim = simulator(opts.sim)
    _reference_verilog_axi(opts)
    out = Path(opts.output)
    cmd = "pushpush bench all" + (" --smoke" if opts.smoke else "") + \
          (f" --out {opts.output}" if opts.output != DEFAULT_OUT else "")
    results = run_all(out, smoke=opts.smoke, jobs=opts.jobs, simulator=sim, only=EXPERIMENTS,
                      command=cmd, log=log)
    return result("all", "the PushPush paper's evaluation", _printed(results, out, summary=True),
                  rows=results, targets=[t for r in results for t in r["targets"]],
                  markdown=(out / "summary.md").read_text())


def run_summary_cli(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench summary``: ``summary.md`` from the JSON already there."""
    from pushpush.bench.registry import DEFAULT_OUT, OptionError, result

    out = Path(opts.output)
    try:
        path = summarise(out, "pushpush bench summary" + (f" --out {opts.output}"
                                                          if opts.output != DEFAULT_OUT else ""), log)
    except FileNotFoundError as exc:
        raise OptionError(str(exc)) from None
    return result("summary", "summary", f"summary: {path}", markdown=path.read_text())
