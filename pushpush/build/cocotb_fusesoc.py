"""Run a core's cocotb bench through FuseSoC/Edalize: the ``cocotb`` target of its ``.core``.

The cores ``abe``, ``call_engine`` and ``traffic_gen`` have a ``cocotb`` target (Edalize flow
API: ``flow: sim``, ``tool: icarus``, ``cocotb_module: test_<core>``, ``timescale: 1ns/1ps``)
that builds the core with its default parameters and runs its bench
(``tests/cores/test_<core>.py``) on Icarus. Edalize 0.6 cannot run it correctly on its own
with cocotb 2, so this wrapper runs ``fusesoc run --target cocotb`` for you:

* cocotb 2's Icarus VPI library loads the Python side only when ``GPI_USERS`` names
  libpython and cocotb's entry point; Edalize does not set it, and without it the simulation
  runs with no test at all and exits 0. The wrapper sets it (as cocotb's own runner does),
  with ``PYGPI_PYTHON_BIN``, ``COCOTB_TOPLEVEL`` (Edalize sets neither) and ``PYTHONPATH``
  (the bench's folder first).
* a failing cocotb test still exits 0 (Edalize looks only at the simulator's exit status),
  so the wrapper has cocotb write ``COCOTB_RESULTS_FILE`` and fails unless it lists at
  least one test and no failure.

``endpoint_mem`` and ``interconnect`` have no ``cocotb`` target: their benches take the
configuration they test from the environment (a slot table, a master/slave count) and
``interconnect``'s top is a wrapper the bench generates, so they run only from pytest
(``pytest tests/cores``), which also runs every bench over several parameter sets, under
random back-pressure, on Icarus and Verilator.

Command line (from a checkout: the benches are in ``tests/cores``, not in the wheel)::

    python -m pushpush.build.cocotb_fusesoc abe call_engine traffic_gen

Library::

    from pushpush.build.cocotb_fusesoc import run_core_bench
    passed = run_core_bench("abe")          # raises BenchFailed on any failure
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

import yaml

from pushpush.build.sim import SimulationFailed, _failures
from pushpush.resources import cores_dir

__all__ = ["COCOTB_TARGET", "BenchFailed", "bench_env", "run_core_bench", "cores_with_bench", "main"]

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


def _fusesoc() -> str:
    cand = Path(sys.executable).parent / "fusesoc"
    exe = str(cand) if cand.exists() else shutil.which("fusesoc")
    if not exe:
        raise BenchFailed("fusesoc not found: pip install 'pushpush[sim]'")
    return exe


def run_core_bench(core: str, test_dir: Optional[Path] = None, build_root: Optional[Path] = None,
                   progress: Callable[[str], None] = print, timeout: float = 1800) -> int:
    """Run ``core``'s ``cocotb`` target through FuseSoC; returns the number of tests passed.

    Raises :class:`BenchFailed` naming the failed tests (or why nothing ran); the full output
    is in ``<build_root>/<core>-cocotb.log``."""
    vlnv, target = _target(core)
    test_dir = Path(test_dir) if test_dir else _REPO_TESTS
    module = (target.get("flow_options") or {}).get("cocotb_module", f"test_{core}")
    if not (test_dir / f"{module}.py").is_file():
        raise BenchFailed(f"the bench {module}.py is not in {test_dir}: the core benches are in a "
                          f"source checkout's tests/cores (not in the wheel); give its folder")
    root = Path(build_root or "build").absolute()
    root.mkdir(parents=True, exist_ok=True)
    results = root / f"{core}-cocotb-results.xml"
    log = root / f"{core}-cocotb.log"
    results.unlink(missing_ok=True)
    toplevel = target.get("toplevel") or f"pp_{core}"
    cmd = [_fusesoc(), "--cores-root", str(cores_dir()), "run", "--build-root", str(root / core),
           "--target", COCOTB_TARGET, vlnv.rsplit(":", 1)[0]]
    progress(f"pushpush: {' '.join(cmd[1:])} (log: {log})")
    with log.open("w", encoding="utf-8") as f:
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, text=True, timeout=timeout,
                              env=bench_env(toplevel, test_dir, results))
    if proc.returncode != 0:
        raise BenchFailed(f"{core}: fusesoc exit status {proc.returncode}; see {log}")
    try:
        failed, total = _failures(results)
    except SimulationFailed:
        raise BenchFailed(f"{core}: cocotb wrote no results ({results}), so no test ran although "
                          f"fusesoc exited 0; see {log}") from None
    if failed or total == 0:
        raise BenchFailed(f"{core}: {len(failed)} of {total} cocotb tests failed: "
                          f"{', '.join(failed) or 'none ran'}; see {log}")
    progress(f"pushpush: {core}: {total} cocotb tests passed")
    return total


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pushpush.build.cocotb_fusesoc",
                                description="Run cores' cocotb benches through FuseSoC/Edalize "
                                            "(their 'cocotb' targets).")
    p.add_argument("cores", nargs="*", help=f"cores (default: all with a cocotb target)")
    p.add_argument("--test-dir", type=Path, help=f"folder of the benches (default: {_REPO_TESTS})")
    p.add_argument("--build-root", type=Path, default=Path("build/cocotb"),
                   help="FuseSoC build root (default: build/cocotb)")
    args = p.parse_args(argv)
    failed = []
    for core in args.cores or cores_with_bench():
        try:
            run_core_bench(core, args.test_dir, args.build_root)
        except BenchFailed as e:
            print(f"pushpush: error: {e}", file=sys.stderr)
            failed.append(core)
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
