"""``pip install pushpush-fpga`` on a PYNQ-Z1 resolves to wheels only: nothing is compiled.

The board: a Cortex-A9 (``linux_armv7l``) running PYNQ's Ubuntu 22.04 image with Python 3.10,
where ``pip`` runs in PYNQ's venv (``/usr/local/share/pynq-venv``, made with
``--system-site-packages``). The check builds this project's wheel and asks the real ``pip``
(against the real index, PyPI unless pip is configured otherwise) to install it with
``--dry-run --only-binary=:all: --platform linux_armv7l --python-version 3.10``: pip must find a
*binary* for every requirement it would install, or fail (it never falls back to an sdist).

PyPI has no ``linux_armv7l`` wheels of PyYAML, MarkupSafe or numpy, so on the board these must
be (and are) taken from the image. The environment pip resolves against is therefore a bare
venv holding only the *metadata* (``.dist-info``: name and version) of what the image has:

* ``numpy 1.21.5`` and ``PyYAML 5.4.1``: Ubuntu 22.04 (jammy) ``python3-numpy`` (pulled in by
  ``python3-scipy``/``python3-matplotlib``, which PYNQ's ``sdbuild/ubuntu/jammy/arm/
  multistrap.config`` lists) and ``python3-yaml`` (pulled in by ``ubuntu-minimal``); the
  versions are those of Ubuntu's jammy archive, not read from a flashed image;
* ``MarkupSafe 2.1.1`` and ``pycparser 2.19``: pinned in PYNQ's
  ``sdbuild/packages/python_packages_jammy/requirements.txt`` (installed into the venv);
* ``pynq 3.0.1`` (only for the ``[pynq]`` case): PYNQ itself, preinstalled on the image.

What it proves: with exactly these distributions present, pip resolves ``pushpush`` (and
``pushpush-fpga[pynq]``) for armv7l/3.10 to binary wheels only, so the board compiles nothing; the
version bounds in pyproject.toml accept what the image has (a bound above it would make pip
try to upgrade from an sdist, and this test fail). And ``pushpush-fpga[check]`` does *not* resolve
(pyslang has no armv7l wheel): the check is not vacuous, and that is why pyslang is an extra.

What it does not prove: that the wheels it picks run on the board (nothing is installed or
imported on ARM), nor that a real image has exactly those versions (a stand-in for the
image's site-packages: the board is absent). Skipped, with the reason, only when pip cannot
reach the package index.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: What a PYNQ-Z1 image (PYNQ 3.0, Ubuntu 22.04, Python 3.10) has installed (see the docstring).
IMAGE_HAS = {"numpy": "1.21.5", "PyYAML": "5.4.1", "MarkupSafe": "2.1.1", "pycparser": "2.19",
             "pynq": "3.0.1"}
#: Each board's platform (pip's --platform tags, the first one pip also reports) and what its
#: image has: the PYNQ-Z1/Z2 and ZCU104 images are PYNQ's own (Ubuntu 22.04, Python 3.10; the
#: ZCU104's is aarch64); Kria-PYNQ installs into a venv on Kria Ubuntu 22.04 and pins
#: numpy 1.26.4 and pynqmetadata 0.1.2 there (Xilinx/Kria-PYNQ install.sh lines 149, 152).
BOARD_IMAGES = {
    "pynq-z1": (("linux_armv7l",), IMAGE_HAS),
    "pynq-z2": (("linux_armv7l",), IMAGE_HAS),
    "zcu104": (("manylinux2014_aarch64", "linux_aarch64"), IMAGE_HAS),
    "kv260": (("manylinux2014_aarch64", "linux_aarch64"),
              {**IMAGE_HAS, "numpy": "1.26.4", "pynqmetadata": "0.1.2"}),
}

_OFFLINE = ("Failed to establish a new connection", "NewConnectionError", "Temporary failure in "
            "name resolution", "Network is unreachable", "ConnectTimeoutError", "ProxyError")


def _pip(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run([sys.executable, "-m", "pip", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


def _skip_if_offline(proc: subprocess.CompletedProcess[str]) -> None:
    if proc.returncode != 0 and any(m in proc.stderr for m in _OFFLINE):
        pytest.skip("pip cannot reach the package index, so the armv7l resolution cannot be "
                    f"checked here: {proc.stderr.strip().splitlines()[-1]}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("board-wheel")
    proc = _pip(["wheel", "--no-deps", "-q", "-w", str(tmp), str(REPO)], tmp)
    _skip_if_offline(proc)   # the build backend (hatchling) comes from the index too
    assert proc.returncode == 0, proc.stderr
    (whl,) = tmp.glob("pushpush_fpga-*.whl")
    return whl


def _image_env(tmp_path_factory: pytest.TempPathFactory, image: dict[str, str]) -> Path:
    """A venv whose site-packages holds the metadata of what ``image`` has (no code)."""
    root = tmp_path_factory.mktemp("board-env") / "venv"
    venv.EnvBuilder(with_pip=False).create(root)
    py = root / "bin" / "python"
    purelib = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    for name, version in image.items():
        d = purelib / f"{name}-{version}.dist-info"
        d.mkdir(parents=True)
        (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        (d / "INSTALLER").write_text("pip\n")
        (d / "RECORD").write_text("")
    return py


@pytest.fixture(scope="module")
def board_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The PYNQ-Z1 image's stand-in (see the module docstring)."""
    return _image_env(tmp_path_factory, IMAGE_HAS)


