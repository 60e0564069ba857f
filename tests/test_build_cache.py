"""The content-addressed simulation build cache (pushpush.build.cache): what rebuilds, what
does not, concurrent builders, corrupted entries, the size limit; and run_cocotb on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pushpush.build.cache import MANIFEST, BuildCache, build_key


def _key(tmp_path: Path, text: str = "module m; endmodule\n", **kw):
    src = tmp_path / "m.v"
    if not src.exists() or src.read_text() != text:
        src.write_text(text)
    args = dict(simulator="icarus", toplevel="m", sources=[src], parameters={"W": 8},
                simulator_id="Icarus Verilog version 11.0 (stable)")
    args.update(kw)
    return build_key(**args)


def _builder(log: list[str], content: bytes = b"vvp"):
    def build(folder: Path) -> None:
        log.append(str(folder))
        (folder / "sim.vvp").write_bytes(content)
        (folder / "obj.o").write_bytes(b"x" * 100)
    return build


def test_unchanged_inputs_reuse_the_build(tmp_path):
    cache = BuildCache(tmp_path / "cache")
    key, inputs = _key(tmp_path)
    log: list[str] = []
    first, built = cache.get_or_build(key, inputs, "sim.vvp", _builder(log))
    assert built and len(log) == 1
    again, built = cache.get_or_build(*_key(tmp_path), "sim.vvp", _builder(log))
    assert not built and again == first and len(log) == 1
    meta = json.loads((first / MANIFEST).read_text())
    assert meta["inputs"]["sources"][0][0] == "m.v" and meta["artifact"] == "sim.vvp"


@pytest.mark.parametrize("change", ["source", "parameter", "simulator", "toplevel", "args"])
def test_every_input_is_in_the_key(tmp_path, change):
    base, _ = _key(tmp_path)
    other = {
        "source": lambda: _key(tmp_path, "module m; wire w; endmodule\n"),
        "parameter": lambda: _key(tmp_path, parameters={"W": 16}),
        "simulator": lambda: _key(tmp_path, simulator_id="Icarus Verilog version 12.0 (stable)"),
        "toplevel": lambda: _key(tmp_path, toplevel="n"),
        "args": lambda: _key(tmp_path, build_args=["--no-public-flat-rw"]),
    }[change]()[0]
    assert other != base


def test_a_renamed_or_moved_identical_source_is_the_same_build(tmp_path):
    a, _ = _key(tmp_path)
    moved = tmp_path / "sub"
    moved.mkdir()
    (moved / "m.v").write_text("module m; endmodule\n")
    b, _ = build_key(simulator="icarus", toplevel="m", sources=[moved / "m.v"], parameters={"W": 8},
                     simulator_id="Icarus Verilog version 11.0 (stable)")
    assert a == b


def test_a_corrupted_entry_is_rebuilt_not_trusted(tmp_path):
    cache = BuildCache(tmp_path / "cache")
    key, inputs = _key(tmp_path)
    log: list[str] = []
    folder, _ = cache.get_or_build(key, inputs, "sim.vvp", _builder(log))
    (folder / "sim.vvp").write_bytes(b"vvq")            # same size, other content
    assert not cache.valid(key)
    folder2, built = cache.get_or_build(key, inputs, "sim.vvp", _builder(log))
    assert built and len(log) == 2 and (folder2 / "sim.vvp").read_bytes() == b"vvp"
    (folder2 / MANIFEST).write_text("{not json")
    assert cache.get_or_build(key, inputs, "sim.vvp", _builder(log))[1]
    (folder2 / "sim.vvp").unlink()
    assert cache.get_or_build(key, inputs, "sim.vvp", _builder(log))[1]
    assert len(log) == 4


def test_a_failed_build_leaves_nothing(tmp_path):
    cache = BuildCache(tmp_path / "cache")
    key, inputs = _key(tmp_path)

    def broken(folder: Path) -> None:
        (folder / "half").write_text("x")
        raise RuntimeError("syntax error")

    with pytest.raises(RuntimeError, match="syntax error"):
        cache.get_or_build(key, inputs, "sim.vvp", broken)
    assert not cache.valid(key)
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [f"{key}.lock"]


def test_keep_prunes_to_what_running_needs(tmp_path):
    cache = BuildCache(tmp_path / "cache")
    key, inputs = _key(tmp_path)
    folder, _ = cache.get_or_build(key, inputs, "sim.vvp", _builder([]), keep=[])
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST, "sim.vvp"]


#: one concurrent builder, run as a plain subprocess (python -c): a multiprocessing "spawn"
#: context would leave its resource tracker running as a child of the test's process, which
#: the simulated board's tests in the same pytest worker count as a leaked child
_CONCURRENT = r"""
import json, os, sys, time
from pathlib import Path
from pushpush.build.cache import BuildCache, build_key
root, src_dir, out = sys.argv[1:4]
cache = BuildCache(Path(root))
key, inputs = build_key(simulator="icarus", toplevel="m", sources=[Path(src_dir) / "m.v"],
                        parameters={}, simulator_id="icarus 11")
