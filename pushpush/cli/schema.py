"""The ``pushpush schema`` subcommand: print the JSON Schema of
``system.yaml`` (:mod:`pushpush.schema`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_OK, Command, UsageError


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--path", action="store_true",
                   help="print the path of the schema file shipped in the package instead")


def _run(args: argparse.Namespace) -> int:
    from ..schema import schema_path, schema_text

    if args.path:
        print(schema_path())
        return EXIT_OK
    text = schema_text()
    if args.output:
        out = Path(args.output)
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write '{out}': {e.strerror or e}") from None
        print(f"pushpush: wrote {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


_C1 = Command(
    name="schema",
    help="print the JSON Schema of system.yaml (for editors)",
    description="Print the JSON Schema (draft 2020-12) of the system description, built from the\n"
                "same declarations the loader checks (pushpush/spec/fields.py). Editors validate\n"
                "and complete system.yaml with it; the VS Code YAML extension reads a first line\n"
                "'# yaml-language-server: $schema=<path>' (pushpush init writes one, and the\n"
                "schema itself as system.schema.json beside system.yaml).",
    epilog="examples:\n"
           "  pushpush schema > system.schema.json\n"
           "  pushpush schema --path          # the copy shipped in the installed package\n"
           "\nexit status: 0 printed, 2 the output file cannot be written",
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
