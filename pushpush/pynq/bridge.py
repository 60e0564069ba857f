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
  keeps the simulator at full speed (see :mod:`pushpush.pynq.simps`).

The PS side in the simulator is HDL by default (:mod:`pushpush.pynq.simps`: the GP0 master
and the memory port are Verilog, Python runs only when something happens);
``PUSHPUSH_SIM_PS=cocotb`` selects the previous one (cocotbext-axi's ``AxiMaster`` and
``AxiSlave``, Python on every clock edge), kept for comparison (``pushpush bench simboard``).
The simulation build is cached by content (:mod:`pushpush.build.cache`), so a second load
of an unchanged system starts without compiling.

Lifetime: :class:`SimBridge` (the PYNQ side) listens, starts ``python -m
pushpush.pynq.bridge <config>`` in its own session, and waits for the simulator to connect.
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
"""

from __future__ import annotations

import atexit
import json
import logging
import mmap
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import asdict, dataclass, field
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
    "PS_MODELS",
]

log = logging.getLogger("pushpush.pynq")

OP_HELLO, OP_WRITE, OP_READ, OP_STOP, OP_INFO, OP_RUN, OP_WRITE_WORDS = 0, 1, 2, 3, 4, 5, 6
#: The PS side in the simulator: "hdl" (pushpush.pynq.simps, the default) or "cocotb"
#: (cocotbext-axi models, Python on every clock edge; the previous one, for comparison).
PS_MODELS = ("hdl", "cocotb")
#: Offset in the control page: CLOCK_MONOTONIC ns of the last poll of a runtime waiting
#: for a reply (the simulator stays at full speed while it is recent).
CTL_WAIT_STAMP = 0
#: Offset in the control page: writes of the PL into PS memory so far (u64, the simulator's).
CTL_PL_WRITES = 8
CTL_SIZE = 4096
#: Reset cycles at the start of a simulation (the harness holds reset this long).
RESET_CYCLES = 8
REQ = struct.Struct("<BIQI")
REP = struct.Struct("<BIBI")


class SimulatorError(RuntimeError):
    """The simulated board failed: it did not build or start, it stopped, or it crashed.

    ``log_tail`` holds the last lines of the simulator's output (also in the message)."""

    def __init__(self, message: str, log_tail: str = "") -> None:
        super().__init__(message + (f"\n--- simulator log (last lines) ---\n{log_tail}"
                                    if log_tail else ""))
        self.log_tail = log_tail


@dataclass
class SimConfig:
    """Everything the simulator process needs (written as JSON into the run folder)."""

    top: str
    sources: list[str]
    simulator: str = "icarus"
    clock_mhz: float = 100.0
    parameters: dict[str, Any] = field(default_factory=dict)
    #: The ARM's on-chip memory window (the ``ps`` region) and the DDR area.
    ps_base: int = 0xFFFC0000
    ps_size: int = 0x10000
    ddr_base: int = 0x18000000
    ddr_size: int = 0
    #: Filled in by :class:`SimBridge`.
    socket_path: str = ""
    ps_mem_path: str = ""
    ddr_mem_path: str = ""
    build_dir: str = ""
    parent_pid: int = 0
    #: Idle throttling: after ``idle_cycles`` cycles or ``idle_s`` seconds without bus activity
    #: the simulator waits for a request (at least ``idle_ms``, and three times as long as
    #: the batch took) between batches of ``idle_batch`` cycles (``idle_ms`` 0: never).
    idle_cycles: int = 20000
    idle_s: float = 0.2
    idle_ms: float = 2.0
    idle_batch: int = 256
    busy_batch: int = 16
    waves: bool = False
    #: The PS model ("hdl" or "cocotb", see PS_MODELS) and, for "hdl", the top's AXI widths.
    ps_model: str = "hdl"
    data_width: int = 32
    s_id_width: int = 12
    m_id_width: int = 12
    #: The top's port names when it is a stand-in (may lack optional AXI signals); [] = all.
    port_names: list[str] = field(default_factory=list)
    #: hdl: wall clock per batch while busy (the batch of cycles adapts to it), the largest
    #: batch, and the cycles a GP0 transaction may wait for a handshake.
    poll_us: float = 100.0
    max_batch: int = 1 << 16
    gp0_timeout_cycles: int = 1_000_000
    #: Filled in by SimBridge: the notification pipe's write end, the control page.
    notify_fd: int = -1
    ctl_mem_path: str = ""
    #: Use the content-addressed build cache (pushpush.build.cache).
    cache: bool = True

    @classmethod
    def from_json(cls, text: str) -> "SimConfig":
        return cls(**json.loads(text))

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


