"""``pushpush bench scaling``: its options, the sweep, the printed table and the targets.

The registry's ``run(opts, log)`` of the experiment (:mod:`pushpush.bench.registry`): without
``--smoke`` it runs :func:`~.scaling.run_scaling` over the pair counts asked for (default the
paper evaluation's, :data:`~.scaling_report.FULL_PAIRS`) and writes ``scaling.json`` in the
common results format (:func:`~.scaling_report.add_common`); ``--smoke`` runs the paper
evaluation's smoke set through :mod:`pushpush.bench.experiments.suite`. It sits above both, so
the measurement (:mod:`.scaling`) imports neither the report nor the suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pushpush.bench.experiments.scaling.scaling import (QUICK_PAIRS, TARGET_MCALLS, check_targets,
                                                        format_table, run_scaling)
from pushpush.bench.experiments.scaling.scaling_report import FULL_PAIRS as DEFAULT_PAIRS, add_common
from pushpush.bench.experiments.suite import run_experiment_cli
from pushpush.bench.registry import OptionError, missed_targets, simulator
from pushpush.bench.report import write_result

__all__ = ["run"]


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench scaling`` (registry, :mod:`pushpush.bench.registry`); ``--smoke``: the
    paper evaluation's smoke set (:mod:`pushpush.bench.experiments.suite`)."""
    if opts.smoke:
        given = [o for o, v in (("--quick", opts.quick), ("--pairs", opts.pairs),
                                ("--calls", opts.calls)) if v]
        if given:
            raise OptionError(f"{', '.join(given)} with --smoke: --smoke runs the fixed smoke set "
                              "(the paper evaluation's); give one or the other")
        return run_experiment_cli(opts, log)
    sim = simulator(opts.sim)
    if opts.pairs:
        try:
            pairs = [int(x) for x in opts.pairs.split(",")]
        except ValueError:
            raise OptionError(f"--pairs {opts.pairs}: give pair counts separated by commas, "
                              "e.g. --pairs 1,2,4,8") from None
        if not pairs or min(pairs) < 1 or max(pairs) > 15:
            raise OptionError(f"--pairs {opts.pairs}: pair counts must be 1..15 (2 components "
                              "each, plus the ARM, on at most 32 interconnect ports)")
    else:
        pairs = QUICK_PAIRS if opts.quick else DEFAULT_PAIRS
    calls = 200 if opts.calls is None else opts.calls
    if calls < 10:
        raise OptionError(f"--calls {calls}: at least 10 calls per pair")
    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    result = run_scaling(pairs=pairs, calls=calls, simulator=sim, outdir=out / "work" / "scaling",
                         log=log, jobs=opts.jobs)
    add_common(result, out, opts.jobs, smoke=False)
    missed = check_targets(result)
    result["targets_missed"] = missed
    write_result(out, result)
    lines = [format_table(result), f"\nresults: {out / 'scaling.json'}",
             f"simulation time: {result['runtime_s']} s ({sim})"]
    if missed:
        lines.append("targets missed:\n  " + "\n  ".join(missed))
    elif any(r["pairs"] >= 4 for r in result["rows"]):
        lines.append(f"targets met: the shared bus carries at least {TARGET_MCALLS:g} MCalls/s "
                     "from 4 pairs")
    return {**result, "targets": missed_targets(missed), "printed": "\n".join(lines)}
