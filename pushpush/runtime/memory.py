"""A test double of the bus: software components sharing windows held in Python lists.

:class:`MemoryBus` is **not** a model of the hardware. It stands in for the interconnect and
the components' endpoint memories so the runtime can be tested without a simulator: every
window of a linked system is a list of words, a burst write lands atomically, and the rules
that matter to callers are kept from ``pp_endpoint_mem``:

* a write to an address outside every window is refused with ``DECERR``;
* a burst whose last word (the trigger) lands on a non-zero word is a collision: it is
  refused whole with ``SLVERR`` and counted in :attr:`MemoryBus.collisions`.

Each software component gets a backend from the bus (:meth:`MemoryBus.sync_backend`,
:meth:`MemoryBus.async_backend`); its ``read_local``/``write_local`` reach only its own
window, and :attr:`MemoryBus.bursts` counts bus writes (so tests can check that an idle
runtime puts no traffic on the bus).

>>> from pushpush.runtime.memory import MemoryBus
>>> bus = MemoryBus()
>>> bus.add_window("a", 0x1000, 0x100)
>>> bus.write(0x1000, [5, 0x2000])
>>> bus.read(0x1000, 2) == [5, 0x2000]
True
>>> bus.write(0x1000, [6, 0x2000])
Traceback (most recent call last):
...
pushpush.protocol.BusWriteError: write of 2 word(s) to 0x00001000 failed: SLVERR
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from ..link import LinkedSystem
from ..protocol import WORD_BYTES, BusWriteError
from .backend import AsyncBackend, Backend, SyncBackend

__all__ = ["MemoryBus", "MemorySyncBackend", "MemoryAsyncBackend"]

#: Longest pause between polling sweeps on the test bus (a write wakes sleepers earlier).
DEFAULT_POLL_INTERVAL = 0.005


@dataclass
class _Window:
    name: str
    base: int
    size: int
    words: list[int]

    def __post_init__(self) -> None:
        self.end = self.base + self.size

    def contains(self, address: int, count: int) -> bool:
        return self.base <= address and address + WORD_BYTES * count <= self.end


class MemoryBus:
    """Windows of several components as lists of words, shared by their backends.

    ``MemoryBus(linked)`` creates a window for every component of a linked system (rtl
    windows too: writes to them land, but nothing serves them).
    """

    def __init__(self, linked: Optional[LinkedSystem] = None) -> None:
        self._windows: dict[str, _Window] = {}
        self.linked = linked
        self._list: tuple[_Window, ...] = ()
        # taken directly (a C lock) on the hot paths; the condition wakes sleepers
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        #: Threads waiting in :meth:`MemorySyncBackend.sleep` (no notify when there are none).
        self._sleepers = 0
        self._async_waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        #: Number of burst writes accepted or refused so far.
        self.bursts = 0
        #: Number of bursts refused because their trigger word was already non-zero.
        self.collisions = 0
        #: Incremented by every accepted burst (sleepers compare it to skip a missed wake-up).
        self.version = 0
        if linked is not None:
            for c in linked.components:
                self.add_window(c.name, c.base, c.size)

    def add_window(self, name: str, base: int, size: int) -> None:
        if base % WORD_BYTES or size % WORD_BYTES:
            raise ValueError("window base and size must be word aligned")
        for w in self._windows.values():
            if base < w.base + w.size and w.base < base + size:
                raise ValueError(f"window '{name}' overlaps window '{w.name}'")
        self._windows[name] = _Window(name, base, size, [0] * (size // WORD_BYTES))
        self._list = tuple(self._windows.values())

    def linked_component(self, name: str) -> "Optional[Any]":
        """The linked component of a window, when the bus was made from a linked system."""
        if self.linked is None:
            return None
        try:
            return self.linked.component(name)
        except KeyError:
            return None

    def window(self, name: str) -> _Window:
        return self._windows[name]

    def _find(self, address: int, count: int) -> Optional[_Window]:
        end = address + WORD_BYTES * count
        for w in self._list:
            if w.base <= address and end <= w.end:
                return w
        return None

    # -- global bus ------------------------------------------------------------------

    def write(self, address: int, words: Sequence[int]) -> None:
        """One burst: lands whole, or is refused whole with :class:`BusWriteError`."""
        words = [int(x) for x in words]
        if address % WORD_BYTES or not words:
            raise ValueError(f"bad burst: address 0x{address:X}, {len(words)} words")
        if min(words) < 0 or max(words) > 0xFFFF_FFFF:
            raise ValueError("burst words must be 32-bit unsigned integers")
        with self._lock:
            self.bursts += 1
            w = self._find(address, len(words))
            if w is None:
                raise BusWriteError(address, len(words), "DECERR")
            first = (address - w.base) // WORD_BYTES
            last = first + len(words) - 1
            if w.words[last] != 0:
                self.collisions += 1
                raise BusWriteError(address, len(words), "SLVERR")
            w.words[first : last + 1] = words
            self.version += 1
            self._wake()

    def _wake(self) -> None:
        if self._sleepers:
            self._cond.notify_all()
        if self._async_waiters:
            waiters, self._async_waiters = self._async_waiters, []
            for loop, fut in waiters:
                loop.call_soon_threadsafe(_resolve, fut)

    # -- local access (what a backend exposes for its own window) ------------------------

    def read(self, address: int, count: int) -> list[int]:
        with self._lock:
            w = self._find(address, count)
            if w is None:
                raise ValueError(f"0x{address:08X}+{count} words is not inside one window")
            first = (address - w.base) // WORD_BYTES
            return w.words[first : first + count]

    def write_raw(self, address: int, words: Sequence[int]) -> None:
        """Store words without the bus rules (local writes)."""
        with self._lock:
            w = self._find(address, len(words))
            if w is None:
                raise ValueError(f"0x{address:08X}+{len(words)} words is not inside one window")
            first = (address - w.base) // WORD_BYTES
            w.words[first : first + len(words)] = [int(x) for x in words]

    def sync_backend(self, component: str, poll_interval: float = DEFAULT_POLL_INTERVAL) -> "MemorySyncBackend":
        return MemorySyncBackend(self, component, poll_interval)

    def async_backend(self, component: str, poll_interval: float = DEFAULT_POLL_INTERVAL) -> "MemoryAsyncBackend":
        return MemoryAsyncBackend(self, component, poll_interval)


def _resolve(fut: "asyncio.Future[None]") -> None:
    if not fut.done():
        fut.set_result(None)


class _MemoryBackendBase(Backend):
    def __init__(self, bus: MemoryBus, component: str, poll_interval: float) -> None:
        self.bus = bus
        self.component = component
        self.poll_interval = poll_interval
        self._window = bus.window(component)
        self._words = self._window.words
        self._base = self._window.base
        self._end = self._window.end
        comp = bus.linked_component(component)
        self._wait = (comp.wait if comp is not None and comp.wait else "sleep")

    @property
    def wait(self) -> str:
        return self._wait

    def set_wait(self, mode: str) -> None:
        """``sleep`` and ``interrupt`` wait for the next burst on the bus (the in-memory
        bus's "interrupt": any accepted write wakes the sleepers), ``poll`` returns at
        once, ``yield`` yields the CPU (``os.sched_yield``; asyncio: ``sleep(0)``)."""
        from ..link import WAIT_MODES
        if mode not in WAIT_MODES:
            raise ValueError(f"wait mode {mode!r}: use one of {', '.join(WAIT_MODES)}")
        self._wait = mode

    def _check_local(self, address: int, count: int) -> None:
        if not self._window.contains(address, count):
            raise ValueError(
                f"0x{address:08X}+{count} words is outside the window of '{self.component}': "
                "local accesses reach only the own window")

    def read_local(self, address: int, count: int) -> list[int]:
        if not (self._base <= address and address + WORD_BYTES * count <= self._end) or address % WORD_BYTES:
            self._check_local(address, count)
            return self.bus.read(address, count)  # the usual errors
        first = (address - self._base) >> 2
        with self.bus._lock:
            return self._words[first : first + count]

    def write_local(self, address: int, words: Sequence[int]) -> None:
        n = len(words)
        if not (self._base <= address and address + WORD_BYTES * n <= self._end) or address % WORD_BYTES:
            self._check_local(address, n)
            self.bus.write_raw(address, words)
            return
        first = (address - self._base) >> 2
        values = [int(x) for x in words]
        with self.bus._lock:
            self._words[first : first + n] = values


class MemorySyncBackend(_MemoryBackendBase, SyncBackend):
    """Blocking backend of one component on a :class:`MemoryBus` (shareable by threads)."""

    def __init__(self, bus: MemoryBus, component: str, poll_interval: float) -> None:
        super().__init__(bus, component, poll_interval)
        self._seen = threading.local()

    def write(self, address: int, words: Sequence[int]) -> None:
        self.bus.write(address, words)

    def sleep(self) -> None:
        """Wait for the next burst on the bus (at most ``poll_interval``); returns at once if
        a burst arrived since this thread last slept. ``poll``/``yield`` modes do not wait."""
        mode = self._wait
        if mode == "poll":
            return
        if mode == "yield":
            os.sched_yield()
            return
        bus = self.bus
        with bus._cond:
            if getattr(self._seen, "version", -1) == bus.version:
                bus._sleepers += 1
                try:
                    bus._cond.wait(self.poll_interval)
                finally:
                    bus._sleepers -= 1
            self._seen.version = bus.version


class MemoryAsyncBackend(_MemoryBackendBase, AsyncBackend):
    """asyncio backend of one component on a :class:`MemoryBus`."""

    async def write(self, address: int, words: Sequence[int]) -> None:
        self.bus.write(address, words)
        await asyncio.sleep(0)

    async def sleep(self) -> None:
        """Wait for the next burst on the bus, at most ``poll_interval`` (``poll``/``yield``
        modes: only give the event loop its turn)."""
        if self._wait in ("poll", "yield"):
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self.bus._cond:
            self.bus._async_waiters.append((loop, fut))
        timer = loop.call_later(self.poll_interval, _resolve, fut)
        try:
            await fut
        finally:
            timer.cancel()
            with self.bus._cond:
                try:
                    self.bus._async_waiters.remove((loop, fut))
                except ValueError:
                    pass
