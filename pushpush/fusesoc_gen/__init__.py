"""The FuseSoC generator ``pushpush``: a user's own ``.core`` says "this core is the pushpush
system described by system.yaml", and ``fusesoc run`` generates and builds it in one command.

This folder is a FuseSoC cores root holding the generator core ``pushpush:gen:pushpush``
(``pushpush_gen.core``, whose script ``pushpush_gen.py`` calls :func:`main`). Add it once::

    fusesoc library add pushpush "$(python3 -m pushpush.fusesoc_gen --cores-root)"

(or pass ``--cores-root`` with that path), then in your ``.core``::

    CAPI=2:
    name: me:demo:system:0.1.0
    generate:
      system:
        generator: pushpush
        parameters: {system: system.yaml}   # relative to this .core file
    targets:
      lint:
        generate: [system]
        toplevel: demo_top                  # <system>_top
        flow: lint
        flow_options: {tool: verilator, verilator_options: [-Wall]}

and ``fusesoc run --target lint me:demo:system``. FuseSoC runs the generator during setup,
in its own folder, with ``python3`` from PATH (which must import pushpush: run fusesoc from
the environment pushpush is installed in). The generator loads, checks and links the
system, writes everything ``pushpush generate`` writes (except its .core) plus copies of
the pushpush cores' RTL, and one self-contained core whose ``default`` target holds every
Verilog file in order; FuseSoC adds it to the requesting target. Invalid input stops the
run with every problem as ``file:line:column: message`` on stderr (exit status 1).

Parameters: ``system`` (default ``system.yaml``): the system description, relative to the
requesting core's folder; ``block_design`` (default false): true adds the board's
block-design tcl (``vivado/<system>_bd.tcl``, tclSource) to the generated core, for a Vivado
target (the system must name its board: ``pynq-z1``, ``pynq-z2``, ``zcu104`` or ``kv260``). Lint, sim and synth targets use a generate
entry without it (Yosys would source the tcl). A PYNQ-Z1 bitstream target::

    generate:
      system_bd:
        generator: pushpush
        parameters: {system: system.yaml, block_design: true}
    targets:
      pynq_z1:
        generate: [system_bd]
        toplevel: demo_bd_wrapper           # <system>_bd_wrapper, made by the block design
        flow: vivado
        flow_options: {part: xc7z020clg400-1, source_mgmt_mode: All}

(``source_mgmt_mode: All``: the block design holds the top as a module reference, which
Vivado resolves only when it manages the sources). The generated core also copies the
system map ``<system>.map.json`` into the work root, for a cocotb test of the system
(``python3 -m pushpush.fusesoc_gen.cocotb_target <your>.core`` runs a ``cocotb`` target).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path, PurePosixPath
from typing import Any, Optional, Sequence

import yaml

from pushpush.boards import BOARD_NAMES

__all__ = ["GENERATOR", "GENERATOR_VLNV", "PARAMETERS", "cores_root", "generate_core", "main"]

#: The generator's name (``generate: {x: {generator: pushpush}}``) and its core.
GENERATOR = "pushpush"
GENERATOR_VLNV = "pushpush:gen:pushpush:0.1.0"
#: Parameter -> (default, description).
PARAMETERS: dict[str, tuple[Any, str]] = {
    "system": ("system.yaml", "the system description, relative to the requesting core"),
    "block_design": (False, "true: the generated core also holds the board's block-design tcl "
                            "(tclSource), for a Vivado target; needs a board: pynq-z1, pynq-z2, zcu104 or kv260"),
}


class GeneratorError(Exception):
    """The generator's input is unusable: one message per line, printed to stderr."""


def cores_root() -> Path:
    """This folder: a FuseSoC cores root with the generator core."""
    return Path(__file__).resolve().parent


