"""What every ``pushpush`` subcommand shares: the :class:`Command` record, exit codes, the
one loader of system descriptions and the one usage error.

A subcommand module defines ``COMMANDS`` (a tuple of :class:`Command`); :mod:`pushpush.cli`
lists those modules in one place and builds the parser from them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import SpecError
from ..link import LinkedSystem, load

__all__ = ["Command", "UsageError", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE", "resolve_yaml",
           "load_linked", "print_diagnostics", "err", "write_output"]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


@dataclass(frozen=True)
class Command:
    """One ``pushpush <name>`` subcommand."""

    name: str
    help: str
    description: str
    epilog: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A file that cannot be read or written, a missing tool: exit 2 with a message."""


def err(message: str) -> None:
    print(f"pushpush: error: {message}", file=sys.stderr)


def resolve_yaml(path: str) -> Path:
    """A YAML path from the command line; a directory means its ``system.yaml``."""
    p = Path(path)
    if p.is_dir():
        p = p / "system.yaml"
    if not p.is_file():
        why = "no such file" if not p.exists() else "not a file"
        raise UsageError(f"cannot read '{p}': {why}")
    return p


def load_linked(path: str) -> LinkedSystem:
    """Load, check and link (:func:`pushpush.link.load`); raises SpecError (invalid, with
    positions) or :class:`UsageError` (unreadable)."""
    p = resolve_yaml(path)
    try:
        return load(p)
    except OSError as e:
        raise UsageError(f"cannot read '{p}': {getattr(e, 'strerror', None) or e}") from None


def print_diagnostics(e: SpecError) -> int:
    for d in e.diagnostics:
        print(d, file=sys.stderr)
    return len(e.diagnostics)


def write_output(text: str, output: "str | None") -> None:
    """``text`` to the file ``output`` (then a note on stderr), or to standard output."""
    if not output:
        sys.stdout.write(text)
        return
    out = Path(output)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write '{out}': {e.strerror or e}") from None
    print(f"pushpush: wrote {out}", file=sys.stderr)
