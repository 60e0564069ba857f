"""The bridge between a PYNQ process and the simulator running the system top.

The simulated board runs in a separate process (the HDL simulator with cocotb inside), so
the PYNQ process never blocks on simulation and a crashing simulator cannot take Python
down with it. The two sides share:

* **memory**: the ARM's on-chip memory (the ``ps`` region holding the software windows)
  and a DDR area (``pynq.allocate`` buffers) are anonymous shared-memory files
  (``memfd_create``, or a ``/dev/shm`` file unlinked at once) that both processes map. The
  PL writes them through a cocotbext-axi slave on the top's ``m_axi``; Python reads and
  writes them directly, so polling a window costs no socket traffic (as the ARM polls its
  OCM without bus traffic).
* **a socket** (AF_UNIX): the ARM's GP0 accesses into the PL. A write request becomes one
  AXI burst on ``s_axi`` (WRITE) or one single-beat 32-bit write per word, in order, as the
  ARM's stores (WRITE_WORDS: a whole call, arguments and trigger, in one request); the reply
  carries the AXI response (OKAY/SLVERR/DECERR) and, for WRITE_WORDS, how many words were
  written before an error.
* **a notification pipe**: one byte each time the PL wrote into PS memory, so a runtime
  waiting for a reply wakes at once (:meth:`SimBridge.wait_pl_write`) instead of at its next
  poll; and a **control page** where a runtime waiting for a reply stamps the time, which
  keeps the simulator at full speed (see :mod:`pushpush.simboard.hdl`).

The PS side in the simulator is HDL (:mod:`pushpush.simboard.hdl`: the GP0 master and the
memory port are Verilog, Python runs only when something happens).
The simulation build is cached by content (:mod:`pushpush.build.cache`), so a second load
of an unchanged system starts without compiling.

Lifetime: :class:`SimBridge` (the PYNQ side) listens, starts ``python -m
pushpush.simboard.child <config>`` in its own session, and waits for the simulator to connect.
:meth:`SimBridge.stop` (called on ``Overlay.free()``, on the next download, at exit) asks
the simulation to finish, then kills the session's process group if it does not. If the
PYNQ process dies without stopping it, the simulator sees the socket close and finishes,
and the child's watchdog kills its process group when its parent is gone: no orphans.
Simulator failures (build errors, ``$finish``, a crash, a Python exception in the cocotb
side) surface as :class:`SimulatorError` with the end of the simulator's log.

Wire format (little-endian): request ``<BIQI`` (op, tag, address, length) + payload;
reply ``<BIBI`` (op, tag, status, length) + payload. Ops: WRITE (payload = bytes; status =
AXI BRESP), WRITE_WORDS (payload = 32-bit words; status = the first error response or OKAY,
reply payload ``<I`` = words written before it), READ (length bytes back; status = worst
RRESP), STOP, INFO (JSON: simulator pid, cycle count, PS model), RUN (advance ``length``
clock cycles, then reply).

Besides the socket: the notification pipe (a byte per PL write into PS memory), the kick pipe
(a byte resumes a simulator paused for the next request after a reply, written when a caller
starts waiting for the PL while the control page says it is paused), the control
page (shared memory: the count of those writes, the last one's cycle and host time, a
runtime's "waiting for a reply" stamp, the threads blocked in :meth:`SimBridge.wait_pl_write`,
the simulator's "paused for a request" flag, and the interrupt lines (the top's ``irq``, a DMA
shell's DMA interrupts): levels, changes, cycle and host time of the last change), and,
when there are interrupt lines, the interrupt pipe (a byte per change; its read end is
:attr:`SimBridge.irq_r`, read by :mod:`pushpush.pynq.simulated.interrupt`).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Optional

__all__ = [
    "SimulatorError",
    "SimConfig",
    "SharedMemory",
    "SimBridge",
    "OP_WRITE",
    "OP_READ",
    "OP_STOP",
    "OP_INFO",
    "OP_RUN",
    "OP_WRITE_WORDS",
]

from pushpush.simboard.ipc import (socket_dir, CTL_IRQ_LEVEL, CTL_IRQ_RISES, CTL_LOOKED, CTL_PLW_CYCLE,
                                   CTL_SIZE, OP_INFO, OP_READ, OP_RUN, OP_STOP, OP_WRITE, OP_WRITE_WORDS, REP, REQ,
                                   SharedMemory, SimConfig, read_cycle, read_status)

from .pacing import Pacer
from .watch import Samples, Watchdog, cpu_times

log = logging.getLogger("pushpush.pynq")


class SimulatorError(RuntimeError):
    """The simulated board failed: it did not build or start, it stopped, or it crashed.

    ``log_tail`` holds the last lines of the simulator's output (also in the message)."""

    def __init__(self, message: str, log_tail: str = "") -> None:
        super().__init__(message + (f"\n--- simulator log (last lines) ---\n{log_tail}"
                                    if log_tail else ""))
        self.log_tail = log_tail


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


