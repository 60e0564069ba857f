"""What the two sides of the simulated board share: the wire format of the GP0 socket, the
configuration, the shared memories and the control page.

The PYNQ side is :mod:`pushpush.pynq.simulated.bridge` (``SimBridge``); the simulator side is the
rest of this package (:mod:`.child` builds and runs the simulation, :mod:`.hdl` is the
Python inside it). Nothing here imports PYNQ or cocotb, so the
simulator process starts without them.
"""

from __future__ import annotations

import json
import logging
import mmap
import os
import struct
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from pushpush.trace.wire_request import AREA_SIZE as TRACE_AREA_SIZE

__all__ = ["socket_dir", "OP_HELLO", "OP_WRITE", "OP_READ", "OP_STOP", "OP_INFO", "OP_RUN", "OP_WRITE_WORDS",
           "CTL_WAIT_STAMP", "CTL_PL_WRITES", "CTL_SIZE", "CTL_IRQ_LEVEL",
           "CTL_IRQ_EDGES", "CTL_IRQ_CYCLE", "CTL_IRQ_NS", "CTL_PLW_CYCLE", "CTL_PLW_NS", "CTL_WAITERS", "CTL_PAUSED", "CTL_IDLE", "CTL_IRQ_RISES", "IRQ_INPUTS_MAX", "CTL_CALLERS", "CTL_HANDLING", "CTL_LOCAL_WRITES", "CTL_LOOKED", "CTL_CALLER_SEEN", "CTL_WINDOWS", "WINDOWS_MAX", "CTL_IRQ_RUNTIMES", "CTL_TRACE", "read_windows", "in_windows", "CTL_STATE", "SIM_STATES", "SIM_COUNTERS", "SimStatus", "read_status", "read_cycle",
           "describe_status", "RESET_CYCLES", "REQ",
           "REP", "SimConfig", "SharedMemory", "SimulatedPSMemory", "store_words", "serve_requests"]

