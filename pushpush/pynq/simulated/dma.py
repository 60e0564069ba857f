"""A watchdog for PYNQ's DMA driver on the simulated board.

``pynq.lib.dma.DMA``'s ``sendchannel.wait()`` / ``recvchannel.wait()`` spin on the status
register with no timeout: a transfer that never finishes (a stream component that never
sends TLAST, a receive with nothing sent) hangs the notebook forever, on the board as here.
The simulated board watches the register accesses of every DMA of the loaded overlay (the
manifest's ``dmas``, :mod:`pushpush.pynq.simulated.simbit`) and, when a channel started by a LENGTH
write is still busy after its cycle budget, makes the status read raise
:class:`DmaTimeoutError` naming the DMA, the channel, the transfer and what to do. The
system keeps running: PushPush calls and other DMA channels are served as before, and the
channel can be stopped and started again (``dma.recvchannel.stop(); .start()``).

The budget is in simulated cycles (exact, whatever the machine's load): ``base + per_byte
* LENGTH`` with :data:`BASE_CYCLES` and :data:`CYCLES_PER_BYTE` (256 times slower than a
word per cycle: a stream component that stalls now and then stays well inside it), or a
fixed number set with ``device.dma_timeout_cycles = n`` or ``PUSHPUSH_DMA_TIMEOUT_CYCLES``.

>>> w = DmaWatch([{"name": "axi_dma_0", "base": 0x40400000, "size": 0x10000}], lambda: 0)
>>> w.owner(0x40400034)[1]
'recvchannel'
"""

from __future__ import annotations

import os
import struct
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

__all__ = ["DmaTimeoutError", "DmaWatch", "BASE_CYCLES", "CYCLES_PER_BYTE"]

#: Cycles any transfer may take, and cycles per byte on top of that.
BASE_CYCLES = 200_000
CYCLES_PER_BYTE = 64
#: How often (wall seconds) a polling loop asks the simulator for its cycle count.
CHECK_EVERY_S = 0.05

# PG021 direct register mode: (DMACR, DMASR, address, LENGTH) offsets of each channel
_CHANNELS = {"sendchannel": (0x00, 0x04, 0x18, 0x28), "recvchannel": (0x30, 0x34, 0x48, 0x58)}
_WHAT = {"sendchannel": "MM2S, memory to stream", "recvchannel": "S2MM, stream to memory"}


class DmaTimeoutError(TimeoutError):
    """A DMA transfer on the simulated board did not finish within its cycle budget."""


@dataclass
class _Transfer:
    address: int = 0
    length: int = 0
    start_cycle: Optional[int] = None
    last_check: float = 0.0


class DmaWatch:
    """The DMAs of one loaded overlay: ``dmas`` (name, base, size[, component]) and
    ``cycle()``, the simulator's cycle count."""

    def __init__(self, dmas: Sequence[dict[str, Any]], cycle: Callable[[], int],
                 fixed_cycles: Callable[[], Optional[int]] = lambda: None) -> None:
        self.dmas = [dict(d) for d in dmas]
        self.cycle = cycle
        #: The fixed budget in force (asked at every check: ``device.dma_timeout_cycles``).
        self.fixed_cycles = fixed_cycles
        self._state: dict[tuple[str, str], _Transfer] = {}

    def owner(self, address: int) -> Optional[tuple[dict[str, Any], str, int]]:
        """(the DMA, its channel, the register offset) of an address in a DMA's page."""
        for d in self.dmas:
            base = int(d["base"])
            if base <= address < base + int(d.get("size", 0x10000)):
                off = address - base
                channel = "recvchannel" if 0x30 <= (off & 0x3FF) < 0x60 else "sendchannel"
                return d, channel, off
        return None

    def budget(self, length: int) -> int:
        fixed = self.fixed_cycles()
        if fixed is None and os.environ.get("PUSHPUSH_DMA_TIMEOUT_CYCLES"):
            fixed = int(os.environ["PUSHPUSH_DMA_TIMEOUT_CYCLES"])
        if fixed is not None:
            return int(fixed)
        return BASE_CYCLES + CYCLES_PER_BYTE * int(length)

    def wrote(self, address: int, data: bytes) -> None:
        hit = self.owner(address)
        if hit is None or len(data) < 4:
            return
        d, channel, off = hit
        cr, _, addr_off, len_off = _CHANNELS[channel]
        t = self._state.setdefault((d["name"], channel), _Transfer())
        value = struct.unpack_from("<I", data)[0]
        if off == addr_off:
            t.address = value
        elif off == len_off:
            t.length = value
            t.start_cycle = self.cycle()
            t.last_check = time.monotonic()
        elif off == cr or (off == _CHANNELS["sendchannel"][0] and value & 0x4):
            t.start_cycle = None        # stop, start or reset: no transfer to watch

    def read(self, address: int, data: bytes) -> None:
        """A register read: raises :class:`DmaTimeoutError` for a busy channel past its budget."""
        hit = self.owner(address)
        if hit is None or len(data) < 4:
            return
        d, channel, off = hit
        if off != _CHANNELS[channel][1]:
            return
        t = self._state.get((d["name"], channel))
        if t is None or t.start_cycle is None:
            return
        status = struct.unpack_from("<I", data)[0]
        if status & 0x73:       # halted, idle or an error: the transfer is over (or failed)
            t.start_cycle = None
            return
        now = time.monotonic()
        if now - t.last_check < CHECK_EVERY_S:
            return
        t.last_check = now
        spent = self.cycle() - t.start_cycle
        limit = self.budget(t.length)
        if spent <= limit:
            return
        t.start_cycle = None            # report once; the next wait() starts counting again
        comp = d.get("component")
        stream = (f"component '{comp}' never took all of it from its s_axis_* port"
                  if channel == "sendchannel" else
                  f"component '{comp}' has not ended a packet with TLAST on its m_axis_* port "
                  f"(or sent nothing)") if comp else "the stream stopped"
        raise DmaTimeoutError(
            f"{d['name']}.{channel} ({_WHAT[channel]}): the transfer of {t.length} bytes at "
            f"0x{t.address:08X} has not finished after {spent} cycles (budget {limit}; "
            f"DMASR 0x{status:08X}: running, not idle): {stream}. PYNQ's wait() has no timeout; "
            f"the simulated board stops waiting here. The channel is still busy: stop and "
            f"start it ({d['name']}.{channel}.stop(); {d['name']}.{channel}.start()) before "
            f"the next transfer.")
