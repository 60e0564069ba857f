"""The PS side's HDL handles in the running simulation: the GP0 master and the memory ports.

The harness of the simulated board (:mod:`pushpush.codegen.simboard`) puts ``pp_sim_gp0`` (the
ARM's GP0 master, on the top's ``s_axi``) and one ``pp_sim_mem`` per PS memory port (on the
top's ``m_axi`` and any other master into PS memory) beside the system top. :class:`HdlPS` is
their Python side: it loads ``pp_sim_gp0``'s buffers for a request and waits for its
``done_toggle``, and answers ``pp_sim_mem``'s bursts from the shared memory (stores in
address order, :func:`~pushpush.simboard.ipc.store_words`). :class:`Handles` finds the
signals (:meth:`Handles.harness`); :func:`beat_plan` splits a GP0 access into AXI bursts.
The simulator's loop that drives it is :mod:`.hdl`; tests drive it under random
back-pressure (tests/cores). Was the first half of ``hdl.py``.
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

__all__ = ["HdlPS", "Handles", "MemPort", "beat_plan", "GP0Timeout", "OP_WRITE_BURST",
           "OP_WRITE_SINGLES", "OP_READ_BURST", "MAX_BEATS", "uint"]

OP_WRITE_BURST, OP_WRITE_SINGLES, OP_READ_BURST = 0, 1, 2
MAX_BEATS = 256


class GP0Timeout(RuntimeError):
    """A GP0 transaction got no handshake for the harness's timeout."""


