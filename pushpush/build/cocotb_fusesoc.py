"""Run a core's cocotb bench through FuseSoC/Edalize: the ``cocotb`` target of its ``.core``.

Every core under ``cores/`` has a ``cocotb`` target (Edalize flow API: ``flow: sim``,
``tool: icarus``, ``cocotb_module: test_<core>``, ``timescale: 1ns/1ps``) that builds the
core with its target's parameters and runs its bench (``tests/cores/test_<core>.py``) on
Icarus. Edalize 0.6 cannot run it correctly on its own with cocotb 2, so this wrapper runs
``fusesoc run --target cocotb`` for you:

* cocotb 2's Icarus VPI library loads the Python side only when ``GPI_USERS`` names
  libpython and cocotb's entry point; Edalize does not set it, and without it the simulation
  runs with no test at all and exits 0. The wrapper sets it (as cocotb's own runner does),
  with ``PYGPI_PYTHON_BIN``, ``COCOTB_TOPLEVEL`` (Edalize sets neither) and ``PYTHONPATH``
  (the bench's folder first).
* a failing cocotb test still exits 0 (Edalize looks only at the simulator's exit status),
  so the wrapper has cocotb write ``COCOTB_RESULTS_FILE`` and fails unless it lists at
  least one test and no failure.

FuseSoC passes a bench nothing but Verilog parameters, so each bench works with its target's
parameters: ``abe``, ``call_engine`` and ``traffic_gen`` default to the ``.core``'s defaults;
``endpoint_mem``, ``interconnect`` and ``req_arbiter`` read their configuration (slot table,
port counts, ...) from the DUT's parameters when the environment variable pytest sets is
absent, and log it ("configuration from the DUT's parameters"), so a parameter given on the
command line (``parameters={"TOPOLOGY": 1}``, or ``-p TOPOLOGY=1``) reaches the bench too.
``interconnect``'s target runs the bench's per-port wrapper of a 2x2 interconnect,
``cores/interconnect/tb/pp_ic_wrap_2x2.v`` (cocotb cannot bind to slices of the core's
flattened ports; the file is what the bench's ``write_wrapper(2, 2, ...)`` writes, which a
test checks). Each target runs one parameter set; ``pytest tests/cores`` runs every bench
over several, under random back-pressure, on Icarus and Verilator.

Command line (from a checkout: the benches are in ``tests/cores``, not in the wheel)::

    python -m pushpush.build.cocotb_fusesoc                       # every core
    python -m pushpush.build.cocotb_fusesoc interconnect -p TOPOLOGY=1

(A system's own ``.core``, using the generator ``pushpush``: :mod:`pushpush.fusesoc_gen.cocotb_target`.)

Library::

    from pushpush.build.cocotb_fusesoc import run_core_bench
    passed = run_core_bench("abe")          # raises BenchFailed on any failure
    run_core_bench("interconnect", parameters={"TOPOLOGY": 1})
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence, Union

import yaml

from pushpush.build.sim import SimulationFailed, _failures
from pushpush.resources import cores_dir

__all__ = ["COCOTB_TARGET", "BenchFailed", "bench_env", "run_core_bench", "run_fusesoc_bench", "fusesoc_exe",
           "cores_with_bench", "main"]

COCOTB_TARGET = "cocotb"
_REPO_TESTS = Path(__file__).resolve().parents[2] / "tests" / "cores"


class BenchFailed(SimulationFailed):
    """The bench did not run, or some of its tests failed."""


def cores_with_bench() -> list[str]:
    """The cores whose ``.core`` has a ``cocotb`` target."""
    out = []
    for core in sorted(cores_dir().glob("*/*.core")):
        desc = yaml.safe_load(core.read_text())
        if COCOTB_TARGET in (desc.get("targets") or {}):
            out.append(core.parent.name)
    return out


def _target(core: str) -> tuple[str, dict]:
    path = cores_dir() / core / f"{core}.core"
    if not path.is_file():
        raise BenchFailed(f"no core '{core}' ({path}); cores with a cocotb target: "
                          f"{', '.join(cores_with_bench())}")
    desc = yaml.safe_load(path.read_text())
    target = (desc.get("targets") or {}).get(COCOTB_TARGET)
    if not target:
        raise BenchFailed(f"{path} has no '{COCOTB_TARGET}' target; cores with one: "
                          f"{', '.join(cores_with_bench())}")
    return str(desc["name"]), target


def bench_env(toplevel: str, test_dir: Path, results: Path) -> dict[str, str]:
    """The environment Edalize's cocotb run needs with cocotb 2 (and does not set)."""
    import find_libpython
    import cocotb_tools.config

    libpython = find_libpython.find_libpython()
    if libpython is None:
        raise BenchFailed("cannot find libpython, which cocotb needs inside the simulator")
    env = dict(os.environ)
    env["GPI_USERS"] = f"{libpython};{cocotb_tools.config.pygpi_entry_point()}"
    env["PYGPI_PYTHON_BIN"] = sys.executable
    env["COCOTB_TOPLEVEL"] = toplevel
    env["COCOTB_RESULTS_FILE"] = str(results)
    env["PYTHONPATH"] = os.pathsep.join([str(test_dir), *sys.path])
    # python3/cocotb-config of this interpreter's environment first
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def fusesoc_exe() -> str:
    cand = Path(sys.executable).parent / "fusesoc"
    exe = str(cand) if cand.exists() else shutil.which("fusesoc")
    if not exe:
        raise BenchFailed("fusesoc not found: pip install 'pushpush-fpga[sim]'")
    return exe


