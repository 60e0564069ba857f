"""``pushpush init`` output passes its own CI workflow (.github/workflows/test.yml), run here.

Each ``run:`` step of the scaffolded workflow runs as written, with bash, in the scaffolded
folder, in a fresh virtualenv, in step order; what cannot run here is replaced by the nearest
faithful check, and said so:

- ``uses: actions/checkout`` and ``actions/setup-python``: the folder is already here, and
  the virtualenv is of this Python;
- the ``apt-get install`` step: not run (installing Debian packages is bootstrap.sh's job, and
  needs root and the network); every package it names must be installed here instead, so
  the later steps see what CI's would;
- the pip step runs as written, with ``PIP_NO_INDEX=1``: nothing is downloaded; the wheel of
  this checkout sits in ``wheels/`` (what wheels/README.md tells the user to do), and the
  dependencies pip resolves come from this test's own environment through a ``.pth`` file
  (without this checkout's own editable install, so the wheel is what gets installed), and
  the console scripts pip would then have written (``fusesoc``) run the originals with the
  virtualenv's Python;
- ``PUSHPUSH_SIMS=icarus``: the simulators CI has (Ubuntu's Verilator is older than the
  5.036 that sim_matrix needs, so CI's pytest runs Icarus only).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 900) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout + proc.stderr


def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what points into the repository or this venv."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS", "PUSHPUSH_SIM_BUILD", "PUSHPUSH_SIM",
            "PUSHPUSH_SIM_BACKGROUND", "PIP_FIND_LINKS", "PIP_INDEX_URL"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    env.update(extra)
    return env


def _deps_dir(tmp: Path) -> Path:
    """This environment's site-packages without this checkout's pushpush-fpga (links)."""
    out = tmp / "deps"
    out.mkdir()
    for p in Path(sysconfig.get_paths()["purelib"]).iterdir():
        low = p.name.lower()
        if low.startswith(("pushpush", "__editable__", "_pushpush")) or low.endswith(".pth"):
            continue
        (out / p.name).symlink_to(p)
    return out


def _scripts_dir(tmp: Path, python: Path) -> Path:
    """The dependencies' console scripts that pip would have put into the virtualenv's bin/
    (it finds the dependencies installed, so it writes none): each runs the original script
    with the virtualenv's Python."""
    out = tmp / "dep-scripts"
    out.mkdir()
    for name in ("fusesoc",):
        original = Path(sys.executable).parent / name
        assert original.is_file(), f"this environment has no {name} script ({original})"
        (out / name).write_text(f'#!/bin/sh\nexec "{python}" "{original}" "$@"\n')
        (out / name).chmod(0o755)
    return out


def _apt_packages(command: str) -> list[str]:
    words = shlex.split(command.split("apt-get install", 1)[1].split("&&")[0])
    return [w for w in words if not w.startswith("-")]


@pytest.mark.slow
def test_init_output_passes_its_own_ci_steps(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    # pushpush init, by this checkout
    _run([sys.executable, "-m", "pushpush", "init", "demo"], work, dict(os.environ, PYTHONPATH=str(REPO)))
    demo = work / "demo"
    # the wheel into wheels/, as wheels/README.md says
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(demo / "wheels"), str(REPO)],
         tmp_path, _clean_env(PATH=os.environ["PATH"]))
    # a fresh virtualenv ("setup-python"), the dependencies visible, this checkout not
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path,
                _clean_env()).strip()
    (Path(site) / "_pushpush_ci_deps.pth").write_text(str(_deps_dir(tmp_path)) + "\n")
    scripts = _scripts_dir(tmp_path, py)
    env = _clean_env(PATH=f"{env_dir / 'bin'}:{scripts}:/usr/local/bin:/usr/bin:/bin", VIRTUAL_ENV=str(env_dir),
                     PIP_NO_INDEX="1", PUSHPUSH_SIMS="icarus", PUSHPUSH_SIM_BACKGROUND="0")

    workflow = yaml.safe_load((demo / ".github" / "workflows" / "test.yml").read_text())
    steps = workflow["jobs"]["test"]["steps"]
    done: list[str] = []
    for step in steps:
        if "uses" in step:
            assert step["uses"].split("@")[0] in ("actions/checkout", "actions/setup-python"), step
            done.append(f"uses {step['uses']}: stands for itself here")
            continue
        command = step["run"]
        if "apt-get install" in command:
            missing = [p for p in _apt_packages(command) if subprocess.run(
                ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
                != "install ok installed"]
            assert not missing, f"the workflow installs {missing}, which this machine lacks (bootstrap.sh)"
            done.append(f"apt: {_apt_packages(command)} installed here")
            continue
        out = _run(["bash", "-e", "-o", "pipefail", "-c", command], demo, env)
        done.append(f"ran: {command}")
        if "pip install" in command:
            assert "pushpush_fpga" in out or "pushpush-fpga" in out, out
            where = _run([str(py), "-c", "import pushpush; print(pushpush.__file__)"], demo, env)
            assert where.startswith(site), f"pushpush is not the wheel's: {where}"
        if "-m pytest" in command:
            assert "2 passed" in out, out
    assert len(done) == len(steps) and sum(d.startswith("ran: ") for d in done) == 4, done
