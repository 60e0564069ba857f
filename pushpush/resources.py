"""Where the shipped data lives: ``cores/``, ``templates/``, ``examples/`` and ``c/`` (the C
runtime's plain sources, ``c/runtime/``).

In a wheel these folders are installed under ``pushpush/_data/``; in a source checkout
(editable install, or running from the repository) they are the top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent
_REPO = _PKG.parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``cores``, ``templates``, ``examples`` or ``c``).

    >>> (data_dir("cores") / "endpoint_mem").is_dir()  # doctest: +SKIP
    True
    """
    for candidate in (_PKG / "_data" / name, _REPO / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"pushpush data folder '{name}' not found under {_PKG / '_data'} or {_REPO}; "
        "reinstall the package (pip install pushpush-fpga) or run from a full checkout"
    )


def cores_dir() -> Path:
    return data_dir("cores")


def templates_dir() -> Path:
    return data_dir("templates")


def examples_dir() -> Path:
    return data_dir("examples")


def c_runtime_dir() -> Path:
    """The C runtime's hand-written files (``c/runtime/``), copied as they are into a
    system's generated ``c/`` folder (:func:`pushpush.codegen.c.render_c`) and into a
    ``kind: riscv`` program's build folder (:func:`pushpush.c.riscv.platform_files`)."""
    return data_dir("c") / "runtime"
