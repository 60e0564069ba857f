"""Run the ``cocotb`` target of your own ``.core`` that is a pushpush system (it uses the
generator ``pushpush``, like the ``<name>.core`` that ``pushpush init`` scaffolds).

The target is an ordinary Edalize flow-API target of your core::

    cocotb:
      filesets: [generator]
      generate: [system]
      toplevel: demo_top
      flow: sim
      flow_options: {tool: icarus, cocotb_module: test_demo, timescale: 1ns/1ps}

Edalize 0.6 cannot run it correctly on its own with cocotb 2 (it sets neither ``GPI_USERS``
nor ``COCOTB_TOPLEVEL``, and exits 0 on a failing test: see
:mod:`pushpush.build.cocotb_fusesoc`), and the test's :func:`pushpush.sim.cocotb_system`
needs the system map. So run it with::

    python3 -m pushpush.fusesoc_gen.cocotb_target demo.core      # from the folder of demo.core

which runs ``fusesoc --cores-root <core's folder> --cores-root <generator> run --target cocotb
<core>``: FuseSoC runs the generator (which copies ``<system>.map.json`` into the work root),
builds the system top with Icarus and runs the test module, found in the core's ``tests/``
folder or beside the core (``--test-dir`` to say where), with ``$PUSHPUSH_SYSTEM_MAP``
pointing at that map. It fails (exit status 1) on any failed test, when no test ran, and on
generator errors (printed with their YAML positions).

Library::

    from pushpush.fusesoc_gen.cocotb_target import run_system_bench
    passed = run_system_bench("demo/demo.core")     # raises BenchFailed on any failure
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

import yaml

from pushpush.build.cocotb_fusesoc import COCOTB_TARGET, BenchFailed, fusesoc_exe, run_fusesoc_bench

from . import GENERATOR, PARAMETERS, cores_root

__all__ = ["run_system_bench", "main"]


def _system_name(core_file: Path, desc: dict, target: dict) -> Optional[str]:
    """The name of the system the generator 'pushpush' builds for ``target`` (None if its
    system.yaml does not say: the generator then reports why, with positions)."""
    entries = desc.get("generate") or {}
    gens = [entries[g] for g in target.get("generate") or []
            if isinstance(g, str) and isinstance(entries.get(g), dict)
            and entries[g].get("generator") == GENERATOR]
    if len(gens) != 1:
        raise BenchFailed(f"{core_file}: the '{COCOTB_TARGET}' target's 'generate:' names "
                          f"{'no' if not gens else 'more than one'} entry with generator: "
                          f"{GENERATOR}; it needs exactly one (see 'pushpush init' or "
                          f"pushpush/fusesoc_gen)")
    rel = str((gens[0].get("parameters") or {}).get("system", PARAMETERS["system"][0]))
    system = Path(rel) if Path(rel).is_absolute() else core_file.parent / rel
    try:
        data = yaml.safe_load(system.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    name = data.get("system") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def run_system_bench(core_file: str | Path, test_dir: Optional[Path] = None,
                     build_root: Optional[Path] = None, progress: Callable[[str], None] = print,
                     timeout: float = 1800) -> int:
    """Run the ``cocotb`` target of ``core_file`` through FuseSoC; returns the number of tests
    passed. The build root defaults to ``build/`` beside the core; the output is in
    ``<build root>/<system>-cocotb.log``. Raises :class:`BenchFailed`."""
    from pushpush.sim import MAP_ENV

    core_file = Path(core_file).absolute()
    try:
        desc = yaml.safe_load(core_file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise BenchFailed(f"cannot read the core {core_file}: {e}") from None
    if not isinstance(desc, dict) or "name" not in desc:
        raise BenchFailed(f"{core_file} is not a FuseSoC CAPI2 core (no 'name')")
    target = (desc.get("targets") or {}).get(COCOTB_TARGET)
    module = ((target or {}).get("flow_options") or {}).get("cocotb_module")
    if not module:
        raise BenchFailed(f"{core_file}: no '{COCOTB_TARGET}' target with flow_options: "
                          f"{{cocotb_module: <test module>}}; 'pushpush init' scaffolds one")
    toplevel = target.get("toplevel")
    if not toplevel:
        raise BenchFailed(f"{core_file}: the '{COCOTB_TARGET}' target has no toplevel (<system>_top)")
    name = _system_name(core_file, desc, target)
    folder = core_file.parent
    dirs = [Path(test_dir)] if test_dir else [folder / "tests", folder]
    found = [d for d in dirs if (d / f"{module}.py").is_file()]
    if not found:
        raise BenchFailed(f"{core_file}: the test module {module}.py (cocotb_module of the "
                          f"'{COCOTB_TARGET}' target) is in none of {', '.join(map(str, dirs))}")
    vlnv = str(desc["name"])
    root = Path(build_root).absolute() if build_root else folder / "build"
    # FuseSoC's work root for the target; the generated core copies the map there
    work_root = root / vlnv.replace(":", "_") / COCOTB_TARGET
    extra = {MAP_ENV: str(work_root / f"{name}.map.json")} if name else {}
    cmd = [fusesoc_exe(), "--cores-root", str(folder), "--cores-root", str(cores_root()), "run",
           "--build-root", str(root), "--target", COCOTB_TARGET, vlnv.rsplit(":", 1)[0]]
    return run_fusesoc_bench(name or core_file.stem, cmd, root, str(toplevel), found[0], extra,
                             progress, timeout)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m pushpush.fusesoc_gen.cocotb_target",
                                description="Run the 'cocotb' target of your pushpush system's "
                                            ".core through FuseSoC/Edalize.")
    p.add_argument("core", type=Path, help="your .core file (using the generator 'pushpush')")
    p.add_argument("--test-dir", type=Path,
                   help="folder of the test module (default: the core's tests/, else its folder)")
    p.add_argument("--build-root", type=Path, help="FuseSoC build root (default: build/ beside the core)")
    args = p.parse_args(argv)
    try:
        run_system_bench(args.core, args.test_dir, args.build_root)
    except BenchFailed as e:
        print(f"pushpush: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    # The documented command for a system core's cocotb target (docs/fusesoc.md; the generated
    # .core's comment, templates/fusesoc/generated.core.j2, points here).
    sys.exit(main())
