"""The executor interface: map a point function over JSON-able points, somewhere.

A *point* is a plain dict (JSON-able) and a *point function* a module-level function
``fn(point) -> dict`` (JSON-able too). An :class:`Executor` runs ``[fn(p) for p in points]``
and returns the results in the points' order, wherever it runs them: :class:`~.local.LocalExecutor`
in a process pool on this machine, :class:`~.slurm.SlurmExecutor` as Slurm jobs. Each map
names its *kind* of work (:data:`KINDS`), which sets what a cluster job asks for
(:class:`Resources`).

Example::

    from pushpush.executor import get_executor
    ex = get_executor("local", jobs=2)
    rows = ex.map(my_module.point_fn, [{"n": 1}, {"n": 2}], kind="sim")
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.errors import PushPushError

__all__ = ["Executor", "Resources", "KINDS", "DEFAULT_RESOURCES", "PointError", "SweepFailed",
           "fn_ref", "resolve_fn", "point_key", "resources_for", "parse_resources"]

PointFn = Callable[[dict[str, Any]], dict[str, Any]]
Log = Callable[[str], None]


@dataclass(frozen=True)
class Resources:
    """What one point's job asks the scheduler for: ``cpus`` cores, ``mem_mb`` MiB of
    memory, at most ``time_min`` minutes of wall time (the job is killed after it)."""

    cpus: int
    mem_mb: int
    time_min: int

    def __post_init__(self) -> None:
        if self.cpus < 1 or self.mem_mb < 1 or self.time_min < 1:
            raise ValueError(f"resources must be positive: {self}")


#: The kinds of work pushpush fans out, and what one point of each asks for by default:
#: ``sim`` a cocotb simulation (Icarus/Verilator: one core), ``synth`` a Yosys run,
#: ``build`` a FuseSoC lint/sim/synth build, ``vivado`` a Vivado bitstream (several cores,
#: much memory, hours).
DEFAULT_RESOURCES: dict[str, Resources] = {
    "sim": Resources(cpus=1, mem_mb=2048, time_min=60),
    "synth": Resources(cpus=1, mem_mb=4096, time_min=120),
    "build": Resources(cpus=1, mem_mb=4096, time_min=120),
    "vivado": Resources(cpus=4, mem_mb=16384, time_min=360),
}
KINDS = tuple(DEFAULT_RESOURCES)

_MEM = re.compile(r"^(\d+)([KMGT]?)$", re.I)
_TIME = re.compile(r"^(?:(\d+):)?(\d+)(?::(\d+))?$")


def parse_resources(text: str, base: Resources, where: str) -> Resources:
    """``cpus=N,mem=SIZE,time=T`` (each optional; SIZE like 4096M or 16G, T minutes or
    H:MM:SS) over ``base``; ``where`` names the setting in error messages."""
    out = base
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, _, val = item.partition("=")
        key, val = key.strip().lower(), val.strip()
        if key == "cpus" and val.isdigit() and int(val) > 0:
            out = replace(out, cpus=int(val))
        elif key == "mem" and _MEM.match(val) and int(_MEM.match(val).group(1)) > 0:  # type: ignore[union-attr]
            m = _MEM.match(val)
            assert m is not None
            scale = {"": 1, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}[m.group(2).upper()]
            out = replace(out, mem_mb=max(1, int(int(m.group(1)) * scale)))
        elif key == "time" and _TIME.match(val):
            m = _TIME.match(val)
            assert m is not None
            if m.group(3) is not None:  # H:MM:SS
                minutes = int(m.group(1) or 0) * 60 + int(m.group(2)) + (1 if int(m.group(3)) else 0)
            elif m.group(1) is not None:  # H:MM
                minutes = int(m.group(1)) * 60 + int(m.group(2))
            else:
                minutes = int(m.group(2))
            if minutes < 1:
                raise ValueError(f"{where}: time={val}: at least one minute")
            out = replace(out, time_min=minutes)
        else:
            raise ValueError(f"{where}: '{item}' is not cpus=N, mem=SIZE (e.g. 4G) or time=MINUTES "
                             f"(or H:MM:SS); e.g. {where}=cpus=2,mem=8G,time=90")
    return out


def resources_for(kind: str, overrides: Optional[dict[str, str]] = None) -> Resources:
    """The resources of one point of ``kind``: the default, then ``$PUSHPUSH_RESOURCES_<KIND>``
    (e.g. ``PUSHPUSH_RESOURCES_VIVADO=cpus=8,mem=32G,time=8:00:00``), then ``overrides[kind]``."""
    if kind not in DEFAULT_RESOURCES:
        raise ValueError(f"unknown kind of work '{kind}' (known: {', '.join(KINDS)})")
    res = DEFAULT_RESOURCES[kind]
    env = f"PUSHPUSH_RESOURCES_{kind.upper()}"
    if os.environ.get(env):
        res = parse_resources(os.environ[env], res, env)
    if overrides and overrides.get(kind):
        res = parse_resources(overrides[kind], res, f"resources for '{kind}'")
    return res


@dataclass
class PointError:
    """One point that failed: its label, what went wrong, and where its log is."""

    label: str
    message: str
    log: Optional[Path] = None
    log_tail: str = ""

    def __str__(self) -> str:
        text = f"{self.label}: {self.message}"
        if self.log is not None:
            text += f"\n    log: {self.log}"
        if self.log_tail:
            text += "\n" + "\n".join("    | " + ln for ln in self.log_tail.splitlines())
        return text


class SweepFailed(PushPushError):
    """Some points failed; ``errors`` has one :class:`PointError` each (the others' results
    are kept where the executor keeps them, so a second run redoes only the failed ones)."""

    def __init__(self, errors: Sequence[PointError], total: int, hint: str = "") -> None:
        self.errors = list(errors)
        head = f"{len(self.errors)} of {total} point(s) failed"
        super().__init__(head + (f" ({hint})" if hint else "") + ":\n"
                         + "\n".join("  " + str(e) for e in self.errors))


def fn_ref(fn: PointFn) -> dict[str, str]:
    """How another process finds ``fn``: ``{"module", "name", "path"}`` (``path``: the folder
    to put first on ``sys.path`` so that the module imports, e.g. a test folder)."""
    mod, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if not mod or mod == "__main__" or "<" in name:
        raise ValueError(f"{fn!r} cannot run in another process: a point function must be defined "
                         "at the top level of an importable module (not __main__, a lambda or a "
                         "nested function)")
    module = sys.modules.get(mod)
    file = getattr(module, "__file__", None)
    path = ""
    if file:
        p = Path(file).resolve()
        depth = mod.count(".") + (1 if p.name == "__init__.py" else 0)
        path = str(p.parents[depth])
    return {"module": mod, "name": name, "path": path}


def resolve_fn(ref: dict[str, str]) -> PointFn:
    """The function :func:`fn_ref` described."""
    if ref.get("path") and ref["path"] not in sys.path:
        sys.path.append(ref["path"])
    obj: Any = importlib.import_module(ref["module"])
    for part in ref["name"].split("."):
        obj = getattr(obj, part)
    return obj  # type: ignore[no-any-return]


def point_key(ref: dict[str, str], point: dict[str, Any]) -> str:
    """A stable name of (function, point): the folder a cluster run keeps it in."""
    text = json.dumps({"fn": [ref["module"], ref["name"]], "point": point}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def label_of(point: dict[str, Any], index: int) -> str:
    """What progress lines and errors call a point."""
    return str(point.get("label") or point.get("work") or f"point {index}")


class Executor(ABC):
    """Runs point functions over points; see the module's documentation."""

    name: str = ""

    @abstractmethod
    def map(self, fn: PointFn, points: Sequence[dict[str, Any]], kind: str = "sim",
            log: Log = print, reuse: bool = True) -> list[dict[str, Any]]:
        """``[fn(p) for p in points]``, in order; ``log`` gets a line per finished point.
        ``reuse``: an executor that keeps results (slurm) returns a point's kept result
        instead of running it again (False: always run, e.g. builds whose sources may have
        changed). Raises :class:`SweepFailed` naming every failed point (local: the point's
        own exception)."""
