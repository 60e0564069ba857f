"""The simulated board's socket folder stays short enough for a Unix socket address when
``TMPDIR`` is long (pytest's tmp_path under xdist, a user's deep home): ``bind`` would fail
with "AF_UNIX path too long" otherwise."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

from pushpush.simboard.ipc import socket_dir


def test_a_long_tmpdir_falls_back_to_tmp(tmp_path: Path, monkeypatch) -> None:
    deep = tmp_path / ("d" * 100)
    deep.mkdir()
    monkeypatch.setenv("TMPDIR", str(deep))
    monkeypatch.setattr(tempfile, "tempdir", None)      # gettempdir() reads TMPDIR again
    d = Path(socket_dir("pushpush-sim-"))
    try:
        assert d.parent == Path("/tmp") and d.name.startswith("pushpush-sim-")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.bind(str(d / "gp0.sock"))                 # the name the bridge binds
    finally:
        shutil.rmtree(d)


def test_a_short_tmpdir_is_used(tmp_path: Path, monkeypatch) -> None:
    short = Path(tempfile.mkdtemp(prefix="pps-", dir="/tmp"))
    try:
        monkeypatch.setenv("TMPDIR", str(short))
        monkeypatch.setattr(tempfile, "tempdir", None)
        d = Path(socket_dir("pushpush-c-"))
        assert d.parent == short and os.access(d, os.W_OK)
    finally:
        shutil.rmtree(short)