def build(folder):
    with open(Path(root).parent / "builds.log", "a") as f:
        f.write(f"{os.getpid()}\n")
    time.sleep(1.0)
    (folder / "sim.vvp").write_bytes(b"built once")
folder, built = cache.get_or_build(key, inputs, "sim.vvp", build)
Path(out).write_text(json.dumps([str(folder), built, (folder / "sim.vvp").read_text()]))
"""


def test_two_processes_building_one_key_build_it_once(tmp_path):
    (tmp_path / "m.v").write_text("module m; endmodule\n")
    procs = [subprocess.Popen([sys.executable, "-c", _CONCURRENT, str(tmp_path / "cache"), str(tmp_path),
                               str(tmp_path / f"out{i}")]) for i in range(2)]
    for p in procs:
        assert p.wait(60) == 0
    outs = [json.loads((tmp_path / f"out{i}").read_text()) for i in range(2)]
    assert outs[0][0] == outs[1][0]
    assert sorted(o[1] for o in outs) == [False, True]
    assert all(o[2] == "built once" for o in outs)
    assert len((tmp_path / "builds.log").read_text().split()) == 1


def test_least_recently_used_entries_go_first(tmp_path):
    cache = BuildCache(tmp_path / "cache", limit_bytes=10_000)
    keys = []
    for i in range(3):
        key, inputs = _key(tmp_path, parameters={"W": i})
        cache.get_or_build(key, inputs, "sim.vvp", _builder([], b"v" * 4000))
        keys.append(key)
        os.utime(cache.entry(key) / MANIFEST, (1000 + i, 1000 + i))
    cache.get_or_build(keys[0], _key(tmp_path, parameters={"W": 0})[1], "sim.vvp", _builder([]))
    cache.evict()
    assert not cache.entry(keys[1]).exists()          # the oldest unused one
    assert cache.valid(keys[0]) and cache.valid(keys[2])


def test_the_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("PUSHPUSH_CACHE", "off")
    assert BuildCache.default() is None
    monkeypatch.setenv("PUSHPUSH_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("PUSHPUSH_CACHE_MB", "5")
    c = BuildCache.default()
    assert c is not None and c.root == tmp_path / "c" and c.limit_bytes == 5 << 20


def test_run_cocotb_reuses_an_identical_build(tmp_path, monkeypatch):
    """Two runs of one core's bench: the second runs the cached build."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    monkeypatch.setenv("PUSHPUSH_CACHE", str(tmp_path / "cache"))
    tests = Path(__file__).parent / "cores"
    notes = []
    for i in range(2):
        bdir = tmp_path / f"run{i}"
        run_cocotb(toplevel="pp_req_arbiter", sources=cores_rtl(["req_arbiter"]),
                   test_module="test_req_arbiter", test_dir=tests, build_dir=bdir,
                   parameters={"N": 2, "MAX_WORDS": 2, "NW_WIDTH": 2, "TRACK_DONE": 1, "TAG_BITS": 3},
                   extra_env={"RA_CFG": json.dumps({"N": 2, "MAX_WORDS": 2, "NW_WIDTH": 2,
                                                    "TRACK_DONE": 1, "TAG_BITS": 3}),
                              "RA_CYCLES": "200"},
                   simulator="icarus")
        notes.append((bdir / "cached-build.txt").read_text())
    assert notes[0].startswith("built into") and notes[1].startswith("reused")
    assert notes[0].split()[-1] == notes[1].split()[-1]
