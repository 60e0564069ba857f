"""The system maps committed with the overlay packages are what a fresh link produces."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.link import load
from pushpush.resources import examples_dir
from pushpush.sysmap import to_json

OVERLAYS = Path(__file__).resolve().parents[1] / "pynq_overlays"
MAPS = sorted(OVERLAYS.glob("*/*.map.json"))


def test_every_overlay_has_a_map() -> None:
    assert {p.parent.name for p in MAPS} == {p.name for p in OVERLAYS.iterdir() if p.is_dir()
                                              and not p.name.startswith("_")}


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.parent.name)
def test_committed_map_equals_a_fresh_link(path: Path) -> None:
    linked = load(examples_dir() / path.parent.name / "system.yaml")
    assert path.read_text(encoding="utf-8") == to_json(linked), (
        f"{path} is stale: regenerate it with "
        f"'pushpush map --json -o {path.relative_to(OVERLAYS.parent)} examples/{path.parent.name}'")