def run_core_bench(core: str, test_dir: Optional[Path] = None, build_root: Optional[Path] = None,
                   progress: Callable[[str], None] = print, timeout: float = 1800,
                   parameters: Optional[Mapping[str, Union[int, str]]] = None) -> int:
    """Run ``core``'s ``cocotb`` target through FuseSoC; returns the number of tests passed.

    ``parameters`` override the target's (FuseSoC's ``--NAME=value``; only those the target
    lists). Raises :class:`BenchFailed` naming the failed tests (or why nothing ran); the full
    output is in ``<build_root>/<core>-cocotb.log``."""
    vlnv, target = _target(core)
    listed = [str(p).split("=", 1)[0] for p in target.get("parameters") or []]
    unknown = sorted(set(parameters or {}) - set(listed))
    if unknown:
        raise BenchFailed(f"{core}: the cocotb target has no parameter {', '.join(unknown)}; "
                          f"its parameters: {', '.join(listed) or 'none'}")
    test_dir = Path(test_dir) if test_dir else _REPO_TESTS
    module = (target.get("flow_options") or {}).get("cocotb_module", f"test_{core}")
    if not (test_dir / f"{module}.py").is_file():
        raise BenchFailed(f"the bench {module}.py is not in {test_dir}: the core benches are in a "
                          f"source checkout's tests/cores (not in the wheel); give its folder")
    root = Path(build_root or "build").absolute()
    cmd = [fusesoc_exe(), "--cores-root", str(cores_dir()), "run", "--build-root", str(root / core),
           "--target", COCOTB_TARGET, vlnv.rsplit(":", 1)[0]]
    cmd += [f"--{k}={v}" for k, v in (parameters or {}).items()]
    toplevel = target.get("toplevel") or f"pp_{core}"
    return run_fusesoc_bench(core, cmd, root, toplevel, test_dir, {}, progress, timeout)


def run_fusesoc_bench(label: str, cmd: list[str], root: Path, toplevel: str, test_dir: Path,
                      extra_env: Mapping[str, str], progress: Callable[[str], None],
                      timeout: float) -> int:
    """Run ``cmd`` (a ``fusesoc run --target cocotb ...``) with :func:`bench_env` plus
    ``extra_env``, output to ``<root>/<label>-cocotb.log``, and check cocotb's results file;
    returns the number of tests passed or raises :class:`BenchFailed`."""
    root.mkdir(parents=True, exist_ok=True)
    results = root / f"{label}-cocotb-results.xml"
    log = root / f"{label}-cocotb.log"
    results.unlink(missing_ok=True)
    progress(f"pushpush: {' '.join(cmd[1:])} (log: {log})")
    env = bench_env(toplevel, test_dir, results)
    env.update(extra_env)
    try:
        with log.open("w", encoding="utf-8") as f:
            proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, text=True,
                                  timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise BenchFailed(f"{label}: fusesoc did not finish within {timeout:.0f} s; see {log}") from None
    if proc.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        raise BenchFailed(f"{label}: fusesoc exit status {proc.returncode}; the last lines of {log}:\n"
                          + "\n".join("  " + ln for ln in tail))
    try:
        failed, total = _failures(results)
    except SimulationFailed:
        raise BenchFailed(f"{label}: cocotb wrote no results ({results}), so no test ran although "
                          f"fusesoc exited 0; see {log}") from None
    import xml.etree.ElementTree as ET
    skipped = sum(1 for case in ET.parse(results).iter("testcase") if case.find("skipped") is not None)
    passed = total - skipped
    if failed or passed == 0:
        raise BenchFailed(f"{label}: {len(failed)} of {total} cocotb tests failed: "
                          f"{', '.join(failed) or 'none ran'}; see {log}")
    progress(f"pushpush: {label}: {passed} cocotb tests passed"
             + (f", {skipped} skipped (for another toplevel)" if skipped else ""))
    return passed


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pushpush.build.cocotb_fusesoc",
                                description="Run cores' cocotb benches through FuseSoC/Edalize "
                                            "(their 'cocotb' targets).")
    p.add_argument("cores", nargs="*", help="cores (default: all with a cocotb target)")
    p.add_argument("--test-dir", type=Path, help=f"folder of the benches (default: {_REPO_TESTS})")
    p.add_argument("--build-root", type=Path, default=Path("build/cocotb"),
                   help="FuseSoC build root (default: build/cocotb)")
    p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter of the cocotb target (repeatable)")
    args = p.parse_args(argv)
    params: dict[str, str] = {}
    for item in args.param:
        name, eq, value = item.partition("=")
        if not eq or not name:
            p.error(f"-p {item}: give NAME=VALUE, e.g. -p TOPOLOGY=1")
        params[name] = value
    failed = []
    for core in args.cores or cores_with_bench():
        try:
            if core.endswith(".core"):
                raise BenchFailed(f"{core}: for your system's .core run "
                                  f"'python3 -m pushpush.fusesoc_gen.cocotb_target {core}'")
            run_core_bench(core, args.test_dir, args.build_root, parameters=params)
        except BenchFailed as e:
            print(f"pushpush: error: {e}", file=sys.stderr)
            failed.append(core)
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    # The documented command for the cores' own cocotb benches (docs/fusesoc.md, cores/*/README.md,
    # the .core files' comments); the pushpush command has no subcommand for a core.
    sys.exit(main())
