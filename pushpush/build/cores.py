"""The hand-written cores under ``cores/``: reading their FuseSoC ``.core`` files.

Example::

    from pushpush.build.cores import core_sources
    files, top = core_sources("interconnect")   # the RTL files and the top module
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pushpush.resources import cores_dir


class CoreError(LookupError):
    """No such core, or its .core file does not say what is needed."""


def core_sources(core: str) -> tuple[list[Path], str]:
    """The RTL files and top module of ``cores/<core>/<core>.core`` (its ``rtl`` or first
    fileset, and the ``synth`` target's toplevel, else the ``default`` target's). A fileset's
    ``depend`` on another pushpush core (``pushpush:cores:<name>:<version>``, e.g. the AXI
    slave front end ``axi_slave``) puts that core's files first."""
    folder = cores_dir() / core
    core_file = folder / f"{core}.core"
    if not core_file.exists():
        known = sorted(p.name for p in cores_dir().iterdir() if (p / f"{p.name}.core").exists())
        raise CoreError(f"no core '{core}' (no {core_file}); cores: {', '.join(known)}")
    desc = yaml.safe_load(core_file.read_text())
    files: list[Path] = []
    for fs in (desc.get("filesets") or {}).values():
        if fs.get("file_type", "") not in ("verilogSource", "systemVerilogSource", ""):
            continue
        for dep in fs.get("depend") or []:
            parts = str(dep).split(":")
            if len(parts) >= 3 and parts[0] == "pushpush" and parts[1] == "cores":
                files += [f for f in core_sources(parts[2])[0] if f not in files]
        for f in fs.get("files") or []:
            name = f if isinstance(f, str) else next(iter(f))
            if name.endswith(".v") and "tb" not in Path(name).parts and not name.endswith("_tb.v"):
                files.append(folder / name)
    targets = desc.get("targets") or {}
    top = (targets.get("synth") or {}).get("toplevel") or (targets.get("default") or {}).get("toplevel")
    if not top:
        top = f"pp_{core}"
    if isinstance(top, list):
        top = top[0]
    return files, str(top)


def cores_rtl(cores: "list[str] | tuple[str, ...]") -> list[Path]:
    """The RTL files of several cores, in order, each file once (e.g. everything a
    generated system top instantiates: ``cores_rtl(core_dependencies())``)."""
    files: list[Path] = []
    for core in cores:
        for f in core_sources(core)[0]:
            if f not in files:
                files.append(f)
    return files
