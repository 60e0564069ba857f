"""The AXI DMAs' memory firewalls, kept by the Python runtime (``dma:`` and ``firewall:``).

In a system with ``firewall:`` every AXI DMA's memory master reaches PS memory through a
``pp_mem_firewall`` of its own (``<system>_dma_firewall``, two entries, its page at
:attr:`pushpush.link.DmaBlock.firewall`): default deny, so the DMA reads or writes only
where the runtime opened a range. PYNQ's driver (``pynq.lib.dma.DMA``) knows nothing of
it; :class:`GuardedChannel` wraps one of its channels (``sendchannel``: MM2S, reads;
``recvchannel``: S2MM, writes) so that

* ``transfer(buf, start, nbytes)`` opens the channel's entry for exactly the bytes the
  transfer touches (rounded out to the DMA's beats, as it reads and writes whole aligned
  words), clipped to ``buf``, when ``buf`` is a ``pynq.allocate`` buffer that is not freed
  (the buffer path's rule, :mod:`pushpush.runtime.firewall`); nothing for any other
  address, which the firewall then refuses;
* the entry closes when the transfer is over: ``wait()`` returned or raised, or the
  channel was seen idle or halted on the next ``transfer()``, or ``stop()``;
* a transfer the firewall refused (the DMA sees SLVERR and sets ``DMASlvErr``, halted)
  raises :class:`DmaTransferRefused` from ``wait()`` naming the DMA, the channel, the
  transfer's address and length, the refused burst and the range that was open (or why
  none was), including a transfer whose registers were written by hand.

:class:`DmaFirewall` is the table over register accessors (``read(offset)``,
``write(offset, value)``: the page's MMIO). Nothing here imports PYNQ: the overlay
(:mod:`pushpush.pynq.dma_guard`) wraps its DMA instances with it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..link import DmaBlock, FirewallBlock
from .firewall import READ, WRITE, ANY, Refusal, _freed, not_this_build

__all__ = ["DmaFirewall", "DmaTransferRefused", "GuardedChannel", "CHANNELS", "reset_recipe"]

#: channel attribute -> (entry, writes?, DMACR offset, what it is)
CHANNELS = {"sendchannel": (0, False, 0x00, "MM2S, memory to stream: reads"),
            "recvchannel": (1, True, 0x30, "S2MM, stream to memory: writes")}
#: DMASR bits (PG021): Halted, Idle, DMASlvErr, and the three error bits
_HALTED, _IDLE, _SLVERR, _ERRORS = 0x1, 0x2, 0x20, 0x70


def reset_recipe(dma: str) -> str:
    """How to make a DMA usable again after a refusal (its channel halted with DMASlvErr)."""
    return (f"the channel is halted with DMASlvErr until the DMA is reset: "
            f"pushpush.pynq.reset_dma(ol.{dma}) (or ol.{dma}.mmio.write(0x0, 0x4), then "
            f"sendchannel.start() and recvchannel.start())")


class DmaTransferRefused(RuntimeError):
    """A DMA transfer was refused by the DMA's memory firewall: ``dma``, ``channel``
    (``sendchannel``/``recvchannel``), the transfer's ``address`` and ``length`` and the
    refused burst (``refusal``, a :class:`pushpush.runtime.firewall.Refusal`; None when the
    firewall's latch held the other channel's refusal: the count says it refused). A
    ``RuntimeError``, as PYNQ's own "DMA Slave Error" is."""

    def __init__(self, dma: str, channel: str, address: int, length: int,
                 refusal: Optional[Refusal], detail: str) -> None:
        super().__init__(detail)
        self.dma, self.channel, self.address, self.length = dma, channel, address, length
        self.refusal = refusal


