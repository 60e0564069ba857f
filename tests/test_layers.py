"""The layers of docs/architecture.md §5 import only downwards.

Each package/module of ``pushpush`` may import only the layers listed for it here; the table
is the one in the architecture document. A new edge is a design decision: change both.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "pushpush"

#: layer -> the pushpush layers it may import (besides itself and ``pushpush.__version__``)
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "types": set(),
    "boards": set(),
    "resources": set(),
    "envvars": set(),
    "protocol": {"types", "errors"},
    "spec": {"boards", "types", "errors"},
    "schema": {"spec"},
    "link": {"boards", "spec", "types", "protocol", "errors"},
    "sysmap": {"boards", "link", "spec", "types", "errors"},
    "codegen": {"boards", "link", "sysmap", "protocol", "types", "errors", "resources"},
    "build": {"boards", "codegen", "link", "sysmap", "errors", "resources", "c"},
    "trace": {"types", "errors"},
    "runtime": {"protocol", "link", "types", "errors", "trace"},
    "sim": {"boards", "runtime", "build", "codegen", "link", "sysmap", "protocol", "types", "errors", "resources"},
    "simboard": {"boards", "build", "codegen", "errors", "resources", "trace"},
    "pynq": {"boards", "simboard", "runtime", "codegen", "build", "link", "sysmap", "protocol", "types", "errors",
             "resources", "c", "trace"},
    "bench": {"boards", "build", "codegen", "link", "sysmap", "sim", "pynq", "simboard", "runtime", "protocol", "types",
              "errors", "resources", "c", "executor"},
    "executor": {"errors"},
    "testing": {"build", "trace"},
    "c": {"boards", "codegen", "link", "errors", "resources", "trace"},
    "scaffold": {"boards", "codegen", "link", "schema", "spec", "errors", "resources"},
    "fusesoc_gen": {"boards", "build", "codegen", "link", "sim", "errors", "resources"},
    "apps": {"boards", "pynq", "link", "resources", "errors"},
    "selfcheck": {"apps", "boards", "pynq", "c", "resources"},
    "deploy": {"apps", "pynq", "resources"},
}
#: the command line and the package's entry points sit on top and may import anything
TOP = {"cli", "__main__", "__init__"}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> set[str]:
    rel = path.relative_to(PKG.parent).with_suffix("")
    mod = ".".join(rel.parts)
    pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    if path.name == "__init__.py":
        mod = pkg
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "pushpush":  # from pushpush import __version__ / from . import x
                names = [a.name for a in node.names if a.name != "__version__"]
                out.update(f"pushpush.{n}" for n in names)
            elif target.startswith("pushpush."):
                out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("pushpush."))
    return {_layer(t) for t in out}


FILES = sorted(p for p in PKG.rglob("*.py") if "_data" not in p.parts)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_go_down_the_layers(path: Path) -> None:
    rel = path.relative_to(PKG)
    layer = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.name != "__init__.py" else "__init__"
    if layer in TOP:
        return
    assert layer in ALLOWED, f"{rel}: layer '{layer}' is not in the table (docs/architecture.md §5)"
    bad = _imports(path) - ALLOWED[layer] - {layer}
    assert not bad, (f"{rel} (layer '{layer}') imports {sorted(bad)}; allowed: {sorted(ALLOWED[layer])} "
                     "(docs/architecture.md §5)")


def _module_graph() -> dict[str, set[str]]:
    """pushpush module -> the pushpush modules it imports, counting imports inside functions."""
    mods: dict[str, Path] = {}
    for p in FILES:
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p

    def owner(name: str) -> str:
        while name and name not in mods:
            name = name.rsplit(".", 1)[0] if "." in name else ""
        return name

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                dest = owner(name) if name.startswith("pushpush.") else ""
                if dest and dest not in (mod, "pushpush"):
                    graph[mod].add(dest)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycles() -> None:
    """No two modules import each other, directly or round a loop, even inside a function (an
    import inside a function hides a cycle from Python, not from the reader)."""
    cycles = _cycles(_module_graph())
    assert not cycles, "import cycles (counting imports inside functions): " + "; ".join(
        " <-> ".join(c) for c in cycles)


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


#: the longest a file may grow before it is split (issue 42): Python modules, core Verilog
MAX_PY_LINES = 700
MAX_CORE_V_LINES = 900


def test_no_module_too_long() -> None:
    long = {str(p.relative_to(PKG.parent)): n for p in FILES
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_PY_LINES}
    cores = PKG.parent / "cores"
    long.update({str(p.relative_to(PKG.parent)): n for p in sorted(cores.rglob("*.v"))
                 if "tb" not in p.relative_to(cores).parts
                 and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_CORE_V_LINES})
    assert not long, (f"over {MAX_PY_LINES} lines (Python) or {MAX_CORE_V_LINES} (cores/*.v): {long}: "
                      "split by what the parts do")