def _extra_on(wheel: Path, extra: str, machine: str) -> list[str]:
    """The wheel's requirements of ``extra`` as pip evaluates them on a ``machine`` (markers
    such as ``platform_machine == 'armv7l'`` decided, then dropped). pip's ``--platform``
    picks wheels but evaluates markers for the interpreter it runs on (x86 here), so the
    board's view of the extra is passed to it as plain requirements."""
    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        lines = z.read(meta).decode().splitlines()
    out = []
    for line in lines:
        if line.startswith("Requires-Dist:"):
            req = Requirement(line.split(":", 1)[1].strip())
            if req.marker is not None and req.marker.evaluate({"extra": extra, "platform_machine": machine}) \
                    and not req.marker.evaluate({"extra": "", "platform_machine": machine}):
                out.append(f"{req.name}{req.specifier}")
    assert out, f"the wheel has no requirements for the extra '{extra}' on {machine}"
    return out


def _resolve(wheel: Path, board_env: Path, extra: str, tmp: Path,
             platforms: tuple[str, ...] = ("linux_armv7l",)) -> subprocess.CompletedProcess[str]:
    machine = "armv7l" if "linux_armv7l" in platforms else "aarch64"
    reqs = [str(wheel)] + (_extra_on(wheel, extra, machine) if extra else [])
    plat = [a for p in platforms for a in ("--platform", p)]
    return _pip(["--python", str(board_env), "install", "--dry-run", "--only-binary=:all:",
                 *plat, "--python-version", "3.10",
                 "--report", str(tmp / "report.json"), *reqs], tmp)


@pytest.mark.parametrize("extra", ["", "pynq"])
def test_board_install_needs_no_compiler(wheel: Path, board_env: Path, tmp_path: Path, extra: str) -> None:
    proc = _resolve(wheel, board_env, extra, tmp_path)
    _skip_if_offline(proc)
    assert proc.returncode == 0, f"pip cannot install pushpush on a PYNQ-Z1 from wheels:\n{proc.stderr}"
    report = json.loads((tmp_path / "report.json").read_text())
    installs = {i["metadata"]["name"].lower(): i["download_info"]["url"] for i in report["install"]}
    assert "pushpush-fpga" in installs
    for name, url in installs.items():
        assert url.endswith(".whl"), f"{name} would be built from {url} on the board"
        tags = url.rsplit("/", 1)[-1][:-4].split("-")[-3:]
        assert tags[-1] in ("any", "linux_armv7l") or "armv7l" in tags[-1], (name, url)
    # what the image has is kept, never upgraded from an sdist
    for name in ("numpy", "pyyaml", "markupsafe"):
        assert name not in installs, f"pip would replace the image's {name}: {installs[name]}"
    assert "pyslang" not in installs
    if extra == "pynq":
        assert "pynq" not in installs


def test_the_port_check_extra_does_not_install_on_the_board(wheel: Path, board_env: Path,
                                                            tmp_path: Path) -> None:
    proc = _resolve(wheel, board_env, "check", tmp_path)
    _skip_if_offline(proc)
    assert proc.returncode != 0, "pyslang now resolves for armv7l: it could go back into the base install"
    assert "pyslang" in proc.stderr, proc.stderr


def test_wheel_keeps_pyslang_out_of_the_base_install(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        lines = z.read(meta).decode().splitlines()
    reqs = [ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("Requires-Dist:")]
    base = [r for r in reqs if "extra ==" not in r]
    assert base and not any(r.startswith("pyslang") for r in base), base
    for extra in ("check", "sim", "dev"):   # CI (sim, dev) keeps checking ports
        assert any(r.startswith("pyslang") and f"extra == '{extra}'" in r for r in reqs), (extra, reqs)


@pytest.mark.parametrize("board", ["zcu104", "kv260"])
@pytest.mark.parametrize("extra", ["", "pynq"])
def test_install_on_each_zynqmp_board_needs_no_compiler(wheel: Path, tmp_path_factory, tmp_path: Path,
                                                        board: str, extra: str) -> None:
    """The same check for the aarch64 boards (ZCU104: PYNQ's image; KV260: Kria-PYNQ's venv):
    every package pip would fetch is a wheel for ``any`` or aarch64, and the image's numpy,
    PyYAML, MarkupSafe (and PYNQ) are kept. (The PYNQ-Z2's image is the Z1's: the tests
    above.)"""
    platforms, image = BOARD_IMAGES[board]
    env = _image_env(tmp_path_factory, image)
    proc = _resolve(wheel, env, extra, tmp_path, platforms)
    _skip_if_offline(proc)
    assert proc.returncode == 0, f"pip cannot install pushpush-fpga on a {board} from wheels:\n{proc.stderr}"
    report = json.loads((tmp_path / "report.json").read_text())
    installs = {i["metadata"]["name"].lower(): i["download_info"]["url"] for i in report["install"]}
    assert "pushpush-fpga" in installs
    for name, url in installs.items():
        assert url.endswith(".whl"), f"{name} would be built from {url} on the {board}"
        tag = url.rsplit("/", 1)[-1][:-4].split("-")[-1]
        assert tag == "any" or "aarch64" in tag, (name, url)
    for name in ("numpy", "pyyaml", "markupsafe"):
        assert name not in installs, f"pip would replace the {board} image's {name}: {installs[name]}"
    if extra == "pynq":
        assert "pynq" not in installs
