"""The files of a board overlay, and what to tell a user when they are not there.

A pushpush overlay on a PYNQ-Z1 is three files side by side: ``<system>.bit`` (the bitstream)
and ``<system>.hwh`` (the hardware handoff), both from Vivado, and ``<system>.map.json`` (the
system map). They are built on a machine with Vivado and copied to the board; a fresh
``pip install`` or ``pynq get-notebooks`` does not carry them unless they were built before
the wheel was made. :func:`check_overlay_files` raises :class:`OverlayNotBuilt` saying how to
build and where to copy them; in Jupyter the message is shown without a traceback.

Example::

    from pushpush.pynq.overlay_files import check_overlay_files
    check_overlay_files("/home/xilinx/pynq/overlays/hof/hof.bit")   # raises if one is missing
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

__all__ = ["OverlayNotBuilt", "check_overlay_files", "overlay_files", "map_path_for"]


def map_path_for(bitfile: str | os.PathLike[str]) -> Path:
    """``<system>.map.json`` next to ``<system>.bit``."""
    p = Path(bitfile)
    return p.with_name(p.stem + ".map.json")


class OverlayNotBuilt(FileNotFoundError):
    """An overlay's ``.bit``/``.hwh``/``.map.json`` is missing; the message says what to do."""

    def _render_traceback_(self) -> list[str]:
        # IPython/Jupyter show this instead of a traceback: the instructions are the point
        return [f"{type(self).__name__}: {self}"]


def overlay_files(bit: str | os.PathLike[str]) -> list[Path]:
    """``<system>.bit``, ``<system>.hwh`` and ``<system>.map.json`` of ``bit``."""
    b = Path(bit)
    return [b, b.with_suffix(".hwh"), b.with_name(b.stem + ".map.json")]


def check_overlay_files(bit: str | os.PathLike[str],
                        system_yaml: Optional[str | os.PathLike[str]] = None) -> None:
    """Raise :class:`OverlayNotBuilt` unless all three files of the overlay ``bit`` exist.

    ``system_yaml`` (the system's description, if known) goes into the build command."""
    files = overlay_files(bit)
    missing = [f for f in files if not f.is_file()]
    if not missing:
        return
    b = files[0]
    name = b.stem
    src = str(system_yaml) if system_yaml else f"<the system's folder or system.yaml for '{name}'>"
    raise OverlayNotBuilt(
        f"the overlay '{name}' is not built for the board: {', '.join(f.name for f in missing)} "
        f"missing in {b.parent}.\n"
        f"To build it, on a machine with Vivado (2020.2 or later) and pushpush installed:\n"
        f"    pushpush build {src} --target pynq_z1\n"
        f"which writes pynq_overlays/{name}/{name}.bit, {name}.hwh and {name}.map.json. "
        f"Copy those three files to the board, into {b.parent}/ (e.g. "
        f"scp pynq_overlays/{name}/{name}.* xilinx@pynq:{b.parent}/), and run this again.\n"
        f"Without a board, set PUSHPUSH_BOARD=sim (or load the system's YAML) to use the "
        f"simulated board.")
