"""The ``pushpush selfcheck`` subcommand: the board self-check (:mod:`pushpush.selfcheck`).

Runs the checks, prints one line per check on stderr while it goes and the summary on
stdout, and writes the report (``selfcheck.md`` and ``selfcheck.json``) into ``--output``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import Command, UsageError

DEFAULT_OUT = "."


def _configure(p: argparse.ArgumentParser) -> None:
    from ..selfcheck import GROUPS
    p.add_argument("-o", "--output", metavar="DIR", default=DEFAULT_OUT,
                   help="where to write the report, selfcheck.md and selfcheck.json (default: "
                        "the current folder)")
    p.add_argument("--checks", metavar="GROUPS", default=",".join(GROUPS),
                   help=f"comma-separated groups to run (default: all: {','.join(GROUPS)})")
    p.add_argument("--sim", "-s", choices=("icarus", "verilator", "auto"), default=None,
                   help="simulator of the simulated board (default: $PUSHPUSH_SIM or icarus); "
                        "refused on a board")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds each check may take (loading a system: at least 600; default 120)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")


def _run(args: argparse.Namespace) -> int:
    from .. import apps
    from ..selfcheck import GROUPS, run_selfcheck
    groups = [g.strip() for g in args.checks.split(",") if g.strip()]
    bad = [g for g in groups if g not in GROUPS]
    if bad or not groups:
        raise UsageError(f"--checks {args.checks}: use groups of {', '.join(GROUPS)}")
    if args.sim is not None and apps.on_board():
        raise UsageError("--sim chooses the simulated board's simulator; this is a board "
                         "(PUSHPUSH_BOARD=sim checks the simulated board instead)")
    if args.timeout <= 0:
        raise UsageError(f"--timeout {args.timeout:g}: give a positive number of seconds")
    out = Path(args.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot write the report into '{out}': {e.strerror or e}") from None

    def say(s: str) -> None:
        if not args.quiet:
            print(s, file=sys.stderr, flush=True)

    report = run_selfcheck(groups, simulator=args.sim, timeout=args.timeout, progress=say)
    md, js = out / "selfcheck.md", out / "selfcheck.json"
    try:
        md.write_text(report.to_markdown(), encoding="utf-8")
        js.write_text(report.to_json(), encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write the report into '{out}': {e.strerror or e}") from None
    for c in report.checks:
        if c.status != "pass":
            print(f"  {c.name}: {c.status}: {c.detail}")
    print(report.summary())
    print(f"report: {md} and {js} (attach them to a bug report)")
    return report.exit_status()


_C1 = Command(
    name="selfcheck",
    help="check this board (or the simulated board): image, overlays, calls every way, DMA, interrupt",
    description="Check the board and pushpush on it, like PYNQ's pynq-selftest: the image (Python,\n"
                "PYNQ, access to the PL), the shipped pingpong overlay (the on-chip memory's\n"
                "mapping, reads over AXI, a CMA buffer, Python -> Verilog, Verilog -> Verilog, an\n"
                "interrupt wait), Verilog -> Python (audio_fir), the C rows (with a C compiler),\n"
                "one DMA transfer (dma_stream). Without a board it checks the simulated board.\n"
                "Each check passes, fails, or is skipped when what it needs is not there (the\n"
                "report says what to install). The report, selfcheck.md and selfcheck.json, is\n"
                "for a bug report.",
    epilog="examples:\n"
           "  pushpush selfcheck\n"
           "  pushpush selfcheck --checks image,pingpong -o /tmp/report\n"
           "\nexit status: 0 every check passed, 1 a check failed, 2 usage errors,\n"
           "3 nothing failed but some checks were skipped",
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
