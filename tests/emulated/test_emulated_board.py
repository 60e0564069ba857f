"""The emulated PYNQ board (docs/board.md, "The emulated board"): ``pushpush selfcheck`` run by
an armhf CPython under qemu-user, in an armhf Debian userland with PYNQ 3.1.2 pip-installed
(tests/emulated/armhf_userland.py), pushpush's wheel (built here) pip-installed as on a board,
the C rows compiled by the userland's own gcc, against the simulated PL on the host
(tests/emulated/armhf_simhost.py; the launcher tests/emulated/armhf_sim_launcher.py asks it
to start the simulator).

The userland is built once (mmdebstrap, the armhf pip: minutes) and cached
(``~/.cache/pushpush/armhf-<hash>``); that run is ``slow`` (the second tier). The default
tier checks that a missing tool is named with the Debian package that has it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from armhf_simhost import SimHost  # noqa: E402
from armhf_userland import UserlandError, deny_new_path_syscalls, ensure_userland, install_wheel  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).resolve().parent / "armhf_sim_launcher.py"
WAYS = ("python_to_rtl", "rtl_to_rtl", "rtl_to_python", "c_to_rtl", "rtl_to_c", "python_to_c",
        "c_to_python", "c_to_c")


def _wheel(out: Path) -> Path:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
                       capture_output=True, text=True, timeout=600, env=env)
    wheels = list(out.glob("pushpush_fpga-*.whl"))
    assert r.returncode == 0 and len(wheels) == 1, r.stdout + r.stderr
    return wheels[0]


@pytest.mark.slow
def test_selfcheck_on_the_emulated_armhf_board(tmp_path: Path) -> None:
    t0 = time.monotonic()
    wheel = _wheel(tmp_path / "dist")
    land = ensure_userland(REPO / "pyproject.toml", progress=print)
    t_land = time.monotonic() - t0
    install_wheel(land, wheel)
    t_wheel = time.monotonic() - t0 - t_land
    # what the board's gcc targets (the C rows below are compiled by it)
    machine = land.run(["cc", "-dumpmachine"], timeout=120, what="cc -dumpmachine").stdout.strip()
    assert machine == "arm-linux-gnueabihf", machine

    launcher = tmp_path / "sim-launcher"
    shutil.copy(LAUNCHER, launcher)
    launcher.chmod(0o755)
    # the simulated board's Unix sockets live in TMPDIR and the host's socket beside it: a short
    # folder (a socket path has at most 107 bytes; pytest's tmp_path under xdist is longer)
    short = Path(tempfile.mkdtemp(prefix="ppa-", dir="/tmp"))
    (short / "tmp").mkdir()
    report = tmp_path / "report"
    env = {"PUSHPUSH_BOARD": "sim", "PUSHPUSH_SIM": "icarus", "PUSHPUSH_SIM_PYTHON": str(launcher),
           "PUSHPUSH_ARMHF_SIMHOST": str(short / "simhost.sock"), "TMPDIR": str(short / "tmp")}
    try:
        with SimHost(short / "simhost.sock", REPO) as host:
            r = subprocess.run(land.command(["pushpush", "selfcheck", "-o", str(report)],
                                            binds=[tmp_path, short], env=env, cwd=tmp_path),
                               capture_output=True, text=True, timeout=2400,
                               preexec_fn=deny_new_path_syscalls)
    finally:
        shutil.rmtree(short, ignore_errors=True)
    t_check = time.monotonic() - t0 - t_land - t_wheel
    print(f"emulated board: userland {t_land:.0f} s ({'built' if land.seconds else 'cached'}), "
          f"wheel install {t_wheel:.0f} s, selfcheck {t_check:.0f} s")
    print(r.stdout[-6000:])
    assert not host.errors, host.errors
    assert host.launched, "the armhf side started no simulator through the host"
    data = json.loads((report / "selfcheck.json").read_text())
    print((report / "selfcheck.md").read_text())
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    env_seen = data["environment"]
    assert env_seen["machine"] == "armv7l", env_seen
    assert env_seen["pynq"] == "3.1.2" and env_seen["where"] == "the simulated board (icarus)", env_seen
    names = [c["name"] for c in data["checks"]]
    assert {f"calls.{w}" for w in WAYS} | {"dma.transfer", "audio_fir.interrupt_wait",
                                            "c.program", "pingpong.cma_allocate"} <= set(names)
    assert data["counts"] == {"pass": len(names), "fail": 0, "skip": 0}, data["checks"]
    detail = {c["name"]: c["detail"] for c in data["checks"]}
    assert "armv7l" in detail["image.python"]
    assert "firings of system_top_0/irq" in detail["audio_fir.interrupt_wait"]
    assert (report / "selfcheck.md").read_text().startswith("# pushpush self-check\n")


def test_missing_tools_are_named_with_their_packages(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))          # no mmdebstrap, proot, qemu-arm-static
    monkeypatch.setenv("PUSHPUSH_ARMHF_CACHE", str(tmp_path / "cache"))
    with pytest.raises(UserlandError) as e:
        ensure_userland(REPO / "pyproject.toml")
    for tool, package in (("mmdebstrap", "mmdebstrap"), ("proot", "proot"),
                          ("qemu-arm-static", "qemu-user-static")):
        assert f"{tool} (apt-get install {package})" in str(e.value)
    assert "./bootstrap.sh setup installs them" in str(e.value)
    assert not (tmp_path / "cache").exists()           # nothing half-built left behind
