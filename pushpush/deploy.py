"""``pushpush deploy HOST``: put what a board needs on it over ssh, then run the self-check there.

What goes to ``<remote folder>`` (default ``pushpush`` in the remote user's home):

- ``wheels/<the wheel>``, installed with the remote Python's pip, when the board has no
  pushpush or another version (``python -c 'import pushpush; print(pushpush.__version__)'``
  there); built here from the checkout (``pip wheel --no-deps``) unless given;
- ``<system>/`` for each system folder: its files (``system.yaml``, ``app.py``, the C
  programs' sources, ...; no ``build/``) and, where built, its overlay's ``.bit``, ``.hwh``
  and ``.map.json``, found here as the board finds them
  (:func:`pushpush.pynq.overlay_files.find_overlay`) and put where the board looks first:
  ``<system>/pynq_overlays/<system>/``;
- ``notebooks/``: the shipped notebooks.

The board's Python: ``--python CMD`` when given; otherwise, on a PYNQ image (it has
:data:`PYNQ_PROFILE`, which sets up PYNQ's venv and XRT's environment: ``XILINX_XRT=/usr``,
``BOARD``), PYNQ's venv Python as root through ``sudo -n`` (PYNQ reaches the PL through
``/dev/mem`` and the CMA driver, which need root; a board whose sudo asks for a password is
refused with the one-line fix); elsewhere ``python3``.

The files travel as one tar stream over ``ssh`` (the system's OpenSSH, ``BatchMode=yes``: no
password prompt, keys only); every remote step has a timeout whose message names the step
and the host. Then ``<python> -m pushpush selfcheck`` runs on the board, its report stays in
``<remote folder>/selfcheck/`` and its summary is printed here.
"""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional, Sequence

from . import __version__
from .apps import find_example
from .pynq.overlay_files import OverlayNotBuilt, find_overlay, overlay_files
from .resources import OVERLAYS_DIRNAME
from .resources import data_dir

__all__ = ["DeployError", "Target", "deploy", "build_wheel", "remote_version"]

_PKG = Path(__file__).resolve().parent
SKIP_DIRS = {"build", "__pycache__", ".pytest_cache", "sim_build", ".git"}


#: What a PYNQ image sources for PYNQ's venv (PYNQ's sdbuild writes it: the venv's activation,
#: ``XILINX_XRT=/usr`` without which PYNQ finds no device, ``BOARD``, ``PYNQ_JUPYTER_NOTEBOOKS``).
PYNQ_PROFILE = "/etc/profile.d/pynq_venv.sh"


class DeployError(RuntimeError):
    """A step of the deploy failed or ran out of time; the message names the step and the host."""


@dataclass
class Target:
    """Where and how to reach the board."""

    host: str
    user: Optional[str] = None
    port: Optional[int] = None
    identity: Optional[str] = None
    folder: str = "pushpush"
    python: Optional[str] = None
    pynq_profile: str = PYNQ_PROFILE
    ssh_options: Sequence[str] = field(default_factory=tuple)
    connect_timeout: float = 10.0

    def ssh(self, command: str) -> list[str]:
        cmd = ["ssh", "-o", "BatchMode=yes", "-o", f"ConnectTimeout={int(self.connect_timeout)}"]
        if self.port:
            cmd += ["-p", str(self.port)]
        if self.identity:
            cmd += ["-i", self.identity, "-o", "IdentitiesOnly=yes"]
        for o in self.ssh_options:
            cmd += ["-o", o]
        cmd.append(f"{self.user}@{self.host}" if self.user else self.host)
        cmd.append(command)
        return cmd

    @property
    def where(self) -> str:
        return (f"{self.user}@" if self.user else "") + self.host + (f":{self.port}" if self.port else "")


def _run(target: Target, step: str, command: str, timeout: float, stdin: Optional[bytes] = None
         ) -> subprocess.CompletedProcess:
    cmd = target.ssh(command)
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise DeployError(f"{step} on {target.where}: no end within {timeout:g} s ({shlex.join(cmd)}); "
                          f"the board's output so far: {(e.stdout or b'').decode(errors='replace')[-500:]}"
                          f"{(e.stderr or b'').decode(errors='replace')[-500:]}") from None
    except FileNotFoundError:
        raise DeployError("no ssh command: install OpenSSH's client (Debian: apt-get install "
                          "openssh-client)") from None


def _checked(target: Target, step: str, command: str, timeout: float,
             stdin: Optional[bytes] = None) -> str:
    r = _run(target, step, command, timeout, stdin)
    if r.returncode != 0:
        err = r.stderr.decode(errors="replace").strip()
        hint = (" (ssh could not log in: BatchMode allows keys only; give --identity or add "
                "your key to the board's ~/.ssh/authorized_keys)") if r.returncode == 255 else ""
        raise DeployError(f"{step} on {target.where} failed (exit {r.returncode}){hint}: {err}")
    return r.stdout.decode(errors="replace")


def pynq_image_python(profile: str = PYNQ_PROFILE) -> str:
    """The command that runs PYNQ's venv Python as root on a PYNQ image, arguments appended."""
    script = f'. {shlex.quote(profile)} && exec python "$@"'
    return f"sudo -n bash -c {shlex.quote(script)} python"


