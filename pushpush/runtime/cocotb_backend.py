"""An :class:`~pushpush.runtime.backend.AsyncBackend` over cocotbext-axi, for the simulated PS.

The ARM is modelled as an ``AxiMaster`` on the PS-to-PL port (its GP0 writes) and an
``AxiRam`` on the PL-to-PS port (the on-chip memory holding its endpoint window). The
runtime writes calls and returns through the master, and polls its window directly in the
RAM's memory (no bus traffic), as the ARM polls its OCM.

>>> backend = CocotbBackend(axi_master, ocm_ram, ram_base=linked.ps.base,   # doctest: +SKIP
...                         clock=dut.clk, poll_cycles=8)
>>> rt = AsyncRuntime(linked, "host", backend)                              # doctest: +SKIP

``ram_base`` is the global address of RAM offset 0. Time (for timeouts) is simulated time
in seconds; the serve loop and async handlers are started with ``cocotb.start_soon``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Awaitable

from ..protocol import BusWriteError
from .backend import AsyncBackend, bytes_to_words, words_to_bytes

__all__ = ["CocotbBackend"]


class CocotbBackend(AsyncBackend):
    """``write`` through an AxiMaster, local accesses to an AxiRam's memory, clock waits;
    its ``now`` and ``spawn`` hooks are cocotb's (simulated time, ``cocotb.start_soon``)."""

    def __init__(self, master: Any, ram: Any, ram_base: int, clock: Any = None,
                 poll_cycles: int = 4, poll_time_ns: float = 40.0) -> None:
        self.master = master
        self.ram = ram
        self.ram_base = ram_base
        self.clock = clock
        self.poll_cycles = poll_cycles
        self.poll_time_ns = poll_time_ns

    async def write(self, address: int, words: Sequence[int]) -> None:
        resp = await self.master.write(address, words_to_bytes(words))
        code = int(resp.resp)
        if code not in (0, 1):  # OKAY, EXOKAY
            raise BusWriteError(address, len(words), "SLVERR" if code == 2 else "DECERR")

    def read_local(self, address: int, count: int) -> list[int]:
        return bytes_to_words(bytes(self.ram.read(address - self.ram_base, 4 * count)))

    def write_local(self, address: int, words: Sequence[int]) -> None:
        self.ram.write(address - self.ram_base, words_to_bytes(words))

    async def sleep(self) -> None:
        if self.clock is not None:
            from cocotb.triggers import ClockCycles
            await ClockCycles(self.clock, self.poll_cycles)
        else:
            from cocotb.triggers import Timer
            await Timer(self.poll_time_ns, unit="ns")

    def now(self) -> float:
        from cocotb.utils import get_sim_time
        return float(get_sim_time(unit="sec"))

    def spawn(self, coro: Awaitable[Any]) -> Any:
        import cocotb
        return cocotb.start_soon(coro)
