"""Execute every notebook in notebooks/ against the simulated board; any error fails.

Each notebook runs in a fresh IPython kernel (nbclient) with the repository first on
PYTHONPATH and ``PUSHPUSH_BOARD=sim``, so ``pushpush.apps.open_system`` generates the
example, compiles it (Icarus unless ``PUSHPUSH_SIM`` says otherwise) and starts the
simulated board. A cell that raises (an ``assert`` against numpy included) fails the test
with the cell's traceback. Needs PYNQ, nbclient, nbformat, ipykernel and matplotlib
(the ``dev`` and ``pynq`` extras); skipped without them.

    PYTHONPATH=$PWD pytest -q tests/notebooks          # ~1-2 min on Icarus
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pynq.pl_server", reason="the simulated board needs PYNQ (pushpush[pynq])")

CELL_TIMEOUT = 600   # seconds; the first cell that loads a system compiles it


def test_notebooks_exist() -> None:
    names = [p.name for p in NOTEBOOKS]
    assert names == ["01_getting_started.ipynb", "02_audio_fir.ipynb", "03_calls_per_second.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(REPO)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    monkeypatch.setenv("PUSHPUSH_BOARD", "sim")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("TMPDIR", str(tmp_path))   # the generated overlays go there
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        pytest.fail(f"{path.name}: a cell failed:\n{e}", pytrace=False)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs {errors}"
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.get("outputs", []) if o.get("output_type") == "stream")
    assert "simulated board up" in text, "the notebook did not start the simulated board"
    if path.stem.startswith("02"):
        images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if "image/png" in o.get("data", {})]
        assert len(images) >= 2, "the input vs output plots are missing"
