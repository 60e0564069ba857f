"""The backend interface: what a runtime needs from the machine, declared in one place.

A backend belongs to one software component and knows where its window is. Addresses are
global byte addresses, word aligned; words are ints in ``0 <= w < 2**32``.

**Four methods** every backend has (:class:`SyncBackend`: plain; :class:`AsyncBackend`:
``write`` and ``sleep`` are coroutines, the local accesses stay synchronous, as they are plain
memory accesses in every implementation):

* ``write(address, words)``: one burst write on the global bus (the call or the return).
  Raises :class:`~pushpush.protocol.BusWriteError` on an error response (``"SLVERR"``:
  refused, e.g. a collision with a pending call; ``"DECERR"``: nothing mapped there).
* ``read_local(address, count)``: read words of the component's *own* window, locally (the
  ARM reading its on-chip memory): never bus traffic. Used to poll triggers. The words come
  back in address order, but are **read from the highest address down** (or all at once),
  so each word is at least as new as every word above it: the runtime reads a trigger or
  status word (the last of its slot) and the words below it in one read, and may use them
  when it finds the trigger or status set (one uncached access per poll on the board).
* ``write_local(address, words)``: write words of the own window locally (clear a rep
  status after taking a result, re-arm a cep trigger after taking the arguments).
* ``sleep()``: pause between two polling sweeps (yield the CPU, or wait simulated clock
  cycles); a backend may return early when something was written.

**Hooks**: everything else the runtime asks of a backend, declared on :class:`Backend` with
the default of a machine that has no such feature; a backend overrides what it has (the
in-memory bus: wait modes; :class:`pushpush.pynq.board.PynqBackend`: claims, buffers,
interrupts, and on the simulated board the simulator's pacing, which it asks of
:mod:`pushpush.pynq.simulated.pacing`; :class:`~pushpush.runtime.cocotb_backend.CocotbBackend`: simulated time).
The runtime reads hooks from :func:`hooks_of` (the backend itself); an object with only the
four methods (a wrapper, a test double) gets every default. The hooks, by who calls them:

===================== ===================================================================
``wait``/``set_wait``  the wait mode (``sleep``, ``poll``, ``yield``, ``interrupt``;
                       docs/runtime.md, "Waiting"): ``RuntimeCore.wait``. Default: only
                       ``sleep``, and ``set_wait`` raises ``ValueError``
``allocate(n, dtype)`` a buffer the PL reaches (``pynq.allocate``), where numpy arrays
                       passed for buffer parameters and channels' data are copied; None:
                       the backend has none (default)
``firewall()``         the memory firewall's table (``firewall:``, issue 46): the caller
                       opens a range per buffer argument for the call. Default None
``slot_pending(a)``    whether a software window's cep trigger at ``a`` holds a call not
                       taken yet (the caller then waits as if refused; §2.2). Default False
``owner_of(c)``        (live?, owner) of software component ``c``'s runtime, from its claim,
                       for a timeout's message. Default: ``LookupError`` (no claims kept)
``restart_record``,    the caller's memory and the lent slots' journal kept in the claim
``restart_journal``    file across processes (§2.2, "Restarts and owners"). Default None
``handling(delta)``    the callee side took (> 0) or answered (< 0) calls of the PL.
                       Default: nothing
``wait_report(s)``     what the machine did in the last ``s`` seconds a call waited, for a
                       timeout's message. Default None
``wait_over()``        (sync) a caller's wait for a reply ended. Default: nothing
``progress_clock(c)``  the clock of one call the hardware answers within ``c`` clock cycles
                       while the machine runs (``RemoteFunction.with_cycles``; a channel's
                       calls, ``c`` infinite): seconds in which the machine made no progress
                       (the simulated board: its cycle count stood still), infinite once
                       ``c`` cycles passed, so that a host that runs the simulator slowly
                       never ends the wait. Default None: the machine always runs (a
                       board), the wall clock is that clock
``serve_paused()``     (sync) the serve thread stands down while a waiting caller serves.
                       Default: nothing
``stopping``, ``wake``  (sync) the serve thread's stop event (``SyncRuntime.start`` sets
                       it) and ``wake()``, called by ``stop()`` to end a sleep at once.
                       Default: no event, nothing to wake
``now()``, ``spawn(c)`` (async) the runtime's clock (seconds) and how it starts a task.
                       Default ``time.monotonic`` and ``asyncio.ensure_future``
===================== ===================================================================

Which thread is a runtime's serve thread is declared here too: :func:`in_serve_thread` (a
backend paces a serve thread and a waiting caller differently).

A cocotbext-axi backend is a few lines (see :mod:`pushpush.runtime.cocotb_backend`)::

    class MyBackend(AsyncBackend):
        async def write(self, address, words):
            resp = await self.master.write(address, words_to_bytes(words))
            ...                                  # raise BusWriteError unless OKAY
        def read_local(self, address, count):
            return bytes_to_words(self.ram.read(address - self.base, 4 * count))
"""

from __future__ import annotations

import asyncio
import struct
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Awaitable, Callable, Optional

__all__ = ["Backend", "SyncBackend", "AsyncBackend", "hooks_of", "in_serve_thread", "serve_thread",
           "words_to_bytes", "bytes_to_words"]


