"""Compiling the C simulation program of a ``kind: hls`` component (docs/hls.md, "C
simulation on the simulated board"): the generated ``<component>_csim.cpp``
(:mod:`pushpush.codegen.hls_csim`) and the user's HLS C++ with g++, the generated
``<component>_pp.c`` and the C runtime for the simulated board with the C compiler and the
project's C flags, linked by g++.

Example::

    exe = build_csim(Path(ol.bitfile_name).parent / "c", linked_csim, "callee", Path("/tmp/csim"))
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

from pushpush.codegen.hls_csim import csim_main_path, render_csim_main
from pushpush.codegen.hls_pp import (is_participant, pp_header_path, render_participant_csim,
                                     render_pp_header, render_top, top_path)
from pushpush.link import LinkedSystem

from . import CFLAGS, PLATFORMS, CompileError, compiler

__all__ = ["CXXFLAGS", "build_csim"]

#: the C++ side: g++ ignores the HLS pragmas (csim_design's compiler does too)
CXXFLAGS = ("-std=c++14", "-O2", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas")


def _run(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise CompileError(f"compile failed: {shlex.join(cmd)}\n{r.stdout}{r.stderr}")


def build_csim(cdir: Path, linked: LinkedSystem, component: str, out_dir: Path) -> Path:
    """Build ``component``'s C simulation program into ``out_dir``; returns the executable.
    ``cdir`` is the generated ``c/`` folder of the C simulation system; ``linked`` that
    system (:func:`pushpush.spec.hls.csim_spec`)."""
    cxx = shutil.which("g++")
    if cxx is None:
        raise CompileError("g++ is missing: apt-get install g++ (bootstrap.sh installs it)")
    out_dir.mkdir(parents=True, exist_ok=True)
    comp = linked.component(component)
    main = out_dir / csim_main_path(component)
    extra: list[Path] = []
    if is_participant(comp):  # the generated HLS side: it, not the C runtime, serves the calls
        main.write_text(render_participant_csim(linked, component))
        (out_dir / pp_header_path(component)).write_text(render_pp_header(linked, component))
        top = out_dir / top_path(component)
        top.write_text(render_top(linked, component))
        extra.append(top)
        c_srcs = [cdir / "pp_runtime.c", *(cdir / f for f in PLATFORMS["simboard"])]
    else:
        main.write_text(render_csim_main(linked, component))
        c_srcs = [cdir / f"{component}_pp.c", cdir / "pp_runtime.c", *(cdir / f for f in PLATFORMS["simboard"])]
    objs: list[str] = []
    cc = shlex.split(compiler())
    for src in c_srcs:
        obj = out_dir / (src.stem + ".o")
        _run([*cc, *CFLAGS, "-D_POSIX_C_SOURCE=200809L", f"-I{cdir}", "-c", str(src), "-o", str(obj)])
        objs.append(str(obj))
    base = linked.base_dir or Path.cwd()
    for src in [main, *extra, *(base / s for s in comp.hls_sources)]:
        if src.suffix in (".h", ".hpp", ".hh"):
            continue
        obj = out_dir / (src.stem + ".cpp.o")
        _run([cxx, *CXXFLAGS, f"-I{out_dir}", f"-I{cdir}", f"-I{src.parent}", "-c", str(src), "-o", str(obj)])
        objs.append(str(obj))
    exe = out_dir / f"{component}_csim"
    _run([cxx, *objs, "-o", str(exe)])
    return exe
