"""pyproject.toml declares what the code uses, and its extras say what works where.

- Every third-party package that pushpush/, tests/, scripts/ or the notebooks import (at any
  depth, optional imports included) is a declared dependency: the package's and the
  notebooks' in the base install or an extra, the notebooks' in the base install, ``pynq``
  (the board's image has it) or ``notebooks``. Imports are read with ``ast``; a module name
  is mapped to its distribution by ``importlib.metadata.packages_distributions()``.
- The ``pynq`` extra admits, per machine, the PYNQ majors :attr:`pushpush.boards.Board.pynq_majors`
  gives each board (evaluated with the requirement markers for the board's ``arch``), and on a
  PC the PYNQ versions that run the simulated board.
- ``[project.urls]`` is :data:`pushpush.resources.PROJECT_URLS`.
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from pushpush.boards import BOARDS
from pushpush.resources import PROJECT_URLS

REPO = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SELF = "pushpush-fpga"


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(reqs: list[str]) -> set[str]:
    out = set()
    for r in reqs:
        req = Requirement(r)
        if _norm(req.name) != SELF:
            out.add(_norm(req.name))
    return out


BASE = _names(PROJECT["dependencies"])
EXTRAS = {k: _names(v) for k, v in PROJECT["optional-dependencies"].items()}
DECLARED = BASE.union(*EXTRAS.values())
#: distributions that come with a declared one and are its part: pynqmetadata is PYNQ's
#: metadata layer, a requirement of every PYNQ 3.x and 4.x; declared apart, pip would fetch it
#: on a board image that has it through PYNQ only in a stand-in without it
PROVIDED_BY = {"pynqmetadata": "pynq"}
#: modules of this repository imported by path (test helpers, scripts, an example's app.py)
LOCAL = {p.stem for folder in ("tests", "scripts", "examples") for p in (REPO / folder).rglob("*.py")} | \
        {p.name for folder in ("tests", "scripts") for p in (REPO / folder).rglob("*") if p.is_dir()}


def third_party_imports(folder: str) -> dict[str, set[str]]:
    """top-level module -> files, for every import in ``folder`` that is not stdlib or ours."""
    out: dict[str, set[str]] = {}
    for path in (REPO / folder).rglob("*.py"):
        if "_data" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module]
            else:
                continue
            for m in mods:
                top = m.split(".")[0]
                if top in sys.stdlib_module_names or top in ("__future__", "pushpush") or top in LOCAL:
                    continue
                out.setdefault(top, set()).add(str(path.relative_to(REPO)))
    return out


@lru_cache(maxsize=1)
def _installed() -> dict[str, list[str]]:
    return dict(md.packages_distributions())


def _distribution(module: str) -> list[str]:
    dists = _installed().get(module)
    assert dists, f"'{module}' is imported but not installed here, so its distribution is unknown"
    return [_norm(d) for d in dists]


@pytest.mark.parametrize("folder,allowed", [
    ("pushpush", None), ("tests", None), ("scripts", None),
    ("notebooks", BASE | EXTRAS["notebooks"] | EXTRAS["pynq"]),
])
def test_every_imported_package_is_declared(folder: str, allowed: set[str] | None) -> None:
    allowed = DECLARED if allowed is None else allowed
    missing = {}
    for module, files in sorted(third_party_imports(folder).items()):
        dists = _distribution(module)
        if not any(d in allowed or PROVIDED_BY.get(d) in allowed for d in dists):
            missing[module] = (dists, sorted(files)[:3])
    assert not missing, f"imported in {folder}/ but not declared in pyproject.toml: {missing}"


def test_the_extras_that_reference_others_name_real_ones() -> None:
    for extra, reqs in PROJECT["optional-dependencies"].items():
        for r in reqs:
            req = Requirement(r)
            if _norm(req.name) == SELF:
                assert req.extras <= set(EXTRAS) - {extra}, (extra, r)


def _pynq_allows(machine: str, version: str) -> bool:
    env = {"platform_machine": machine, "extra": ""}
    specs = [Requirement(r) for r in PROJECT["optional-dependencies"]["pynq"]]
    active = [r for r in specs if r.name == "pynq" and (r.marker is None or r.marker.evaluate(env))]
    assert len(active) == 1, f"{machine}: {len(active)} pynq requirements apply"
    return Version(version) in active[0].specifier


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_the_pynq_extra_admits_what_each_board_runs(board: str) -> None:
    b = BOARDS[board]
    for major in (3, 4):
        for version in (f"{major}.0.1", f"{major}.1.2") if major == 3 else ("4.0.0",):
            assert _pynq_allows(b.arch, version) == (major in b.pynq_majors), \
                f"{board} ({b.arch}) runs PYNQ {b.pynq_majors}.x: the pynq extra on {b.arch} and {version}"


def test_the_pynq_extra_on_a_pc_admits_what_runs_the_simulated_board() -> None:
    for machine in ("x86_64", "AMD64"):
        assert _pynq_allows(machine, "3.1.2") and _pynq_allows(machine, "4.0.0")
        assert not _pynq_allows(machine, "3.0.1"), "PYNQ 3.0's pynq.Clocks refuses x86"


def test_the_project_urls_are_the_package_s() -> None:
    assert PROJECT["urls"] == PROJECT_URLS
    assert "pypi.org/project/pushpush/" not in str(PROJECT["urls"])