_live: "weakref.WeakSet[SimBridge]" = weakref.WeakSet()


def _stop_all() -> None:
    for b in list(_live):
        try:
            b.stop()
        except Exception:  # pragma: no cover - best effort at exit
            pass


atexit.register(_stop_all)


SESSION_ENV = "PUSHPUSH_SIM_SESSION"
#: Posted writes in flight at most (the ARM's write buffer holds a few; more wait for one).
MAX_POSTED = 8


def _group_args() -> dict[str, Any]:
    """How the simulator process is started: in a process group of its own (killed as one,
    Ctrl-C in the user's terminal does not reach it), and in the user's session
    (``shared``, the default) or a session of its own (``own``, ``$PUSHPUSH_SIM_SESSION``).
    On Linux with autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``) a
    session is a scheduling group: in a session of its own the simulator got as much CPU
    as the user's whole session, so on a busy host it ran on while the software it waited
    for (in the user's session, beside the busy processes) waited for a CPU."""
    how = os.environ.get(SESSION_ENV, "shared")
    if how == "own":
        return {"start_new_session": True}
    if how != "shared":
        raise ValueError(f"{SESSION_ENV}={how!r}: use shared (the simulator in the user's session, "
                         "the default) or own (a session of its own)")
    if sys.version_info >= (3, 11):
        return {"process_group": 0}
    return {"preexec_fn": os.setpgrp}   # (Python 3.10: no process_group yet)


