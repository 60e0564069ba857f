"""``pushpush deploy`` against a real sshd (Debian's openssh-server) that this test starts on
the loopback, on its own port, with its own host and user keys, authorized_keys file and
remote folder, as a non-daemon child killed at the end. The "board" is this machine: its
Python is a fresh venv (without pushpush; the test environment's packages through a .pth
file, as tests/test_wheel.py does) behind a wrapper that selects the simulated board. The
first deploy builds, copies and installs the wheel, the second skips it (same version);
both bring back the self-check's summary, and the files arrive.

sshd running as root needs its privilege separation folder /run/sshd (made here if
missing). ``AuthorizedKeysFile`` names the test's own file, so no HOME is touched;
``StrictModes no`` lets sshd read it from the test's temporary folder."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

import pytest

from pushpush import __version__
from pushpush.cli import main

pytestmark = pytest.mark.slow
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    if not Path(SSHD).is_file() or not shutil.which("ssh"):
        pytest.fail("needs OpenSSH: apt-get install openssh-server openssh-client (bootstrap.sh does)")
    tmp = tmp_path_factory.mktemp("sshd")
    for key in ("host", "user"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp / key)],
                       check=True, timeout=60)
    (tmp / "authorized_keys").write_text((tmp / "user.pub").read_text())
    port = _free_port()
    (tmp / "sshd_config").write_text(
        f"ListenAddress 127.0.0.1\nHostKey {tmp / 'host'}\nAuthorizedKeysFile {tmp / 'authorized_keys'}\n"
        "PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        f"PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\nPidFile {tmp / 'sshd.pid'}\n"
        "LogLevel ERROR\n")
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    log = open(tmp / "sshd.log", "w")
    proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(tmp / "sshd_config"), "-p", str(port)],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"sshd did not listen on 127.0.0.1:{port} within 30 s: "
                            f"{(tmp / 'sshd.log').read_text()}")
            time.sleep(0.1)
    # the board's Python: a venv without pushpush, the test's packages through a .pth file
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    (Path(site) / "_pushpush_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wrapper = tmp / "board-python"
    wrapper.write_text(f"#!/bin/sh\nunset PYTHONPATH\nexport PUSHPUSH_BOARD=sim PUSHPUSH_SIM=icarus "
                       f"PATH={Path(sys.executable).parent}:$PATH\nexec {py} \"$@\"\n")
    wrapper.chmod(0o755)
    yield {"port": port, "key": tmp / "user", "known": tmp / "known_hosts", "python": str(wrapper),
           "remote": tmp / "board"}
    proc.kill()
    proc.wait(timeout=30)
    log.close()


def _deploy(sshd, capsys) -> tuple[int, str]:
    rc = main(["deploy", "127.0.0.1", "pingpong", "-p", str(sshd["port"]), "-i", str(sshd["key"]),
               "-o", f"UserKnownHostsFile={sshd['known']}", "-o", "StrictHostKeyChecking=accept-new",
               "--folder", str(sshd["remote"]), "--python", sshd["python"],
               "--checks", "image,pingpong"])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


def test_deploy_copies_installs_and_self_checks(sshd, capsys):
    rc, out = _deploy(sshd, capsys)
    assert rc == 0, out
    assert "the board has pushpush (none); copying pushpush_fpga-" in out
    assert f"installed pushpush_fpga-{__version__}" in out
    assert "selfcheck: 9 passed, 0 failed, 0 skipped: all passed" in out
    remote = sshd["remote"]
    for f in ("pingpong/system.yaml", "pingpong/app.py", "pingpong/c/callee.c",
              "pingpong/rtl/pingpong_callee.v", "notebooks/01_getting_started.ipynb",
              "selfcheck/selfcheck.json", "selfcheck/selfcheck.md"):
        assert (remote / f).is_file(), f
    assert len(list((remote / "wheels").glob("pushpush_fpga-*.whl"))) == 1
    # the board's pushpush is the installed wheel's
    r = subprocess.run([sshd["python"], "-c", "import pushpush; print(pushpush.__file__)"],
                       capture_output=True, text=True, timeout=60, cwd=remote)
    assert "site-packages" in r.stdout, r

    # again: the versions match, the wheel stays where it is
    shutil.rmtree(remote / "wheels")
    rc, out = _deploy(sshd, capsys)
    assert rc == 0, out
    assert f"the board has pushpush {__version__}: the wheel is not copied" in out
    assert not (remote / "wheels").exists()
    assert "selfcheck: 9 passed, 0 failed, 0 skipped: all passed" in out


def test_deploy_without_a_key_says_how_to_log_in(sshd, tmp_path, capsys):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "other")],
                   check=True, timeout=60)
    rc = main(["deploy", "127.0.0.1", "-p", str(sshd["port"]), "-i", str(tmp_path / "other"),
               "-o", f"UserKnownHostsFile={sshd['known']}", "-o", "StrictHostKeyChecking=accept-new",
               "--folder", str(tmp_path / "board"), "--python", sshd["python"]])
    err = capsys.readouterr().err
    assert rc == 1
    assert "logging in on 127.0.0.1" in err and "add your key to the board's ~/.ssh/authorized_keys" in err


def test_deploy_puts_the_overlay_where_the_board_looks_first(sshd, tmp_path, monkeypatch, capsys):
    """Overlay files built here (found as the board finds them: here the current folder) land
    in ``<system>/pynq_overlays/<system>/`` on the board, the first place its lookup tries."""
    monkeypatch.chdir(tmp_path)
    for name in ("pingpong.bit", "pingpong.hwh", "pingpong.map.json"):
        (tmp_path / name).write_text(f"stand-in {name}\n")
    remote = tmp_path / "board"
    rc = main(["deploy", "127.0.0.1", "pingpong", "-p", str(sshd["port"]), "-i", str(sshd["key"]),
               "-o", f"UserKnownHostsFile={sshd['known']}", "-o", "StrictHostKeyChecking=accept-new",
               "--folder", str(remote), "--python", sshd["python"], "--no-selfcheck", "--no-notebooks"])
    out = capsys.readouterr().out
    assert rc == 0, out
    for name in ("pingpong.bit", "pingpong.hwh", "pingpong.map.json"):
        assert (remote / "pingpong" / "pynq_overlays" / "pingpong" / name).read_text() == f"stand-in {name}\n"
    assert "pingpong.bit" in out


def _target(sshd, **kw):
    from pushpush.deploy import Target
    return Target("127.0.0.1", port=sshd["port"], identity=str(sshd["key"]),
                  ssh_options=(f"UserKnownHostsFile={sshd['known']}", "StrictHostKeyChecking=accept-new"),
                  **kw)


def test_on_a_pynq_image_the_board_python_is_pynqs_venv_as_root(sshd, tmp_path):
    """A PYNQ image has /etc/profile.d/pynq_venv.sh (here a stand-in that puts the board's
    Python first on PATH, as the venv's activation does, and exports a variable as the image's
    exports XILINX_XRT): without --python, deploy runs that Python, after the profile, through
    ``sudo -n``; a board without the profile gets ``python3``."""
    from pushpush.deploy import _run, board_python
    if not shutil.which("sudo"):
        pytest.fail("needs sudo: apt-get install sudo (bootstrap.sh does)")
    bindir = tmp_path / "venv-bin"
    bindir.mkdir()
    (bindir / "python").symlink_to(sshd["python"])
    profile = tmp_path / "pynq_venv.sh"
    profile.write_text(f"export PATH={bindir}:$PATH\nexport PUSHPUSH_TEST_PROFILE=sourced\n")
    target = _target(sshd, pynq_profile=str(profile))
    py = board_python(target)
    assert py.startswith("sudo -n bash -c ") and str(profile) in py
    r = _run(target, "the probe", f"{py} -c 'import os, sys; print(os.environ.get(\"PUSHPUSH_TEST_PROFILE\"),"
                                  f" os.geteuid(), sys.executable)'", 60)
    assert r.returncode == 0, r
    marker, euid, exe = r.stdout.decode().split()
    assert (marker, euid) == ("sourced", "0")
    assert exe.startswith(str(sshd["remote"].parent / "venv")), exe

    assert board_python(_target(sshd, pynq_profile=str(tmp_path / "absent.sh"))) == "python3"
    assert board_python(_target(sshd, python="/opt/py")) == "/opt/py"