def beat_plan(address: int, length: int, beat_bytes: int) -> list[tuple[int, int, int]]:
    """Split ``length`` bytes at ``address`` into INCR bursts as an AXI master must:
    ``(first beat address, beats, byte offset of the first beat's lane 0 relative to
    address)``; at most 256 beats, never across a 4 KiB boundary."""
    out = []
    start = address - address % beat_bytes
    end = address + length
    while start < end:
        boundary = (start // 4096 + 1) * 4096
        stop = min(end, boundary, start + MAX_BEATS * beat_bytes)
        beats = -(-(stop - start) // beat_bytes)
        out.append((start, beats, start - address))
        start += beats * beat_bytes
    return out


@dataclass
class Handles:
    """The simulator objects :class:`HdlPS` drives: ``gp`` (a ``pp_sim_gp0``, or None),
    ``mem`` (a ``pp_sim_mem``, or None) and the signals driving their inputs."""

    gp: Any
    mem: Any
    cmd_toggle: Any = None
    cmd_op: Any = None
    cmd_addr: Any = None
    cmd_len: Any = None
    wr_ack: Any = None
    wr_resp: Any = None
    rd_ack: Any = None
    rd_resp: Any = None

    #: More PS memory ports (``pp_sim_mem`` instances, e.g. ``hp0`` for a DMA engine's
    #: master): :class:`MemPort` each.
    extra: tuple["MemPort", ...] = ()

    @classmethod
    def harness(cls, dut: Any, extra: "tuple[tuple[str, int], ...]" = ()) -> "Handles":
        """The handles of ``pushpush_simboard`` (templates/verilog/simboard.v.j2); ``extra``:
        the harness's other PS memory ports as (instance name, data width)."""
        return cls(dut.gp0, dut.mem, dut.gp_cmd_toggle, dut.gp_cmd_op, dut.gp_cmd_addr,
                   dut.gp_cmd_len, dut.mem_wr_ack, dut.mem_wr_resp, dut.mem_rd_ack,
                   dut.mem_rd_resp,
                   extra=tuple(MemPort(getattr(dut, n), getattr(dut, f"{n}_wr_ack"),
                                       getattr(dut, f"{n}_wr_resp"), getattr(dut, f"{n}_rd_ack"),
                                       getattr(dut, f"{n}_rd_resp"), dw) for n, dw in extra))


@dataclass
class MemPort:
    """One more PS memory port of the harness: a ``pp_sim_mem`` and its answer registers."""

    mem: Any
    wr_ack: Any
    wr_resp: Any
    rd_ack: Any
    rd_resp: Any
    data_width: int = 32
    #: bursts stored and answered by Python so far (wr_ack flips), against the port's B
    #: responses (``wb_p``) before a pause (see serve_hdl's ``settle``)
    acked: int = 0


class HdlPS:
    """The Python side of ``pp_sim_gp0`` and ``pp_sim_mem`` in the running simulation.

    ``memory`` has ``write(address, data) -> bool`` and ``read(address, n) -> bytes | None``
    (:class:`~pushpush.simboard.ipc.SimulatedPSMemory`); ``on_access`` runs on every PL
    access to it, ``before_write(address, length)`` before a PL write is stored into it (its
    time stamp must come before the words can be seen), ``notify`` after every PL write."""

    def __init__(self, handles: Handles, memory: Any, *, data_width: int = 32,
                 on_access: Callable[[], None] = lambda: None,
                 notify: Callable[[], None] = lambda: None, timeout_cycles: int = 0,
                 before_write: Callable[[int, int], None] = lambda a, n: None) -> None:
        self.h = handles
        self.gp = handles.gp
        self.mem = handles.mem
        self.memory = memory
        self.on_access = on_access
        self.notify = notify
        self.before_write = before_write
        self.timeout_cycles = timeout_cycles
        self.beat_bytes = data_width // 8
        self._toggle = 0
        #: the memory port (``mem``, the top's m_axi) once started, or None
        self.port: Optional[MemPort] = None
        #: the last PL write into the memory (byte address, bytes), set before ``notify``
        self.written = (0, 0)
        #: CPU seconds this thread spent serving the PL's bursts (the batch of cycles is
        #: sized by the simulator's own cost, without them)
        self.event_cpu = 0.0

    def start(self) -> None:
        """Serve the memory port (when there is one) and the harness's other PS memory
        ports (``handles.extra``), all into the same memory."""
        import cocotb
        if self.mem is not None:
            self.port = MemPort(self.mem, self.h.wr_ack, self.h.wr_resp, self.h.rd_ack,
                                self.h.rd_resp, 8 * self.beat_bytes)
        ports = [self.port] if self.port is not None else []
        ports += list(self.h.extra)
        for port in ports:
            cocotb.start_soon(self._serve_writes(port))
            cocotb.start_soon(self._serve_reads(port))

    # ------------------------------------------------------------------ PL -> PS memory

    async def _serve_writes(self, port: MemPort) -> None:
        from cocotb.triggers import ValueChange
        m = port.mem
        bb = port.data_width // 8
        ack = 0
        while True:
            await ValueChange(m.wr_toggle)
            t0 = time.thread_time()
            self.on_access()
            addr = uint(m.wr_addr)
            n = uint(m.wr_len) + 1
            size = 1 << uint(m.wr_size)
            burst = uint(m.wr_burst)
            full = (1 << bb) - 1
            base = MAX_BEATS * uint(m.wr_slot)   # the burst's slot in wbuf/wstrb
            beats = [uint(m.wbuf[base + i]) for i in range(n)]
            strbs = [uint(m.wstrb[base + i]) for i in range(n)]
            self.before_write(addr, n * bb)
            if (burst == 1 and size == bb and addr % bb == 0 and all(s == full for s in strbs)):
                data = b"".join(b.to_bytes(bb, "little") for b in beats)
                ok = self.memory.write(addr, data)
            else:
                ok = True
                for i, a in enumerate(_beat_addresses(addr, n, size, burst)):
                    base = a - a % bb
                    raw = beats[i].to_bytes(bb, "little")
                    for lane in range(bb):
                        if strbs[i] >> lane & 1:
                            ok = self.memory.write(base + lane, raw[lane:lane + 1]) and ok
            port.wr_resp.value = 0 if ok else 3
            ack ^= 1
            port.wr_ack.value = ack
            port.acked += 1
            self.written = (addr, n * bb)
            self.notify()
            self.event_cpu += time.thread_time() - t0

    async def _serve_reads(self, port: MemPort) -> None:
        from cocotb.triggers import ValueChange
        m = port.mem
        bb = port.data_width // 8
        ack = 0
        while True:
            await ValueChange(m.rd_toggle)
            t0 = time.thread_time()
            self.on_access()
            addr = uint(m.rd_addr)
            n = uint(m.rd_len) + 1
            size = 1 << uint(m.rd_size)
            burst = uint(m.rd_burst)
            slot = MAX_BEATS * uint(m.rd_slot)   # the burst's slot in rbuf
            ok = True
            for i, a in enumerate(_beat_addresses(addr, n, size, burst)):
                base = a - a % bb
                data = self.memory.read(base, bb)
                if data is None:
                    ok = False
                    data = bytes(bb)
                m.rbuf[slot + i].value = int.from_bytes(data, "little")
            port.rd_resp.value = 0 if ok else 3
            ack ^= 1
            port.rd_ack.value = ack
            self.event_cpu += time.thread_time() - t0

    # ------------------------------------------------------------------ GP0 (PS -> PL)

    async def _command(self, op: int, address: int, beats: list[int], strbs: list[int],
                       count: int) -> tuple[int, int]:
        from cocotb.triggers import ValueChange
        g = self.gp
        for i, (b, s) in enumerate(zip(beats, strbs)):
            g.wbuf[i].value = b
            g.wstrb[i].value = s
        self.h.cmd_op.value = op
        self.h.cmd_addr.value = address
        self.h.cmd_len.value = count - 1
        self._toggle ^= 1
        self.h.cmd_toggle.value = self._toggle
        await ValueChange(g.done_toggle)
        if uint(g.done_timeout):
            stuck = {1: "AW/W (the top does not take the write)", 2: "B (no write response)",
                     3: "AR/R (no read data)"}.get(uint(g.done_state), "?")
            raise GP0Timeout(f"GP0 {('write', 'write', 'read')[op]} at 0x{address:08X}: no "
                             f"handshake on {stuck} for {self.timeout_cycles} cycles")
        return uint(g.done_resp), uint(g.done_beats)

    async def write(self, address: int, data: bytes) -> int:
        """One burst write (split as an AXI master must); returns the worst BRESP."""
        bb = self.beat_bytes
        worst = 0
        for start, n, rel in beat_plan(address, len(data), bb):
            beats, strbs = [], []
            for i in range(n):
                lo = rel + i * bb  # offset of this beat's lane 0 in data
                word = 0
                strb = 0
                for lane in range(bb):
                    j = lo + lane
                    if 0 <= j < len(data):
                        word |= data[j] << (8 * lane)
                        strb |= 1 << lane
                beats.append(word)
                strbs.append(strb)
            resp, _ = await self._command(OP_WRITE_BURST, start, beats, strbs, n)
            worst = max(worst, resp)
        return worst

    async def write_words(self, address: int, data: bytes) -> tuple[int, int]:
        """32-bit stores, one single-beat write each, in order; stops at the first error.
        Returns (response, words written before it)."""
        bb = self.beat_bytes
        words = struct.unpack(f"<{len(data) // 4}I", data)
        done = 0
        while done < len(words):
            chunk = words[done:done + MAX_BEATS]
            beats, strbs = [], []
            for i, w in enumerate(chunk):
                lane = (address + 4 * (done + i)) % bb
                beats.append(w << (8 * lane))
                strbs.append(0xF << lane)
            resp, ok = await self._command(OP_WRITE_SINGLES, address + 4 * done, beats, strbs,
                                           len(chunk))
            done += ok
            if resp & 2:
                return resp, done
        return 0, done

    async def read(self, address: int, length: int) -> tuple[int, bytes]:
        bb = self.beat_bytes
        out = bytearray()
        worst = 0
        for start, n, rel in beat_plan(address, length, bb):
            resp, _ = await self._command(OP_READ_BURST, start, [], [], n)
            worst = max(worst, resp)
            raw = b"".join(uint(self.gp.rbuf[i]).to_bytes(bb, "little") for i in range(n))
            out += raw[max(0, -rel):]
        return worst, bytes(out[:length])


def uint(handle: Any) -> int:
    """A signal's value as an unsigned int, read straight from the simulator (cocotb's
    ``int(handle.value)`` builds a LogicArray first: a few microseconds a read, a dozen reads
    a call). X or Z: cocotb's own error."""
    try:
        return int(handle._handle.get_signal_val_binstr(), 2)
    except (AttributeError, ValueError):
        return int(handle.value)


def _beat_addresses(addr: int, n: int, size: int, burst: int) -> list[int]:
    """The byte address of every beat of an AXI burst (FIXED, INCR, WRAP)."""
    if burst == 0:
        return [addr] * n
    aligned = addr - addr % size
    if burst == 2:
        span = size * n
        low = addr - addr % span
        return [low + (addr - low + i * size) % span for i in range(n)]
    return [addr] + [aligned + i * size for i in range(1, n)]