def board_python(target: Target, timeout: float = 60.0) -> str:
    """The board's Python command: ``target.python`` when given, else PYNQ's venv as root on a
    PYNQ image (``target.pynq_profile`` exists there), else ``python3``."""
    if target.python:
        return target.python
    probe = f"test -f {shlex.quote(target.pynq_profile)}"
    r = _run(target, f"looking for PYNQ's venv ({target.pynq_profile})", probe, timeout)
    if r.returncode == 255:
        _checked(target, "logging in", "true", timeout)   # says why ssh failed
    if r.returncode != 0:
        return "python3"
    r = _run(target, "asking for root (sudo -n true)", "sudo -n true", timeout)
    if r.returncode != 0:
        raise DeployError(
            f"{target.where} is a PYNQ image ({target.pynq_profile}), whose PYNQ needs root, but "
            f"sudo asks for a password there ({r.stderr.decode(errors='replace').strip()}); once, "
            "from a terminal: ssh -t " + (f"{target.user}@" if target.user else "") + target.host +
            """ 'echo "$(whoami) ALL=(ALL) NOPASSWD: ALL" | sudo tee /etc/sudoers.d/pushpush' """
            "(the image's password for xilinx is xilinx), or give the Python to use with --python")
    return pynq_image_python(target.pynq_profile)


def remote_version(target: Target, timeout: float = 60.0) -> Optional[str]:
    """pushpush's version on the board, or None when its Python has none."""
    py = f"{target.python} -c 'import pushpush; print(pushpush.__version__)'"
    r = _run(target, "asking the board's pushpush version", py, timeout)
    if r.returncode == 255:
        _checked(target, "logging in", "true", timeout)   # says why ssh failed
    if r.returncode != 0:
        return None
    return r.stdout.decode().strip().splitlines()[-1] if r.stdout.strip() else None


def build_wheel(out: Path, timeout: float = 600.0) -> Path:
    """The wheel of this checkout (``pip wheel --no-deps``), into ``out``."""
    repo = _PKG.parent
    if not (repo / "pyproject.toml").is_file():
        raise DeployError(f"pushpush runs from an installed package ({_PKG}), not a checkout: "
                          "give the wheel to copy with --wheel FILE")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(repo)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError(f"building the wheel took over {timeout:g} s: {shlex.join(cmd)}") from None
    wheels = sorted(out.glob("pushpush_fpga-*.whl"))
    if r.returncode != 0 or not wheels:
        raise DeployError(f"building the wheel failed: {shlex.join(cmd)}\n{r.stdout}{r.stderr}")
    return wheels[-1]


def _add_tree(tar: tarfile.TarFile, src: Path, arc: str) -> None:
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src)
        if p.is_file() and not SKIP_DIRS & set(rel.parts):
            tar.add(str(p), arcname=f"{arc}/{rel.as_posix()}")


def deploy(target: Target, systems: Sequence[str] = ("pingpong",), *, wheel: Optional[str] = None,
           checks: Optional[str] = None, notebooks: bool = True, selfcheck: bool = True,
           timeout: float = 900.0, say: Callable[[str], None] = print) -> int:
    """Copy, install, self-check (see the module docstring); returns the remote self-check's
    exit status (0 when it is not run)."""
    folders = [find_example(s) for s in systems]
    if not target.python:
        target = replace(target, python=board_python(target))
        say(f"deploy: the board's Python: {target.python}")
    have = remote_version(target)
    with tempfile.TemporaryDirectory(prefix="pushpush-deploy-") as tmp:
        buf = io.BytesIO()
        wheel_name = None
        with tarfile.open(fileobj=buf, mode="w") as tar:
            if wheel or have != __version__:
                w = Path(wheel) if wheel else build_wheel(Path(tmp))
                say(f"deploy: the board has pushpush {have or '(none)'}; copying {w.name}")
                tar.add(str(w), arcname=f"wheels/{w.name}")
                wheel_name = w.name
            else:
                say(f"deploy: the board has pushpush {have}: the wheel is not copied")
            for folder in folders:
                name = folder.name
                _add_tree(tar, folder, name)
                try:
                    built = overlay_files(find_overlay(name, folder))
                except OverlayNotBuilt:
                    built = []
                for p in built:
                    if not p.resolve().is_relative_to(folder.resolve()):  # else the folder carries it
                        tar.add(str(p), arcname=f"{name}/{OVERLAYS_DIRNAME}/{name}/{p.name}")
                say(f"deploy: {name}: its folder" + (f" and {', '.join(p.name for p in built)}"
                                                     if built else " (no overlay built here)"))
            if notebooks:
                nb = data_dir("notebooks")
                for p in sorted(nb.glob("*.ipynb")):
                    tar.add(str(p), arcname=f"notebooks/{p.name}")
        folder = shlex.quote(target.folder)
        _checked(target, "copying the files", f"mkdir -p {folder} && tar -C {folder} -xf -",
                 timeout, stdin=buf.getvalue())
        say(f"deploy: copied {len(buf.getvalue()) // 1024} KiB to {target.where}:{target.folder}")
        if wheel_name:
            whl = shlex.quote(f"{target.folder}/wheels/{wheel_name}")
            _checked(target, "installing the wheel",
                     f"{target.python} -m pip install -q --force-reinstall --no-deps {whl}", timeout)
            say(f"deploy: installed {wheel_name}")
    if not selfcheck:
        return 0
    report = shlex.quote(f"{target.folder}/selfcheck")
    cmd = f"{target.python} -m pushpush selfcheck -q -o {report}" + \
        (f" --checks {shlex.quote(checks)}" if checks else "")
    r = _run(target, "the self-check", cmd, timeout)
    out = r.stdout.decode(errors="replace")
    if r.returncode not in (0, 1, 3) or not out.strip():
        raise DeployError(f"the self-check on {target.where} did not run (exit {r.returncode}): "
                          f"{r.stderr.decode(errors='replace').strip()[-2000:]}")
    say(f"deploy: the self-check on {target.where} (its report: {target.folder}/selfcheck/):")
    for line in out.splitlines():
        say(f"  {line}")
    return r.returncode