class DmaFirewall:
    """One DMA's firewall table (two entries: MM2S, S2MM) over its register page; made once
    per overlay, it checks the table's size, empties both entries, enables the check and
    clears the latch."""

    def __init__(self, dma: DmaBlock, read: Callable[[int], int],
                 write: Callable[[int, int], None]) -> None:
        block = dma.firewall
        if block is None:
            raise ValueError(f"DMA '{dma.name}' has no memory firewall (firewall: in the system's YAML)")
        self.dma, self.block = dma, block
        self._read, self._write = read, write
        self.beat = dma.data_width // 8
        self._lock = threading.Lock()
        info = read(FirewallBlock.INFO)
        if info & 0xFF != block.entries:
            raise not_this_build(f"DMA '{dma.name}'", "memory firewall", block.base, info & 0xFF, block.entries)
        for i in range(block.entries):
            write(FirewallBlock.ENTRY0 + 16 * i + 8, 0)
        write(FirewallBlock.CTRL, 1)
        write(FirewallBlock.BAD_INFO, 1 << 31)
        #: refused bursts already reported (REFUSED counts from the PL's reset)
        self.reported = read(FirewallBlock.REFUSED)
        #: by direction (True: S2MM writes): a refusal of that channel not latched (the latch
        #: held the other's when it came), still to be reported
        self.owed = {False: False, True: False}

    def range_of(self, first: int, nbytes: int) -> tuple[int, int]:
        """(first byte, last byte) of an entry for ``nbytes`` bytes at ``first``: whole beats
        of the DMA's memory-map width (it reads whole aligned words and realigns)."""
        b = self.beat
        return first & ~(b - 1), ((first + max(nbytes, 1) + b - 1) & ~(b - 1)) - 1

    def open(self, entry: int, first: int, nbytes: int, write: bool) -> tuple[int, int]:
        """Allow the DMA to read (or write) ``nbytes`` bytes from ``first`` in ``entry``; the
        range. The entry is closed (ATTR 0: made so here and by :meth:`close`, and a channel
        has one transfer at a time), so BASE, LIMIT, then ATTR: no half-written entry allows
        anything; three stores, one more to close."""
        lo, hi = self.range_of(first, nbytes)
        base = FirewallBlock.ENTRY0 + 16 * entry
        with self._lock:
            self._write(base, lo)
            self._write(base + 4, hi)
            self._write(base + 8, (WRITE if write else READ) | ANY if nbytes else 0)
        return lo, hi

    def close(self, entry: int) -> None:
        with self._lock:
            self._write(FirewallBlock.ENTRY0 + 16 * entry + 8, 0)

    def refused(self) -> int:
        """Bursts of the DMA refused since the PL's reset."""
        return self._read(FirewallBlock.REFUSED)

    def take_refusal(self, write: bool) -> tuple[bool, Optional[Refusal]]:
        """(whether the firewall refused a burst not reported yet, the latched refusal when
        it is of direction ``write``: then cleared, else None). Both channels' refusals
        share one latch, which keeps the first: the second is seen by the count only."""
        with self._lock:
            fresh = self._read(FirewallBlock.REFUSED) != self.reported or self.owed[write]
            info = self._read(FirewallBlock.BAD_INFO)
            if not info >> 31 or bool((info >> 30) & 1) != write:
                return fresh, None
            addr = self._read(FirewallBlock.BAD_ADDR)
            self._write(FirewallBlock.BAD_INFO, 1 << 31)
        return True, Refusal(addr, write, ((info >> 17) & 0xFF) + 1, 1 << ((info >> 25) & 7), 0, None)

    def mark_reported(self, write: bool, other_owed: bool) -> None:
        """Channel ``write``'s refusal has been reported, and every one counted so far but
        the other channel's when ``other_owed``."""
        with self._lock:
            self.reported = self._read(FirewallBlock.REFUSED)
            self.owed[write] = False
            self.owed[not write] = self.owed[not write] or other_owed


@dataclass
class _Pending:
    """The transfer the wrapper started on a channel: where, how long, and its range (or why
    it got none)."""

    address: int
    length: int
    range: Optional[tuple[int, int]]
    why_not: str = ""


