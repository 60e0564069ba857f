"""Generate a system's C files and compile C programs against them (tests/c helpers).

Every generated file is compiled with ``STRICT`` (``-Wall -Wextra -Werror -pedantic``,
C99); test programs run under AddressSanitizer and UBSan (``SANITIZE``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Sequence

from pushpush.codegen.c import render_c
from pushpush.codegen.render import write_tree
from pushpush.link import LinkedSystem, link
from pushpush.spec import load_system

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SRC = HERE / "src"
STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]
SANITIZE = ["-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer"]
CC = os.environ.get("CC", "gcc")


def linked_of(yaml: str | os.PathLike[str]) -> LinkedSystem:
    return link(load_system(str(yaml)))


def generate_c(linked: LinkedSystem, out: Path) -> Path:
    """Write the system's C files into ``out``; returns ``out/c``."""
    write_tree(render_c(linked), out)
    return out / "c"


def compile_c(cdir: Path, sources: Sequence[str | os.PathLike[str]], exe: Path, *,
              flags: Sequence[str] = (), cc: Optional[str] = None, link_exe: bool = True,
              libs: Sequence[str] = ("-lm",)) -> Path:
    """Compile ``sources`` (names in ``cdir`` or paths) with ``STRICT`` + ``flags``."""
    cmd = [cc or CC, *STRICT, *flags, f"-I{cdir}"]
    cmd += [str(s if Path(s).is_absolute() else cdir / s) for s in sources]
    cmd += ["-o", str(exe)] + (list(libs) if link_exe else [])
    if not link_exe:
        cmd.insert(1, "-c")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stdout}{r.stderr}"
    return exe


def have(tool: str) -> bool:
    return shutil.which(tool) is not None
