"""The ``pushpush`` command line: every subcommand, listed in one place.

Each subcommand is a :class:`~pushpush.cli.common.Command` (a name, help texts, a function
adding its arguments and a function running it) defined in its own module's ``COMMANDS``;
:data:`MODULES` lists those modules in the order ``pushpush --help`` shows them:

- :mod:`.check`: ``validate``, ``map``;
- :mod:`.build`: ``generate``, ``build``;
- :mod:`.run`: ``run``;
- :mod:`.bench`: ``bench`` (its experiments: :mod:`pushpush.bench.registry`);
- :mod:`.schema`: ``schema``;
- :mod:`.init`: ``init``;
- :mod:`.selfcheck`: ``selfcheck`` (the checks: :mod:`pushpush.selfcheck`);
- :mod:`.deploy`: ``deploy`` (:mod:`pushpush.deploy`);
- :mod:`.env`: ``env`` (the variables: :mod:`pushpush.envvars`);
- :mod:`.foreign`: ``sim-overlay`` (:mod:`pushpush.pynq.foreign`);
- :mod:`.common`: what they share (the :class:`~.common.Command` record, exit codes, loading).

The ``pushpush`` console script is :func:`main` (``pushpush.cli:main`` in pyproject.toml);
``python -m pushpush`` (pushpush/__main__.py) is the same.

Exit codes: 0 success, 1 the input is invalid (every problem is listed as
``file:line:column: message``), 2 usage errors and unreadable files. User mistakes never
produce a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from .. import __version__
from ..errors import PushPushError, SpecError
from .common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command, UsageError, err, print_diagnostics

__all__ = ["MODULES", "commands", "main", "build_parser"]

#: The modules whose ``COMMANDS`` make up ``pushpush`` (imported when the parser is built).
MODULES = (
    "pushpush.cli.check",     # validate, map
    "pushpush.cli.build",     # generate, build
    "pushpush.cli.run",       # run
    "pushpush.cli.bench",     # bench
    "pushpush.cli.schema",    # schema
    "pushpush.cli.init",      # init
    "pushpush.cli.selfcheck", # selfcheck
    "pushpush.cli.deploy",    # deploy
    "pushpush.cli.env",       # env
    "pushpush.cli.foreign",   # sim-overlay
)


def commands() -> dict[str, Command]:
    """Every subcommand by name, in :data:`MODULES` order."""
    out: dict[str, Command] = {}
    for name in MODULES:
        for cmd in importlib.import_module(name).COMMANDS:
            out[cmd.name] = cmd
    return out


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pushpush",
        description="Build Zynq systems whose Verilog, Python and C components call each\n"
                    "other's typed functions over AXI (the PushPush protocol).",
        epilog="examples:\n"
               "  pushpush validate examples/pingpong/system.yaml\n"
               "  pushpush map examples/audio_fir/system.yaml\n"
               "  pushpush map --json -o map.json examples/audio_fir/system.yaml\n"
               "\nrun 'pushpush COMMAND --help' for a command's options",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pushpush {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in commands().values():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description, epilog=cmd.epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        cmd.configure(p)
        p.set_defaults(_command=cmd)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``pushpush`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, usage errors
        return e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_USAGE)
    command: Optional[Command] = getattr(args, "_command", None)
    if command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return command.run(args)
    except UsageError as e:
        err(str(e))
        return EXIT_USAGE
    except SpecError as e:
        print_diagnostics(e)
        return EXIT_INVALID
    except PushPushError as e:
        err(str(e))
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130

