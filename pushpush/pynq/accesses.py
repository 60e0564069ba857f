"""The uncached accesses a Python runtime makes on the board path, counted; the board estimate.

On a PYNQ-Z1 a Python runtime reaches the PL and its own window only through uncached
memory: the system top's GP0 window (``MMIO.array``, a numpy view of ``/dev/mem``; the
simulated board: PYNQ's ``MMIO.write``) and the software windows in the on-chip memory (a
numpy view of ``/dev/mem`` there, of shared memory on the simulated board). Each
Python-level access (one slice store, one slice or item load, one ``MMIO.read``/``write``)
costs the interpreter's work around its loads or stores, tens of microseconds on the
board's Cortex-A9: far more than the bus cycles it makes. So what a Python call costs on
the board is, to first order, its number of accesses times that cost (:data:`ACCESS_US`).

:func:`counting` puts counters on one :class:`~pushpush.pynq.board.PynqBackend`: its views
of the ``ps`` region and of the PL window (the board's path) and its PL ``MMIO`` (the
simulated board's path), and its ``sleep`` (a caller's or a serve loop's wake-ups). On the
simulated board the backend's code is the board's, running against PYNQ's own MMIO and
numpy views of shared memory, so the counts are the board path's: one access per store or
load the backend makes, whichever of the two PL paths it takes. ``pushpush bench callpath
--board`` counts one call of each kind (:mod:`pushpush.bench.experiments.callpath.board`).

Example::

    with counting(rt.backend) as log:
        rt.hw.f(1)
    log.accesses(), log.wakes        # e.g. 4 accesses, 0 wake-ups (the reply at the first look)
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

import numpy as np

__all__ = ["Access", "AccessLog", "counting", "ACCESS_US", "ACCESS_US_RANGE", "ACCESS_SOURCE",
           "estimate_calls_per_s"]

#: The assumed cost of one Python-level uncached access on a PYNQ-Z1 (Cortex-A9, 650 MHz),
#: microseconds, and its range: a PYNQ user's loop of 5,600 ``MMIO.write`` calls took
#: 150-200 ms (27-36 us each; PYNQ 2.x, PYNQ-Z1). The maintainers' answer there: a numpy
#: view of ``MMIO.array`` is "substantially" faster, which is what the runtime uses, so the
#: estimate is on the slow side (no figure for the view is published).
ACCESS_US = 30.0
ACCESS_US_RANGE = (27.0, 36.0)
ACCESS_SOURCE = "https://discuss.pynq.io/t/mmio-write-is-too-slow/389"


def estimate_calls_per_s(accesses: float) -> tuple[float, float, float]:
    """Calls/s on a PYNQ-Z1 when a call costs ``accesses`` uncached accesses from Python at
    :data:`ACCESS_US` each: (central, low, high). The accesses only: the runtime's other
    Python work per call comes on top, so these are upper bounds."""
    lo_us, hi_us = ACCESS_US_RANGE
    return (1e6 / (accesses * ACCESS_US), 1e6 / (accesses * hi_us), 1e6 / (accesses * lo_us))


@dataclass(frozen=True)
class Access:
    """One Python-level access: ``region`` ``"gp0"`` (the PL window) or ``"ps"`` (the
    software windows), ``op`` ``"r"`` or ``"w"``, the byte ``address`` of its lowest word and
    its ``words``; ``thread`` the id of the thread that made it."""

    region: str
    op: str
    address: int
    words: int
    thread: int


@dataclass
class AccessLog:
    """The accesses and wake-ups (``sleep`` calls) of one backend while counted."""

    log: list[Access] = field(default_factory=list)
    wakes: int = 0

    def accesses(self, region: Optional[str] = None, op: Optional[str] = None) -> int:
        """How many accesses (of ``region`` and ``op`` when given)."""
        return sum(1 for a in self.log if (region is None or a.region == region)
                   and (op is None or a.op == op))

    def words(self, region: Optional[str] = None, op: Optional[str] = None) -> int:
        """How many 32-bit words they moved."""
        return sum(a.words for a in self.log if (region is None or a.region == region)
                   and (op is None or a.op == op))

    def clear(self) -> None:
        self.log.clear()
        self.wakes = 0


_INSIDE = threading.local()


class _CountedView(np.ndarray):
    """A uint32 view whose item and slice loads and stores are logged (one access each)."""

    _pp_log: AccessLog
    _pp_region: str
    _pp_base: int

    def _note(self, op: str, key: Any, words: int) -> None:
        if getattr(_INSIDE, "store", False):   # numpy's own look-up within a store
            return
        if isinstance(key, slice):
            idx = range(*key.indices(len(self)))
            first = min(idx) if len(idx) else 0
        else:
            first = int(key)
        self._pp_log.log.append(Access(self._pp_region, op, self._pp_base + 4 * first, words,
                                       threading.get_ident()))

    def __getitem__(self, key: Any) -> Any:
        out = super().__getitem__(key)
        if isinstance(out, np.ndarray):
            self._note("r", key, int(out.size))
            return out.view(np.ndarray)   # (its own loads are this access)
        self._note("r", key, 1)
        return out

    def __setitem__(self, key: Any, value: Any) -> None:
        words = len(range(*key.indices(len(self)))) if isinstance(key, slice) else 1
        self._note("w", key, words)
        _INSIDE.store = True   # (numpy indexes a subclass again to store into it: not an access)
        try:
            super().__setitem__(key, value)
        finally:
            _INSIDE.store = False


def _counted(view: np.ndarray, log: AccessLog, region: str, base: int) -> _CountedView:
    v = view.view(_CountedView)
    v._pp_log, v._pp_region, v._pp_base = log, region, base
    return v


class _CountedMMIO:
    """A ``pynq.MMIO`` whose ``read``/``write`` calls are logged (one access each)."""

    def __init__(self, mmio: Any, log: AccessLog, base: int) -> None:
        self._mmio, self._log, self._base = mmio, log, base

    def read(self, offset: int = 0, length: int = 4, *args: Any, **kwargs: Any) -> Any:
        self._log.log.append(Access("gp0", "r", self._base + offset, max(1, length // 4),
                                    threading.get_ident()))
        return self._mmio.read(offset, length, *args, **kwargs)

    def write(self, offset: int, data: Any) -> None:
        words = len(data) // 4 if isinstance(data, (bytes, bytearray)) else 1
        self._log.log.append(Access("gp0", "w", self._base + offset, words, threading.get_ident()))
        self._mmio.write(offset, data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mmio, name)


@contextmanager
def counting(backend: Any) -> Iterator[AccessLog]:
    """Count ``backend``'s (a :class:`~pushpush.pynq.board.PynqBackend`) uncached accesses and
    wake-ups until the block ends; the counters come off again after it."""
    log = AccessLog()
    saved = {k: backend.__dict__[k] for k in ("ps", "pl_array", "pl_mmio") if k in backend.__dict__}
    had_sleep = "sleep" in backend.__dict__
    plain_sleep = backend.sleep

    def sleep() -> None:
        log.wakes += 1
        plain_sleep()

    backend.ps = _counted(backend.ps, log, "ps", backend.ps_base)
    if backend.pl_array is not None:
        backend.pl_array = _counted(backend.pl_array, log, "gp0", backend.pl_base)
    if backend.pl_mmio is not None:
        backend.pl_mmio = _CountedMMIO(backend.pl_mmio, log, backend.pl_base)
    backend.sleep = sleep
    try:
        yield log
    finally:
        for k, v in saved.items():
            setattr(backend, k, v)
        if had_sleep:
            backend.sleep = plain_sleep
        else:
            del backend.sleep
