"""Where the shipped data lives: ``cores/``, ``templates/``, ``examples/`` and ``c/`` (the C
runtime's plain sources, ``c/runtime/``).

In a wheel these folders are installed under ``pushpush/_data/``; in a source checkout
(editable install, or running from the repository) they are the top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent
_REPO = _PKG.parent

#: This project's addresses, as pyproject.toml's ``[project.urls]`` gives them
#: (tests/test_packaging.py keeps the two equal): what a scaffolded README links to. The
#: distribution is ``pushpush-fpga``; ``pushpush`` on PyPI is an unrelated project.
PROJECT_URLS = {
    "Homepage": "https://pypi.org/project/pushpush-fpga/",
}


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


#: The folder (under a system's own folder, or this package's) holding ``<system>/`` overlays.
OVERLAYS_DIRNAME = "pynq_overlays"


def overlay_build_dir(system_folder: str | Path, system: str) -> Path:
    """Where ``pushpush build <folder> --target pynq_z1`` (any board target) writes
    ``<system>.bit``, ``<system>.hwh`` and ``<system>.map.json`` when ``--overlays`` is not
    given: ``<folder of system.yaml>/pynq_overlays/<system>/``, wherever the command ran.
    The board looks there first (:func:`pushpush.pynq.overlay_files.find_overlay`)."""
    return Path(system_folder) / OVERLAYS_DIRNAME / system


def installed_overlay_dir(system: str) -> Path:
    """The shipped overlay of ``system``: ``pushpush/overlays/<system>/`` in a wheel (PYNQ's
    ``pynq.overlays`` entry point), ``pynq_overlays/<system>/`` in a source checkout."""
    for base in (_PKG / "overlays", _REPO / OVERLAYS_DIRNAME):
        if (base / system).is_dir():
            return base / system
    return _PKG / "overlays" / system if (_PKG / "overlays").is_dir() else _REPO / OVERLAYS_DIRNAME / system
