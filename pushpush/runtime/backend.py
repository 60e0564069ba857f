"""The backend interface: what a runtime needs from the machine, four methods wide.

A backend belongs to one software component and knows where its window is. Addresses are
global byte addresses, word aligned; words are ints in ``0 <= w < 2**32``.

* ``write(address, words)``: one burst write on the global bus (the call or the return).
  Raises :class:`~pushpush.protocol.BusWriteError` on an error response (``"SLVERR"``:
  refused, e.g. a collision with a pending call; ``"DECERR"``: nothing mapped there).
* ``read_local(address, count)``: read words of the component's *own* window, locally (the
  ARM reading its on-chip memory): never bus traffic. Used to poll triggers.
* ``write_local(address, words)``: write words of the own window locally (clear a rep
  status after taking a result, re-arm a cep trigger after taking the arguments).
* ``sleep()``: pause between two polling sweeps (yield the CPU, or wait simulated clock
  cycles); a backend may return early when something was written. A backend may offer wait
  modes (``wait`` and ``set_wait(mode)``: ``sleep``, ``poll``, ``yield``, ``interrupt``;
  docs/runtime.md, "Waiting"); the runtime's ``wait`` property uses them.

Optional hooks a backend may have (the runtime looks them up, ``getattr``): ``handling(delta)``
(calls of the PL taken or answered), ``wait_over()`` (a caller waits no more),
``serve_paused()`` (the serve thread stops sweeping while a waiting caller serves),
``wait_report(waited)`` (a timeout's words on the other side); the simulated board's
backend (:class:`pushpush.pynq.board.PynqBackend`) has them all.

:class:`SyncBackend` is the blocking flavour (threads: scripts, notebooks, the board);
:class:`AsyncBackend` has ``async`` ``write`` and ``sleep`` (asyncio, cocotb), while the local
accesses stay synchronous (they are plain memory accesses in every implementation).

A cocotbext-axi backend is a few lines (see :mod:`pushpush.runtime.cocotb_backend`)::

    async def write(self, address, words):
        resp = await self.master.write(address, words_to_bytes(words))
        ...                                      # raise BusWriteError unless OKAY
    def read_local(self, address, count):
        return bytes_to_words(self.ram.read(address - self.base, 4 * count))
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

__all__ = ["SyncBackend", "AsyncBackend", "words_to_bytes", "bytes_to_words"]


@runtime_checkable
class SyncBackend(Protocol):
    """Blocking backend (see the module docstring for the contract of each method)."""

    def write(self, address: int, words: Sequence[int]) -> None: ...

    def read_local(self, address: int, count: int) -> list[int]: ...

    def write_local(self, address: int, words: Sequence[int]) -> None: ...

    def sleep(self) -> None: ...


@runtime_checkable
class AsyncBackend(Protocol):
    """asyncio backend: ``write`` and ``sleep`` are coroutines, local accesses are not."""

    async def write(self, address: int, words: Sequence[int]) -> None: ...

    def read_local(self, address: int, count: int) -> list[int]: ...

    def write_local(self, address: int, words: Sequence[int]) -> None: ...

    async def sleep(self) -> None: ...


def words_to_bytes(words: Sequence[int]) -> bytes:
    """Little-endian bytes of 32-bit words.

    >>> words_to_bytes([1, 0xA0B0C0D0]).hex()
    '01000000d0c0b0a0'
    """
    return struct.pack(f"<{len(words)}I", *words)


def bytes_to_words(data: bytes) -> list[int]:
    """32-bit little-endian words of ``data`` (length a multiple of 4).

    >>> bytes_to_words(bytes.fromhex('01000000d0c0b0a0')) == [1, 0xA0B0C0D0]
    True
    """
    if len(data) % 4:
        raise ValueError(f"{len(data)} bytes is not a whole number of 32-bit words")
    return list(struct.unpack(f"<{len(data) // 4}I", data))