class SharedMemory:
    """An anonymous shared-memory file of ``size`` bytes, mapped here; another process of
    the same user opens it through :attr:`path` (``/proc/<pid>/fd/<fd>``) while this
    object lives. Nothing is left in the file system, even if the process is killed."""

    def __init__(self, size: int, name: str = "pushpush") -> None:
        self.size = size
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create(name, 0)
        else:  # pragma: no cover - non-Linux
            fd, path = tempfile.mkstemp(prefix=name, dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
            os.unlink(path)
            self.fd = fd
        os.ftruncate(self.fd, max(size, mmap.PAGESIZE))
        self.mem = mmap.mmap(self.fd, max(size, mmap.PAGESIZE))
        self.path = f"/proc/{os.getpid()}/fd/{self.fd}"

    def close(self) -> None:
        try:
            self.mem.close()
        except BufferError:  # numpy views still alive: the mapping goes with them
            pass
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


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


class SimBridge:
    """The PYNQ-process side: starts the simulator, sends GP0 accesses, stops it.

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
        self._stopped = False
        #: PL writes into PS memory seen so far (the notification pipe), and its condition
        #: writes into PS memory made by software of this process (note_write)
        self._local_writes = 0
        self._notify_r = self._notify_w = -1
        self.ctl = SharedMemory(CTL_SIZE, "pushpush-ctl")

    # ------------------------------------------------------------------ lifetime

    @property
    def log_path(self) -> Path:
        assert self.rundir is not None
        return self.rundir / "sim.log"

    def start(self) -> "SimBridge":
        self.rundir = Path(tempfile.mkdtemp(prefix="pushpush-sim-"))
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
        (self.rundir / "config.json").write_text(cfg.to_json())
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(cfg.socket_path)
        listener.listen(1)
        env = dict(os.environ)
        pkg_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        logf = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(
                [self.python, "-m", "pushpush.pynq.bridge", str(self.rundir / "config.json")],
                stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT, env=env,
                cwd=str(self.rundir), start_new_session=True, pass_fds=(notify_w,))
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
        return self

    @property
    def pl_writes(self) -> int:
        """Writes into PS memory so far: the PL's (counted by the simulator in the control
        page) and this process's software's (:meth:`note_write`)."""
        if self._stopped:
            return self._local_writes
        return struct.unpack_from("<Q", self.ctl.mem, CTL_PL_WRITES)[0] + self._local_writes

    def note_write(self) -> None:
        """Count a write into PS memory made in this process and wake the waiters."""
        self._local_writes += 1
        self._poke()

    def _poke(self) -> None:
        try:
            os.write(self._notify_w, b"\1")
        except OSError:  # full (waiters will see the count) or closed (stopped)
            pass

    def wait_pl_write(self, seen: int, timeout: float, *, waiting: bool = True) -> int:
        """Wait until there were more than ``seen`` writes into PS memory (:attr:`pl_writes`),
        at most ``timeout`` seconds; returns the count (pass it back as ``seen`` next time).
        ``waiting``: a runtime waits for a reply (keeps the simulator at full speed)."""
        if self._stopped:
            time.sleep(min(timeout, 0.05))
            return seen
        if waiting:
            struct.pack_into("<Q", self.ctl.mem, CTL_WAIT_STAMP, time.monotonic_ns())
        now = self.pl_writes
        if now != seen:
            return now
        try:
            ready, _, _ = select.select([self._notify_r], [], [], timeout)
            if ready:
                os.read(self._notify_r, 4096)
        except (OSError, ValueError):  # drained by another waiter, or closed by stop()
            pass
        return self.pl_writes

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the simulator (idempotent): STOP, wait, then kill its process group."""
        if self._stopped:
            return
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
        for fd in (self._notify_r, self._notify_w):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._notify_r = self._notify_w = -1
        self.ctl.close()

    def _kill_group(self) -> None:
        assert self.proc is not None
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)   # the child leads its own session
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
        """Send one request and wait for its reply: (status, payload)."""
        self.check()
        assert self.sock is not None
        with self._lock:
            self._tag = (self._tag + 1) & 0xFFFFFFFF
            tag = self._tag
            try:
                self.sock.sendall(REQ.pack(op, tag, address, length) + payload)
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