def _read_input(path: Path) -> tuple[Path, dict[str, Any], str]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise GeneratorError(f"{path}: cannot read the generator input FuseSoC wrote: {e}") from None
    if not isinstance(data, dict) or "files_root" not in data or "vlnv" not in data:
        raise GeneratorError(f"{path}: not a FuseSoC generator input (files_root, vlnv, parameters)")
    params = data.get("parameters") or {}
    if not isinstance(params, dict):
        raise GeneratorError(f"{path}: generator 'pushpush': parameters must be a mapping, "
                             f"e.g. parameters: {{system: system.yaml}}")
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        allowed = ", ".join(f"{k} ({d})" for k, (_, d) in PARAMETERS.items())
        raise GeneratorError(f"generator 'pushpush' (requested by core '{data['vlnv']}'): unknown "
                             f"parameter{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                             f"parameters: {allowed}")
    bd = params.get("block_design", PARAMETERS["block_design"][0])
    if not isinstance(bd, bool):
        raise GeneratorError(f"generator 'pushpush' (requested by core '{data['vlnv']}'): "
                             f"block_design must be true or false, not {bd!r}")
    return Path(data["files_root"]), params, str(data["vlnv"])


def _board_where(path: Path) -> Optional[str]:
    """``file:line:column`` of the value of the YAML's top-level ``board`` key, if any."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    for key, value in getattr(root, "value", None) or []:
        if getattr(key, "value", None) == "board":
            return f"{path}:{value.start_mark.line + 1}:{value.start_mark.column + 1}"
    return None


def generate_core(files_root: Path, system: str, vlnv: str, outdir: Path,
                  block_design: bool = False) -> list[Path]:
    """Generate the system ``files_root/system`` into ``outdir`` with a self-contained core
    named ``vlnv`` (with the PYNQ-Z1 block-design tcl in its default target if
    ``block_design``). Raises :class:`~pushpush.errors.SpecError` (invalid system),
    :class:`~pushpush.codegen.generate.GenerateError` (sources) or :class:`GeneratorError`."""
    from pushpush import __version__
    from pushpush.build.cores import cores_rtl
    from pushpush.codegen.fabric import core_dependencies, rtl_components, top_module_name
    from pushpush.codegen.fusesoc import core_path
    from pushpush.codegen.generate import generate_files
    from pushpush.codegen.render import render_template, write_tree
    from pushpush.codegen.vivado import bd_tcl_path, bd_wrapper_name, render_bd_tcl
    from pushpush.link import load
    from pushpush.resources import cores_dir

    path = Path(system) if Path(system).is_absolute() else files_root / system
    if not path.is_file():
        raise GeneratorError(f"generator 'pushpush' (requested by core '{vlnv}'): no system "
                             f"description '{path}'; set parameters: {{system: <file>}} relative "
                             f"to {files_root}")
    linked = load(path)
    if not rtl_components(linked):
        raise GeneratorError(f"{path}: system '{linked.name}' has no rtl component: there is no "
                             f"hardware for FuseSoC to build")
    riscv = [c.name for c in linked.components if c.kind == "riscv"]
    if riscv:
        raise GeneratorError(f"{path}: system '{linked.name}' has riscv component(s) {', '.join(riscv)}: "
                             f"the FuseSoC generator does not compile their programs or carry the soft "
                             f"core; build it with 'pushpush build' (its generated .core lists both, "
                             f"docs/riscv.md \"Board builds\")")
    if block_design and linked.board not in BOARD_NAMES:
        raise GeneratorError(f"{_board_where(path) or linked.where()}: system '{linked.name}' has board: {linked.board}, "
                             f"but core '{vlnv}' asks for a board's block design "
                             f"(block_design: true); set board: {', '.join(BOARD_NAMES)} in {path.name}")
    files = generate_files(linked)
    files.pop(core_path(linked), None)  # FuseSoC reads every .core here: only ours
    # the block design's comments name the core that holds it: this one
    files[bd_tcl_path(linked)] = render_bd_tcl(linked, vlnv)
    # the pushpush cores the generated RTL instantiates, copied: FuseSoC does not resolve
    # dependencies of generated cores, so this core carries every file itself
    core_files: list[str] = []
    root = cores_dir()
    for src in cores_rtl(core_dependencies(linked)):   # this system's: trace, firewall too
        dest = str(PurePosixPath("pushpush_cores", *src.relative_to(root).parts))
        files[dest] = src.read_text(encoding="utf-8")
        core_files.append(dest)
    user_files = [f for f in files if f.startswith("src/") and f.endswith((".v", ".sv"))]
    rtl_files = [f for f in files if f.startswith("rtl/") and f.endswith(".v")]
    name = vlnv.split(":")[2] if vlnv.count(":") >= 2 else linked.name
    files[f"{name}.core"] = render_template(
        "fusesoc/generated.core.j2", version=__version__, source=path.name, vlnv=vlnv,
        sys=linked, core_files=core_files, user_files=user_files, rtl_files=rtl_files,
        top=top_module_name(linked), map_file=f"{linked.name}.map.json",
        bd_file=bd_tcl_path(linked) if block_design else None, bd_wrapper=bd_wrapper_name(linked))
    return write_tree(files, outdir)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``pushpush_gen.py <input.yml>`` as FuseSoC calls it (in the generator's folder), or
    ``python3 -m pushpush.fusesoc_gen --cores-root`` to print :func:`cores_root`."""
    from pushpush.codegen.generate import GenerateError
    from pushpush.errors import SpecError

    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--cores-root"]:
        print(cores_root())
        return 0
    if len(args) != 1:
        print("usage: pushpush_gen.py <generator input .yml> (run by FuseSoC), or\n"
              "       python3 -m pushpush.fusesoc_gen --cores-root", file=sys.stderr)
        return 2
    try:
        files_root, params, vlnv = _read_input(Path(args[0]))
        system = str(params.get("system", PARAMETERS["system"][0]))
        written = generate_core(files_root, system, vlnv, Path.cwd(),
                                block_design=params.get("block_design", False))
    except SpecError as e:
        for d in e.diagnostics:
            print(d, file=sys.stderr)
        n = len(e.diagnostics)
        print(f"pushpush generator: {n} error{'s' if n != 1 else ''} in the system description; "
              f"nothing was generated", file=sys.stderr)
        return 1
    except (GenerateError, GeneratorError) as e:
        print(str(e), file=sys.stderr)
        print("pushpush generator: nothing was generated", file=sys.stderr)
        return 1
    print(f"pushpush generator: generated {len(written)} files for {vlnv} in {Path.cwd()}")
    return 0