OP_HELLO, OP_WRITE, OP_READ, OP_STOP, OP_INFO, OP_RUN, OP_WRITE_WORDS = 0, 1, 2, 3, 4, 5, 6
#: Offset in the control page: CLOCK_MONOTONIC ns of the last poll of a runtime waiting
#: for a reply (the simulator stays at full speed while it is recent).
CTL_WAIT_STAMP = 0
#: Offset in the control page: writes of the PL into PS memory so far (u64, the simulator's).
CTL_PL_WRITES = 8
#: Offsets in the control page of the interrupt lines (the simulator writes them when a
#: line changes, then writes a byte on the interrupt pipe): their levels (u64, bit i = the
#: interrupt controller's input i, :attr:`SimConfig.intr`; bit 0 is the top's ``irq`` when
#: it has one), the number of changes so far (u64), the clock cycle of the last change (u64,
#: counted from the end of reset) and CLOCK_MONOTONIC ns when the simulator saw it (u64).
CTL_IRQ_LEVEL = 16
CTL_IRQ_EDGES = 24
CTL_IRQ_CYCLE = 32
CTL_IRQ_NS = 40
#: Offsets in the control page of the last PL write into PS memory (the HDL PS model): the
#: clock cycle its data was stored at (u64, from the end of reset) and CLOCK_MONOTONIC ns
#: right after the store (u64); ``pushpush bench wait`` times wake-ups from them.
CTL_PLW_CYCLE = 48
CTL_PLW_NS = 56
#: Offsets in the control page of the hand-off between a call and the next (the HDL PS
#: model): threads of the PYNQ process blocked in ``SimBridge.wait_pl_write`` now (u64, the
#: PYNQ side's), and 1 while the simulator is paused waiting for the next request after a
#: reply (u64, the simulator's; a thread that starts waiting then writes a byte on the kick
#: pipe, which resumes the simulation).
CTL_WAITERS = 64
CTL_PAUSED = 72
#: Offset in the control page: 1 while the simulator blocks on its socket because it is
#: idle (u64, the simulator's); software that starts waiting for a reply then writes a byte
#: on the kick pipe at once (an interrupt-mode runtime sends no request while it waits).
CTL_IDLE = 80
#: Offset in the control page of the interrupt lines' rising edges: one u32 count per input
#: (input i at ``CTL_IRQ_RISES + 4 * i``, :data:`IRQ_INPUTS_MAX` of them), written by the
#: simulator only. A line that is high for a few cycles and low again before the PYNQ
#: process looks (a runtime clears its pending bit right after the PL set it) still
#: latches the interrupt controller's ISR bit, as axi_intc's does on the board.
CTL_IRQ_RISES = 96
IRQ_INPUTS_MAX = 32
#: Offsets in the control page of the hand-off's two counts (u64 each, the PYNQ side's):
#: threads waiting for a reply from the PL now (callers in ``SimBridge.wait_pl_write``; serve
#: threads are not counted), and calls of the PL that software has taken and not yet
#: answered (``SimBridge.handling``: the PL waits for them). The simulator runs at full speed
#: while a caller waits and no call of the PL is being answered; while one is, it stands
#: still or crawls (it blocks on its socket: the answer, a request, wakes it at once), and a
#: caller that starts waiting with none being answered, or the last answer, resumes it
#: through the kick pipe.
CTL_CALLERS = 88
CTL_HANDLING = 224
#: Offsets in the control page (u64 each, the PYNQ side's): writes into PS memory made by
#: software of the PYNQ process (``SimBridge.note_write``; with CTL_PL_WRITES the count
#: ``SimBridge.pl_writes``), and the count up to which every serve thread of the PYNQ process
#: has looked for calls (the least; 2**64 - 1 when none serves): while it is behind, a serve
#: thread will look, and take a call or resume the simulator.
CTL_LOCAL_WRITES = 232
CTL_LOOKED = 240
#: Offset in the control page (u64, the PYNQ side's): the most writes into PS memory a caller
#: now waiting had seen when it started its wait (a caller that has not seen the latest
#: write will wake for it: that write may be what it waited for, so the simulator pauses).
CTL_CALLER_SEEN = 248
#: Offset in the control page of what the simulator is doing (the simulator's, written at
#: every change, :class:`SimStatus`; read by :func:`read_status`): seven u64 from here: the
#: state (an index into :data:`SIM_STATES`), the clock cycle and CLOCK_MONOTONIC ns it was
#: entered at, its argument (running: the batch in cycles; idle/paused: the longest wait in
#: us; serving: the request's op), the request's address (serving), the clock cycle of the
#: last look (every turn of its loop), and the turns of its loop; then the ns spent so far
#: in each state (one u64 per state); then the counters of :data:`SIM_COUNTERS`.
CTL_STATE = 256
#: The simulator's states (see CTL_STATE): starting (building, out of reset), running a batch
#: of cycles, idle (blocked on its socket, the PL stands still), paused for the next request
#: after a reply (the PL stands still), serving a request, stopped.
SIM_STATES = ("starting", "running", "idle", "paused", "serving", "stopped")
#: The simulator's counters after the time spent per state (see CTL_STATE; u64 each): pauses
#: for a request after a reply, and how they ended (a request, a kick); idle blocks, and how
#: they ended (a request, a kick); pauses that ended at their limit (the safety net: no
#: event ended them), and pauses not taken because a caller waited and no call of the PL
#: was being answered; PL writes into PS memory outside the software windows (DMA data,
#: buffer results: never paused for, see CTL_WINDOWS); batches of cycles run while a caller
#: needed simulated time (no request would come), and the cycles they ran; pause limits
#: reached while software was answering a call of the PL (the pause went on: the answer, a
#: request, ends it); pauses not taken because the PL held back the B response of the write
#: paused for (while a runtime waits in mode interrupt, see CTL_IRQ_RUNTIMES) for 256 cycles.
SIM_COUNTERS = ("pauses", "pause_requests", "pause_kicks", "idle_blocks", "idle_requests",
                "idle_kicks", "pause_limits", "pauses_not_needed", "data_writes",
                "needed_batches", "needed_cycles", "pauses_held", "settle_limits")
