"""docs/system-map.md's tables of the YAML keys say what pushpush/spec/fields.py declares: every
key and no other, which kinds may have it, whether it is required, every board and kind."""

from __future__ import annotations

import re
from pathlib import Path

from pushpush.spec.fields import BOARDS, COMPONENT, KINDS, SYSTEM

DOC = Path(__file__).resolve().parent.parent / "docs" / "system-map.md"


def _table_after(heading: str) -> dict[str, list[str]]:
    """The first table after the line ``heading``: its first column's key -> the other cells."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    i = lines.index(heading)
    while not lines[i].startswith("|"):
        i += 1
    rows: dict[str, list[str]] = {}
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_system_keys_are_the_declared_ones() -> None:
    rows = _table_after("## 1. The system description (YAML)")
    assert sorted(rows) == sorted(f.name for f in SYSTEM.fields)
    for f in SYSTEM.fields:
        assert rows[f.name][0] == ("yes" if f.required else "no"), f.name


def test_the_component_keys_are_the_declared_ones() -> None:
    rows = _table_after("Component keys:")
    assert sorted(rows) == sorted(f.name for f in COMPONENT.fields)
    for f in COMPONENT.fields:
        kinds = [k.strip() for k in rows[f.name][0].split(",")]
        required = "required" in kinds
        kinds = [k for k in kinds if k != "required"]
        assert kinds == (["all"] if f.kinds is None else list(f.kinds)), f.name
        assert required == bool(f.required or f.required_for), f.name


def test_every_board_and_kind_is_named() -> None:
    yaml_rows = _table_after("## 1. The system description (YAML)")
    comp_rows = _table_after("Component keys:")
    for board in BOARDS:
        assert f"`{board}`" in yaml_rows["board"][1], board
    for kind in KINDS:
        assert f"`{kind}`" in comp_rows["kind"][1], kind
