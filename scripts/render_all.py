"""Render every generated file of many systems into one folder, to compare two trees' output.

The systems: every ``system.yaml``/``*.yaml`` under ``examples/`` and ``tests/`` that links,
each with every interconnect topology x data width, plus the seeded random systems of
``tests/gen/randsys.py`` (``--seeds``, default 0..29). For each system it writes
``pushpush.codegen.generate.generate_files`` (wrappers, channel shells, top, map, C, Tcl,
FuseSoC core), a ``render_stub`` of every rtl component without channels and, for a system
with ``dma:``, the simulated board's DMA shell (``sim/<system>_dma_shell.v``), under
``<out>/<system id>/``; a system that cannot be generated gets ``ERROR.txt`` with the message.

Used while refactoring :mod:`pushpush.codegen.rtl` (the generated Verilog must stay
byte-identical)::

    git stash; PYTHONPATH=$PWD python scripts/render_all.py /tmp/before; git stash pop
    PYTHONPATH=$PWD python scripts/render_all.py /tmp/after
    diff -r /tmp/before /tmp/after && echo identical
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "gen"))

from pushpush.codegen.dma import render_dma_shell  # noqa: E402
from pushpush.codegen.generate import generate_files  # noqa: E402
from pushpush.codegen.render import GenerateError  # noqa: E402
from pushpush.codegen.fabric import rtl_components  # noqa: E402
from pushpush.codegen.rtl import render_stub  # noqa: E402
from pushpush.link import LinkedSystem, load  # noqa: E402
from pushpush.spec.fields import DATA_WIDTHS, TOPOLOGIES  # noqa: E402


def _render(linked: LinkedSystem, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    try:
        files = generate_files(linked)
    except GenerateError as e:
        (out / "ERROR.txt").write_text(str(e))
        return 0
    for c in rtl_components(linked):
        if not linked.channels_of(c.name):
            files[f"stub/{c.name}.v"] = render_stub(linked, c.name)
    if linked.dmas:
        files[f"sim/{linked.name}_dma_shell.v"] = render_dma_shell(linked)
    for rel, text in files.items():
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return len(files)


def yaml_systems() -> list[Path]:
    found = []
    for base in ("examples", "tests"):
        for p in sorted((ROOT / base).rglob("*.yaml")):
            if "fuzz" in p.parts:
                continue
            try:
                load(p)
            except Exception:  # noqa: BLE001 (not a system, or a deliberately bad one)
                continue
            found.append(p)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seeds", default="0-29", help="random system seeds, 'a-b' or 'a,b,c'")
    args = ap.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    systems = files = 0
    for p in yaml_systems():
        rel = p.relative_to(ROOT).with_suffix("")
        for topo in TOPOLOGIES:
            for dw in DATA_WIDTHS:
                linked = load(p, {"topology": topo, "data_width": dw})
                files += _render(linked, args.out / "_".join(rel.parts) / f"{topo}{dw}")
                systems += 1
    from randsys import random_system  # tests/gen

    if "-" in args.seeds:
        lo, hi = (int(x) for x in args.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(x) for x in args.seeds.split(",")]
    # a fixed folder: generated headers name the YAML's path, so it must not vary per run
    work = Path(tempfile.gettempdir()) / "pushpush-render-all"
    for s in seeds:
        random_system(s, work / f"seed{s}")
        files += _render(load(work / f"seed{s}" / "system.yaml"), args.out / f"random{s}")
        systems += 1
    print(f"{systems} systems, {files} files in {args.out}")


if __name__ == "__main__":
    main()
