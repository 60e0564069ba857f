"""The files of a board overlay: where the board finds them, and what to tell a user when
they are not there.

A pushpush overlay on a PYNQ board is three files side by side: ``<system>.bit`` (the
bitstream) and ``<system>.hwh`` (the hardware handoff), both from Vivado, and
``<system>.map.json`` (the system map). ``pushpush build <folder> --target pynq_z1`` writes
them into ``<folder>/pynq_overlays/<system>/`` (:func:`pushpush.resources.overlay_build_dir`);
they are built on a machine with Vivado and copied to the board.

:func:`find_overlay` is the one place that finds them on the board, in this order:

1. the system's folder: ``<folder of system.yaml>/pynq_overlays/<system>/``, where
   ``pushpush build`` writes them;
2. the current folder (the three files copied there);
3. the installed overlays: ``pushpush/overlays/<system>/`` of the installed package (PYNQ's
   ``pynq.overlays`` entry point; ``pynq_overlays/<system>/`` in a source checkout).

The first place holding ``<system>.bit`` is the overlay; its ``.hwh`` and ``.map.json`` must
be next to it. When none has it, :class:`OverlayNotBuilt` names every place looked at and how
to build or copy the files; in Jupyter the message is shown without a traceback.
:func:`check_overlay_files` checks an overlay given by its ``.bit`` path.

:func:`check_board_pynq` refuses a board whose running PYNQ its images do not have (the
PYNQ-Z1 and Z2 have PYNQ 3.x images only; PYNQ 4.0 dropped them: :mod:`pushpush.boards`).

Example::

    from pushpush.pynq.overlay_files import find_overlay
    bit = find_overlay("demo", "/home/xilinx/demo")   # .../demo/pynq_overlays/demo/demo.bit
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from pushpush.boards import board, pynq_version_error
from pushpush.resources import OVERLAYS_DIRNAME, installed_overlay_dir, overlay_build_dir

__all__ = ["OverlayNotBuilt", "PynqVersionError", "check_overlay_files", "overlay_files",
           "map_path_for", "overlay_places", "find_overlay", "check_board_pynq",
           "installed_pynq_version"]


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


def _build_hint(name: str, system_yaml: Optional[str | os.PathLike[str]]) -> str:
    src = str(system_yaml) if system_yaml else f"<the folder or system.yaml of '{name}'>"
    return (f"To build them, on a machine with Vivado (2020.2 or later) and pushpush installed:\n"
            f"    pushpush build {src} --target pynq_z1\n"
            f"which writes {OVERLAYS_DIRNAME}/{name}/{name}.bit, {name}.hwh and {name}.map.json "
            f"in the system's folder (next to its system.yaml).")


def _sim_hint() -> str:
    return ("Without a board, set PUSHPUSH_BOARD=sim (or load the system's YAML) to use the "
            "simulated board.")


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
    raise OverlayNotBuilt(
        f"the overlay '{name}' is not built for the board: {', '.join(f.name for f in missing)} "
        f"missing in {b.parent}.\n" + _build_hint(name, system_yaml) + "\n"
        f"Copy those three files to the board, into {b.parent}/ (e.g. scp "
        f"{OVERLAYS_DIRNAME}/{name}/{name}.* xilinx@pynq:{b.parent}/), and run this again.\n"
        + _sim_hint())


def overlay_places(system: str, system_dir: Optional[str | os.PathLike[str]] = None,
                   cwd: Optional[str | os.PathLike[str]] = None) -> list[tuple[Path, str]]:
    """The folders the board looks in for ``system``'s overlay, in order, each with what it
    is: the system's folder (``system_dir``, the folder of its system.yaml; left out when
    not known), the current folder (``cwd``, default: the process's), the installed
    overlays. A folder is listed once, at its first place."""
    places: list[tuple[Path, str]] = []
    if system_dir is not None:
        places.append((overlay_build_dir(Path(system_dir).resolve(), system),
                       "the system's folder, where 'pushpush build' writes"))
    places.append((Path(cwd if cwd is not None else os.getcwd()).resolve(), "the current folder"))
    places.append((installed_overlay_dir(system),
                   "the installed overlays, PYNQ's pynq.overlays"))
    seen: set[Path] = set()
    out = []
    for folder, what in places:
        if folder not in seen:
            seen.add(folder)
            out.append((folder, what))
    return out


def find_overlay(system: str, system_dir: Optional[str | os.PathLike[str]] = None, *,
                 cwd: Optional[str | os.PathLike[str]] = None,
                 system_yaml: Optional[str | os.PathLike[str]] = None) -> Path:
    """The ``<system>.bit`` of ``system``'s board overlay: in the first of
    :func:`overlay_places` that holds it, with its ``.hwh`` and ``.map.json`` beside it.
    Raises :class:`OverlayNotBuilt` naming every place looked at (and what each lacks) and
    how to build or copy the files. ``system_yaml`` (default: ``system_dir``) goes into the
    build command of the message."""
    places = overlay_places(system, system_dir, cwd)
    lines = []
    for i, (folder, what) in enumerate(places, 1):
        files = overlay_files(folder / f"{system}.bit")
        there = [f.name for f in files if f.is_file()]
        if files[0].is_file():
            missing = [f.name for f in files if not f.is_file()]
            if not missing:
                return files[0]
            lines.append(f"  {i}. {folder}/ ({what}): {', '.join(missing)} missing beside "
                         f"{system}.bit")
            stop = f"{folder}/ has {system}.bit, so the places after it are not used: "
            break
        lines.append(f"  {i}. {folder}/ ({what}): "
                     + (f"only {', '.join(there)}" if there else "none of them"))
    else:
        stop = ""
    src = system_yaml if system_yaml is not None else system_dir
    if system_dir is not None:
        first = places[0][0]
        copy = (f"Copy them to the board, into {first}/ (e.g. from the system's folder on the "
                f"Vivado machine: scp -r {OVERLAYS_DIRNAME} xilinx@pynq:{Path(system_dir).resolve()}/)")
    else:
        copy = f"Copy the three files to the board, into {places[0][0]}/"
    raise OverlayNotBuilt(
        f"the overlay '{system}' is not built for the board: looked for {system}.bit, "
        f"{system}.hwh and {system}.map.json in\n" + "\n".join(lines) + "\n"
        + (f"{stop}complete it there.\n" if stop else "")
        + _build_hint(system, src) + "\n"
        + copy + " or into one of the other places above, and run this again.\n" + _sim_hint())


class PynqVersionError(RuntimeError):
    """The board runs a PYNQ its images do not have; the message says how to fix it."""

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


def installed_pynq_version() -> Optional[str]:
    """The version of the PYNQ installed here (``"3.1.2"``), or None without PYNQ."""
    import importlib.metadata

    try:
        return importlib.metadata.version("pynq")
    except importlib.metadata.PackageNotFoundError:
        return None


def check_board_pynq(bitfile: str | os.PathLike[str], version: Optional[str] = None) -> None:
    """Raise :class:`PynqVersionError` when the board the overlay ``bitfile`` was built for
    (the ``board`` of its ``.map.json``) has no PYNQ images of ``version``'s major (default:
    the installed PYNQ): a PYNQ-Z1 under PYNQ 4.0. Call it on a board only: the simulated
    board runs every board under PYNQ 3.x and 4.x."""
    path = map_path_for(bitfile)
    try:
        name = json.loads(path.read_text(encoding="utf-8")).get("board")
    except (OSError, ValueError, AttributeError):
        return          # no map (check_overlay_files says so), or not a pushpush map
    version = version if version is not None else installed_pynq_version()
    if version is None:
        return
    try:
        b = board(name)
    except ValueError:
        return          # a board this pushpush does not know: the map's loader says so
    problem = pynq_version_error(b, version)
    if problem:
        raise PynqVersionError(f"{Path(bitfile).name} is built for the {b.title} ({path.name}: "
                               f"board {b.name}); {problem}")