#: Offset in the control page of the software windows in DDR (``software_windows: ddr``;
#: the PYNQ side's, :meth:`SimBridge.watch`): a u64 count, then (base, size) u64 pairs, at most
#: :data:`WINDOWS_MAX`. The simulator pauses for the next request only after a PL write into a
#: software window (these, and the ``ps`` region, :attr:`SimConfig.ps_base`): a call's return
#: or a call into software. DMA data and buffer results in DDR are never paused for (a
#: caller that waits for them needs simulated time to pass).
CTL_WINDOWS = 512
WINDOWS_MAX = 8
#: Offset in the control page (u64, the PYNQ side's): runtimes of the PYNQ process in wait
#: mode ``interrupt`` (their pending bits enabled in the interrupt block). While there are
#: any, the simulator pauses after a PL write into a software window only once that write
#: is answered (its B response, at which the interrupt block raises ``irq``): such a runtime
#: wakes by the interrupt, not by the write's notification. Paused at the write itself, the
#: PL stood still two cycles before ``irq``, and the runtime slept until its fallback sweep.
CTL_IRQ_RUNTIMES = CTL_WINDOWS + 8 + 16 * WINDOWS_MAX
CTL_SIZE = 4096
#: Offset in the control page of the trace area (its last bytes; the area's format is the
#: trace layer's, :mod:`pushpush.trace.wire_request`): how ``ol.trace()`` starts and stops the
#: simulator's wire monitor (:mod:`.tracehook`).
CTL_TRACE = CTL_SIZE - TRACE_AREA_SIZE
#: Reset cycles at the start of a simulation (the harness holds reset this long).
RESET_CYCLES = 8
REQ = struct.Struct("<BIQI")
REP = struct.Struct("<BIBI")


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
    #: Idle throttling: after ``idle_s`` seconds without a request, a PL access to PS memory
    #: or software waiting for a reply, the simulator waits for a request (at least
    #: ``idle_ms``, and IDLE_FACTOR (40) times as long as its last turn took: ~3% of a core)
    #: between batches (``idle_ms`` 0: never). ``idle_batch``: the batch while idle.
    idle_s: float = 0.2
    idle_ms: float = 2.0
    idle_batch: int = 256
    busy_batch: int = 16
    waves: bool = False
    #: The top's AXI widths.
    #: Verilog macros for the build, name -> value as the source text would have it (e.g.
    #: ``PP_RISCV_MEM_DIR``: '"/abs/folder"', where the riscv components' programs are).
    defines: dict[str, str] = field(default_factory=dict)
    data_width: int = 32
    s_id_width: int = 12
    m_id_width: int = 12
    #: The top's port names when it is a stand-in (may lack optional AXI signals); [] = all.
    port_names: list[str] = field(default_factory=list)
    #: More PS memory ports of the top (masters into PS memory besides ``m_axi``, e.g. a
    #: DMA engine's on S_AXI_HP0): ``{"name", "prefix", "data_width", "id_width"}`` each;
    #: the harness gives each its own ``pp_sim_mem`` (codegen.simboard.PsMemPort).
    mem_ports: list[dict[str, Any]] = field(default_factory=list)
    #: The Zynq port the top's ``m_axi`` stands for: S_AXI_GP0, or S_AXI_HP0 with
    #: ``software_windows: ddr`` (both reach the on-chip memory and DDR; a comment only).
    m_axi_label: str = "S_AXI_GP0"
    #: hdl: wall clock per batch while busy (the batch of cycles adapts to it), the largest
    #: batch, and the cycles a GP0 transaction may wait for a handshake.
    poll_us: float = 100.0
    max_batch: int = 1 << 16
    gp0_timeout_cycles: int = 1_000_000
    #: hdl: after a PL write into PS memory that someone waited for (a GP0 request being
    #: served, a thread in ``wait_pl_write``), the simulator pauses until the next request,
    #: or until a caller needs simulated time to pass (the kick pipe; see handoff.Pause); this
    #: long (wall clock) is only the safety net, counted when reached; 0: never pause.
    handoff_us: float = 50000.0
    #: hdl, for designs whose software drives the PL by plain register accesses (a Vivado
    #: overlay: pushpush.pynq.foreign): after serving a GP0 access the simulator runs
    #: ``mmio_cycles`` cycles (the PL goes on while the ARM's next access is on its way) and
    #: then blocks until the next request, a kick, or ``mmio_gap_us`` of wall clock, instead
    #: of free-running batches meanwhile; a longer gap (software doing something else)
    #: lets the PL run on as before. 0: off (pushpush's own systems).
    mmio_gap_us: float = 0.0
    mmio_cycles: int = 64
    #: Filled in by SimBridge: the notification pipe's write end, the kick pipe's read end,
    #: the control page.
    notify_fd: int = -1
    kick_fd: int = -1
    ctl_mem_path: str = ""
    #: There are interrupt lines to watch (manifest ``ports.irq``/``ports.intr``), and the
    #: write end of the interrupt pipe (filled in by SimBridge).
    irq: bool = False
    irq_fd: int = -1
    #: The top's interrupt outputs in the order of the interrupt controller's inputs
    #: (manifest ``ports.intr``; empty with ``irq``: just ``irq``); the harness's ``pp_intr``.
    intr: list[str] = field(default_factory=list)
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


