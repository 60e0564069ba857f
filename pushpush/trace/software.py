"""Events of the Python runtime while a trace records: call issued, reply seen, callee
entered and left (docs/trace.md, "Software events").

The runtime calls :func:`note` at those four places (one line each in
:mod:`pushpush.runtime.core`, guarded by :data:`ACTIVE` so that a runtime without a trace pays
one attribute read). The time of an event is the recorder's clock: on the simulated board the
simulator's clock cycle as its control page says (the cycle of the simulator's latest look;
the PL stands still while software answers a call of the PL, so that is the cycle the event
happened at, within one turn of the simulator's loop), plus the host's monotonic time.

Example::

    rec = start(clock=lambda: 0)
    note("issued", "host", "callee.f")
    events = stop()      # [["issued", 0, "host", "callee.f", ns, 0], ...]
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

__all__ = ["ACTIVE", "note", "start", "stop", "Recorder", "KINDS"]

#: The event kinds.
KINDS = ("issued", "seen", "entered", "left")
#: True while a recorder records (read by the runtime's hooks before calling :func:`note`).
ACTIVE = False


class Recorder:
    """Collects events; ``clock()`` gives the cycle."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.clock = clock
        self.events: list[list[Any]] = []
        self.lock = threading.Lock()

    def add(self, kind: str, component: str, name: str, address: int = 0) -> None:
        try:
            cyc = int(self.clock())
        except Exception:   # the board went away: the event without its cycle
            cyc = -1
        with self.lock:
            self.events.append([kind, cyc, component, name, time.monotonic_ns(), address])


_recorder: Optional[Recorder] = None


def note(kind: str, component: str, name: str, address: int = 0) -> None:
    """Record one event (``kind`` one of :data:`KINDS`) of software component ``component``
    about function ``name`` (a callee: its slot's address); nothing when no recorder is
    active."""
    r = _recorder
    if r is not None:
        r.add(kind, component, name, address)


def start(clock: Callable[[], int]) -> Recorder:
    """Start recording (one recorder per process at a time)."""
    global _recorder, ACTIVE
    if _recorder is not None:
        raise RuntimeError("a trace is already recording in this process: end its "
                           "'with ol.trace(...)' block first")
    _recorder = Recorder(clock)
    ACTIVE = True
    return _recorder


def stop() -> list[list[Any]]:
    """Stop recording; the events recorded."""
    global _recorder, ACTIVE
    r, _recorder = _recorder, None
    ACTIVE = False
    return [] if r is None else list(r.events)
