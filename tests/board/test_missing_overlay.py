"""A board without the Vivado build: ``pushpush.pynq.load`` and the notebooks say how to build
it and where to copy it, instead of a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pushpush.pynq.overlay_files import OverlayNotBuilt, check_overlay_files

REPO = Path(__file__).resolve().parents[2]


def test_all_three_files_missing(tmp_path: Path) -> None:
    bit = tmp_path / "overlays" / "hof" / "hof.bit"
    with pytest.raises(OverlayNotBuilt) as e:
        check_overlay_files(bit, "examples/hof/system.yaml")
    msg = str(e.value)
    assert "hof.bit, hof.hwh, hof.map.json missing" in msg
    assert "pushpush build examples/hof/system.yaml --target pynq_z1" in msg
    assert "pynq_overlays/hof/hof.bit, hof.hwh and hof.map.json" in msg
    assert f"into {bit.parent}/" in msg
    assert "PUSHPUSH_BOARD=sim" in msg
    assert isinstance(e.value, FileNotFoundError)


def test_only_the_missing_files_are_named(tmp_path: Path) -> None:
    bit = tmp_path / "pingpong.bit"
    bit.write_bytes(b"x")
    (tmp_path / "pingpong.map.json").write_text("{}")
    with pytest.raises(OverlayNotBuilt, match=r": pingpong\.hwh missing in"):
        check_overlay_files(bit)
    (tmp_path / "pingpong.hwh").write_text("<x/>")
    check_overlay_files(bit)


def test_jupyter_shows_the_message_not_a_traceback() -> None:
    e = OverlayNotBuilt("do this")
    assert e._render_traceback_() == ["OverlayNotBuilt: do this"]


def test_load_says_it(tmp_path: Path) -> None:
    pytest.importorskip("pynq.pl_server")
    import pushpush.pynq as ppq

    with pytest.raises(OverlayNotBuilt, match="pushpush build .* --target pynq_z1"):
        ppq.load(str(tmp_path / "hof.bit"))


def test_notebook_on_a_board_without_the_bitstream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Notebook 01 as a board user runs it after `pynq get-notebooks pushpush` without a
    Vivado build: the cells before loading run, the loading cell stops with the instructions
    (no Python traceback)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("pynq.pl_server")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(REPO)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    monkeypatch.setenv("PUSHPUSH_BOARD", "pynq")        # as on a PYNQ-Z1
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    nb = nbformat.read(REPO / "notebooks" / "01_getting_started.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    with pytest.raises(nbclient.exceptions.CellExecutionError):
        client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert len(errors) == 1, errors
    err = errors[0]
    text = "\n".join(err["traceback"])
    assert err["ename"] == "OverlayNotBuilt"
    assert "pushpush build" in text and "--target pynq_z1" in text and "pingpong.map.json" in text
    assert "Traceback" not in text and 'File "' not in text and "----> " not in text
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "running on a board" in printed
    # generate ran on the 'board' too (with or without pyslang)
    assert "rtl/pingpong_top.v" in printed
