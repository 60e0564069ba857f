"""One place for a system's overlay files, and the PYNQ each board's images have (issue 43).

On a board (``PUSHPUSH_BOARD=pynq``: the decision ``pushpush.apps.on_board`` makes) the
overlay of a system is ``<system>.bit`` with its ``.hwh`` and ``.map.json``, found in the
system's folder (``pynq_overlays/<system>/``, where ``pushpush build`` writes it), the
current folder, then the installed overlays (:func:`pushpush.pynq.overlay_files.find_overlay`).
The files here are real, in tmp folders; the loads go through the real PYNQ ``Overlay`` on the
simulated board, already PYNQ's device when "a board" is declared, so a scaffolded system
(``pushpush init``) built into its own folder runs with ``pushpush run .`` as on a board.
bootstrap.sh runs this file under PYNQ 3.1.2 and 4.0.0 (PYNQ4_TESTS): under 4.0 the
PYNQ-Z1 system is refused with the fix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.boards import BOARD_NAMES, board, pynq_version_error  # noqa: E402
from pushpush.link import load as load_linked  # noqa: E402
from pushpush.pynq.overlay_files import (OverlayNotBuilt, PynqVersionError,  # noqa: E402
                                         check_board_pynq, find_overlay, installed_pynq_version,
                                         overlay_places)
from pushpush.resources import installed_overlay_dir, overlay_build_dir  # noqa: E402
from pushpush.scaffold import scaffold  # noqa: E402
from pushpush.sysmap import to_json  # noqa: E402

PYNQ_MAJOR = int(installed_pynq_version().split(".")[0])


def _files(folder: Path, name: str, which: tuple[str, ...] = (".bit", ".hwh", ".map.json")) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in which:
        (folder / f"{name}{suffix}").write_text("x")


# ------------------------------------------------------------------ where the board looks


def test_the_system_folder_comes_first_then_the_current_folder(tmp_path: Path) -> None:
    sysdir, cwd = tmp_path / "demo", tmp_path / "here"
    cwd.mkdir()
    _files(cwd, "demo")
    assert find_overlay("demo", sysdir, cwd=cwd) == cwd.resolve() / "demo.bit"
    _files(overlay_build_dir(sysdir, "demo"), "demo")
    assert find_overlay("demo", sysdir, cwd=cwd) == \
        sysdir.resolve() / "pynq_overlays" / "demo" / "demo.bit"
    places = overlay_places("demo", sysdir, cwd)
    assert [p for p, _ in places] == [sysdir.resolve() / "pynq_overlays" / "demo", cwd.resolve(),
                                      installed_overlay_dir("demo")]


def test_a_missing_overlay_names_every_place_and_the_fix(tmp_path: Path) -> None:
    sysdir, cwd = tmp_path / "demo", tmp_path / "here"
    cwd.mkdir()
    _files(cwd, "demo", (".hwh",))
    with pytest.raises(OverlayNotBuilt) as e:
        find_overlay("demo", sysdir, cwd=cwd, system_yaml=sysdir / "system.yaml")
    msg = str(e.value)
    lines = msg.splitlines()
    assert lines[1] == (f"  1. {sysdir.resolve()}/pynq_overlays/demo/ (the system's folder, where "
                        "'pushpush build' writes): none of them")
    assert lines[2] == f"  2. {cwd.resolve()}/ (the current folder): only demo.hwh"
    assert lines[3].startswith(f"  3. {installed_overlay_dir('demo')}/ (the installed overlays")
    assert f"pushpush build {sysdir / 'system.yaml'} --target pynq_z1" in msg
    assert f"scp -r pynq_overlays xilinx@pynq:{sysdir.resolve()}/" in msg
    assert "PUSHPUSH_BOARD=sim" in msg
    assert isinstance(e.value, FileNotFoundError)


def test_the_first_place_with_the_bit_must_hold_all_three(tmp_path: Path) -> None:
    sysdir, cwd = tmp_path / "demo", tmp_path / "here"
    _files(overlay_build_dir(sysdir, "demo"), "demo", (".bit", ".hwh"))
    _files(cwd, "demo")          # complete, but later: a half-copied build is not skipped
    with pytest.raises(OverlayNotBuilt, match=r"demo\.map\.json missing beside demo\.bit") as e:
        find_overlay("demo", sysdir, cwd=cwd)
    assert "so the places after it are not used" in str(e.value)
    assert "  2." not in str(e.value)


def test_the_installed_overlays_are_looked_at_last(tmp_path: Path) -> None:
    # pingpong ships its map (pynq_overlays/pingpong, installed as pushpush/overlays/pingpong)
    # but no bitstream: the third place says what it has
    with pytest.raises(OverlayNotBuilt) as e:
        find_overlay("pingpong", None, cwd=tmp_path)
    lines = str(e.value).splitlines()
    assert lines[1] == f"  1. {tmp_path.resolve()}/ (the current folder): none of them"
    assert lines[2].endswith("only pingpong.map.json")


# ------------------------------------------------------------------ PYNQ per board


@pytest.mark.parametrize("name", BOARD_NAMES)
@pytest.mark.parametrize("version", ["3.0.1", "3.1.2", "4.0.0"])
def test_which_pynq_each_board_runs(name: str, version: str) -> None:
    problem = pynq_version_error(board(name), version)
    zynq7000 = name in ("pynq-z1", "pynq-z2")
    if version.startswith("4") and zynq7000:
        assert problem is not None
        assert f"the {board(name).title} has PYNQ 3.x images" in problem
        assert "PYNQ 4.0 dropped it" in problem and "flash PYNQ v3.0.1" in problem
        assert "pip install 'pynq>=3.0,<4'" in problem
    else:
        assert problem is None
    assert "pynq_majors" in board(name).sources   # cited


def test_an_older_pynq_is_refused_everywhere() -> None:
    for name in BOARD_NAMES:
        assert "older than pushpush supports" in pynq_version_error(board(name), "2.7.0")


def test_the_map_says_which_board(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    scaffold(demo)
    linked = load_linked(demo / "system.yaml")
    (tmp_path / "demo.map.json").write_text(to_json(linked))
    bit = tmp_path / "demo.bit"
    check_board_pynq(bit, "3.1.2")
    with pytest.raises(PynqVersionError) as e:
        check_board_pynq(bit, "4.0.0")
    assert str(e.value).startswith("demo.bit is built for the PYNQ-Z1 (demo.map.json: board pynq-z1); "
                                   "the PYNQ-Z1 has PYNQ 3.x images")
    data = json.loads(to_json(linked))
    data["board"] = "zcu104"
    (tmp_path / "demo.map.json").write_text(json.dumps(data))
    check_board_pynq(bit, "4.0.0")


# ------------------------------------------------------------------ through the real load


@pytest.fixture()
def built_demo(tmp_path: Path) -> Path:
    """A ``pushpush init`` folder whose overlay is in its own build folder (the simulated
    board's files standing in for Vivado's: the same three names)."""
    demo = tmp_path / "demo"
    scaffold(demo)
    linked = load_linked(demo / "system.yaml")
    ppq.write_sim_overlay(linked, overlay_build_dir(demo, "demo"), simulator="icarus")
    return demo


def _as_on_a_board(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(pynq.Device.active_device, ppq.SimDevice)   # probed before: it stays
    monkeypatch.setenv("PUSHPUSH_BOARD", "pynq")


def test_load_of_system_yaml_on_a_board_loads_the_built_overlay(
        built_demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _as_on_a_board(monkeypatch)
    monkeypatch.chdir(tmp_path)
    bit = built_demo / "pynq_overlays" / "demo" / "demo.bit"
    if PYNQ_MAJOR >= 4:     # the PYNQ-Z1 has no PYNQ 4 image
        with pytest.raises(PynqVersionError, match=r"PYNQ 4\.0 dropped it \(PYNQ v4\.0\.0 "
                           r"release notes, Deprecations\): flash PYNQ v3\.0\.1"):
            ppq.load(built_demo / "system.yaml")
        return
    ol = ppq.load(built_demo / "system.yaml")
    try:
        assert Path(ol.bitfile_name) == bit.resolve()
        assert ol.adder.add(40, 2) == 42
    finally:
        ol.free()


def test_pushpush_run_dot_on_a_board(built_demo: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from pushpush.cli import main

    _as_on_a_board(monkeypatch)
    monkeypatch.chdir(built_demo)
    rc = main(["run", "."])
    out, err = capsys.readouterr()
    if PYNQ_MAJOR >= 4:
        assert rc == 1 and "PynqVersionError" not in err
        assert "pushpush: error: demo: demo.bit is built for the PYNQ-Z1" in err
        assert "flash PYNQ v3.0.1 onto its SD card" in err
        return
    assert rc == 0, out + err
    assert "demo: all sums correct" in out
    assert "(simulator: icarus" in err   # the simulated board standing in for the PL


def test_pushpush_run_on_a_board_without_the_files(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from pushpush.cli import main

    demo = tmp_path / "demo"
    scaffold(demo)
    _as_on_a_board(monkeypatch)
    monkeypatch.chdir(demo)
    assert main(["run", "."]) == 1
    err = capsys.readouterr().err
    assert "the overlay 'demo' is not built for the board" in err
    assert f"1. {demo.resolve()}/pynq_overlays/demo/ (the system's folder" in err
    assert f"2. {demo.resolve()}/ (the current folder)" in err
    assert "3. " in err and "(the installed overlays" in err
