"""The ``pushpush init`` subcommand: scaffold a new system folder
(:mod:`pushpush.scaffold`)."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, Command, UsageError


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", metavar="DIR", help="the new system's folder (created; must be empty)")
    p.add_argument("--name", help="the system's name (default: from the folder's name)")


def _run(args: argparse.Namespace) -> int:
    from ..scaffold import InitError, scaffold

    try:
        written = scaffold(args.folder, name=args.name)
    except InitError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write into '{args.folder}': {e.strerror or e}") from None
    for w in written:
        print(w)
    print(f"pushpush: scaffolded {len(written)} files in {args.folder}; next:\n"
          f"  cd {args.folder} && pushpush run . && pytest", file=sys.stderr)
    return EXIT_OK


_INIT = Command(
    name="init",
    help="scaffold a new system folder: system.yaml, Verilog, app.py, a cocotb test",
    description="Write a new system into DIR (created if missing; it must be empty, nothing is\n"
                "overwritten): system.yaml with one Verilog component (adder, exporting add) and\n"
                "one Python component calling it, the Verilog from the stub generator filled in\n"
                "to an adder, app.py for 'pushpush run', a cocotb test for pytest, a README.\n"
                "system.yaml's first line points editors at the JSON Schema (pushpush schema).",
    epilog="examples:\n"
           "  pushpush init demo && cd demo && pushpush run . && pytest\n"
           "  pushpush init hw/accel --name accel\n"
           "\nexit status: 0 written, 2 DIR is not empty or cannot be written",
    configure=_configure,
    run=_run,
)

COMMANDS = (_INIT,)
