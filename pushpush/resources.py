"""Where the shipped data lives: ``cores/``, ``templates/`` and ``examples/``.

In a wheel these folders are installed under ``pushpush/_data/``; in a source checkout
(editable install, or running from the repository) they are the top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent
_REPO = _PKG.parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``cores``, ``templates`` or ``examples``).

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
