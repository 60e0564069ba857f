"""Packaging for PYNQ: the wheel carries the notebooks and the overlay folders, and PYNQ
finds them through the ``pynq.notebooks`` and ``pynq.overlays`` entry points
(``pynq get-notebooks pushpush`` delivers the notebooks)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMS = ("pingpong", "audio_fir")


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: float = 600) -> str:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert p.returncode == 0, f"{' '.join(cmd)} failed:\n{p.stdout}\n{p.stderr}"
    return p.stdout


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed with --target into a folder (no dependencies)."""
    tmp = tmp_path_factory.mktemp("pynqwheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(REPO)], tmp)
    wheel = next((tmp / "dist").glob("pushpush_fpga-*.whl"))
    run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp / "site"),
         str(wheel)], tmp)
    return tmp / "site"


def _env(site: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONPATH"] = str(site)
    return env


def test_wheel_ships_notebooks_and_overlays(target: Path) -> None:
    nbs = sorted(p.name for p in (target / "pushpush" / "notebooks").glob("*.ipynb"))
    assert nbs == sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb")) and nbs
    for system in SYSTEMS:
        folder = target / "pushpush" / "overlays" / system
        for name in ("__init__.py", "build.sh", f"{system}.map.json"):
            assert (folder / name).is_file(), folder / name
        assert (target / "pushpush" / "_data" / "examples" / system / "app.py").is_file()
    eps = next(target.glob("pushpush_fpga-*.dist-info")).joinpath("entry_points.txt").read_text()
    assert "[pynq.notebooks]\npushpush = pushpush.notebooks" in eps
    assert "[pynq.overlays]\npushpush = pushpush.overlays" in eps


def test_entry_points_resolve(target: Path, tmp_path: Path) -> None:
    code = ("import importlib, importlib.metadata as md, json, pathlib\n"
            "out = {}\n"
            "for group in ('pynq.notebooks', 'pynq.overlays'):\n"
            "    ep = [e for e in md.entry_points(group=group) if e.name == 'pushpush'][0]\n"
            "    out[group] = str(pathlib.Path(list(ep.load().__path__)[0]))\n"
            "import pushpush.apps as a\n"
            "out['overlay_dir'] = str(a.overlay_dir('audio_fir'))\n"
            "print(json.dumps(out))\n")
    import json
    got = json.loads(run([sys.executable, "-c", code], tmp_path, env=_env(target)))
    assert got["pynq.notebooks"] == str(target / "pushpush" / "notebooks")
    assert got["pynq.overlays"] == str(target / "pushpush" / "overlays")
    assert got["overlay_dir"] == str(target / "pushpush" / "overlays" / "audio_fir")


def test_pynq_get_notebooks(target: Path, tmp_path: Path) -> None:
    pytest.importorskip("pynq.pl_server", reason="needs PYNQ")
    cli = Path(sys.executable).parent / "pynq"
    if not cli.exists():
        pytest.skip("no 'pynq' command next to this Python")
    env = _env(target)
    assert "pushpush (source: pushpush)" in run([str(cli), "get-notebooks", "--list"], tmp_path, env)
    # --ignore-overlays: no board here (on a board PYNQ detects it)
    run([str(cli), "get-notebooks", "pushpush", "--force", "--ignore-overlays", "-p",
         str(tmp_path / "nb")], tmp_path, env)
    got = sorted(p.name for p in (tmp_path / "nb" / "pushpush").glob("*.ipynb"))
    assert got == sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