async def serve_requests(buf: bytearray, port: Any, send: Any, info: Any, run: Any,
                         touch: Any) -> bool:
    """Serve the complete requests at the start of ``buf`` (removing them): GP0 accesses
    through ``port`` (``write`` -> response, ``write_words`` -> (response, words written),
    ``read`` -> (response, data)), INFO, RUN (``await run(cycles)``); replies through
    ``send(op, tag, status, payload)``. ``touch()`` marks activity. False on STOP.

    A failing access is answered with status 0xFF and the error, then re-raised (the
    simulation fails and the PYNQ side reports it)."""
    while len(buf) >= REQ.size:
        op, tag, address, length = REQ.unpack_from(buf)
        need = REQ.size + (length if op in (OP_WRITE, OP_WRITE_WORDS) else 0)
        if len(buf) < need:
            break
        payload = bytes(buf[REQ.size:need])
        del buf[:need]
        touch()
        if op == OP_STOP:
            return False
        try:
            if op == OP_WRITE:
                send(op, tag, await port.write(address, payload))
            elif op == OP_WRITE_WORDS:
                resp, done = await port.write_words(address, payload)
                send(op, tag, resp, struct.pack("<I", done))
            elif op == OP_READ:
                resp, data = await port.read(address, length)
                send(op, tag, resp, data)
            elif op == OP_INFO:
                send(op, tag, 0, info())
            elif op == OP_RUN:
                await run(length)
                send(op, tag, 0, info())
            else:
                send(op, tag, 0xFF, f"unknown request {op}".encode())
        except Exception as e:
            send(op, tag, 0xFF, f"{type(e).__name__}: {e}".encode())
            raise
        touch()
    return True


#: the longest Unix socket path the kernel takes (sun_path is 108 bytes with its NUL), less
#: room for the socket file names the simulated board uses in its folder
_SOCKET_DIR_MAX = 107 - 16


def socket_dir(prefix: str) -> Path:
    """A new private folder for the simulated board's Unix sockets: under the temporary folder
    (``TMPDIR``) when a socket's path there fits a Unix socket address, else under ``/tmp``
    (a long ``TMPDIR``, e.g. pytest's under xdist, would make ``bind`` fail with "AF_UNIX path
    too long")."""
    for base in (tempfile.gettempdir(), "/tmp"):
        if len(os.fsencode(os.path.join(base, prefix + "x" * 8))) <= _SOCKET_DIR_MAX and os.path.isdir(base):
            return Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    raise OSError(f"no folder for the simulated board's sockets: TMPDIR ({tempfile.gettempdir()}) is "
                  f"too long for a Unix socket path and /tmp is missing; set TMPDIR to a short folder")


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

    def set_irq(self, level: int, cycle: int) -> None:
        """Record a change of the interrupt lines (``level``: bit i = input i) in the
        control page."""
        if self.control is not None:
            before, edges = struct.unpack_from("<QQ", self.control, CTL_IRQ_LEVEL)
            rose = level & ~before & ((1 << IRQ_INPUTS_MAX) - 1)
            while rose:   # counted before the level is written: a reader that sees the
                i = (rose & -rose).bit_length() - 1   # level low again sees the count
                at = CTL_IRQ_RISES + 4 * i
                n = struct.unpack_from("<I", self.control, at)[0]
                struct.pack_into("<I", self.control, at, (n + 1) & 0xFFFFFFFF)
                rose &= rose - 1
            struct.pack_into("<QQQQ", self.control, CTL_IRQ_LEVEL, level, edges + 1, cycle,
                             time.monotonic_ns())

    def stamp_write(self, cycle: int) -> None:
        """Record when the last PL write into PS memory was stored (cycle, host ns)."""
        if self.control is not None:
            struct.pack_into("<QQ", self.control, CTL_PLW_CYCLE, cycle, time.monotonic_ns())

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




def read_windows(ctl: Any) -> list[tuple[int, int]]:
    """The software windows in DDR the PYNQ side published (:data:`CTL_WINDOWS`)."""
    n = min(WINDOWS_MAX, struct.unpack_from("<Q", ctl, CTL_WINDOWS)[0])
    flat = struct.unpack_from(f"<{2 * n}Q", ctl, CTL_WINDOWS + 8) if n else ()
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(n)]


def in_windows(ranges: "list[tuple[int, int]]", address: int, length: int) -> bool:
    """Whether bytes ``address`` .. ``address + length`` touch one of ``ranges`` ((base, size)
    pairs)."""
    return any(address < base + size and base < address + max(1, length)
               for base, size in ranges)


