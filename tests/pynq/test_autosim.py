"""The simulated board's ``auto`` simulator (pushpush.simboard.autosim): an explicit choice
wins, a cached Verilator build is used, a broken one is not, a missing one is built in the
background (one build for two builders) while Icarus serves, and a machine that cannot build
Verilator falls back to Icarus saying why.

One test builds a real (small: the loopback top) Verilator model; the others need no build.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.build.cache import MANIFEST, BuildCache  # noqa: E402
from pushpush.build.sim import verilator_unusable  # noqa: E402
from pushpush.simboard import autosim  # noqa: E402
from pushpush.simboard.ipc import SimConfig  # noqa: E402

from pynq_systems import write_loop_overlay  # noqa: E402


@pytest.fixture
def cache(tmp_path, monkeypatch) -> BuildCache:
    monkeypatch.setenv("PUSHPUSH_CACHE", str(tmp_path / "cache"))
    store = BuildCache.default()
    assert store is not None
    return store


@pytest.fixture(scope="module")
def loop_cfg(tmp_path_factory) -> SimConfig:
    """The loopback overlay's simulation as the simulated board configures it (from a load
    on Icarus: its run folder's config.json)."""
    ol = ppq.load(str(write_loop_overlay(tmp_path_factory.mktemp("loop"))), simulator="icarus")
    try:
        return SimConfig.from_json((ol.device.bridge.rundir / "config.json").read_text())
    finally:
        ol.free()


def _bin_dir(tmp_path: Path, *tools: str) -> str:
    """A PATH folder holding only ``tools`` (links to the real ones)."""
    import shutil
    d = tmp_path / "bin"
    d.mkdir(exist_ok=True)
    for t in tools:
        os.symlink(shutil.which(t), d / t)
    return str(d)


def test_an_explicit_choice_wins_and_an_invalid_one_is_refused(monkeypatch, cache):
    cfg = SimConfig(top="t", sources=[])
    for sim in ("icarus", "verilator"):
        pick = autosim.choose(sim, cfg)
        assert (pick.simulator, pick.note) == (sim, "as asked")
    assert not cache.root.exists()                  # nothing looked up, nothing started
    with pytest.raises(ValueError, match="use auto, icarus or verilator"):
        autosim.choose("questa", cfg)
    monkeypatch.setenv("PUSHPUSH_SIM_BACKGROUND", "yes")
    with pytest.raises(ValueError, match="PUSHPUSH_SIM_BACKGROUND='yes': use 1 .* or 0"):
        autosim.choose("auto", cfg)


def test_no_cpp_compiler_falls_back_to_icarus_saying_why(monkeypatch, tmp_path, cache):
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setenv("PUSHPUSH_SIM_BACKGROUND", "1")
    monkeypatch.setenv("PATH", _bin_dir(tmp_path, "make", "iverilog"))
    why = verilator_unusable()
    assert why is not None and why.startswith("no C++ compiler") and "g++" in why
    pick = autosim.choose("auto", SimConfig(top="t", sources=[]))
    assert pick.simulator == "icarus" and pick.note == "Verilator cannot build here"
    assert "no C++ compiler" in pick.detail and "\n" not in pick.detail
    assert not cache.root.exists()              # no background build was started
    monkeypatch.setenv("CXX", "/nonexistent/g++ -O2")
    assert "CXX='/nonexistent/g++'" in verilator_unusable()


def test_the_cache_off_means_icarus(monkeypatch):
    monkeypatch.setenv("PUSHPUSH_CACHE", "off")
    pick = autosim.choose("auto", SimConfig(top="t", sources=[]))
    assert pick.simulator == "icarus" and "cache is off" in pick.detail


def test_a_failed_background_build_is_reported_not_retried(cache, loop_cfg, monkeypatch):
    key = autosim.verilator_key(loop_cfg)
    folder = cache.root / f"{key}.bg"
    folder.mkdir(parents=True)
    (folder / "failed.txt").write_text("SimulationFailed: verilator could not build x\nmore\n")
    pick = autosim.choose("auto", loop_cfg)
    assert pick.simulator == "icarus" and pick.note == "the Verilator build failed"
    assert "could not build x" in pick.detail and "--sim verilator" in pick.detail
    assert not cache.held(f"{key}.bg.lock")          # nothing started