# ============================================================================ simulator side


def _child_main(config_path: str) -> int:
    """``python -m pushpush.pynq.bridge <config.json>``: build and run the simulation."""
    cfg = SimConfig.from_json(Path(config_path).read_text())
    parent = cfg.parent_pid
    rundir = Path(config_path).resolve().parent

    def orphaned() -> bool:
        if os.getppid() == parent:
            return False
        if not os.environ.get("PUSHPUSH_SIM_KEEP"):  # nobody else will remove the run folder
            shutil.rmtree(rundir, ignore_errors=True)
        return True

    def watchdog() -> None:
        while True:
            time.sleep(0.5)
            if orphaned():
                try:
                    os.killpg(os.getpgid(0), signal.SIGKILL)
                finally:
                    os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    from pushpush.build.sim import SimulationFailed, run_cocotb

    root = Path(__file__).resolve().parents[2]
    try:
        if cfg.ps_model not in PS_MODELS:
            raise ValueError(f"PS model '{cfg.ps_model}': use one of {', '.join(PS_MODELS)}")
        top, sources, parameters = cfg.top, [Path(s) for s in cfg.sources], cfg.parameters
        env = {"PUSHPUSH_SIM_CONFIG": config_path}
        if cfg.notify_fd >= 0:  # the simulator is our child: it opens the pipe through /proc
            env["PUSHPUSH_SIM_NOTIFY"] = f"/proc/{os.getpid()}/fd/{cfg.notify_fd}"
        build_args: list[str] = []
        if cfg.ps_model == "hdl":
            top, sources, parameters = _harness(cfg, rundir)
            if cfg.simulator == "verilator" and not cfg.waves:
                # only the harness's marked signals are reached through VPI: let Verilator
                # optimise the rest (cocotb's runner marks every signal public otherwise)
                build_args = ["--no-public-flat-rw"]
        run_cocotb(toplevel=top, sources=sources, test_module="pushpush.pynq._simtest",
                   test_dir=root, parameters=parameters, simulator=cfg.simulator,
                   build_dir=cfg.build_dir, extra_env=env, waves=cfg.waves, cache=cfg.cache,
                   extra_build_args=build_args)
    except SimulationFailed as e:
        print(f"pushpush: simulation failed: {e}", flush=True)
        return 1
    except Exception as e:  # build errors etc.
        print(f"pushpush: simulator did not run: {type(e).__name__}: {e}", flush=True)
        return 2
    finally:
        orphaned()
    return 0


def _harness(cfg: SimConfig, rundir: Path) -> tuple[str, list[Path], dict[str, Any]]:
    """The HDL PS's toplevel, sources and parameters: ``pushpush_simboard`` around the top."""
    from pushpush.build.cores import cores_rtl
    from pushpush.codegen.simboard import HARNESS_CORES, HARNESS_TOP, SimboardPorts, render_simboard

    text = render_simboard(cfg.top, SimboardPorts(cfg.data_width, cfg.s_id_width, cfg.m_id_width),
                           clock_mhz=cfg.clock_mhz, parameters=cfg.parameters,
                           timeout_cycles=cfg.gp0_timeout_cycles, port_names=cfg.port_names)
    harness = rundir / "pushpush_simboard.v"
    harness.write_text(text, encoding="utf-8")
    return HARNESS_TOP, [Path(s) for s in cfg.sources] + cores_rtl(list(HARNESS_CORES)) + [harness], {}


