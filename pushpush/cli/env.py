"""The ``pushpush env`` subcommand: the ``PUSHPUSH_*`` environment variables
(:mod:`pushpush.envvars`): the ones set here, or the whole reference as Markdown."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_INVALID, EXIT_OK, Command


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--markdown", action="store_true",
                   help="print the reference table of every variable (docs/environment.md)")


def _run(args: argparse.Namespace) -> int:
    from ..envvars import VARIABLES, current, markdown

    if args.markdown:
        sys.stdout.write(markdown())
        return EXIT_OK
    rows = current()
    if not rows:
        print("no PUSHPUSH_* variable is set (pushpush env --markdown lists them all)")
    unknown = [name for name, _, known in rows if not known]
    for name, value, known in rows:
        note = "" if known else "   <- not a pushpush variable (a typo?): pushpush env --markdown lists them"
        print(f"{name}={value}{note}")
    for name, value, known in rows:
        if known and name in VARIABLES:
            print(f"  {name}: {VARIABLES[name].meaning} (default {VARIABLES[name].default})")
    return EXIT_INVALID if unknown else EXIT_OK


_C1 = Command(
    name="env",
    help="show the PUSHPUSH_* environment variables set here (--markdown: all of them)",
    description="Print the PUSHPUSH_* environment variables set in this environment with what\n"
                "each means; a name pushpush does not read (a typo) is pointed out and makes\n"
                "the exit status 1. --markdown prints the reference of every variable, declared\n"
                "once in pushpush/envvars.py (docs/environment.md is its output).",
    epilog="examples:\n"
           "  pushpush env\n"
           "  pushpush env --markdown > docs/environment.md\n"
           "\nexit status: 0, or 1 when a PUSHPUSH_* variable set here is not one pushpush reads",
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