class Backend:
    """Every hook the runtime calls on a backend, with its default (see the module
    docstring's table). The four methods are :class:`SyncBackend`'s and
    :class:`AsyncBackend`'s."""

    #: (Sync) The serve thread's stop event: ``SyncRuntime.start`` sets it; a backend whose
    #: ``sleep`` blocks long ends it when this is set (see :meth:`wake`).
    stopping: Optional[threading.Event] = None

    # ------------------------------------------------------------------ wait modes

    @property
    def wait(self) -> str:
        """The wait mode; a backend without modes only ``sleep``s."""
        return "sleep"

    def set_wait(self, mode: str) -> None:
        """Change the wait mode (``ValueError`` when the backend cannot, saying why)."""
        raise ValueError(f"the backend {type(self).__name__} has no wait modes")

    # ------------------------------------------------------------------ the caller's side

    def allocate(self, n: int, dtype: str) -> Any:
        """A physically contiguous buffer of ``n`` elements the PL reaches, or None: this
        backend has no such memory (the caller then refuses numpy arrays for buffers)."""
        return None

    def firewall(self) -> Any:
        """This component's entries of the memory firewall's table
        (:class:`pushpush.runtime.firewall.FirewallTable`), or None: no firewall (default)."""
        return None

    def window_guard(self) -> Any:
        """The window guard's registers (:class:`pushpush.runtime.window_guard.WindowGuardView`),
        or None: none, or this backend does not reach them (default)."""
        return None

    def slot_pending(self, trigger_address: int) -> bool:
        """Whether a software window's cep trigger holds a call not taken yet."""
        return False

    def owner_of(self, component: str) -> Optional[tuple[Optional[bool], Any]]:
        """(live now?, owner) of another software component's runtime, None if it never had
        one; ``LookupError`` where nothing keeps claims (the default)."""
        raise LookupError(f"the backend {type(self).__name__} keeps no claims")

    #: The caller's memory of the component's imports kept across processes, or None (a
    #: backend with claims makes it a property: :class:`pushpush.pynq.board.PynqBackend`).
    restart_record: Any = None
    #: The journal of the run-time area's slots in use kept across processes, or None.
    restart_journal: Any = None

    def wait_report(self, waited: float) -> Optional[str]:
        """What the machine did during the last ``waited`` seconds of a call's wait, or None."""
        return None

    def wait_over(self) -> None:
        """(Sync) A caller's wait for a reply ended (returned, failed or timed out)."""

    def progress_clock(self, cycles: float) -> Optional[Callable[[], float]]:
        """A new clock for one call the hardware answers within ``cycles`` clock cycles
        while the machine runs (see the table; the clock's optional ``report()`` says what it
        measured, for a timeout's message), or None (default): the machine always runs, the
        runtime's wall clock serves."""
        return None

    # ------------------------------------------------------------------ the callee's side

    def handling(self, delta: int) -> None:
        """The runtime took (``delta`` > 0) or answered (< 0) calls of the PL."""

    def serve_paused(self) -> None:
        """(Sync) The serve thread stops sweeping for a while (a waiting caller serves)."""

    def wake(self) -> None:
        """(Sync) The serve thread is told to stop (:attr:`stopping` is set): end its sleep."""

    # ------------------------------------------------------------------ asyncio

    def now(self) -> float:
        """(Async) The runtime's clock for timeouts, in seconds."""
        return time.monotonic()

    def spawn(self, coro: Awaitable[Any]) -> Any:
        """(Async) Start ``coro`` as a task (the serve loop, async handlers)."""
        return asyncio.ensure_future(coro)


class SyncBackend(Backend, ABC):
    """Blocking backend (see the module docstring for the contract of each method)."""

    @abstractmethod
    def write(self, address: int, words: Sequence[int]) -> None: ...

    @abstractmethod
    def read_local(self, address: int, count: int) -> list[int]: ...

    @abstractmethod
    def write_local(self, address: int, words: Sequence[int]) -> None: ...

    @abstractmethod
    def sleep(self) -> None: ...


class AsyncBackend(Backend, ABC):
    """asyncio backend: ``write`` and ``sleep`` are coroutines, local accesses are not."""

    @abstractmethod
    async def write(self, address: int, words: Sequence[int]) -> None: ...

    @abstractmethod
    def read_local(self, address: int, count: int) -> list[int]: ...

    @abstractmethod
    def write_local(self, address: int, words: Sequence[int]) -> None: ...

    @abstractmethod
    async def sleep(self) -> None: ...


def hooks_of(backend: object) -> Backend:
    """Where the runtime finds ``backend``'s hooks: the backend itself when it is a
    :class:`Backend`; for an object with only the four methods, the defaults."""
    return backend if isinstance(backend, Backend) else Backend()


class _ServeThread(threading.local):
    """Per thread: whether it is a runtime's serve thread."""

    serving = False


_SERVE = _ServeThread()


def in_serve_thread() -> bool:
    """Whether the calling thread is a runtime's serve thread (``SyncRuntime.start``'s: it
    sweeps for calls; any other thread in a backend's ``sleep`` waits for a reply)."""
    return _SERVE.serving


def serve_thread(target: Any) -> Any:
    """``target`` (a thread's function) run as a serve thread (:func:`in_serve_thread`)."""
    def run() -> None:
        _SERVE.serving = True
        try:
            target()
        finally:
            _SERVE.serving = False
    return run


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
