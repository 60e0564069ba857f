"""Waiting for the system top's interrupt through PYNQ's own ``pynq.Interrupt``.

The top raises ``irq`` (the OR of a pending bit per software component, set when the PL's
write into that component's window is answered; docs/architecture.md §2.3). A runtime in
``interrupt`` mode (:class:`pushpush.pynq.board.PynqBackend`) sleeps like this, per thread:

1. sweep the window; if nothing is there:
2. clear the component's pending bit (write 1 to the pending register), then return so the
   runtime sweeps once more (a write that landed before the clear is seen by that sweep);
3. if that sweep finds nothing either, sleep until the interrupt fires (or a timeout).

A write that lands after the clear sets the bit again, so the line is high and step 3
returns at once: no wake-up is lost, and one that lands while the runtime clears is seen
either by the sweep of step 2 or through the bit it sets after the clear.

:class:`IrqHub` is the one waiter per loaded overlay (shared by its runtimes): a thread
with its own asyncio loop awaits ``pynq.Interrupt("system_top_0/irq").wait()`` and counts
the firings (:attr:`IrqHub.generation`); runtimes' threads block on a condition variable
(no CPU while idle). After a firing it re-arms PYNQ's interrupt only when a runtime has
cleared its bit since (a level line still high would fire again at once: no busy loop while
a handler runs). On the board the same code waits on ``/dev/uioN``; on the simulated board
on :mod:`pushpush.pynq.simulated.interrupt`.

Example::

    rt = ol.runtime(wait="interrupt")        # or: rt.wait = "interrupt"
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any, Callable, Optional

__all__ = ["IrqHub", "hub_for", "IRQ_PIN"]

#: The top's interrupt pin as PYNQ names it (``Overlay.interrupt_pins``).
IRQ_PIN = "system_top_0/irq"

_hubs: "weakref.WeakValueDictionary[tuple[int, str], IrqHub]" = weakref.WeakValueDictionary()
_hubs_lock = threading.Lock()


class IrqHub:
    """One thread waiting on ``pynq.Interrupt(pin)`` for one loaded overlay (see the
    module docstring). Raises ``ValueError`` (PYNQ's) if the overlay has no such pin."""

    def __init__(self, pin: str = IRQ_PIN, start_timeout: float = 10.0) -> None:
        self.pin = pin
        self.cond = threading.Condition()
        #: Firings of the interrupt seen so far.
        self.generation = 0
        self.error: Optional[BaseException] = None
        #: Backends using this hub (:func:`hub_for` counts them, :meth:`release` too).
        self.users = 0
        self._stop = False
        self._loop = asyncio.new_event_loop()
        self._cleared: Optional[asyncio.Event] = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="pushpush-irq")
        self._thread.start()
        if not self._ready.wait(start_timeout):
            self.stop()
            raise TimeoutError(f"the interrupt waiter for '{pin}' did not start within "
                               f"{start_timeout:g} s")
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as e:  # noqa: BLE001 - reported to every waiter
            self.error = e
        finally:
            self._ready.set()
            with self.cond:
                self._stop = True
                self.cond.notify_all()
            self._loop.close()

    async def _main(self) -> None:
        from pynq import Interrupt

        irq = Interrupt(self.pin)
        self._cleared = asyncio.Event()
        self._ready.set()
        while not self._stop:
            try:
                await asyncio.wait_for(asyncio.shield(_wait(irq)), 0.5)
            except asyncio.TimeoutError:
                continue
            with self.cond:
                self.generation += 1
                self.cond.notify_all()
            self._cleared.clear()
            # re-arm only after a runtime cleared its bit (the line may still be high)
            while not self._stop:
                try:
                    await asyncio.wait_for(self._cleared.wait(), 0.5)
                    break
                except asyncio.TimeoutError:
                    continue
        pending = _waits.pop(irq, None)
        if pending is not None and not pending.done():
            pending.cancel()
            try:
                await pending
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - ending anyway
                pass

    def cleared(self, generation: int) -> None:
        """A runtime cleared its pending bit after it saw ``generation`` firings."""
        if not self._stop:
            try:
                self._loop.call_soon_threadsafe(self._on_cleared, generation)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _on_cleared(self, generation: int) -> None:
        if generation == self.generation and self._cleared is not None:
            self._cleared.set()

    def wait_beyond(self, generation: int, timeout: float,
                    until: Optional[Callable[[], bool]] = None) -> int:
        """Block until the interrupt fired after ``generation`` firings (or ``timeout``
        seconds, or the hub stopped, or ``until()`` is true: checked under :attr:`cond`, and
        again at every :meth:`wake`); returns the current count."""
        with self.cond:
            self.cond.wait_for(lambda: (self.generation != generation or self._stop
                                        or (until is not None and until())), timeout)
            if self.error is not None:
                raise self.error
            return self.generation

    def wake(self) -> None:
        """Have every thread in :meth:`wait_beyond` check its ``until`` now (a runtime that
        stops its serve thread)."""
        with self.cond:
            self.cond.notify_all()

    def release(self) -> None:
        """A backend no longer uses the hub; the last one stops it."""
        with _hubs_lock:
            self.users -= 1
            last = self.users <= 0
        if last:
            self.stop()

    @property
    def alive(self) -> bool:
        return not self._stop and self._thread.is_alive()

    def stop(self) -> None:
        with self.cond:
            self._stop = True
            self.cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(2.0)


_waits: "weakref.WeakKeyDictionary[Any, asyncio.Future[Any]]" = weakref.WeakKeyDictionary()


def _wait(irq: Any) -> "asyncio.Future[Any]":
    """``irq.wait()`` as one task that outlives a timeout of the waiter (a new wait is
    started only once the previous one ended)."""
    fut = _waits.get(irq)
    if fut is None or fut.done():
        fut = asyncio.ensure_future(irq.wait())
        _waits[irq] = fut
    return fut


def hub_for(device: Any, pin: str = IRQ_PIN) -> IrqHub:
    """The :class:`IrqHub` of the overlay loaded on ``device`` (made on first use; a new
    download makes a new one)."""
    key = (id(device), f"{getattr(device, 'timestamp', '')}|{pin}")
    with _hubs_lock:
        hub = _hubs.get(key)
        if hub is None or not hub.alive:
            hub = IrqHub(pin)
            _hubs[key] = hub
        hub.users += 1
        return hub