class GuardedChannel:
    """One of PYNQ's DMA channels (``inner``) behind the DMA's firewall: every attribute but
    ``transfer``, ``wait``, ``wait_async``, ``stop`` and ``start`` is the inner channel's."""

    def __init__(self, inner: Any, name: str, firewall: DmaFirewall) -> None:
        if name not in CHANNELS:
            raise ValueError(f"a DMA channel is 'sendchannel' or 'recvchannel', not '{name}'")
        self._inner, self._name, self._fw = inner, name, firewall
        self._entry, self._write, self._cr, self._what = CHANNELS[name]
        self._pending: Optional[_Pending] = None

    def __getattr__(self, key: str) -> Any:
        return getattr(self._inner, key)

    def __repr__(self) -> str:
        return f"<{self._fw.dma.name}.{self._name} behind its memory firewall: {self._inner!r}>"

    # -- the transfer's life
    def transfer(self, array: Any, start: int = 0, nbytes: int = 0, **kwargs: Any) -> None:
        """PYNQ's ``transfer``, with the channel's entry opened for the bytes it touches first."""
        self._settle()
        n = int(nbytes) if nbytes else int(getattr(array, "nbytes", 0)) - int(start)
        address = int(getattr(array, "physical_address", 0) or 0) + int(start)
        self._pending = self._open(array, int(start), n, address)
        try:
            self._inner.transfer(array, start=start, nbytes=nbytes, **kwargs)
        except BaseException:
            self._finish()
            raise

    def wait(self) -> None:
        """PYNQ's ``wait``; a refused transfer raises :class:`DmaTransferRefused` (PYNQ's
        own raises "DMA Slave Error", or "DMA channel not started" when the channel halted
        before it looked). The entry closes unless the transfer is still under way (a timeout
        of the simulated board's watch: closed by ``stop()`` or the next transfer)."""
        try:
            self._inner.wait()
        except RuntimeError as e:
            self._raise_refused(e)
            raise
        except TimeoutError as e:   # the simulated board's watch (pushpush.pynq.simulated.dma)
            hint = self._other_refused()
            if hint:
                raise type(e)(f"{e} ({hint})") from e
            raise
        self._finish()

    def _other_refused(self) -> str:
        """Why this channel may never finish: the other one halted with DMASlvErr (MM2S
        refused: the stream was cut, no TLAST; S2MM refused: the stream is no longer taken)."""
        other = "recvchannel" if self._name == "sendchannel" else "sendchannel"
        if not int(self._inner._mmio.read(CHANNELS[other][2] + 4)) & _SLVERR:
            return ""
        return (f"{self._fw.dma.name}.{other} was halted by a refusal of the memory firewall "
                f"(DMASlvErr): call its wait() for the refusal, then "
                f"pushpush.pynq.reset_dma(ol.{self._fw.dma.name})")

    async def wait_async(self, poll_s: float = 0.05) -> None:
        """PYNQ's ``wait_async``. PYNQ's sleeps until the channel is idle, and a channel
        halted by an error is never idle (nor does PYNQ enable the error interrupt): so the
        status is also read every ``poll_s`` seconds, and a refusal raises
        :class:`DmaTransferRefused` (another error: RuntimeError, as PYNQ's ``wait``)."""
        import asyncio
        task = asyncio.ensure_future(self._inner.wait_async())
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=poll_s)
                if done:
                    task.result()
                    break
                status = self._status()
                if status & _ERRORS:
                    task.cancel()
                    self._raise_refused(None)
                    raise RuntimeError(f"DMA error (DMASR 0x{status:08X}: not the memory "
                                       "firewall's refusal; see PG021)")
        except RuntimeError as e:
            self._raise_refused(e)
            raise
        finally:
            if not task.done():
                task.cancel()
        self._finish()

    def stop(self) -> None:
        self._inner.stop()
        self._fw.owed[self._write] = False
        self._finish()

    def start(self) -> None:
        self._inner.start()

    # -- the entry
    def _open(self, array: Any, start: int, n: int, address: int) -> _Pending:
        size = getattr(array, "nbytes", None)
        if not hasattr(array, "physical_address") or size is None:
            return _Pending(address, n, None, "it is not a pynq.allocate buffer")
        if _freed(array):
            return _Pending(address, n, None, "its buffer was freed")
        lo, hi = max(start, 0), min(start + n, int(size))
        if hi <= lo:
            return _Pending(address, n, None, f"bytes {start}..{start + n} lie outside its buffer "
                                              f"of {size} bytes")
        base = int(array.physical_address)
        rng = self._fw.open(self._entry, base + lo, hi - lo, self._write)
        return _Pending(address, n, rng)

    def _finish(self) -> None:
        if self._pending is not None and self._pending.range is not None:
            self._fw.close(self._entry)
        self._pending = None

    def _status(self) -> int:
        return int(self._inner._mmio.read(self._cr + 4))

    def _settle(self) -> None:
        """Before a transfer: the previous one's entry closes if the channel is idle or
        halted (no wait() was called); a previous refusal is raised; a channel still busy
        with it is refused as PYNQ refuses it, before the entry is touched."""
        if self._pending is None:
            return
        status = self._status()
        if status & _SLVERR:
            self._raise_refused(None)
        if not status & (_IDLE | _HALTED) and not getattr(self._inner, "_first_transfer", False):
            raise RuntimeError(f"DMA channel not idle ({self._fw.dma.name}.{self._name}: its "
                               f"transfer of {self._pending.length} bytes at "
                               f"0x{self._pending.address:08X} is under way; wait() first)")
        self._finish()

    def _raise_refused(self, cause: Optional[BaseException]) -> None:
        """Raise :class:`DmaTransferRefused` when the firewall refused a burst of this
        channel's direction (latched), or the channel stopped with DMASlvErr and the firewall
        refused one not reported yet (the latch held the other channel's); return otherwise
        (another error: the caller re-raises it)."""
        fresh, r = self._fw.take_refusal(self._write)
        if r is None and not (fresh and self._status() & _SLVERR):
            return
        p = self._pending
        regs = self._inner._mmio
        if p is None:   # a transfer written by hand into the registers
            p = _Pending(int(regs.read(self._cr + 0x18)), int(regs.read(self._cr + 0x28)), None,
                         "its registers were written by hand (not through transfer()), so the "
                         "runtime cannot vouch for the address")
        if p.range is not None:
            why = f"the range open for it was 0x{p.range[0]:08X}..0x{p.range[1] + 1:08X}"
        else:
            why = f"no range was open for it: {p.why_not}"
        if r is not None:
            end = r.address + r.beats * r.beat_bytes
            burst = (f"{'wrote' if r.write else 'read'} {r.beats} x {r.beat_bytes} bytes at "
                     f"0x{r.address:08X}..0x{end:08X}")
        else:
            burst = (f"had a {'write' if self._write else 'read'} burst refused (which one is not "
                     "known: the firewall's latch held the other channel's refusal)")
        dma = self._fw.dma.name
        detail = (f"the memory firewall of {dma} refused {dma}.{self._name} ({self._what}): its "
                  f"transfer of {p.length} bytes at 0x{p.address:08X} {burst}, which did not "
                  f"reach memory (SLVERR, DMASlvErr); {why}. Pass a live pynq.allocate buffer "
                  f"to transfer() and keep start + nbytes inside it; {reset_recipe(dma)}")
        # the other channel halted with DMASlvErr too, while the latch held this one's: its
        # refusal is still to be reported (by the count)
        other = 0x34 if self._cr == 0 else 0x04
        self._fw.mark_reported(self._write, r is not None and bool(int(regs.read(other)) & _SLVERR))
        self._finish()
        raise DmaTransferRefused(dma, self._name, p.address, p.length, r, detail) from cause
