"""Build C programs against a system's generated C files (``<out>/c``, :mod:`pushpush.codegen.c`).

:func:`compile_program` runs the C compiler the way docs/c.md tells a user to: C99, strict
warnings, the runtime and one platform layer next to the user's sources and the generated
``<component>_pp.c`` files.

Example::

    from pushpush.c import compile_program
    exe = compile_program("build/pingpong_c/pynq_sim/c", ["examples/pingpong/c/callee.c"],
                          components=["callee"], platform="simboard", output="build/callee")
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Sequence

__all__ = ["PLATFORMS", "CFLAGS", "CompileError", "compile_program", "compiler"]

#: The platform layers: the generated sources each one needs besides pp_runtime.c.
PLATFORMS = {
    "linux": ("pp_platform_linux.c",),
    "simboard": ("pp_platform_linux.c", "pp_platform_simboard.c"),
    "baremetal": ("pp_platform_baremetal.c",),
}
CFLAGS = ("-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic")


class CompileError(RuntimeError):
    """The C compiler failed or is missing; the message holds the command and its output."""


def compiler() -> str:
    """``$CC``, else ``cc``, else ``gcc``; :class:`CompileError` if there is none."""
    for cc in (os.environ.get("CC"), "cc", "gcc"):
        if cc and shutil.which(cc.split()[0]):
            return cc
    raise CompileError("no C compiler found: install gcc (Debian: apt-get install gcc) or set CC")


def compile_program(cdir: str | os.PathLike[str], sources: Sequence[str | os.PathLike[str]], *,
                    components: Sequence[str], platform: str, output: str | os.PathLike[str],
                    flags: Sequence[str] = (), cc: Optional[str] = None,
                    trace: Optional[bool] = None) -> Path:
    """Compile ``sources`` with the generated files of ``components`` and the runtime for
    ``platform`` (``linux``, ``simboard`` or ``baremetal``) into ``output``.

    ``trace``: build with ``-DPP_TRACE`` (the runtime notes its call events, docs/c.md
    "Tracing"); None (default): when a trace records in this process (``with ol.trace()``,
    ``pushpush run --trace``), so a program compiled inside the block is traced."""
    if platform not in PLATFORMS:
        raise ValueError(f"unknown platform '{platform}'; one of {', '.join(PLATFORMS)}")
    if trace is None:
        from pushpush.trace import software
        trace = software.ACTIVE
    if trace and "-DPP_TRACE" not in flags:
        flags = (*flags, "-DPP_TRACE")
    c = Path(cdir)
    gen = [c / f"{name}_pp.c" for name in components] + [c / "pp_runtime.c"] + \
          [c / f for f in PLATFORMS[platform]]
    if (c / "pp_firewall.c").is_file():   # the memory firewall's table (firewall: in the YAML)
        gen.append(c / "pp_firewall.c")
    missing = [str(p) for p in gen if not p.is_file()]
    if missing:
        raise CompileError(f"generated C files missing: {', '.join(missing)}; run "
                           "'pushpush generate' for the system (components of kind c)")
    cmd = [*shlex.split(cc or compiler()), *CFLAGS, *flags, f"-I{c}",
           *[str(s) for s in sources], *[str(p) for p in gen], "-o", str(output)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise CompileError(f"C compile failed: {shlex.join(cmd)}\n{r.stdout}{r.stderr}")
    return Path(output)
