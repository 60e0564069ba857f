"""The ``pushpush`` command line.

Each subcommand is a :class:`Command` (a name, help texts, a function adding its
arguments and a function running it) in :data:`COMMANDS`. A later subcommand
(``generate``, ``build``, ``run``, ``bench``) is one more ``Command`` registered with
:func:`register`, typically from its own module imported in :func:`_load_commands`.

Exit codes: 0 success, 1 the input is invalid (every problem is listed as
``file:line:column: message``), 2 usage errors and unreadable files. User mistakes never
produce a traceback.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from . import __version__
from .errors import PushPushError, SpecError
from .link import LinkedComponent, LinkedSystem, link
from .spec import load_system
from .sysmap import to_json

__all__ = ["Command", "COMMANDS", "register", "main", "build_parser", "load_linked", "resolve_yaml"]

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


COMMANDS: dict[str, Command] = {}


def register(command: Command) -> Command:
    COMMANDS[command.name] = command
    return command


class _UsageError(Exception):
    """A file that cannot be read or written: exit 2 with a message."""


def _err(message: str) -> None:
    print(f"pushpush: error: {message}", file=sys.stderr)


def resolve_yaml(path: str) -> Path:
    """A YAML path from the command line; a directory means its ``system.yaml``."""
    p = Path(path)
    if p.is_dir():
        p = p / "system.yaml"
    if not p.is_file():
        why = "no such file" if not p.exists() else "not a file"
        raise _UsageError(f"cannot read '{p}': {why}")
    return p


def load_linked(path: str) -> LinkedSystem:
    """Load, validate and link; raises SpecError (invalid) or _UsageError (unreadable)."""
    p = resolve_yaml(path)
    try:
        spec = load_system(p)
    except (OSError, UnicodeDecodeError) as e:
        raise _UsageError(f"cannot read '{p}': {getattr(e, 'strerror', None) or e}") from None
    return link(spec)


def _print_diagnostics(e: SpecError) -> int:
    for d in e.diagnostics:
        print(d, file=sys.stderr)
    return len(e.diagnostics)


# --------------------------------------------------------------------------- validate


def _configure_validate(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="SYSTEM_YAML",
                   help="system description(s); a directory means its system.yaml")


def _summary(linked: LinkedSystem) -> str:
    kinds = [c.kind for c in linked.components]
    by_kind = ", ".join(f"{kinds.count(k)} {k}" for k in ("rtl", "python", "c") if k in kinds)
    exports = sum(len(c.exports) for c in linked.components)
    imports = sum(len(c.imports) for c in linked.components)
    slots = sum(len(c.slots) for c in linked.components)
    n = len(linked.components)
    return (f"system '{linked.name}': {n} component{'s' if n != 1 else ''} ({by_kind}), "
            f"{exports} export{'s' if exports != 1 else ''}, {imports} import{'s' if imports != 1 else ''}, "
            f"{slots} slot{'s' if slots != 1 else ''}")


def _run_validate(args: argparse.Namespace) -> int:
    errors = 0
    bad_files = 0
    unreadable = False
    for f in args.files:
        try:
            linked = load_linked(f)
        except _UsageError as e:
            _err(str(e))
            unreadable = True
            continue
        except SpecError as e:
            errors += _print_diagnostics(e)
            bad_files += 1
            continue
        print(f"{f}: OK: {_summary(linked)}")
    if errors:
        print(f"pushpush: {errors} error{'s' if errors != 1 else ''} in {bad_files} "
              f"file{'s' if bad_files != 1 else ''}", file=sys.stderr)
    if unreadable:
        return EXIT_USAGE
    return EXIT_INVALID if errors else EXIT_OK


register(Command(
    name="validate",
    help="check system descriptions (syntax, types, imports, address windows)",
    description="Load, check and link each system description. Prints one OK line per valid\n"
                "file; otherwise every problem, one per line, as file:line:column: message.",
    epilog="examples:\n"
           "  pushpush validate examples/pingpong/system.yaml\n"
           "  pushpush validate examples/*/system.yaml\n"
           "  pushpush validate examples/audio_fir          # a directory means its system.yaml\n"
           "\nexit status: 0 all valid, 1 errors found, 2 a file could not be read",
    configure=_configure_validate,
    run=_run_validate,
))


# --------------------------------------------------------------------------- map


def _configure_map(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="SYSTEM_YAML", help="system description (or its directory)")
    p.add_argument("--json", action="store_true",
                   help="print the system map (JSON, docs/system-map.md) instead of a table")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE instead of standard output")


def _size(n: int) -> str:
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def _component_table(c: LinkedComponent) -> list[str]:
    total = c.size // 4
    head = (f"{c.name}: {c.kind}" + (f" module {c.module}" if c.module else "") +
            f", region {c.region}, window 0x{c.base:08X}-0x{c.end - 1:08X} "
            f"({_size(c.size)}, {c.words_used} of {total} words used)")
    rows = [("slot", "kind", "function", "for", "offset", "words", "trigger", "address", "trigger addr")]
    for s in c.slots:
        who = s.importer or s.param or ""
        rows.append((str(s.index), s.kind, s.function, who, str(s.offset), str(s.words),
                     str(s.trigger_offset), f"0x{s.address:08X}", f"0x{s.trigger_address:08X}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {0, 4, 5, 6}
    lines = [head]
    for r in rows if c.slots else []:
        cells = [r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(len(r))]
        lines.append(("  " + "  ".join(cells)).rstrip())
    if not c.slots:
        lines.append("  (no slots)")
    if c.runtime_words:
        lines.append(f"  run-time area: words {c.runtime_offset}..{c.runtime_offset + c.runtime_words - 1} "
                     f"at 0x{c.runtime_address:08X}")
    for i in c.imports:
        lines.append(f"  import {i.target}: call 0x{i.cep_address:08X} (slot {i.cep_slot} of "
                     f"{i.component}), result at 0x{i.rep_address:08X} (slot {i.rep_slot})")
    return lines


def map_table(linked: LinkedSystem) -> str:
    """The human-readable address map printed by ``pushpush map``."""
    ic = linked.interconnect
    lines = [
        f"system {linked.name} ({linked.source_file}): board {linked.board}, {linked.clock_mhz} MHz, "
        f"{ic.topology} {ic.data_width}-bit {ic.arbitration}",
        f"regions: pl 0x{linked.pl.base:08X}-0x{linked.pl.end - 1:08X} ({_size(linked.pl.size)}), "
        f"ps 0x{linked.ps.base:08X}-0x{linked.ps.end - 1:08X} ({_size(linked.ps.size)})",
    ]
    for c in linked.components:
        lines.append("")
        lines.extend(_component_table(c))
    return "\n".join(lines) + "\n"


def _run_map(args: argparse.Namespace) -> int:
    try:
        linked = load_linked(args.file)
    except SpecError as e:
        n = _print_diagnostics(e)
        print(f"pushpush: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
        return EXIT_INVALID
    text = to_json(linked) if args.json else map_table(linked)
    if args.output:
        out = Path(args.output)
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as e:
            raise _UsageError(f"cannot write '{out}': {e.strerror or e}") from None
        print(f"pushpush: wrote {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


register(Command(
    name="map",
    help="show the address map: windows and endpoint slots of every component",
    description="Link a system and print each component's endpoint window and every slot in it\n"
                "(index, kind, function, word offsets, byte addresses), or with --json the\n"
                "system map (docs/system-map.md) that code generation and the runtime read.",
    epilog="examples:\n"
           "  pushpush map examples/pingpong/system.yaml\n"
           "  pushpush map --json examples/audio_fir/system.yaml\n"
           "  pushpush map --json -o build/system-map.json examples/audio_fir",
    configure=_configure_map,
    run=_run_map,
))


# --------------------------------------------------------------------------- main


def _load_commands() -> None:
    """Import the modules that register further subcommands."""
    from . import cli_build  # noqa: F401  (registers generate, build)
    from . import cli_run  # noqa: F401  (registers run)
    from . import cli_bench  # noqa: F401  (registers bench)
    from . import cli_schema  # noqa: F401  (registers schema)
    from . import cli_init  # noqa: F401  (registers init)


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
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
    for cmd in COMMANDS.values():
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
    except _UsageError as e:
        _err(str(e))
        return EXIT_USAGE
    except SpecError as e:
        _print_diagnostics(e)
        return EXIT_INVALID
    except PushPushError as e:
        _err(str(e))
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    # 'python -m pushpush.cli': run the imported module's main, not this __main__ copy, so the
    # subcommand modules and this code share one set of classes (see pushpush/__main__.py).
    from pushpush.cli import main as _main

    sys.exit(_main())
