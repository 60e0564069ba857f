"""The riscv rows of ``pushpush bench calls``: examples/riscv_pingpong in cocotb.

C on the soft RISC-V core (kind: riscv, docs/riscv.md) with the real Verilog pingpong caller
and callee and Python on the cocotb ARM model; the program is built with
:func:`pushpush.c.riscv.build_program`, the top generated, and :mod:`pushpush.bench.experiments.calls.riscv_tb` run against
it. Software time on the core IS simulated cycles, so riscv <-> rtl rows are exact::

    from pushpush.bench.experiments.calls.riscv_rows import run_riscv_rows
    cpc = run_riscv_rows(Path("/tmp/rv"), calls=8)
    cpc["riscv_to_rtl"], cpc["rtl_to_riscv"], cpc["python_to_riscv"]
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from pushpush.resources import examples_dir

if TYPE_CHECKING:
    from pushpush.link import LinkedSystem

__all__ = ["RISCV_EXAMPLE", "with_cpu", "run_riscv_pair_rows", "run_riscv_rows", "simulate_riscv_system"]

RISCV_EXAMPLE = "riscv_pingpong"


def with_cpu(linked: "LinkedSystem", cpu: str) -> "LinkedSystem":
    """``linked`` with every riscv component on the soft core ``cpu`` (picorv32, vexriscv)."""
    from dataclasses import replace

    return replace(linked, components=tuple(replace(c, cpu=cpu) if c.kind == "riscv" else c
                                            for c in linked.components))


def simulate_riscv_system(system: Path, work: Path, tb_file: Path, extra_env: dict[str, str],
                          simulator: str = "icarus", component: str = "host",
                          cpu: Optional[str] = None) -> dict[str, Any]:
    """Generate ``system`` (every riscv component on ``cpu`` if given, else as written),
    build the program of every riscv component (its ``$readmemh`` file in the simulator's
    working directory ``work/run``), and run the cocotb module ``tb_file`` (copied there)
    against the top with the Python runtime of ``component``. Returns each program's sizes."""
    from pushpush.build.sim import run_cocotb
    from pushpush.c.riscv import build_component
    from pushpush.codegen.riscv import core_sources
    from pushpush.codegen.top_model import riscv_mem_init
    from pushpush.link import load
    from pushpush.sim.runner import COMPONENT_ENV, MAP_ENV, build_system

    work = Path(work).resolve()
    linked = load(str(system))
    build = build_system(with_cpu(linked, cpu) if cpu else linked, work / "gen")
    run = work / "run"  # the simulator's working directory: the programs' $readmemh files
    run.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for c in build.linked.components:
        if c.kind == "riscv":
            prog = build_component(build.linked, c.name, work / "gen" / "c", work / "riscv" / c.name)
            shutil.copy(prog.hex_path, run / riscv_mem_init(c.name))
            sizes[c.name] = {"image_bytes": prog.image_bytes, "used_bytes": prog.used_bytes,
                             "memory_bytes": prog.memory_bytes}
    shutil.copy(tb_file, run / Path(tb_file).name)
    cpus = tuple({c.cpu for c in build.linked.components if c.kind == "riscv"})
    run_cocotb(toplevel=build.top, sources=build.sources + core_sources(cpus), test_module=Path(tb_file).stem,
               test_dir=run, simulator=simulator, build_dir=work / "sim", cache=False,
               extra_env={MAP_ENV: str(build.map_path.resolve()), COMPONENT_ENV: component,
                          "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING"),
                          "PYTHONWARNINGS": "ignore::DeprecationWarning", **extra_env})
    return sizes


def run_riscv_rows(work: Path, calls: int = 8, simulator: str = "icarus",
                   cpu: Optional[str] = None) -> dict[str, Any]:
    """Build and simulate examples/riscv_pingpong (its core ``cpu`` if given); cycles per
    call of each pairing."""
    work = Path(work).resolve()
    out = work / "cycles.json"
    if out.exists():
        out.unlink()
    sizes = simulate_riscv_system(examples_dir() / RISCV_EXAMPLE / "system.yaml", work,
                                  Path(__file__).with_name("riscv_tb.py"),
                                  {"PP_RISCV_N": str(calls), "PP_RISCV_OUT": str(out)}, simulator, cpu=cpu)
    cpc = json.loads(out.read_text())
    return {**cpc, "calls": calls, "programs": sizes}


def run_riscv_pair_rows(work: Path, calls: int = 8, simulator: str = "icarus",
                        cpu: Optional[str] = None) -> dict[str, Any]:
    """Build and simulate the bench's two-core system (``riscv_pairs/``: C on core ``a`` calling
    C on core ``b`` and Python); cycles per call of riscv -> riscv and riscv -> python, both
    timed by core a's cycle counter (:mod:`pushpush.bench.experiments.calls.riscv_pairs_tb`)."""
    work = Path(work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    here = Path(__file__).with_name("riscv_pairs")
    text = (here / "system.yaml.in").read_text()
    system = work / "system.yaml"
    system.write_text(text.replace("@EXAMPLES@", str(examples_dir())).replace("@HERE@", str(here)))
    out = work / "cycles.json"
    if out.exists():
        out.unlink()
    sizes = simulate_riscv_system(system, work, Path(__file__).with_name("riscv_pairs_tb.py"),
                                  {"PP_RISCV_N": str(calls), "PP_RISCV_OUT": str(out)}, simulator, cpu=cpu)
    cpc = json.loads(out.read_text())
    return {**cpc, "calls": calls, "programs": sizes}
