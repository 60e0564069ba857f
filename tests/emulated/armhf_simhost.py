"""The host side of the emulated board's simulated PL: a server that starts the simulator
(``python -m pushpush.simboard.child CONFIG``, Icarus or Verilator with cocotb) on the host
for the armhf PYNQ process, on request of tests/emulated/armhf_sim_launcher.py.

What crosses between the two sides is what crosses on the simulated board anyway, at the
same paths: the run folder (CONFIG, the GP0 socket) in a folder bound into the userland at
its own path, the shared memory (``/proc/<armhf pid>/fd/N`` of a memfd: qemu-user and proot
keep the host's pids and file descriptors), the installed package's Verilog (the venv is
bound at its own path) and the pipes, handed over as file descriptors. The simulator runs
with the host's Python and pushpush (``pushpush_root``), the host's environment and the
request's ``PUSHPUSH_*`` variables.

Each request: a 4-byte length and JSON (``argv``, ``cwd``, ``env``, ``fds``: the launcher's
descriptor numbers, received in that order), answered with ``exit N\\n`` when the
simulator ends. A launcher that goes away (its connection closes) gets its simulator's
process group killed.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional

__all__ = ["SimHost"]

MAX_REQUEST = 1 << 20


class SimHost:
    """Serves simulator launches on ``socket_path`` until :meth:`close`."""

    def __init__(self, socket_path: Path, pushpush_root: Path, python: str = sys.executable) -> None:
        self.socket_path, self.root, self.python = socket_path, pushpush_root, python
        self.launched: list[list[str]] = []
        self.errors: list[str] = []
        self._procs: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(str(socket_path))
        self._sock.listen(8)
        self._closed = False
        self._thread = threading.Thread(target=self._accept, name="armhf-simhost", daemon=True)
        self._thread.start()

    def __enter__(self) -> "SimHost":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        with self._lock:
            procs = list(self._procs)
        for p in procs:
            _kill_group(p)

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        fds: list[int] = []
        try:
            with conn:
                head, fds, _, _ = socket.recv_fds(conn, 4 + MAX_REQUEST, 16)
                n = int.from_bytes(head[:4], "little")
                data = head[4:]
                while len(data) < n:
                    more = conn.recv(n - len(data))
                    if not more:
                        raise ConnectionError("the launcher closed the connection mid-request")
                    data += more
                req = json.loads(data)
                want = [int(f) for f in req["fds"]]
                if len(fds) != len(want) or want[:2] != [1, 2]:
                    raise ValueError(f"expected descriptors {want}, received {len(fds)}")
                proc = self._start(req, dict(zip(want, fds)))
                for fd in fds:
                    os.close(fd)
                fds = []
                code = self._wait(proc, conn)
                if code is not None:
                    conn.sendall(f"exit {code}\n".encode())
        except Exception as e:  # noqa: BLE001 - reported to the test, which asserts none
            self.errors.append(f"{type(e).__name__}: {e}")
            for fd in fds:
                os.close(fd)

    def _start(self, req: dict, fdmap: dict[int, int]) -> subprocess.Popen[bytes]:
        argv = [str(a) for a in req["argv"]]
        if argv[:2] != ["-m", "pushpush.simboard.child"]:
            raise ValueError(f"not a simulator launch: {argv}")
        env = dict(os.environ)
        env.update({k: str(v) for k, v in req["env"].items() if k.startswith("PUSHPUSH_")})
        env["PYTHONPATH"] = str(self.root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        pipes = {n: fd for n, fd in fdmap.items() if n > 2}

        def place() -> None:   # the pipes at the numbers CONFIG names
            high = {n: fcntl.fcntl(fd, fcntl.F_DUPFD, 256) for n, fd in pipes.items()}
            for n, fd in high.items():
                os.dup2(fd, n, inheritable=True)
                os.close(fd)

        proc = subprocess.Popen([self.python, *argv], cwd=req["cwd"], env=env,
                                stdin=subprocess.DEVNULL, stdout=fdmap[1], stderr=fdmap[2],
                                # the pipes are placed by place() at their numbers, which need
                                # not be open here: pass_fds would mark them inheritable before
                                # preexec_fn runs (EBADF); close_fds=False keeps the placed ones
                                # (dup2 makes them inheritable), the received ones close at exec
                                close_fds=False, preexec_fn=place, start_new_session=True)
        with self._lock:
            self._procs.add(proc)
            self.launched.append(argv)
        return proc

    def _wait(self, proc: subprocess.Popen[bytes], conn: socket.socket) -> Optional[int]:
        """The simulator's exit status; None (and the simulator killed) when the launcher
        went away first."""
        gone = threading.Event()

        def watch() -> None:   # the launcher sends nothing more: EOF means it is gone
            try:
                conn.recv(1)
            except OSError:
                pass
            gone.set()
            if proc.poll() is None:
                _kill_group(proc)

        threading.Thread(target=watch, daemon=True).start()
        code = proc.wait()
        with self._lock:
            self._procs.discard(proc)
        return None if gone.is_set() else code


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(2.0)
            return
        except subprocess.TimeoutExpired:
            continue
