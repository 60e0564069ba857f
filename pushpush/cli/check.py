"""``pushpush validate`` and ``pushpush map``: check a description, show its address map."""

from __future__ import annotations

import argparse
import sys

from .common import (EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command, UsageError, err, load_linked,
                         print_diagnostics, write_output)
from ..errors import SpecError
from ..link import LinkedComponent, LinkedSystem
from ..spec.fields import KINDS
from ..sysmap import to_json

_COMMAND = Command

# --------------------------------------------------------------------------- validate


def _configure_validate(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="SYSTEM_YAML",
                   help="system description(s); a directory means its system.yaml")


def _summary(linked: LinkedSystem) -> str:
    kinds = ["hls" if c.hls_top is not None else c.kind for c in linked.components]  # as written
    by_kind = ", ".join(f"{kinds.count(k)} {k}" for k in KINDS if k in kinds)  # every kind counted
    exports = sum(len(c.exports) for c in linked.components)
    imports = sum(len(c.imports) for c in linked.components)
    slots = sum(len(c.slots) for c in linked.components)
    n = len(linked.components)
    return (f"system '{linked.name}': {n} component{'s' if n != 1 else ''} ({by_kind}), "
            f"{exports} export{'s' if exports != 1 else ''}, {imports} import{'s' if imports != 1 else ''}, "
            f"{slots} slot{'s' if slots != 1 else ''}")


def _missing_sources(linked: LinkedSystem) -> list[str]:
    """Every rtl source the description names that is not a readable file, at its line."""
    from ..codegen.generate import component_where
    from ..codegen.hls import missing_hls_sources
    from ..codegen.portcheck import check_sources_exist

    problems: list[str] = []
    for c in linked.components:
        if c.kind == "rtl":
            where, src_where = component_where(linked, c.name)
            if c.hls_top is not None:  # kind: hls: the Verilog Vitis HLS exports
                problems += missing_hls_sources(linked, c, where, src_where)
                continue
            problems += check_sources_exist(linked, c.name, where, src_where)
    return problems


def _run_validate(args: argparse.Namespace) -> int:
    errors = 0
    bad_files = 0
    unreadable = False
    for f in args.files:
        try:
            linked = load_linked(f)
        except UsageError as e:
            err(str(e))
            unreadable = True
            continue
        except SpecError as e:
            errors += print_diagnostics(e)
            bad_files += 1
            continue
        missing = _missing_sources(linked)
        if missing:
            for line in missing:
                print(line, file=sys.stderr)
            errors += len(missing)
            bad_files += 1
            continue
        print(f"{f}: OK: {_summary(linked)}")
    if errors:
        print(f"pushpush: {errors} error{'s' if errors != 1 else ''} in {bad_files} "
              f"file{'s' if bad_files != 1 else ''}", file=sys.stderr)
    if unreadable:
        return EXIT_USAGE
    return EXIT_INVALID if errors else EXIT_OK


VALIDATE = _COMMAND(
    name="validate",
    help="check system descriptions (syntax, types, imports, address windows)",
    description="Load, check and link each system description, and check that every Verilog\n"
                "source it names exists. Prints one OK line per valid file; otherwise every\n"
                "problem, one per line, as file:line:column: message. The ports of each module\n"
                "against its wrapper are checked by 'pushpush generate' (it parses the Verilog).",
    epilog="examples:\n"
           "  pushpush validate examples/pingpong/system.yaml\n"
           "  pushpush validate examples/*/system.yaml\n"
           "  pushpush validate examples/audio_fir          # a directory means its system.yaml\n"
           "\nexit status: 0 all valid, 1 errors found, 2 a file could not be read",
    configure=_configure_validate,
    run=_run_validate,
)


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
        d = linked.dma_of(c.name)
        if d is not None:
            lines.append(f"  dma {d.name}: registers 0x{d.base:08X}-0x{d.end - 1:08X} "
                         f"({_size(d.size)}), {d.data_width}-bit streams s_axis_* (MM2S) and "
                         f"m_axis_* (S2MM), bursts of {d.max_burst} on {d.hp_port}")
    return "\n".join(lines) + "\n"


def _run_map(args: argparse.Namespace) -> int:
    try:
        linked = load_linked(args.file)
    except SpecError as e:
        n = print_diagnostics(e)
        print(f"pushpush: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
        return EXIT_INVALID
    write_output(to_json(linked) if args.json else map_table(linked), args.output)
    return EXIT_OK


MAP = _COMMAND(
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
)

COMMANDS = (VALIDATE, MAP)
