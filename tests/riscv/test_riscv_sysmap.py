"""The system map keeps a riscv component's local memory (``memory``), so a system read back
from its map (the PYNQ driver, the simulated board) equals the linked one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pushpush.errors import SystemMapError
from pushpush.link import load
from pushpush.sysmap import from_json, to_json

REPO = Path(__file__).resolve().parents[2]


def test_the_map_stores_memory_and_reads_it_back() -> None:
    linked = load(REPO / "examples" / "riscv_pingpong" / "system.yaml")
    text = to_json(linked)
    data = json.loads(text)
    mem = {c["name"]: c.get("memory") for c in data["components"]}
    assert mem["callee"] == "0x00004000"                      # memory: 16KiB in the YAML
    assert all(v is None for k, v in mem.items() if k != "callee")   # other kinds: absent
    back = from_json(text)
    assert back == linked
    assert {c.name: c.memory for c in back.components}["callee"] == 16384
    assert to_json(back) == text


def test_a_riscv_component_without_memory_is_refused() -> None:
    data = json.loads(to_json(load(REPO / "examples" / "riscv_pingpong" / "system.yaml")))
    for c in data["components"]:
        c.pop("memory", None)
    with pytest.raises(SystemMapError, match="'callee' is kind riscv but has no 'memory'"):
        from_json(json.dumps(data))
