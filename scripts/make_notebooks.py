"""Build the notebooks in notebooks/: each ``NN_name.py`` (jupytext percent format, the text
that is reviewed and edited) becomes ``NN_name.ipynb``, executed on the simulated board so
that the shipped copy shows its outputs and plots (e.g. on GitHub).

    python scripts/make_notebooks.py                 # convert and execute all (~2-3 min, Icarus)
    python scripts/make_notebooks.py 02_audio_fir    # one notebook
    python scripts/make_notebooks.py --no-execute    # convert only (no outputs)
    python scripts/make_notebooks.py --check         # exit 1 if an .ipynb's cells differ from its .py

Edit the ``.py`` files (in an editor, or in Jupyter with jupytext installed, which opens them
as notebooks), then run this script and commit both. tests/notebooks checks that every
``.ipynb`` holds exactly its ``.py``'s cells and was executed without errors, and runs every
``.py`` notebook on the simulated board.

The notebooks run unchanged on a PYNQ-Z1 (with the overlays built and pushpush installed:
``pynq get-notebooks pushpush``) and on the simulated board anywhere else.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
CELL_TIMEOUT = 600   # seconds; the first cell that loads a system compiles it


def sources() -> list[Path]:
    """The text notebooks, in order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def read_text(path: Path) -> nbformat.NotebookNode:
    """A text notebook as an (unexecuted) notebook."""
    nb = jupytext.read(path, fmt="py:percent")
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def cells_of(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """What must agree between a ``.py`` and its ``.ipynb``: each cell's type and source."""
    return [(c.cell_type, c.source) for c in nb.cells]


def sim_env(workdir: Path) -> dict[str, str]:
    """The environment a notebook runs in on the simulated board: this checkout first on
    PYTHONPATH, ``PUSHPUSH_BOARD=sim``, inline plots, generated overlays under ``workdir``."""
    env = {
        "PYTHONPATH": os.pathsep.join([str(REPO)] + ([os.environ["PYTHONPATH"]]
                                                    if os.environ.get("PYTHONPATH") else [])),
        "PUSHPUSH_BOARD": "sim",
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        "TMPDIR": str(workdir),
    }
    return env


def execute(nb: nbformat.NotebookNode, workdir: Path) -> None:
    """Run every cell in a fresh kernel on the simulated board (raises on a failing cell)."""
    import nbclient

    saved = {k: os.environ.get(k) for k in sim_env(workdir)}
    os.environ.update(sim_env(workdir))
    try:
        nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                resources={"metadata": {"path": str(workdir)}}).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def build(path: Path, run: bool) -> Path:
    nb = read_text(path)
    if run:
        with tempfile.TemporaryDirectory(prefix="pushpush-nb-") as tmp:
            execute(nb, Path(tmp))
    nbformat.validate(nb)
    out = path.with_suffix(".ipynb")
    nbformat.write(nb, out)
    return out


def check() -> list[str]:
    """Notebooks whose ``.ipynb`` is missing or holds other cells than its ``.py``."""
    bad = []
    for path in sources():
        ipynb = path.with_suffix(".ipynb")
        if not ipynb.exists() or cells_of(nbformat.read(ipynb, as_version=4)) != cells_of(read_text(path)):
            bad.append(f"{ipynb.relative_to(REPO)} is not built from {path.name}: "
                       f"run python scripts/make_notebooks.py {path.stem}")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="notebooks to build (stems, e.g. 02_audio_fir)")
    ap.add_argument("--no-execute", action="store_true", help="convert only, without outputs")
    ap.add_argument("--check", action="store_true", help="only check .ipynb against .py")
    args = ap.parse_args(argv)
    if args.check:
        bad = check()
        for line in bad:
            print(line, file=sys.stderr)
        return 1 if bad else 0
    paths = sources()
    if args.names:
        known = {p.stem: p for p in paths}
        missing = [n for n in args.names if n not in known]
        if missing:
            ap.error(f"no notebooks/{missing[0]}.py (there are: {', '.join(known)})")
        paths = [known[n] for n in args.names]
    for path in paths:
        print(build(path, run=not args.no_execute))
    return 0


if __name__ == "__main__":
    sys.exit(main())
