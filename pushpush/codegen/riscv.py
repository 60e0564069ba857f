"""The RISC-V soft core of ``kind: riscv`` components: where its Verilog comes from.

The core is a dependency, not our code: PicoRV32 from the PyPI package
``pythondata-cpu-picorv32`` (the ``riscv`` extra, pinned in pyproject.toml; ISC license),
used from where pip installed it. ``cores/riscv`` wraps it (``pp_riscv``, docs/riscv.md).

Example::

    from pushpush.codegen.riscv import core_sources
    files = core_sources()   # [.../cores/riscv/pp_riscv.v, .../picorv32.v]
"""

from __future__ import annotations

from pathlib import Path

from ..errors import PushPushError
from ..resources import cores_dir

__all__ = ["CORE_PACKAGE", "CORE_VERSION", "CORE_LICENSE", "RiscvCoreMissing", "picorv32_dir",
           "core_sources", "lint_config"]

#: The PyPI package, its pinned version (pyproject.toml, extra ``riscv``) and license.
CORE_PACKAGE = "pythondata-cpu-picorv32"
CORE_VERSION = "1.0.post218"
CORE_LICENSE = "ISC (Claire Xenia Wolf)"


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


def core_sources() -> list[Path]:
    """The Verilog of a riscv component: cores/riscv/pp_riscv.v, then the package's picorv32.v
    (last: it sets a `timescale that every file after it would inherit; put these files
    after the others)."""
    return [cores_dir() / "riscv" / "pp_riscv.v", picorv32_dir() / "picorv32.v"]


def lint_config() -> Path:
    """The Verilator configuration that limits ``-Wall`` to our wrapper (not the package's core)."""
    return cores_dir() / "riscv" / "picorv32_lint.vlt"
