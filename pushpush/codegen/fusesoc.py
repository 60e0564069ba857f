"""The FuseSoC CAPI2 core ``<system>.core`` of a generated system.

VLNV ``pushpush:system:<system>:0.1.0``. Filesets: ``user`` (copies of the rtl components'
sources under ``src/<component>/``), ``rtl`` (the generated wrappers and top, depending on
``pushpush:cores:<name>`` for every core the RTL instantiates) and ``bd`` (the PYNQ-Z1 block
design tcl). Targets (Edalize flow API): ``lint`` (Verilator -Wall), ``sim`` (Icarus),
``synth`` (Yosys synth_xilinx, xc7, hierarchy kept), ``pynq_z1`` (Vivado,
xc7z020clg400-1, top = the block design's wrapper).

A CAPI2 file must start with ``CAPI=2:``, so the "generated" header is its second line.
"""

from __future__ import annotations

from typing import Any

import os
from pathlib import Path, PurePosixPath

from pushpush.link import LinkedSystem

from .render import GenerateError, generated_header, render_template
from .fabric import core_dependencies, rtl_components, top_module_name, wrapper_module_name
from .riscv import CORE_LICENSE, CORE_PACKAGE, CORE_VERSION, PICORV32_CORE_DIR, PICORV32_VLNV
from .top_model import riscv_mem_init
from .vivado import PYNQ_Z1_PART, bd_tcl_path, bd_wrapper_name, has_block_design

__all__ = [
    "SYSTEM_CORE_VERSION",
    "system_vlnv",
    "core_path",
    "user_source_copies",
    "render_system_core",
    "riscv_images",
]

SYSTEM_CORE_VERSION = "0.1.0"


def system_vlnv(linked: LinkedSystem, version: bool = True) -> str:
    """``pushpush:system:<system>:0.1.0`` (without the version if ``version`` is false)."""
    v = f"pushpush:system:{linked.name}"
    return f"{v}:{SYSTEM_CORE_VERSION}" if version else v


def core_path(linked: LinkedSystem) -> str:
    return f"{linked.name}.core"


def user_source_copies(linked: LinkedSystem) -> dict[str, Path]:
    """Where each rtl component's sources are copied in the output folder:
    ``{"src/<component>/<file name>": absolute source path}`` in declaration order. A file
    used by several components is copied once (under the first)."""
    out: dict[str, Path] = {}
    seen: dict[Path, str] = {}
    for c in [c for c in linked.components if c.kind in ("rtl", "hls")]:  # hls: the exported IP
        for rel, path in zip(c.sources, linked.source_paths(c.name)):
            if path in seen:
                continue
            dest = str(PurePosixPath("src", c.name, PurePosixPath(rel).name))
            if dest in out:
                raise GenerateError(
                    f"{linked.source_file}: component '{c.name}' has two sources named "
                    f"'{PurePosixPath(rel).name}' ({_rel_of(linked, out[dest])} and {rel}); "
                    f"rename one of the files")
            out[dest] = path
            seen[path] = dest
    return out


def _rel_of(linked: LinkedSystem, path: Path) -> str:
    base = linked.base_dir or Path.cwd()
    return Path(os.path.relpath(path, base)).as_posix()


def _board(linked: LinkedSystem) -> Any:
    """The board a system's Vivado target builds for (``board: none``: the PYNQ-Z1)."""
    from pushpush.boards import board
    return board(linked.board)


def render_system_core(linked: LinkedSystem, user_files: list[str], rtl_files: list[str]) -> str:
    """The .core text: ``user_files``/``rtl_files`` are paths relative to the output folder."""
    kinds = [c.kind for c in linked.components]
    summary = ", ".join(f"{kinds.count(k)} {k}" for k in ("rtl", "python", "c", "riscv") if k in kinds)
    return render_template(
        "fusesoc/system.core.j2",
        header=generated_header("#", linked.source_file),
        sys=linked,
        vlnv=system_vlnv(linked),
        vlnv_short=system_vlnv(linked, version=False),
        summary=summary,
        user_files=user_files,
        rtl_files=rtl_files,
        depends=[f"pushpush:cores:{d}" for d in core_dependencies(linked)],
        bd_tcl=bd_tcl_path(linked) if has_block_design(linked) else None,
        board_target=_board(linked).fuse_target,
        board_title=_board(linked).title,
        top=top_module_name(linked),
        bd_wrapper=bd_wrapper_name(linked),
        part=_board(linked).part,
        wrappers=[wrapper_module_name(c) for c in rtl_components(linked)],
        riscv_images=riscv_images(linked),
        riscv_core_vlnv=PICORV32_VLNV,
        riscv_core_dir=PICORV32_CORE_DIR,
        riscv_package=f"{CORE_PACKAGE}=={CORE_VERSION}",
        riscv_license=f"{CORE_LICENSE.split(' ')[0]} license",
    )


def riscv_images(linked: LinkedSystem) -> list[str]:
    """The program images of the riscv components (``<component>.mem``), relative to the
    output folder: the generated ``.core`` lists them, ``pushpush build`` compiles them."""
    return [riscv_mem_init(c.name) for c in linked.components if c.kind == "riscv"]
