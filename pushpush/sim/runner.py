"""The pytest side: generate a system and run a cocotb test module against its top.

Example (in ``tests/test_mysys.py``, next to ``system.yaml``)::

    @pytest.mark.parametrize("simulator,params", sim_matrix([{"pause": 0.0}, {"pause": 0.3}]))
    def test_mysys(simulator, params):
        simulate_system("system.yaml", simulator=simulator, pause=params["pause"])

``test_module`` and ``test_dir`` default to the calling file (the cocotb tests usually sit in
the same file as the pytest function); a relative ``system`` path is looked up in the
current directory, then next to the calling file.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from pushpush.link import LinkedSystem, load

__all__ = ["MAP_ENV", "COMPONENT_ENV", "PAUSE_ENV", "SEED_ENV", "SystemBuild", "load_linked",
           "build_system", "simulate_system"]

#: Environment variables read by the cocotb side (:mod:`pushpush.sim.ps`).
MAP_ENV = "PUSHPUSH_SYSTEM_MAP"        # path of the generated system map (JSON)
COMPONENT_ENV = "PUSHPUSH_COMPONENT"   # default software component for cocotb_system
PAUSE_ENV = "PUSHPUSH_SIM_PAUSE"       # default idle probability on the ARM's AXI channels
SEED_ENV = "PUSHPUSH_SIM_SEED"         # seed of those pauses

PathLike = Union[str, "os.PathLike[str]"]


@dataclass
class SystemBuild:
    """A generated system ready to simulate."""

    linked: LinkedSystem
    #: the top module (``<system>_top``)
    top: str
    #: every Verilog file: the cores, the generated wrappers and top, the user's modules
    sources: list[Path]
    #: the system map (JSON), for :func:`pushpush.sysmap.from_json`
    map_path: Path
    #: where ``pushpush generate`` wrote its files
    outdir: Path


def _resolve(system: PathLike, near: Optional[Path]) -> Path:
    p = Path(system)
    if p.is_absolute() or p.exists() or near is None:
        return p
    if (near / p).exists():
        return near / p
    return p


def load_linked(system: Union[PathLike, LinkedSystem], interconnect: Optional[Mapping[str, Any]] = None,
                near: Optional[Path] = None) -> LinkedSystem:
    """Link a ``system.yaml`` (or return an already linked system), optionally overriding
    interconnect settings (``{"topology": "shared", "data_width": 64}``)."""
    if isinstance(system, LinkedSystem):
        return system.with_interconnect(**dict(interconnect or {}))
    path = _resolve(system, near)
    if not path.exists():
        raise FileNotFoundError(f"no system description at '{system}'"
                                + (f" (nor in {near})" if near is not None else ""))
    return load(path, dict(interconnect or {}))


def _core_files(linked: Optional[LinkedSystem] = None) -> list[Path]:
    from pushpush.build.cores import cores_rtl
    from pushpush.codegen.fabric import core_dependencies

    return cores_rtl(core_dependencies(linked))


def build_system(system: Union[PathLike, LinkedSystem], outdir: PathLike, *,
                 interconnect: Optional[Mapping[str, Any]] = None,
                 near: Optional[Path] = None) -> SystemBuild:
    """Link (if needed) and generate ``system`` into ``outdir``; collect its Verilog.

    Raises :class:`pushpush.codegen.render.GenerateError` (e.g. a module's ports do not
    match the YAML) before anything is simulated."""
    from pushpush.codegen.generate import generate, map_path
    from pushpush.codegen.fabric import top_module_name

    linked = load_linked(system, interconnect, near)
    out = Path(outdir)
    written = generate(linked, out)
    verilog = [Path(p) for p in written if str(p).endswith(".v")]
    generated = sorted(p for p in verilog if p.parent.name == "rtl")
    user = [p for p in verilog if p not in generated]
    return SystemBuild(linked=linked, top=top_module_name(linked),
                       sources=_core_files(linked) + generated + user,
                       map_path=out / map_path(linked), outdir=out)


def _caller_file(depth: int = 2) -> Optional[Path]:
    frame = inspect.currentframe()
    for _ in range(depth):
        if frame is None:
            return None
        frame = frame.f_back
    name = frame.f_globals.get("__file__") if frame is not None else None
    return Path(name).resolve() if name else None


def simulate_system(system: Union[PathLike, LinkedSystem], *, test_module: Optional[str] = None,
                    test_dir: Optional[PathLike] = None, simulator: str = "icarus",
                    build_dir: Optional[PathLike] = None,
                    interconnect: Optional[Mapping[str, Any]] = None,
                    component: Optional[str] = None, pause: Optional[float] = None,
                    seed: Optional[int] = None, extra_env: Optional[Mapping[str, str]] = None,
                    extra_sources: Sequence[PathLike] = (), testcase: Union[str, Sequence[str], None] = None,
                    waves: bool = False) -> SystemBuild:
    """Generate ``system`` and run the cocotb tests of ``test_module`` against its top.

    - ``system``: a ``system.yaml`` path (relative: from the current directory, else next to
      the calling file) or a :class:`~pushpush.link.LinkedSystem`.
    - ``test_module``/``test_dir``: the cocotb test module; default: the calling file.
    - ``simulator``: ``"icarus"`` or ``"verilator"`` (see :func:`pushpush.testing.sim_matrix`).
    - ``build_dir``: default ``sim_build/<system>-<simulator>-<hash of the options>``
      (``$PUSHPUSH_SIM_BUILD`` overrides ``sim_build``); generated files go to
      ``<build_dir>/gen``, the simulator's to ``<build_dir>/sim``.
    - ``interconnect``: overrides of the YAML's ``interconnect`` section.
    - ``component``, ``pause``, ``seed``: defaults for :func:`~pushpush.sim.cocotb_system` in
      the simulation (the software component to run; the idle probability on every AXI
      channel of the ARM model, and its seed).
    - ``extra_env``: more environment for the cocotb tests; ``extra_sources``: more Verilog.

    Raises :class:`pushpush.build.sim.SimulationFailed` if a cocotb test fails. Returns the
    :class:`SystemBuild` (top, sources, map path).
    """
    from pushpush.build.sim import default_build_root, run_cocotb

    caller = _caller_file()
    near = caller.parent if caller is not None else None
    if test_module is None:
        if caller is None:
            raise ValueError("simulate_system: give test_module= (cannot tell the calling file)")
        test_module = caller.stem
    if test_dir is None:
        if near is None:
            raise ValueError("simulate_system: give test_dir= (cannot tell the calling file)")
        test_dir = near
    linked = load_linked(system, interconnect, near)
    if build_dir is None:
        key = json.dumps({"system": str(system) if not isinstance(system, LinkedSystem) else linked.name,
                          "interconnect": dict(interconnect or {}), "module": test_module},
                         sort_keys=True, default=str)
        digest = hashlib.sha1(key.encode()).hexdigest()[:10]
        build_dir = default_build_root() / f"{linked.name}-{simulator}-{digest}"
    bdir = Path(build_dir)
    build = build_system(linked, bdir / "gen")
    env = {MAP_ENV: str(build.map_path.resolve())}
    if component is not None:
        linked.component(component)  # KeyError early for a typo
        env[COMPONENT_ENV] = component
    if pause is not None:
        env[PAUSE_ENV] = repr(float(pause))
    if seed is not None:
        env[SEED_ENV] = str(int(seed))
    env.update(extra_env or {})
    run_cocotb(toplevel=build.top, sources=build.sources + [Path(s) for s in extra_sources],
               test_module=test_module, test_dir=test_dir, simulator=simulator,
               build_dir=bdir / "sim", extra_env=env, testcase=testcase, waves=waves)
    return build
