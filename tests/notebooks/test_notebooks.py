"""The notebooks in notebooks/: each ``NN_name.py`` (jupytext percent format) is the source,
its ``NN_name.ipynb`` the executed copy that ships (scripts/make_notebooks.py builds it).

Every ``.py`` notebook is executed against the simulated board; any error fails. Each
``.ipynb`` must hold exactly its ``.py``'s cells, with the outputs of a run without errors.

Each notebook runs in a fresh IPython kernel (nbclient) with the repository first on
PYTHONPATH and ``PUSHPUSH_BOARD=sim``, so ``pushpush.apps.open_system`` generates the
example, compiles it (Icarus unless ``PUSHPUSH_SIM`` says otherwise) and starts the
simulated board. A cell that raises (an ``assert`` against numpy included) fails the test
with the cell's traceback. Needs PYNQ, nbclient, nbformat, ipykernel and matplotlib
and jupytext (the ``dev`` and ``pynq`` extras); skipped without them.

    PYTHONPATH=$PWD pytest -q tests/notebooks          # ~1-2 min on Icarus
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.py"))

pytest.importorskip("jupytext")
nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pynq.pl_server", reason="the simulated board needs PYNQ (pushpush-fpga[pynq])")

_spec = importlib.util.spec_from_file_location("make_notebooks", REPO / "scripts" / "make_notebooks.py")
make_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_notebooks)


def test_notebooks_exist() -> None:
    names = [p.stem for p in SOURCES]
    assert names == ["01_getting_started", "02_audio_fir", "03_calls_per_second", "04_dma_stream",
                     "05_channels"]
    assert sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb")) == names


def test_shipped_copies_are_built_from_the_text() -> None:
    """Each .ipynb holds its .py's cells (same types and sources, in order), was executed
    (every code cell ran, in order) and shows no error output."""
    assert make_notebooks.check() == []
    for path in SOURCES:
        nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), \
            f"{path.stem}.ipynb is not an executed copy: run python scripts/make_notebooks.py {path.stem}"
        errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{path.stem}.ipynb shipped with an error output"


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in make_notebooks.sim_env(tmp_path).items():   # the generated overlays go to tmp_path
        monkeypatch.setenv(k, v)
    nb = make_notebooks.read_text(path)
    client = nbclient.NotebookClient(nb, timeout=make_notebooks.CELL_TIMEOUT, kernel_name="python3",
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
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    if path.stem.startswith("04"):
        assert len(images) >= 2, "the DMA plot or the two forms' plot (DMA, buffer parameters) is missing"
        assert "scaler.scale(src, dst)" in text and "buffer parameters:" in text, "the buffer form is missing"
    if path.stem.startswith("05"):
        assert len(images) >= 1, "the channels' bandwidth plot is missing"
