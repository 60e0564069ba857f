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
    "protocol": {"types", "errors"},
    "spec": {"boards", "types", "errors"},
    "schema": {"spec"},
    "link": {"boards", "spec", "types", "protocol", "errors"},
    "sysmap": {"boards", "link", "spec", "types", "errors"},
    "codegen": {"boards", "link", "sysmap", "types", "errors", "resources"},
    "build": {"boards", "codegen", "link", "sysmap", "errors", "resources", "c"},
    "trace": {"types", "errors"},
    "runtime": {"protocol", "link", "types", "errors", "trace"},
    "sim": {"boards", "runtime", "build", "codegen", "link", "sysmap", "protocol", "types", "errors", "resources"},
    "simboard": {"boards", "build", "codegen", "errors", "resources", "trace"},
    "pynq": {"boards", "simboard", "runtime", "codegen", "build", "link", "sysmap", "protocol", "types", "errors",
             "resources", "c", "trace"},
    "bench": {"boards", "build", "codegen", "link", "sysmap", "sim", "pynq", "runtime", "protocol", "types",
              "errors", "resources", "c", "executor"},
    "executor": {"errors"},
    "testing": {"build", "trace"},
    "c": {"boards", "codegen", "link", "errors", "resources", "trace"},
    "scaffold": {"boards", "codegen", "link", "schema", "spec", "errors", "resources"},
    "fusesoc_gen": {"boards", "build", "codegen", "link", "sim", "errors", "resources"},
    "apps": {"boards", "pynq", "link", "resources", "errors"},
}
#: the command line and the package's entry points sit on top and may import anything
TOP = {"cli", "cli_common", "cli_check", "cli_build", "cli_run", "cli_bench", "cli_schema", "cli_init",
       "__main__", "__init__"}


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