@pytest.mark.verilator
def test_background_build_then_verilator_one_build_for_two_builders(cache, loop_cfg, tmp_path,
                                                                  monkeypatch):
    """auto: Icarus while the Verilator build is pending (the test holds the machine-wide
    queue, so the state is certain), one build when a load on Verilator and the background
    builder want it at once, then auto runs the cached build; a corrupted build is not used."""
    if "verilator" not in os.environ.get("PUSHPUSH_SIMS", "icarus,verilator"):
        pytest.skip("PUSHPUSH_SIMS excludes verilator (the user chose the simulators to test)")
    monkeypatch.setenv("PUSHPUSH_SIM", "auto")
    monkeypatch.setenv("PUSHPUSH_SIM_BACKGROUND", "1")
    key = autosim.verilator_key(loop_cfg)
    cache.root.mkdir(parents=True, exist_ok=True)
    queue = os.open(cache.root / autosim.QUEUE_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(queue, fcntl.LOCK_EX)               # background builders wait behind this
    try:
        pick = autosim.choose("auto", loop_cfg)      # nothing cached: Icarus, build started
        assert (pick.simulator, pick.note) == ("icarus", "Verilator build started in the background")
        assert cache.held(f"{key}.bg.lock")           # the builder has it from now on
        assert autosim.start_background(loop_cfg, cache.root, key) is None   # one per entry
        pick = autosim.choose("auto", loop_cfg)
        assert (pick.simulator, pick.note) == ("icarus", "Verilator build in progress"), pick
        assert "started" in pick.detail and "build.log" in pick.detail
        assert "queued behind another system's build" in pick.detail   # the test holds the queue
        ol = ppq.load(str(write_loop_overlay(tmp_path / "first")), simulator="auto")
        try:                                        # a whole load: Icarus, told why
            assert ol.device.simulator == "icarus"
            assert ol.device.simulator_note == "Verilator build in progress"
        finally:
            ol.free()
    finally:
        os.close(queue)               # the builder goes on while this process loads Verilator
    ol = ppq.load(str(write_loop_overlay(tmp_path / "explicit")), simulator="verilator")
    try:                              # the explicit choice: builds (or waits for) the same entry
        assert ol.device.simulator == "verilator" and ol.device.simulator_note == "as asked"
        loaded = (ol.device.bridge.rundir / "build" / "cached-build.txt").read_text()
    finally:
        ol.free()
    builder = os.open(cache.root / f"{key}.bg.lock", os.O_RDWR)
    try:        # the builder holds this until it exits: woken by its end
        autosim._flock_wait(builder, 900, "the background build")
    finally:
        os.close(builder)
    said = (cache.root / f"{key}.bg" / "output.log")
    assert not said.parent.exists(), "the background folder goes when its build is done"
    assert cache.valid(key) and not list(cache.root.glob("*.building-*"))
    assert not cache.held(f"{key}.bg.lock") and not cache.held(f"{key}.lock")
    assert key in loaded
    background = (cache.entry(key) / "background.log").read_text()
    # one build: either the load built it and the builder found it, or the other way round
    assert ("pushpush: built " in background) != loaded.startswith("built into"), \
        (background, loaded)
    assert ("found (built by another process)" in background) == loaded.startswith("built into")
    pick = autosim.choose("auto", loop_cfg)
    assert (pick.simulator, pick.note) == ("verilator", "cached build")
    ol = ppq.load(str(write_loop_overlay(tmp_path / "again")), simulator="auto")
    try:
        assert ol.device.simulator == "verilator" and ol.device.simulator_note == "cached build"
        assert (ol.device.bridge.rundir / "build" / "cached-build.txt").read_text().startswith("reused")
    finally:
        ol.free()

    # a corrupted artifact is not used: auto is back on Icarus (and would build again)
    monkeypatch.setenv("PUSHPUSH_SIM_BACKGROUND", "0")
    exe = cache.entry(key) / json.loads((cache.entry(key) / MANIFEST).read_text())["artifact"]
    data = bytearray(exe.read_bytes())
    data[len(data) // 2] ^= 0xFF                      # same size, other content
    exe.write_bytes(bytes(data))
    assert not cache.valid(key)
    pick = autosim.choose("auto", loop_cfg)
    assert (pick.simulator, pick.note) == ("icarus", "no Verilator build cached")
