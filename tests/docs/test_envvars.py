"""Every ``PUSHPUSH_*`` environment variable the code reads is declared in pushpush/envvars.py,
every declared one is read somewhere, and docs/environment.md is that table rendered.

"Reads" is found in the source, not by hand: in Python (pushpush/, tests/, scripts/) a string
constant that is exactly a ``PUSHPUSH_*`` name (``os.environ.get("PUSHPUSH_SIM")``,
``MAP_ENV = "PUSHPUSH_SYSTEM_MAP"``, ``monkeypatch.setenv(...)``) or an f-string starting with
one (``f"PUSHPUSH_RESOURCES_{kind}"``: a family); in C (c/runtime, templates/c) ``getenv`` and
``pp_env``; in the shell scripts (bootstrap.sh, .ci/) ``$NAME`` and ``${NAME...}``.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from pushpush.envvars import PREFIXES, VARIABLES, known, markdown

REPO = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^PUSHPUSH_[A-Z0-9_]+$")


def _python_reads(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and NAME.match(node.value):
            out.add(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                    and NAME.match(first.value) and first.value.endswith("_") and len(node.values) > 1:
                out.add(first.value)   # a family: f"PUSHPUSH_RESOURCES_{kind.upper()}"
    return out


@lru_cache(maxsize=1)
def code_reads() -> dict[str, set[str]]:
    """name -> the files that read it."""
    found: dict[str, set[str]] = {}

    def add(names: set[str], path: Path) -> None:
        for n in names:
            found.setdefault(n, set()).add(str(path.relative_to(REPO)))

    for folder in ("pushpush", "tests", "scripts"):
        for p in (REPO / folder).rglob("*.py"):
            # tests/docs holds wrong names on purpose (the negative tests of the docs check)
            if "_data" not in p.parts and p.parent != Path(__file__).parent:
                add(_python_reads(p), p)
    for folder in ("c/runtime", "templates/c"):
        for p in (REPO / folder).rglob("*"):
            if p.is_file():
                text = p.read_text(encoding="utf-8", errors="replace")
                add(set(re.findall(r"\b(?:getenv|pp_env)\(\s*\"(PUSHPUSH_[A-Z0-9_]+)\"", text)), p)
    shells = [REPO / "bootstrap.sh"] + sorted(p for p in (REPO / ".ci").rglob("*") if p.is_file())
    for p in shells:
        if p.exists():
            add(set(re.findall(r"\$\{?(PUSHPUSH_[A-Z0-9_]+)", p.read_text(encoding="utf-8"))), p)
    return found


def _declared(name: str) -> bool:
    """Declared, or a prefix that code matches a declared family with (``PUSHPUSH_SLURM_``)."""
    return known(name) or name in PREFIXES or \
        (name.endswith("_") and any(v.startswith(name) for v in VARIABLES))


def test_every_variable_the_code_reads_is_declared() -> None:
    reads = code_reads()
    undeclared = {n: sorted(w) for n, w in reads.items() if not _declared(n)}
    assert not undeclared, ("PUSHPUSH_* variables read but not declared in pushpush/envvars.py "
                            f"(add a row, then: pushpush env --markdown > docs/environment.md): {undeclared}")


def test_every_declared_variable_is_read() -> None:
    reads = set(code_reads())
    unread = [n for n in VARIABLES if n not in reads and not any(
        n == family for family in PREFIXES.values())]
    assert not unread, f"declared in pushpush/envvars.py but read nowhere (remove the rows): {unread}"
    for prefix in PREFIXES:
        assert prefix in reads, f"the family {prefix}* is read nowhere"


def test_the_reference_is_what_the_table_renders() -> None:
    committed = (REPO / "docs" / "environment.md").read_text(encoding="utf-8")
    assert committed == markdown(), \
        "docs/environment.md is stale: pushpush env --markdown > docs/environment.md"


def test_pushpush_env_prints_the_reference_and_flags_a_typo(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "PUSHPUSH_SIMM": "1", "PUSHPUSH_SIM": "icarus"}
    run = subprocess.run([sys.executable, "-m", "pushpush", "env"], capture_output=True, text=True,
                         env=env, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "PUSHPUSH_SIMM=1   <- not a pushpush variable" in run.stdout
    assert "PUSHPUSH_SIM=icarus\n" in run.stdout
    md = subprocess.run([sys.executable, "-m", "pushpush", "env", "--markdown"], capture_output=True,
                        text=True, env={**env, "PUSHPUSH_SIMM": ""}, timeout=60)
    assert md.stdout == markdown()


@pytest.mark.parametrize("name", ["PUSHPUSH_RESOURCES_VIVADO", "PUSHPUSH_SIM"])
def test_known_names(name: str) -> None:
    assert known(name)
    assert not known("PUSHPUSH_SIMULATOR")