_STATUS = struct.Struct("<7Q")
_SPENT = CTL_STATE + _STATUS.size
_COUNTS = _SPENT + 8 * len(SIM_STATES)


class SimStatus:
    """The simulator's side of :data:`CTL_STATE`: :meth:`enter` a state, :meth:`look` once
    per turn of its loop. ``ctl`` is the control page (None: nothing is written)."""

    def __init__(self, ctl: Any) -> None:
        self.ctl = ctl
        self.state = 0
        self.since = time.monotonic_ns()
        self.turns = 0

    def enter(self, state: str, cycle: int, arg: int = 0, address: int = 0) -> None:
        ctl = self.ctl
        if ctl is None:
            return
        now = time.monotonic_ns()
        at = _SPENT + 8 * self.state
        struct.pack_into("<Q", ctl, at, struct.unpack_from("<Q", ctl, at)[0] + now - self.since)
        self.state = SIM_STATES.index(state)
        self.since = now
        struct.pack_into("<5Q", ctl, CTL_STATE, self.state, cycle, now, arg, address)

    def count(self, name: str, n: int = 1) -> None:
        """Add ``n`` to counter ``name`` (:data:`SIM_COUNTERS`)."""
        if self.ctl is not None:
            at = _COUNTS + 8 * SIM_COUNTERS.index(name)
            struct.pack_into("<Q", self.ctl, at, struct.unpack_from("<Q", self.ctl, at)[0] + n)

    def look(self, cycle: int) -> None:
        if self.ctl is not None:
            self.turns += 1
            struct.pack_into("<QQ", self.ctl, CTL_STATE + 40, cycle, self.turns)


def read_status(ctl: Any) -> dict[str, Any]:
    """What the simulator is doing, from the control page ``ctl`` (see :data:`CTL_STATE`):
    ``state``, ``cycle`` (the last the simulator published: the state's start or its loop's
    last turn, whichever is later), ``since_s`` (seconds in this state), ``arg``,
    ``address``, ``turns`` and ``spent`` (seconds per state so far, the current one
    included)."""
    state, cycle0, ns, arg, address, looked, turns = _STATUS.unpack_from(ctl, CTL_STATE)
    spent = list(struct.unpack_from(f"<{len(SIM_STATES)}Q", ctl, _SPENT))
    counts = struct.unpack_from(f"<{len(SIM_COUNTERS)}Q", ctl, _COUNTS)
    now = time.monotonic_ns()
    name = SIM_STATES[state] if state < len(SIM_STATES) else f"state {state}"
    if state < len(SIM_STATES) and ns:
        spent[state] += max(0, now - ns)
    return {"state": name, "cycle": max(cycle0, looked), "since_s": (now - ns) / 1e9 if ns else 0.0,
            "arg": arg, "address": address, "turns": turns,
            "spent": {n: v / 1e9 for n, v in zip(SIM_STATES, spent)},
            "counts": dict(zip(SIM_COUNTERS, counts))}


def read_cycle(ctl: Any) -> int:
    """The cycle the simulator last published in the control page ``ctl`` (as
    :func:`read_status`'s ``cycle``, without the rest: a waiting caller reads it each poll)."""
    state_cycle = struct.unpack_from("<Q", ctl, CTL_STATE + 8)[0]
    looked = struct.unpack_from("<Q", ctl, CTL_STATE + 40)[0]
    return max(state_cycle, looked)


_OPS = {OP_WRITE: "a GP0 burst write", OP_READ: "a GP0 read", OP_WRITE_WORDS: "GP0 word writes",
        OP_INFO: "INFO", OP_RUN: "RUN", OP_STOP: "STOP"}


def describe_status(status: dict[str, Any]) -> str:
    """``status`` (:func:`read_status`) in words, e.g. ``"idle (blocked on its socket for up
    to 1.2 s, the PL stands still) for 0.8 s at cycle 4711"``."""
    state, arg = status["state"], status["arg"]
    if state == "running":
        what = f"running (a batch of {arg} cycles)"
    elif state == "idle":
        what = (f"idle (blocked on its socket for up to {arg / 1e6:.3g} s, woken by a request "
                "or a kick; the PL stands still)")
    elif state == "paused":
        what = (f"paused for the next request after a reply (at most {arg / 1e6:.3g} s; the "
                "PL stands still)")
    elif state == "serving":
        what = f"serving a request ({_OPS.get(arg, f'op {arg}')} at 0x{status['address']:08X})"
    else:
        what = state
    return f"{what} for {status['since_s']:.3g} s at cycle {status['cycle']}"