def store_words(mem: Any, offset: int, data: bytes) -> None:
    """Store ``data`` at byte ``offset`` of ``mem`` as the board's memory would take a beat.

    Every aligned 32-bit word is one 32-bit store, in address order (so a burst's trigger
    word, its last, lands last and exactly once), through a ``memoryview`` cast to 32-bit
    words: an mmap slice assignment would go through ``memcpy``, which for 4..7 bytes stores
    the tail and then the head, i.e. writes the same word twice, and a runtime polling the
    memory could take the call between the two stores and see its trigger come back.
    Unaligned or partial data (byte strobes) is stored bytewise.
    """
    if offset % 4 == 0 and len(data) % 4 == 0:
        words = memoryview(data).cast("I")
        view = memoryview(mem)[offset:offset + len(data)].cast("I")
        try:
            for i in range(len(words)):
                view[i] = words[i]
        finally:
            view.release()
        return
    mem[offset:offset + len(data)] = data


class SimulatedPSMemory:
    """The PS memory the PL reaches through the top's ``m_axi``: the ps region (on-chip
    memory) and the DDR area, both the shared memory of the PYNQ process; and the control
    page (:data:`CTL_WAIT_STAMP`), or None."""

    def __init__(self, cfg: SimConfig) -> None:
        self.regions: list[tuple[int, int, mmap.mmap]] = []
        self._files = []
        for base, size, path in ((cfg.ps_base, cfg.ps_size, cfg.ps_mem_path),
                                 (cfg.ddr_base, cfg.ddr_size, cfg.ddr_mem_path)):
            if path and size:
                f = open(path, "r+b")
                self._files.append(f)
                self.regions.append((base, size, mmap.mmap(f.fileno(), max(size, mmap.PAGESIZE))))
        self.control: Optional[mmap.mmap] = None
        if cfg.ctl_mem_path:
            f = open(cfg.ctl_mem_path, "r+b")
            self._files.append(f)
            self.control = mmap.mmap(f.fileno(), CTL_SIZE)
        self.log = logging.getLogger("pushpush.sim.m_axi")

    def count_write(self) -> None:
        """Count a PL write into PS memory in the control page (see SimBridge.pl_writes)."""
        if self.control is not None:
            count = struct.unpack_from("<Q", self.control, CTL_PL_WRITES)[0]
            struct.pack_into("<Q", self.control, CTL_PL_WRITES, count + 1)

    def _find(self, address: int, length: int) -> Optional[tuple[mmap.mmap, int]]:
        for base, size, mem in self.regions:
            if base <= address and address + length <= base + size:
                return mem, address - base
        return None

    def write(self, address: int, data: bytes) -> bool:
        """Store ``data`` (32-bit stores in order, :func:`store_words`); False (nothing
        written, logged) if it is not all PS memory."""
        hit = self._find(address, len(data))
        if hit is None:
            self.log.warning("PL write of %d bytes to unmapped 0x%08X dropped", len(data), address)
            return False
        mem, off = hit
        store_words(mem, off, bytes(data))
        return True

    def read(self, address: int, length: int) -> Optional[bytes]:
        hit = self._find(address, length)
        if hit is None:
            self.log.warning("PL read of %d bytes from unmapped 0x%08X", length, address)
            return None
        mem, off = hit
        return bytes(mem[off:off + length])


class _AxiSlaveTarget:
    """:class:`SimulatedPSMemory` as the target of cocotbext-axi's ``AxiSlave`` (the
    "cocotb" PS model; an unmapped access answers OKAY there, as it always did)."""

    def __init__(self, memory: SimulatedPSMemory, on_access: Any) -> None:
        self.memory = memory
        self.on_access = on_access
        path = os.environ.get("PUSHPUSH_SIM_NOTIFY", "")
        self.notify_fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK) if path else -1

    async def write(self, address: int, data: bytes) -> None:
        self.on_access()
        self.memory.write(address, bytes(data))
        self.memory.count_write()
        if self.notify_fd >= 0:
            try:
                os.write(self.notify_fd, b"\1")
            except OSError:
                pass

    async def read(self, address: int, length: int) -> bytes:
        self.on_access()
        data = self.memory.read(address, length)
        return bytes(length) if data is None else data


