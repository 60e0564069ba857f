"""The ``pushpush generate`` and ``pushpush build`` subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..boards import BOARD_TARGETS
from .common import EXIT_INVALID, EXIT_OK, Command, UsageError, load_linked

DEFAULT_OUT = "build/{system}"


def _fail(lines: str, what: str) -> int:
    text = str(lines)
    for line in text.splitlines():
        print(line, file=sys.stderr)
    n = len([ln for ln in text.splitlines() if ln and not ln.startswith(" ")])
    print(f"pushpush: {what}: {n} problem{'s' if n != 1 else ''}; nothing was written",
          file=sys.stderr)
    return EXIT_INVALID


# --------------------------------------------------------------------------- generate


def _configure_generate(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="SYSTEM_YAML", help="system description (or its directory)")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="output folder (default: build/<system>); with --stub, a folder or a .v file")
    p.add_argument("--stub", metavar="COMPONENT",
                   help="write only a skeleton Verilog module with the ports COMPONENT's wrapper "
                        "connects, to DIR/<module>.v (default: the current folder)")
    p.add_argument("--force", action="store_true", help="with --stub: overwrite an existing file")
    p.add_argument("-q", "--quiet", action="store_true", help="do not list the written files")


def _run_generate(args: argparse.Namespace) -> int:
    from ..codegen.generate import GenerateError, generate, write_stub

    linked = load_linked(args.file)
    try:
        if args.stub:
            path = write_stub(linked, args.stub, args.output or ".", force=args.force)
            print(f"pushpush: wrote {path}")
            return EXIT_OK
        out = Path(args.output or DEFAULT_OUT.format(system=linked.name))
        written = generate(linked, out)
    except GenerateError as e:
        return _fail(str(e), "generate failed")
    if not args.quiet:
        for w in written:
            print(w)
    print(f"pushpush: generated {len(written)} files for system '{linked.name}' in {out}",
          file=sys.stderr)
    return EXIT_OK


_C1 = Command(
    name="generate",
    help="generate RTL, system map, C header, FuseSoC core and Vivado block design",
    description="Check the rtl components' sources (they must exist, and each module's ports must\n"
                "match the ports its generated wrapper connects) and write every generated file\n"
                "into the output folder; nothing is written if anything is wrong:\n"
                "  <system>.core         FuseSoC core (targets lint, sim, synth, pynq_z1)\n"
                "  <system>.map.json     system map\n"
                "  c/<system>_map.h      C header: windows, slots, triggers, argument layouts\n"
                "  c/pp_*, c/<comp>_pp.*  C runtime, proxies and stubs of c components (docs/c.md)\n"
                "  rtl/*.v               component wrappers and the system top\n"
                "  src/<component>/*.v   copies of the components' sources\n"
                "  vivado/<system>_bd.tcl  the board's block design\n"
                "With --stub COMPONENT, write only a skeleton of that component's module.",
    epilog="examples:\n"
           "  pushpush generate examples/pingpong/system.yaml -o build/pingpong\n"
           "  pushpush generate examples/pingpong --stub callee -o /tmp   # /tmp/pingpong_callee.v\n"
           "  fusesoc --cores-root $(python -c 'import pushpush.resources as r; print(r.cores_dir())') \\\n"
           "      --cores-root build/pingpong run --target lint pushpush:system:pingpong\n"
           "\nexit status: 0 written, 1 the system or its sources are invalid, 2 unreadable input",
    configure=_configure_generate,
    run=_run_generate,
)


# --------------------------------------------------------------------------- build


def _configure_build(p: argparse.ArgumentParser) -> None:
    from ..build.fusesoc import TARGETS

    p.add_argument("file", metavar="SYSTEM_YAML", nargs="+",
                   help="system description (or its directory); several: each is built")
    p.add_argument("--target", "-t", required=True, metavar="TARGET[,TARGET...]",
                   help="lint (Verilator -Wall), sim (Icarus build), synth (Yosys xc7 resources), "
                        "pynq_z1, pynq_z2, zcu104, kv260 (Vivado bitstream for that board; project setup "
                        "only without Vivado); several, "
                        f"comma-separated, are built one after the other (one of {', '.join(TARGETS)})")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="output folder (default: build/<system>); with several systems it must "
                        "contain {system}, e.g. -o out/{system}")
    p.add_argument("--executor", choices=("local", "slurm"), default=None,
                   help="where the builds run: local (--jobs at a time, the default) or slurm "
                        "(one job per system: kind vivado with a board target, else build; "
                        "docs/cluster.md) (default: $PUSHPUSH_EXECUTOR, else local)")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="several systems on the local executor: builds at a time (default 1)")
    p.add_argument("--overlays", metavar="DIR", default=None,
                   help="board targets: where <system>/<system>.bit, .hwh and .map.json go "
                        "(default: pynq_overlays in the system's folder, next to its system.yaml, "
                        "where the board looks first)")
    p.add_argument("--json", action="store_true", help="synth: print the resources as JSON")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="show the fusesoc command and all tool output (always in the log)")


def build_point(point: dict[str, Any]) -> dict[str, Any]:
    """One system's builds (an executor's point: ``file``, ``out``, ``targets``, ``overlays``,
    ``verbose``), its targets one after the other; returns per target the printed result or
    the error (a failed build is a result, not a lost job)."""
    from ..build.fusesoc import BuildError, build
    from ..build.synth import resources_json, resources_text
    from ..codegen.generate import GenerateError

    linked = load_linked(point["file"])
    done = []
    for target in point["targets"]:
        entry: dict[str, Any] = {"target": target, "error": None, "text": "", "json": None,
                                 "notes": []}
        try:
            result = build(linked, point["out"], target, overlays_dir=point["overlays"],
                           progress=lambda m: print(m, flush=True), verbose=point["verbose"])
        except (GenerateError, BuildError) as e:
            entry["error"] = str(e)
            done.append(entry)
            break  # the later targets of this system would fail the same way or mislead
        if result.resources:
            entry["text"] = resources_text(linked.name, result.resources, result.costs)
            entry["json"] = resources_json(result.resources, result.costs)
        entry["notes"] = list(result.notes)
        done.append(entry)
    return {"system": linked.name, "out": point["out"], "builds": done}


def _targets(text: str) -> list[str]:
    from ..build.fusesoc import TARGETS

    targets = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in targets if t not in TARGETS]
    if bad or not targets:
        raise UsageError(f"--target {text}: unknown target {', '.join(bad) or '(none)'} "
                         f"(targets: {', '.join(TARGETS)}; several: --target lint,synth)")
    return targets


def _run_many(args: argparse.Namespace, targets: list[str], executor_name: str) -> int:
    """Several systems (or targets, or a cluster): one executor point per system."""
    from ..build.fusesoc import VIVADO_TARGETS
    from ..executor import get_executor

    if args.json:
        raise UsageError("--json applies to a single synth build (run one system with "
                         "--target synth --json)")
    if len(args.file) > 1 and args.output and "{system}" not in args.output:
        raise UsageError(f"-o {args.output}: with several systems the folder must contain "
                         "{system}, e.g. -o out/{system}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: at least 1")
    points = []
    for f in args.file:
        linked = load_linked(f)  # every system is checked before anything runs
        out = Path((args.output or DEFAULT_OUT).format(system=linked.name)).resolve()
        points.append({"file": str(Path(f).resolve()), "out": str(out), "targets": targets,
                       "overlays": str(Path(args.overlays).resolve()) if args.overlays else None, "verbose": args.verbose,
                       "label": f"{linked.name}: {','.join(targets)} -> {out}"})
    outs = [p["out"] for p in points]
    if len(set(outs)) != len(outs):
        raise UsageError("two systems would build into the same folder: give each its own "
                         "(-o out/{system}) or name the systems differently")
    kind = "vivado" if set(targets) & set(VIVADO_TARGETS) else "build"
    try:
        workdir = Path(outs[0]).parent / ".pushpush-jobs"
        executor = get_executor(executor_name, jobs=args.jobs if executor_name == "slurm" else
                                (args.jobs or 1), workdir=workdir)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    say(f"pushpush: {len(points)} system(s), target(s) {', '.join(targets)}, on the "
        f"{executor.name} executor")
    results = executor.map(build_point, points, kind=kind, log=say, reuse=False)
    failed = 0
    for r in results:
        for b in r["builds"]:
            head = f"== {r['system']} {b['target']}: {r['out']}"
            if b["error"]:
                failed += 1
                print(f"{head}: FAILED", file=sys.stderr)
                print(f"pushpush: error: {b['error']}", file=sys.stderr)
                continue
            print(head)
            if b["text"]:
                print(b["text"])
            for note in b["notes"]:
                print(f"pushpush: {note}")
    if failed:
        print(f"pushpush: {failed} build(s) failed", file=sys.stderr)
        return EXIT_INVALID
    print(f"pushpush: {sum(len(r['builds']) for r in results)} build(s) done")
    return EXIT_OK


def _run_build(args: argparse.Namespace) -> int:
    import json

    from ..executor import executor_name

    from ..build.fusesoc import BuildError, build
    from ..build.synth import resources_json, resources_text
    from ..codegen.generate import GenerateError

    targets = _targets(args.target)
    try:
        where = executor_name(args.executor)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if len(args.file) > 1 or len(targets) > 1 or where != "local":
        return _run_many(args, targets, where)
    if args.jobs is not None:
        raise UsageError("--jobs applies to several systems only")
    linked = load_linked(args.file[0])
    out = Path(args.output or DEFAULT_OUT.format(system=linked.name))
    progress = (lambda s: print(s, file=sys.stderr)) if args.json else print
    try:
        result = build(linked, out, targets[0], overlays_dir=args.overlays,
                       progress=progress, verbose=args.verbose)
    except GenerateError as e:
        return _fail(str(e), "generate failed")
    except BuildError as e:
        print(f"pushpush: error: {e}", file=sys.stderr)
        return EXIT_INVALID
    if result.resources:
        if args.json:
            print(json.dumps(resources_json(result.resources, result.costs), indent=2))
        else:
            print(resources_text(linked.name, result.resources, result.costs))
    for note in result.notes:
        print(f"pushpush: {note}", file=sys.stderr if args.json else sys.stdout)
    return EXIT_OK


_C2 = Command(
    name="build",
    help="generate a system and build it with FuseSoC: lint, sim, synth or a board's bitstream "
         f"({', '.join(BOARD_TARGETS)})",
    description="Generate the system into the output folder (as 'pushpush generate') and run\n"
                "FuseSoC/Edalize on its core. Tool output goes to <out>/build/<target>.log,\n"
                "whose path is printed when a step fails.\n"
                "  lint     Verilator -Wall on the system top\n"
                "  sim      build the Icarus simulation\n"
                "  synth    Yosys synth_xilinx (xc7): per component its PushPush logic with the\n"
                "           wrapper flattened (user module kept apart) and the hierarchy-kept\n"
                "           attribution per core; LUT/FF/BRAM per component and in total\n"
                "  pynq_z1  Vivado bitstream, .hwh and map into <system folder>/pynq_overlays/<system>/; without Vivado,\n"
                "           only the project is set up and checked\n"
                "Several systems or targets (--target lint,synth) are built as one executor point\n"
                "per system, its targets in order: locally (--jobs systems at a time) or, with\n"
                "--executor slurm, one Slurm job per system (docs/cluster.md).",
    epilog="examples:\n"
           "  pushpush build examples/pingpong --target lint\n"
           "  pushpush build examples/pingpong --target synth -o build/pingpong\n"
           "  pushpush build examples/pingpong --target pynq_z1\n"
           "  pushpush build examples/pingpong examples/audio_fir --target lint,synth\n"
           "  pushpush build examples/*/ -t pynq_z1 --executor slurm -o /shared/me/build/{system}\n"
           "\nexit status: 0 built, 1 invalid input or a failed build, 2 unreadable input",
    configure=_configure_build,
    run=_run_build,
)

__all__ = ["DEFAULT_OUT", "build_point"]

COMMANDS = (_C1, _C2,)
