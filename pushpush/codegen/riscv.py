"""The RISC-V soft core of ``kind: riscv`` components: where its Verilog comes from.

The core is a dependency, not our code: PicoRV32 from the PyPI package
``pythondata-cpu-picorv32`` (the ``riscv`` extra, pinned in pyproject.toml; ISC license),
used from where pip installed it. ``cores/riscv`` wraps it (``pp_riscv``, docs/riscv.md).

Example::

    from pushpush.codegen.riscv import core_sources
    files = core_sources(("picorv32",))   # [.../cores/riscv/pp_riscv.v, .../picorv32.v]
"""

from __future__ import annotations

from pathlib import Path

from ..errors import PushPushError
from ..resources import cores_dir

__all__ = ["CORE_PACKAGE", "CORE_VERSION", "CORE_LICENSE", "PICORV32_VLNV", "PICORV32_CORE_DIR", "picorv32_core_files", "RiscvCoreMissing", "picorv32_dir", "vexriscv_dir", "VEX_PACKAGE", "VEX_VERSION", "VEX_LICENSE", "VEX_FILE",
           "core_sources", "lint_config"]

#: The PyPI package, its pinned version (pyproject.toml, extra ``riscv``) and license.
CORE_PACKAGE = "pythondata-cpu-picorv32"
CORE_VERSION = "1.0.post218"
CORE_LICENSE = "ISC (Claire Xenia Wolf)"
#: The FuseSoC core of the package's picorv32.v, which cores/riscv/riscv.core depends on. The
#: package's own picorv32.core does not parse with FuseSoC 2.4 ("filesets.tb.depend must be
#: array"), so ``pushpush build`` writes this core into the output folder
#: (:func:`picorv32_core_files`) with the package's picorv32.v, whose ISC notice it keeps.
PICORV32_VLNV = "::picorv32:0-r1"
#: Where :func:`picorv32_core_files` puts the core, in a system's output folder.
PICORV32_CORE_DIR = "riscv_core"


class RiscvCoreMissing(PushPushError):
    """The soft core's package is not installed."""


def picorv32_dir() -> Path:
    """The installed package's Verilog folder (holds picorv32.v and picorv32.core)."""
    try:
        import pythondata_cpu_picorv32 as pkg  # type: ignore[import-not-found]
    except ImportError:
        raise RiscvCoreMissing(
            f"kind: riscv needs the soft core's Verilog from {CORE_PACKAGE}: "
            f"pip install '{CORE_PACKAGE}=={CORE_VERSION}' (or pip install 'pushpush-fpga[riscv]'; "
            "./bootstrap.sh setup installs it)") from None
    folder = Path(pkg.data_location)
    if not (folder / "picorv32.v").is_file():
        raise RiscvCoreMissing(f"{CORE_PACKAGE} is installed but {folder}/picorv32.v is missing: "
                               f"reinstall it (pip install --force-reinstall '{CORE_PACKAGE}=={CORE_VERSION}')")
    return folder


#: The second core (``cpu: vexriscv``): VexRiscv_Lite.v of LiteX's pre-generated VexRiscv
#: variants (RV32IM, 5 stages, 2 KiB instruction cache, Wishbone buses), MIT license.
VEX_PACKAGE = "pythondata-cpu-vexriscv"
VEX_VERSION = "1.0.1.post407"
VEX_LICENSE = "MIT"
VEX_FILE = "VexRiscv.v"


def vexriscv_dir() -> Path:
    """The installed pythondata-cpu-vexriscv's Verilog folder (holds VexRiscv_Lite.v)."""
    try:
        import pythondata_cpu_vexriscv as pkg  # type: ignore[import-not-found]
    except ImportError:
        raise RiscvCoreMissing(
            f"cpu: vexriscv needs the core's Verilog from {VEX_PACKAGE}: "
            f"pip install '{VEX_PACKAGE}=={VEX_VERSION}' (or pip install 'pushpush-fpga[riscv]'; "
            "./bootstrap.sh setup installs it)") from None
    folder = Path(pkg.data_location)
    if not (folder / VEX_FILE).is_file():
        raise RiscvCoreMissing(f"{VEX_PACKAGE} is installed but {folder}/{VEX_FILE} is missing: "
                               f"reinstall it (pip install --force-reinstall '{VEX_PACKAGE}=={VEX_VERSION}')")
    return folder


def core_sources(cpus: tuple[str, ...] = ("picorv32", "vexriscv")) -> list[Path]:
    """The Verilog of a riscv component: cores/riscv/pp_riscv.v, the cores of ``cpus`` from
    their packages (VexRiscv.v, then picorv32.v last: it sets a `timescale that every
    file after it would inherit; put these files after the others). pp_riscv instantiates
    one core (its parameter CPU); Icarus, Verilator and Yosys need only the chosen one."""
    files = [cores_dir() / "riscv" / "pp_riscv.v"]
    if "vexriscv" in cpus:
        files.append(vexriscv_dir() / VEX_FILE)
    return [*files, picorv32_dir() / "picorv32.v"]


def lint_config() -> Path:
    """The Verilator configuration that limits ``-Wall`` to our wrapper (not the package's core)."""
    return cores_dir() / "riscv" / "picorv32_lint.vlt"


def picorv32_core_files() -> dict[str, str]:
    """``{relative path: text}`` of the FuseSoC core :data:`PICORV32_VLNV` for a system's
    output folder (under :data:`PICORV32_CORE_DIR`): the installed package's picorv32.v,
    byte for byte (its ISC notice is its first lines), the package's license file, and a
    ``.core`` listing picorv32.v that names the package, version and license."""
    folder = picorv32_dir()
    core = (f"CAPI=2:\n"
            f"# Written by 'pushpush build' for the riscv components' soft core: picorv32.v and\n"
            f"# COPYING are the files of the PyPI package {CORE_PACKAGE}=={CORE_VERSION}\n"
            f"# ({CORE_LICENSE}), copied from where pip installed it ({folder}).\n"
            f"# The package's own picorv32.core does not parse with FuseSoC 2.4.\n"
            f"name: \"{PICORV32_VLNV}\"\n"
            f"description: PicoRV32 from {CORE_PACKAGE}=={CORE_VERSION} ({CORE_LICENSE})\n"
            f"filesets:\n"
            f"  rtl:\n"
            f"    files: [picorv32.v]\n"
            f"    file_type: verilogSource\n"
            f"targets:\n"
            f"  default:\n"
            f"    filesets: [rtl]\n")
    out = {f"{PICORV32_CORE_DIR}/picorv32.core": core,
           f"{PICORV32_CORE_DIR}/picorv32.v": (folder / "picorv32.v").read_text(encoding="utf-8")}
    if (folder / "COPYING").is_file():
        out[f"{PICORV32_CORE_DIR}/COPYING"] = (folder / "COPYING").read_text(encoding="utf-8")
    return out
