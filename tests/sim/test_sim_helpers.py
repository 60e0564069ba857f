"""pushpush.sim's pytest side without a simulator: linking, generation, sources, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.sim import MAP_ENV, build_system, load_linked, simulate_system

HERE = Path(__file__).resolve().parent
SYSTEM = HERE / "rtsys" / "system.yaml"


def test_build_system_collects_every_source(tmp_path):
    b = build_system(SYSTEM, tmp_path / "gen")
    assert b.top == "rtsim_top" and b.map_path.exists()
    names = [p.name for p in b.sources]
    assert "pp_endpoint_mem.v" in names and "pp_call_engine.v" in names
    assert "pp_axi_interconnect.v" in names
    assert names[-3:] == ["dev_wrapper.v", "rtsim_top.v", "rtsim_dev.v"]
    assert all(p.exists() for p in b.sources)
    assert len(set(b.sources)) == len(b.sources)
    from pushpush.sysmap import from_json
    assert from_json(b.map_path.read_text()).name == "rtsim"


def test_interconnect_overrides():
    linked = load_linked(SYSTEM, {"topology": "shared", "data_width": 64})
    assert linked.interconnect.topology == "shared" and linked.interconnect.data_width == 64


def test_relative_path_next_to_the_caller(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert load_linked("rtsys/system.yaml", near=HERE).name == "rtsim"
    with pytest.raises(FileNotFoundError, match="nope.yaml"):
        load_linked("nope.yaml", near=HERE)


def test_unknown_component_fails_before_simulating(tmp_path):
    with pytest.raises(KeyError, match="hots"):
        simulate_system(SYSTEM, component="hots", build_dir=tmp_path)
    assert not (tmp_path / "sim").exists()


def test_map_env_name():
    assert MAP_ENV == "PUSHPUSH_SYSTEM_MAP"
