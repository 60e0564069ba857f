"""The ``pushpush bench`` subcommand: ``pushpush bench <experiment> [its options]``.

The experiments, their options and their ``run()`` are declared in one registry,
:mod:`pushpush.bench.registry`; ``pushpush bench <experiment> --help`` lists that experiment's
options only, and an option it does not take is refused (exit 2) with the options it does
take. ``--executor slurm`` (or ``$PUSHPUSH_EXECUTOR``) runs the sweep points of the
experiments that fan out (calls, scaling, area, args, all) as Slurm jobs (docs/cluster.md);
the others run on this machine and do not take ``--executor``. Results (JSON, Markdown, PNG)
go into ``-o DIR`` (default ``benchmarks/results``); ``--check`` exits 1 when a target is
missed. benchmarks/README.md describes every experiment.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..bench.registry import EXPERIMENTS, Experiment, OptionError, unknown_options_message
from .common import EXIT_INVALID, EXIT_OK, Command, UsageError

#: the experiment names (``pushpush bench <name>``), in the registry's order
BENCHMARKS = tuple(EXPERIMENTS)

if TYPE_CHECKING:
    from ..executor import Executor


class _ExperimentParser(argparse.ArgumentParser):
    """The parser of one experiment: arguments it does not take are an error naming the
    options it does take (argparse would only say 'unrecognized arguments')."""

    experiment: Optional[Experiment] = None

    def parse_known_args(self, args: Optional[Sequence[str]] = None,
                         namespace: Optional[argparse.Namespace] = None) -> Any:
        ns, extras = super().parse_known_args(args, namespace)
        if extras and self.experiment is not None:
            self.error(unknown_options_message(self.experiment, extras))
        return ns, extras


def _configure(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="benchmark", metavar="EXPERIMENT", required=True,
                           parser_class=_ExperimentParser)
    for exp in EXPERIMENTS.values():
        sp = sub.add_parser(exp.name, help=exp.help, description=textwrap.fill(exp.description, 79),
                            epilog=("examples:\n  " + "\n  ".join(exp.examples)) if exp.examples else None,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        sp.experiment = exp  # type: ignore[attr-defined]
        for opt in exp.options:
            opt.add_to(sp)
        sp.set_defaults(_experiment=exp)


def _executor(exp: Experiment, args: argparse.Namespace) -> Optional["Executor"]:
    """The executor of a fanned-out experiment (None: the local pool of --jobs)."""
    from ..executor import executor_name, get_executor

    if not exp.fans_out:
        return None
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: at least 1")
    try:
        name = executor_name(args.executor)
        if name == "local":
            return None
        return get_executor(name, jobs=args.jobs, workdir=Path(args.output) / "work" / "slurm")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from ..bench.sweep import using_executor

    exp: Experiment = args._experiment
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    try:
        with using_executor(_executor(exp, args)):
            res = exp.load_run()(args, say)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    print(res["printed"])
    missed = [t for t in res.get("targets", []) if not t["met"]]
    return EXIT_INVALID if ((missed or not res.get("ok", True)) and getattr(args, "check", False)) \
        else EXIT_OK


_C1 = Command(
    name="bench",
    help="run a benchmark in simulation: " + ", ".join(e.name for e in EXPERIMENTS.values())
         + " ('pushpush bench --help' says what each measures)",
    description="Benchmarks in simulation (cocotb on Icarus or Verilator), one experiment a\n"
                "run: 'pushpush bench EXPERIMENT --help' lists that experiment's options.\n"
                "Results (JSON, Markdown, PNG) go into -o DIR (default benchmarks/results);\n"
                "benchmarks/README.md describes every experiment and holds the latest results.",
    epilog="examples:\n  " + "\n  ".join(x for e in EXPERIMENTS.values() for x in e.examples),
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
