"""pushpush.codegen imports without a cycle (issue 29): the shared definitions
(:mod:`pushpush.codegen.fabric`, :mod:`pushpush.codegen.ports`) import no renderer or model,
the models import the shared definitions, the renderers import the models, and no module
imports one that imports it back, also through imports inside functions. Each module also
imports alone in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import pushpush.codegen

CODEGEN = Path(pushpush.codegen.__file__).resolve().parent
MODULES = sorted(p.stem for p in CODEGEN.glob("*.py") if p.stem != "__init__")


def _codegen_imports(module: str) -> set[str]:
    """The codegen modules ``module`` imports anywhere in its text (top or function level)."""
    tree = ast.parse((CODEGEN / f"{module}.py").read_text(), filename=f"{module}.py")
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module or ""
            elif node.level == 0 and (node.module or "").startswith("pushpush.codegen"):
                base = (node.module or "")[len("pushpush.codegen"):].lstrip(".")
            else:
                continue
            if base:
                out.add(base.split(".")[0])
            else:  # from . import x / from pushpush.codegen import x
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pushpush.codegen."):
                    out.add(a.name.split(".")[2])
    return (out & set(MODULES)) - {module}


def _find_cycle(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str]:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return []

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return []


def test_codegen_has_no_import_cycle():
    graph = {m: _codegen_imports(m) for m in MODULES}
    cycle = _find_cycle(graph)
    assert not cycle, "pushpush/codegen import cycle: " + " -> ".join(cycle)


def test_shared_definitions_import_no_generator():
    """fabric and ports are the bottom of codegen: they import only each other (ports -> fabric)."""
    assert _codegen_imports("fabric") == set()
    assert _codegen_imports("ports") == {"fabric"}


def test_the_cycle_check_sees_a_cycle():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) == []


def test_no_private_names_cross_modules():
    """No codegen module imports another's private (``_name``) definitions."""
    bad = []
    for m in MODULES:
        tree = ast.parse((CODEGEN / f"{m}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level == 1 or (node.module or "").startswith("pushpush.codegen")):
                bad += [f"{m}.py imports {a.name}" for a in node.names if a.name.startswith("_")]
    assert not bad, bad


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone(module):
    r = subprocess.run([sys.executable, "-c", f"import pushpush.codegen.{module}"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
