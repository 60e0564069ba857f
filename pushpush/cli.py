"""The ``pushpush`` command line: every subcommand, listed in one place.

Each subcommand is a :class:`~pushpush.cli_common.Command` (a name, help texts, a function
adding its arguments and a function running it) defined in its own module's ``COMMANDS``;
:data:`MODULES` lists those modules in the order ``pushpush --help`` shows them.

Exit codes: 0 success, 1 the input is invalid (every problem is listed as
``file:line:column: message``), 2 usage errors and unreadable files. User mistakes never
produce a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from . import __version__
from .cli_common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command, UsageError, err, print_diagnostics
from .errors import PushPushError, SpecError

__all__ = ["MODULES", "commands", "main", "build_parser"]

#: The modules whose ``COMMANDS`` make up ``pushpush`` (imported when the parser is built).
MODULES = (
    "pushpush.cli_check",    # validate, map
    "pushpush.cli_build",    # generate, build
    "pushpush.cli_run",      # run
    "pushpush.cli_bench",    # bench
    "pushpush.cli_schema",   # schema
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


if __name__ == "__main__":  # pragma: no cover
    # 'python -m pushpush.cli': run the imported module's main, not this __main__ copy, so the
    # subcommand modules and this code share one set of classes (see pushpush/__main__.py).
    from pushpush.cli import main as _main

    sys.exit(_main())