class SimBridge(Pacer):
    """The PYNQ-process side: starts the simulator, sends GP0 accesses, stops it; its
    accounting of who waits for the simulated PL is :class:`~.pacing.Pacer`'s.

    ``ps_mem``/``ddr_mem`` are the :class:`SharedMemory` objects the simulator's ``m_axi``
    slave maps (owned by the caller, e.g. the simulated device, so their contents outlive
    one simulator run as memory outlives a bitstream on the board)."""

    def __init__(self, config: SimConfig, ps_mem: SharedMemory, ddr_mem: Optional[SharedMemory] = None,
                 *, python: Optional[str] = None, start_timeout: float = 600.0) -> None:
        self.config = config
        self.ps_mem = ps_mem
        self.ddr_mem = ddr_mem
        self.python = python or os.environ.get("PUSHPUSH_SIM_PYTHON") or sys.executable
        self.start_timeout = start_timeout
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.sock: Optional[socket.socket] = None
        self.sim_pid: Optional[int] = None
        self.rundir: Optional[Path] = None
        self.error: Optional[SimulatorError] = None
        self._lock = threading.Lock()
        self._tag = 0
        #: posted writes whose replies are still to be taken: (tag, address, length)
        self._posted: list[tuple[int, int, int]] = []
        self._stopped = False
        self._init_pacing()
        self._notify_r = self._notify_w = -1
        #: The kick pipe (see :mod:`.pacing`)
        self._kick_r = self._kick_w = -1
        #: The interrupt pipe (the simulator writes a byte when an interrupt line changes;
        #: the lines' state is in the control page): its read end, or -1
        self.irq_r = self._irq_w = -1
        self.ctl = SharedMemory(CTL_SIZE, "pushpush-ctl")
        struct.pack_into("<Q", self.ctl.mem, CTL_LOOKED, (1 << 64) - 1)   # no serve thread yet
        #: The simulator's status sampled while software waits (see wait_report)
        self.samples = Samples()
        self._watchdog: Optional[Watchdog] = None

    # ------------------------------------------------------------------ lifetime

    @property
    def log_path(self) -> Path:
        assert self.rundir is not None
        return self.rundir / "sim.log"

    def start(self) -> "SimBridge":
        self.rundir = Path(socket_dir("pushpush-sim-"))   # short: gp0.sock is bound in it
        cfg = self.config
        cfg.socket_path = str(self.rundir / "gp0.sock")
        cfg.ps_mem_path = self.ps_mem.path
        cfg.ddr_mem_path = self.ddr_mem.path if self.ddr_mem is not None else ""
        cfg.ddr_size = self.ddr_mem.size if self.ddr_mem is not None else 0
        cfg.build_dir = cfg.build_dir or str(self.rundir / "build")
        cfg.parent_pid = os.getpid()
        cfg.ctl_mem_path = self.ctl.path
        notify_r, notify_w = os.pipe()
        os.set_blocking(notify_r, False)
        os.set_blocking(notify_w, False)
        self._notify_r, self._notify_w = notify_r, notify_w
        cfg.notify_fd = notify_w
        self._kick_r, self._kick_w = os.pipe()
        os.set_blocking(self._kick_r, False)
        os.set_blocking(self._kick_w, False)
        cfg.kick_fd = self._kick_r
        fds: tuple[int, ...] = (notify_w, self._kick_r)
        if cfg.irq:
            self.irq_r, self._irq_w = os.pipe()
            os.set_blocking(self.irq_r, False)
            os.set_blocking(self._irq_w, False)
            cfg.irq_fd = self._irq_w
            fds += (self._irq_w,)
        (self.rundir / "config.json").write_text(cfg.to_json())
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(cfg.socket_path)
        listener.listen(1)
        env = dict(os.environ)
        pkg_root = str(Path(__file__).resolve().parents[3])
        env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        logf = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(
                [self.python, "-m", "pushpush.simboard.child", str(self.rundir / "config.json")],
                stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT, env=env,
                cwd=str(self.rundir), pass_fds=fds, **_group_args())
        finally:
            logf.close()
        _live.add(self)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                r, _, _ = select.select([listener], [], [], 0.1)
                if r:
                    self.sock, _ = listener.accept()
                    break
                if self.proc.poll() is not None:
                    raise SimulatorError(
                        f"the simulator ({cfg.simulator}, top {cfg.top}) exited with code "
                        f"{self.proc.returncode} before it started", _tail(self.log_path))
                if time.monotonic() > deadline:
                    raise SimulatorError(f"the simulator did not start within {self.start_timeout:g} s",
                                         _tail(self.log_path))
            op, _, _, payload = self._recv()
            hello = json.loads(payload)
            self.sim_pid = int(hello["pid"])
        except BaseException:
            listener.close()
            self.stop()
            raise
        listener.close()
        log.info("simulated board started: %s on %s (pid %s), run folder %s", cfg.top,
                 cfg.simulator, self.sim_pid, self.rundir)
        self._watchdog = Watchdog.from_env(self)
        return self


    def irq_state(self) -> tuple[int, int, int, int]:
        """The interrupt lines as the simulator last wrote them: (levels, bit i = the
        interrupt controller's input i, bit 0 the top's ``irq`` when it has one; changes so
        far, clock cycle of the last change, CLOCK_MONOTONIC ns when the simulator saw it)."""
        if self._stopped:
            return 0, 0, 0, 0
        return struct.unpack_from("<QQQQ", self.ctl.mem, CTL_IRQ_LEVEL)

    def irq_rises(self, inputs: int) -> tuple[int, ...]:
        """The rising edges of interrupt inputs 0 .. ``inputs``-1 so far (u32 counts that
        wrap), as the simulator counted them: a line that rose and fell between two looks
        at :meth:`irq_state` shows here."""
        if self._stopped:
            return (0,) * inputs
        return struct.unpack_from(f"<{inputs}I", self.ctl.mem, CTL_IRQ_RISES)

    def last_pl_write(self) -> tuple[int, int]:
        """(clock cycle, CLOCK_MONOTONIC ns) at which the simulator stored the PL's last
        write into PS memory (the HDL PS model; (0, 0) before the first)."""
        if self._stopped:
            return 0, 0
        return struct.unpack_from("<QQ", self.ctl.mem, CTL_PLW_CYCLE)

    def status(self) -> Optional[dict[str, Any]]:
        """What the simulator is doing now (:func:`pushpush.simboard.ipc.read_status`:
        state, cycle, time per state, pause and idle counters), or None when stopped."""
        if self._stopped:
            return None
        try:
            return read_status(self.ctl.mem)
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return None

    def cycle(self) -> Optional[int]:
        """The simulator's clock cycle as last published (:func:`pushpush.simboard.ipc.read_cycle`),
        or None when stopped: cheap enough for every poll of a waiting caller."""
        if self._stopped:
            return None
        try:
            return read_cycle(self.ctl.mem)
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return None

    def sample(self) -> None:
        """Keep the simulator's status now (at most every :data:`watch.SAMPLE_S`) for
        :meth:`wait_report`; waiting software calls it (``check``, ``wait_pl_write``)."""
        if self.samples.due():
            st = self.status()
            if st is not None:
                st["cpu"] = cpu_times(self.sim_pid or 0)
                self.samples.add(st)

    def wait_report(self, waited: float) -> str:
        """What the simulated board did while software waited the last ``waited`` seconds:
        the clock cycles that passed, the time the simulator spent running, idle, paused and
        serving requests, and what it is doing now; a call's timeout message ends with it,
        so a slow host (cycles passed) and a stall (none did) can be told apart."""
        st = self.status()
        if st is None:
            return "the simulated board is stopped"
        st["cpu"] = cpu_times(self.sim_pid or 0)
        return self.samples.report(st, waited, self._waiters, self._handling) + self._accounting()






    def stop(self, timeout: float = 10.0) -> None:
        """Stop the simulator (idempotent): STOP, wait, then kill its process group."""
        if self._stopped:
            return
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            watchdog.stop()
        self._stopped = True
        _live.discard(self)
        if self.sock is not None:
            try:
                with self._lock:
                    self.sock.settimeout(2.0)
                    self.sock.sendall(REQ.pack(OP_STOP, 0, 0, 0))
            except OSError:
                pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
            self._kill_group()
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.rundir is not None and not os.environ.get("PUSHPUSH_SIM_KEEP"):
            shutil.rmtree(self.rundir, ignore_errors=True)
        self._poke()   # wake the waiters; they see the board stopped
        if self._irq_w >= 0:
            try:
                os.write(self._irq_w, b"\0")   # wakes the interrupt model's thread: it ends
            except OSError:
                pass
        for fd in (self._notify_r, self._notify_w, self._kick_r, self._kick_w, self._irq_w):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._notify_r = self._notify_w = -1
        self._kick_r = self._kick_w = -1
        self._irq_w = -1   # the read end belongs to the interrupt model (it closes it)
        self.ctl.close()

    def _kill_group(self) -> None:
        assert self.proc is not None
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)   # the child leads its own process group
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                continue
            # the leader is gone; make sure no member of its group is left
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.wait(5.0)

    @property
    def alive(self) -> bool:
        return (not self._stopped and self.error is None and self.proc is not None
                and self.proc.poll() is None)

    def check(self) -> None:
        """Raise :class:`SimulatorError` if the simulator failed or exited."""
        self.sample()
        if self.error is not None:
            raise self.error
        if self._stopped:
            raise SimulatorError("the simulated board is stopped (the overlay was freed or "
                                 "another one was downloaded)")
        if self.proc is not None and self.proc.poll() is not None:
            self._fail(f"the simulator exited (code {self.proc.returncode})")

    def _fail(self, what: str) -> None:
        if self.error is None:
            if self.proc is not None:
                try:
                    self.proc.wait(1.0)
                except subprocess.TimeoutExpired:
                    pass
            self.error = SimulatorError(f"simulated board ({self.config.top} on "
                                        f"{self.config.simulator}): {what}", _tail(self.log_path))
        raise self.error

    # ------------------------------------------------------------------ requests

    def _recv_exact(self, n: int) -> bytes:
        assert self.sock is not None
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return bytes(buf)

    def _recv(self) -> tuple[int, int, int, bytes]:
        op, tag, status, length = REP.unpack(self._recv_exact(REP.size))
        return op, tag, status, self._recv_exact(length) if length else b""

    def request(self, op: int, address: int = 0, length: int = 0, payload: bytes = b"") -> tuple[int, bytes]:
        """Send one request and wait for its reply: (status, payload). The replies of posted
        writes sent before it are taken first (:meth:`post_write`)."""
        self.check()
        assert self.sock is not None
        with self._lock:
            tag = self._send(op, address, length, payload)
            failed = self._take_posted()
            status, data = self._reply(op, tag)
        if failed is not None:
            raise failed
        return status, data

    def _send(self, op: int, address: int, length: int, payload: bytes) -> int:
        assert self.sock is not None
        self._tag = (self._tag + 1) & 0xFFFFFFFF
        try:
            self.sock.sendall(REQ.pack(op, self._tag, address, length) + payload)
        except OSError as e:
            self._fail(f"the connection to the simulator broke ({type(e).__name__}: {e}); "
                       "it crashed or stopped")
        return self._tag

    def _reply(self, op: int, tag: int) -> tuple[int, bytes]:
        try:
            rop, rtag, status, data = self._recv()
        except (OSError, EOFError) as e:
            self._fail(f"the connection to the simulator broke ({type(e).__name__}: {e}); "
                       "it crashed or stopped")
            raise  # unreachable
        if rop != op or rtag != tag:
            self._fail(f"protocol error: reply {rop}/{rtag} to request {op}/{tag}")
        if status == 0xFF:
            self._fail(f"the simulator failed to serve a request: {data.decode(errors='replace')}")
        return status, data

    def post_write(self, address: int, data: bytes) -> None:
        """A write the ARM posts (a store to device memory: the CPU goes on without waiting
        for its response): sent now, its reply taken with the next request's. A posted
        write's SLVERR/DECERR is raised by that next request (an imprecise abort on the
        board), as :class:`~pushpush.protocol.BusWriteError` naming the posted write."""
        self.check()
        with self._lock:
            tag = self._send(OP_WRITE, address, len(data), bytes(data))
            self._posted.append((tag, address, len(data)))
            if len(self._posted) >= MAX_POSTED:   # the write buffer is full: wait for one
                failed = self._take_posted(keep=MAX_POSTED // 2)
                if failed is not None:
                    raise failed

    def _take_posted(self, keep: int = 0) -> Optional[Exception]:
        """Take the replies of posted writes (all but the last ``keep``); the first failed
        one's error (not raised: the caller raises it after its own reply)."""
        from pushpush.protocol import BusWriteError
        failed: Optional[Exception] = None
        while len(self._posted) > keep:
            tag, address, length = self._posted.pop(0)
            status, _ = self._reply(OP_WRITE, tag)
            if status not in (0, 1) and failed is None:
                failed = BusWriteError(address, max(1, length // 4),
                                       "SLVERR" if status == 2 else "DECERR")
        return failed

    def write(self, address: int, data: bytes) -> int:
        """One burst write on GP0; returns the AXI response (0 OKAY, 2 SLVERR, 3 DECERR)."""
        return self.request(OP_WRITE, address, len(data), bytes(data))[0]

    def write_words(self, address: int, data: bytes) -> tuple[int, int]:
        """32-bit stores on GP0, one single-beat write each, in order (the ARM's way); stops
        at the first error. Returns (AXI response, words written before it)."""
        status, payload = self.request(OP_WRITE_WORDS, address, len(data), bytes(data))
        return status, struct.unpack("<I", payload)[0]

    def read(self, address: int, length: int) -> tuple[int, bytes]:
        return self.request(OP_READ, address, length)

    def info(self) -> dict[str, Any]:
        return json.loads(self.request(OP_INFO)[1])

    def run(self, cycles: int) -> dict[str, Any]:
        """Advance the simulation by ``cycles`` clock cycles (returns :meth:`info`)."""
        return json.loads(self.request(OP_RUN, 0, cycles)[1])
