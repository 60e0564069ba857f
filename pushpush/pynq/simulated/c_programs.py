"""C programs attached to the simulated board (the ``pp_platform_simboard.c`` layer).

A ``kind: c`` component runs as a separate process next to the Python process that holds
the simulated board (:class:`~pushpush.pynq.simulated.device.SimDevice`). It needs what the ARM
has on the board:

* **its window**: the ``ps`` region (the on-chip memory holding the software windows) is the
  board's shared-memory file, which the C program maps (``PUSHPUSH_SIMBOARD_PS``, at
  ``PUSHPUSH_SIMBOARD_PS_BASE``, ``PUSHPUSH_SIMBOARD_PS_SIZE`` bytes): polling its window
  and writing into another software window (a Python or C callee) are memory accesses;
* **GP0**: a write into the PL (a call of a Verilog function, or a reply to one) is one
  request on a Unix socket (``PUSHPUSH_SIMBOARD_SOCK``) served here: the bytes go to
  ``device.write_registers``, i.e. one AXI burst on the top's ``s_axi`` through the
  simulator bridge, and the AXI response comes back.

Framing (little-endian): request ``<III`` (op, address, nwords) + nwords words; reply
``<IIQ`` (status, 0, value). op 1 WRITE: status = AXI response (0 OKAY, 2 SLVERR, 3 DECERR,
0xFF the simulated board failed); op 2 CYCLE: value = the simulated clock cycle; op 3
PL_WRITE_NS: value = the host ``CLOCK_MONOTONIC`` nanoseconds at which the simulator stored
the PL's last write into PS memory (0 before the first; ``pushpush bench wait`` measures
wake-up latencies from it); op 4 READ: value = the PL word at the address (a GP0 read); op 5
WAIT_REPORT (one word: the milliseconds a call into the address waited, bit 31 set when its
write was refused all along): value = the length of a UTF-8 text that follows the reply, a
call timeout's words on what the simulated board did meanwhile (the C runtime prints it on
stderr, an attached Python program's ``CallTimeout`` ends with it).

* **the interrupt** (wait mode ``interrupt``, when the loaded top has one): on the board a C
  program opens ``/dev/uioN`` of the PS interrupt that ``axi_intc_0`` drives; here it
  connects to a second Unix socket (``PUSHPUSH_SIMBOARD_UIO``) that stands in for that
  file: each connection is one more open file of the simulated board's UIO device
  (:class:`~pushpush.pynq.simulated.interrupt.SimUio`, the one PYNQ's ``pynq.Interrupt`` waits on
  in this process): when the interrupt fires (and is not masked) the connection gets the
  4-byte event count, as a ``read`` of ``/dev/uioN`` returns it, and the device masks the
  interrupt; 4 bytes written by the program are the ``write`` of ``/dev/uioN``: non-zero
  re-enables, zero masks. Several events before the program reads are one count, as the
  kernel's. The ``axi_intc_0`` registers are reached as on the board, by PL writes (op 1).

* **tracing** (a program built with ``-DPP_TRACE``, docs/c.md "Tracing"): the environment
  names the folder for its trace ring (``PUSHPUSH_TRACE_DIR``: the simulator's run folder's
  ``c-trace``) and the simulator's control page (``PUSHPUSH_SIMBOARD_CTL``, mapped read-only:
  the cycle stamps and whether ``ol.trace()`` records); ``ol.trace()`` reads the rings.

A **Python program** in another process attaches the same way (as a second Python process
on the board opens the loaded overlay): :func:`attach_runtime` gives it a runtime of its
component over :class:`AttachedBackend` (the same environment, plus
``PUSHPUSH_SIMBOARD_MAP``, the loaded system's map).

Example::

    import pushpush.pynq as ppq
    from pushpush.pynq.simulated.c_programs import CAttach
    ol = ppq.load("system.yaml")
    with CAttach(ol.device) as att:
        proc = att.popen(["./my_c_program"])     # environment set for pp_simboard_attach
        py = att.popen(["python", "prog.py"])     # prog.py: rt = attach_runtime("pyprog")
        ...
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Optional, Sequence

from pushpush.protocol import BusWriteError
from pushpush.runtime.backend import SyncBackend
from pushpush.simboard.ipc import socket_dir

from ..words import load_words, store_words

__all__ = ["CAttach", "AttachedBackend", "attach_runtime", "OP_WRITE", "OP_CYCLE", "OP_PL_WRITE_NS",
           "OP_READ", "OP_WAIT_REPORT", "REQUEST", "REPLY"]

log = logging.getLogger("pushpush.pynq")

OP_WRITE, OP_CYCLE, OP_PL_WRITE_NS, OP_READ, OP_WAIT_REPORT = 1, 2, 3, 4, 5
REQUEST = struct.Struct("<III")
REPLY = struct.Struct("<IIQ")
_MAX_WORDS = 4096


class CAttach:
    """Serve the GP0 socket of C programs attached to ``device`` (a simulated board with a
    loaded overlay). :meth:`env` gives the variables ``pp_simboard_attach`` reads;
    :meth:`popen`/:meth:`run` start a program with them. :meth:`close` (or ``with``) stops
    serving and removes the socket."""

    def __init__(self, device: Any) -> None:
        if not hasattr(device, "ps_mem") or not hasattr(device, "write_registers"):
            raise TypeError("CAttach needs the simulated board's device (pushpush.pynq.SimDevice); "
                            "on a PYNQ-Z1 C programs use the Linux layer (/dev/mem) directly")
        self.device = device
        self.dir = Path(socket_dir("pushpush-c-"))   # short: the programs' sockets are bound in it
        self.path = str(self.dir / "gp0.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.path)
        self._listener.listen(16)
        self._closed = False
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, name="pushpush-cattach", daemon=True)
        self._thread.start()
        self._keeper = threading.Thread(target=self._keep_busy, name="pushpush-cattach-busy",
                                        daemon=True)
        self._keeper.start()
        #: The stand-in for /dev/uioN (None: the loaded top has no interrupt).
        self.uio_path: Optional[str] = None
        self._uio_listener: Optional[socket.socket] = None
        self._uio_thread: Optional[threading.Thread] = None
        self._openers: list["_UioFile"] = []
        irq = getattr(device, "interrupts", None)
        if irq is not None:
            self.uio_path = str(self.dir / "uio.sock")
            self._uio_listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._uio_listener.bind(self.uio_path)
            self._uio_listener.listen(16)
            self._uio_thread = threading.Thread(target=self._accept_uio, args=(irq.uio,),
                                                name="pushpush-cattach-uio", daemon=True)
            self._uio_thread.start()

    def env(self) -> dict[str, str]:
        """The environment of an attached C program (added to ``os.environ``)."""
        mem = self.device.ps_mem
        env = {"PUSHPUSH_SIMBOARD_PS": mem.path,
               "PUSHPUSH_SIMBOARD_PS_BASE": f"0x{self.device.ps_base:08X}",
               "PUSHPUSH_SIMBOARD_PS_SIZE": f"0x{self.device.ps_size:X}",
               "PUSHPUSH_SIMBOARD_SOCK": self.path}
        if self.uio_path is not None:
            env["PUSHPUSH_SIMBOARD_UIO"] = self.uio_path
        bridge = getattr(self.device, "bridge", None)
        if getattr(bridge, "rundir", None) is not None:   # a C program built with -DPP_TRACE:
            from pushpush.trace.c_events import RING_DIR   # its trace ring (docs/c.md)
            rings = Path(bridge.rundir) / RING_DIR
            rings.mkdir(exist_ok=True)
            env["PUSHPUSH_TRACE_DIR"] = str(rings)
            env["PUSHPUSH_SIMBOARD_CTL"] = bridge.ctl.path
        bit = getattr(self.device, "bitfile_name", None)
        if bit:
            from ..overlay_files import map_path_for
            if map_path_for(bit).exists():   # for attach_runtime (a Python program)
                env["PUSHPUSH_SIMBOARD_MAP"] = str(map_path_for(bit))
        return env

    def _full_env(self, extra: Optional[dict[str, str]]) -> dict[str, str]:
        env = dict(os.environ)
        env.update(self.env())
        env.update(extra or {})
        return env

    def popen(self, argv: Sequence[str], env: Optional[dict[str, str]] = None,
              **kwargs: Any) -> "subprocess.Popen[str]":
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
        kwargs.setdefault("text", True)
        return subprocess.Popen(list(argv), env=self._full_env(env), **kwargs)

    def run(self, argv: Sequence[str], timeout: float, env: Optional[dict[str, str]] = None,
            **kwargs: Any) -> "subprocess.CompletedProcess[str]":
        """Run a program to its end (``subprocess.TimeoutExpired`` after ``timeout`` s)."""
        return subprocess.run(list(argv), env=self._full_env(env), capture_output=True, text=True,
                              timeout=timeout, **kwargs)

    # ------------------------------------------------------------------ serving

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), name="pushpush-cattach-conn",
                             daemon=True).start()

    def _keep_busy(self) -> None:
        """While a C program is attached, keep the simulator at full speed, as a Python
        runtime waiting for a reply does (``bridge.note_waiting``): a C program waits by
        polling the shared PS memory or by sleeping, which the simulator cannot see, and
        an idle simulator runs the PL at a fortieth of its speed (a channel's 65,536-cycle
        stall timeout took minutes, past the program's own call timeout)."""
        while not self._closed:
            with self._lock:
                attached = bool(self._conns)
            bridge = getattr(self.device, "bridge", None)
            if attached and bridge is not None:
                try:
                    bridge.note_waiting()
                except (OSError, ValueError, AttributeError):   # the board stopped
                    pass
            time.sleep(0.05)

    @staticmethod
    def _recv(conn: socket.socket, n: int) -> Optional[bytes]:
        buf = bytearray()
        while len(buf) < n:
            chunk = conn.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def _serve(self, conn: socket.socket) -> None:
        # an attached C program waits by polling the shared memory (it looks all the time):
        # counted as a caller while attached, so the simulator runs for it and is resumed at
        # once when only simulated time helps (SimBridge.caller_waits), not at _keep_busy's
        # next 50 ms stamp
        bridge = getattr(self.device, "bridge", None)
        key = ("c-program", id(conn))
        if bridge is not None:
            try:
                bridge.caller_waits(key, (1 << 64) - 1)
            except (OSError, ValueError, AttributeError):   # the board stopped
                bridge = None
        try:
            while True:
                head = self._recv(conn, REQUEST.size)
                if head is None:
                    return
                op, address, nwords = REQUEST.unpack(head)
                if nwords > _MAX_WORDS:
                    log.error("attached C program: request of %d words refused", nwords)
                    return
                payload = self._recv(conn, 4 * nwords) if nwords else b""
                if payload is None:
                    return
                if op == OP_WAIT_REPORT:
                    text = self._wait_report(address, payload).encode()
                    conn.sendall(REPLY.pack(0, 0, len(text)) + text)
                    continue
                status, value = self._handle(op, address, payload)
                conn.sendall(REPLY.pack(status, 0, value))
        except OSError:
            return
        finally:
            with self._lock:
                if conn in self._conns:
                    self._conns.remove(conn)
            conn.close()
            if bridge is not None:
                try:
                    bridge.caller_done(key)
                except (OSError, ValueError, AttributeError):   # the board stopped
                    pass

    def _wait_report(self, address: int, payload: bytes) -> str:
        """op 5: a call into ``address`` failed after the milliseconds in ``payload``."""
        word = struct.unpack_from("<I", payload)[0] if len(payload) >= 4 else 0
        waited = (word & 0x7FFFFFFF) / 1000
        refused = " (its write was refused with SLVERR all along: the slot stayed busy)" \
            if word >> 31 else ""
        bridge = getattr(self.device, "bridge", None)
        try:
            board = bridge.wait_report(waited) if bridge is not None else "no simulated board"
        except Exception as e:  # the board stopped meanwhile
            board = f"the simulated board failed: {e}"
        return (f"pushpush: the call into 0x{address:08X} failed after {waited:.3g} s{refused}; "
                f"meanwhile {board}")

    def _handle(self, op: int, address: int, payload: bytes) -> tuple[int, int]:
        try:
            if op == OP_WRITE:
                try:
                    self.device.write_registers(address, payload)
                except BusWriteError as e:
                    return (2 if e.resp == "SLVERR" else 3), 0
                return 0, 0
            if op == OP_CYCLE:
                return 0, int(self.device.bridge.info()["cycle"])
            if op == OP_PL_WRITE_NS:
                return 0, int(self.device.bridge.last_pl_write()[1])
            if op == OP_READ:   # one word of the PL (a GP0 read: the cycle counter's test)
                return 0, int.from_bytes(self.device.read_registers(address, 4), "little")
            log.error("attached C program: unknown request %d", op)
            return 0xFF, 0
        except Exception as e:  # the simulated board failed or stopped
            log.error("attached C program: %s", str(e).splitlines()[0] if str(e) else type(e).__name__)
            return 0xFF, 0

    def _accept_uio(self, uio: Any) -> None:
        assert self._uio_listener is not None
        while not self._closed:
            try:
                conn, _ = self._uio_listener.accept()
            except OSError:
                return
            f = _UioFile(uio, conn)
            with self._lock:
                self._openers.append(f)
            threading.Thread(target=f.serve, name="pushpush-cattach-uio-conn", daemon=True).start()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._uio_listener is not None:
            try:
                self._uio_listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._uio_listener.close()
        with self._lock:
            openers = list(self._openers)
        for f in openers:
            f.close()
        try:
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            for c in self._conns:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self._thread.join(2.0)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "CAttach":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _UioFile:
    """One C program's open stand-in for ``/dev/uioN`` (see the module docstring): an opener
    of the simulated board's UIO device whose reads and writes travel over ``conn``."""

    def __init__(self, uio: Any, conn: socket.socket) -> None:
        self.uio = uio
        self.conn = conn
        self._unread = False     # an event count is on its way that the program has not read
        uio.attach(self)

    def event(self, count: int) -> None:
        """The device fired (called under its lock: never blocks)."""
        if self._unread:
            return               # the program reads the latest count once, as from the kernel
        try:
            self.conn.send(struct.pack("<I", count), socket.MSG_DONTWAIT)
            self._unread = True
        except OSError:
            pass

    def serve(self) -> None:
        try:
            while True:
                data = CAttach._recv(self.conn, 4)
                if data is None:
                    return
                self._unread = False   # it writes (re-enables) only after reading, or on a timeout
                self.uio.control(data)
        except OSError:
            return
        finally:
            self.close()

    def close(self) -> None:
        self.uio.detach(self)
        try:
            self.conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.conn.close()
        except OSError:
            pass


class AttachedBackend(SyncBackend):
    """The runtime backend of a Python program attached to the simulated board from another
    process (see the module docstring): the ``ps`` region is the board's shared-memory file,
    mapped here; a write into the PL is one request on the board's socket, as the C layer
    ``pp_platform_simboard.c`` makes it. Claims the component as every runtime does
    (:mod:`pushpush.runtime.claim`, keyed by the same memory file as the board's own)."""

    #: Pause between two sweeps (seconds): a C program's default, 50 us, is for C.
    POLL_S = 2e-4

    def __init__(self, linked: Any, component: str, env: Optional[dict[str, str]] = None) -> None:
        import numpy as np

        from pushpush.runtime.claim import Claim

        env = dict(os.environ if env is None else env)
        missing = [k for k in ("PUSHPUSH_SIMBOARD_PS", "PUSHPUSH_SIMBOARD_PS_BASE",
                               "PUSHPUSH_SIMBOARD_PS_SIZE", "PUSHPUSH_SIMBOARD_SOCK") if not env.get(k)]
        if missing:
            raise RuntimeError(f"{', '.join(missing)} not set: start this program from the Python side "
                               "of a running simulated board (pushpush.pynq.simulated.c_programs.CAttach.popen)")
        self.linked = linked
        self.component = linked.component(component)
        if not self.component.is_software:
            raise ValueError(f"component '{component}' is {self.component.kind}, not software")
        self.ps_path = env["PUSHPUSH_SIMBOARD_PS"]
        self.ps_base = int(env["PUSHPUSH_SIMBOARD_PS_BASE"], 0)
        self.ps_size = int(env["PUSHPUSH_SIMBOARD_PS_SIZE"], 0)
        self.claim = Claim.acquire(self.ps_path, self.component.base, self.component.name, "python",
                                   nimports=len(self.component.imports),
                                 runtime_words=self.component.runtime_words)
        try:
            self.ps = np.memmap(self.ps_path, dtype="<u4", mode="r+", shape=(self.ps_size // 4,))
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._sock.connect(env["PUSHPUSH_SIMBOARD_SOCK"])
        except BaseException:
            self.claim.release()
            raise
        self._io = threading.Lock()

    # the claim's parts of the backend interface (as PynqBackend's)
    @property
    def restart_record(self) -> Any:
        return self.claim.record if self.claim.held else None

    @property
    def restart_journal(self) -> Any:
        return self.claim.journal if self.claim.held else None

    def owner_of(self, component: str) -> Optional[tuple[Optional[bool], Any]]:
        from pushpush.runtime.claim import probe
        live, owner = probe(self.ps_path, self.linked.component(component).base)
        return None if owner is None else (live, owner)

    def slot_pending(self, trigger_address: int) -> bool:
        i = (trigger_address - self.ps_base) >> 2
        return 0 <= i < len(self.ps) and bool(self.ps[i])

    def write(self, address: int, words: Sequence[int]) -> None:
        n = len(words)
        if n == 0:
            return
        if self.ps_base <= address and address + 4 * n <= self.ps_base + self.ps_size:
            store_words(self.ps, (address - self.ps_base) >> 2, words)  # in order: the trigger last
            return
        msg = REQUEST.pack(OP_WRITE, address, n) + struct.pack(f"<{n}I", *words)
        with self._io:
            self._sock.sendall(msg)
            head = CAttach._recv(self._sock, REPLY.size)
        if head is None:
            raise RuntimeError("the simulated board closed the connection (was it freed?)")
        status = REPLY.unpack(head)[0]
        if status in (0, 1):
            return
        if status in (2, 3):
            raise BusWriteError(address, n, "SLVERR" if status == 2 else "DECERR")
        raise RuntimeError(f"the simulated board failed on a write to 0x{address:08X} (status {status})")

    def wait_report(self, waited: float) -> Optional[str]:
        """What the simulated board did during the last ``waited`` seconds (a call
        timeout's message ends with it), asked of the board's process (op 5)."""
        msg = REQUEST.pack(OP_WAIT_REPORT, 0, 1) + struct.pack("<I", min(0x7FFFFFFF, int(waited * 1000)))
        try:
            with self._io:
                self._sock.sendall(msg)
                head = CAttach._recv(self._sock, REPLY.size)
                if head is None:
                    return None
                n = REPLY.unpack(head)[2]
                text = CAttach._recv(self._sock, n) if n else b""
        except OSError:
            return None
        if text is None:
            return None
        words = text.decode(errors="replace")
        return words.split("meanwhile ", 1)[1] if "meanwhile " in words else words

    def read_local(self, address: int, count: int) -> list[int]:
        return load_words(self.ps, (address - self.ps_base) >> 2, count)   # highest first

    def write_local(self, address: int, words: Sequence[int]) -> None:
        store_words(self.ps, (address - self.ps_base) >> 2, words)

    def sleep(self) -> None:
        time.sleep(self.POLL_S)

    def close(self) -> None:
        """Disconnect and release the claim (idempotent)."""
        try:
            self._sock.close()
        finally:
            self.claim.release()


def attach_runtime(component: str, map_path: Optional[str] = None, **kwargs: Any) -> Any:
    """A :class:`~pushpush.runtime.sync.SyncRuntime` of ``component`` in a program attached to
    the simulated board (:class:`AttachedBackend`); ``map_path`` defaults to the loaded
    system's map (``PUSHPUSH_SIMBOARD_MAP``). ``kwargs`` go to the runtime (``timeout``).
    ``rt.backend.close()`` (or the program's end) releases the component.

    >>> rt = attach_runtime("pyprog", timeout=30)      # doctest: +SKIP
    >>> rt.hw.f(5)                                      # doctest: +SKIP
    """
    from pushpush.runtime.sync import SyncRuntime
    from pushpush.sysmap import from_json

    path = map_path or os.environ.get("PUSHPUSH_SIMBOARD_MAP")
    if not path:
        raise RuntimeError("PUSHPUSH_SIMBOARD_MAP is not set: pass the system map's path")
    linked = from_json(Path(path).read_text(), base_dir=Path(path).parent)
    backend = AttachedBackend(linked, component)
    try:
        return SyncRuntime(linked, component, backend, **kwargs)
    except BaseException:
        backend.close()
        raise