async def serve_simulation(dut: Any) -> None:
    """The cocotb side: clock, reset, the ARM's ports, and the request loop."""
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, Timer
    from cocotb.utils import get_sim_time
    from cocotbext.axi import AxiBus, AxiMaster, AxiSlave

    cfg = SimConfig.from_json(Path(os.environ["PUSHPUSH_SIM_CONFIG"]).read_text())
    period_ps = int(round(1e6 / cfg.clock_mhz))
    # reset is driven before the models look at it; the C++ clock (impl="gpi") wakes no
    # Python code per clock edge
    dut.rst.value = 1
    dut.clk.value = 0
    for name in ("s_axi_awvalid", "s_axi_wvalid", "s_axi_arvalid", "s_axi_bready", "s_axi_rready",
                 "m_axi_awready", "m_axi_wready", "m_axi_arready", "m_axi_bvalid", "m_axi_rvalid"):
        getattr(dut, name).value = 0    # the models' handshake outputs, defined from time 0
    await Timer(period_ps, unit="ps")
    cocotb.start_soon(Clock(dut.clk, period_ps, unit="ps", impl="gpi").start())
    state = {"last_activity": 0, "last_wall": time.monotonic()}

    def touch() -> None:
        state["last_activity"] = cycle()
        state["last_wall"] = time.monotonic()

    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    slave = AxiSlave(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, target=_AxiSlaveTarget(SimulatedPSMemory(cfg), touch))
    for port in (master, slave):
        for lg in (port.write_if.log, port.read_if.log):
            lg.setLevel(logging.WARNING)

    period_ns = period_ps / 1000

    def cycle() -> int:  # from simulated time: no per-cycle Python callback
        return int(get_sim_time(unit="ns") // period_ns)

    await ClockCycles(dut.clk, 8)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(cfg.socket_path)

    def info() -> bytes:
        return json.dumps({"pid": os.getpid(), "cycle": cycle(), "ps": "cocotb",
                           "time_ns": get_sim_time(unit="ns")}).encode()

    def send(op: int, tag: int, status: int, payload: bytes = b"") -> None:
        sock.sendall(REP.pack(op, tag, status, len(payload)) + payload)

    send(OP_HELLO, 0, 0, info())
    buf = bytearray()
    while True:
        busy = cfg.idle_ms <= 0 or (cycle() - state["last_activity"] < cfg.idle_cycles
                                    and time.monotonic() - state["last_wall"] < cfg.idle_s)
        t0 = time.monotonic()
        # a Timer is one simulator callback; ClockCycles would wake Python every cycle
        await Timer((cfg.busy_batch if busy else cfg.idle_batch) * period_ps, unit="ps")
        # idle (no bus activity for idle_cycles): wait for a request at least idle_ms and
        # three times as long as the batch took, so an idle board uses <= 25% of a core;
        # a request ends the wait at once
        wait = 0.0 if busy else max(cfg.idle_ms / 1000, 3 * (time.monotonic() - t0))
        ready, _, _ = select.select([sock], [], [], wait)
        if not ready:
            continue
        chunk = sock.recv(1 << 20)
        if not chunk:  # the PYNQ process went away
            return
        buf += chunk
        while len(buf) >= REQ.size:
            op, tag, address, length = REQ.unpack_from(buf)
            need = REQ.size + (length if op in (OP_WRITE, OP_WRITE_WORDS) else 0)
            if len(buf) < need:
                break
            payload = bytes(buf[REQ.size:need])
            del buf[:need]
            touch()
            if op == OP_STOP:
                return
            try:
                if op == OP_WRITE:
                    resp = await master.write(address, payload)
                    send(op, tag, int(resp.resp))
                elif op == OP_WRITE_WORDS:
                    done, status = 0, 0
                    for off in range(0, len(payload), 4):
                        resp = await master.write(address + off, payload[off:off + 4])
                        if int(resp.resp) & 2:
                            status = int(resp.resp)
                            break
                        done += 1
                    send(op, tag, status, struct.pack("<I", done))
                elif op == OP_READ:
                    resp = await master.read(address, length)
                    send(op, tag, int(resp.resp), bytes(resp.data))
                elif op == OP_INFO:
                    send(op, tag, 0, info())
                elif op == OP_RUN:
                    await Timer(max(1, length) * period_ps, unit="ps")
                    send(op, tag, 0, info())
                else:
                    send(op, tag, 0xFF, f"unknown request {op}".encode())
            except Exception as e:  # report, then fail the simulation
                send(op, tag, 0xFF, f"{type(e).__name__}: {e}".encode())
                raise
            touch()


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1]))
