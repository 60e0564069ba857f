"""The simulator's side of the hand-off between a reply and the next request: the pause.

After a PL write into PS memory that software waited for, :class:`~.hdl.SimLoop` stops
running cycles and blocks here (:meth:`Pause.wait`) until the next request or a kick: simulated
time stands still while the PS's software acts, as the pacing contract of the PYNQ process's
side (:mod:`pushpush.pynq.simulated.pacing`) expects. The mark it sets in the control page
(``CTL_PAUSED``, :mod:`.ipc`) and the counts it then reads are ordered by :func:`fence`, the
Dekker-style hand-off against ``CTL_CALLERS``/``CTL_HANDLING``.
"""

from __future__ import annotations

import logging
import os
import select
import struct
import threading
from typing import Any, Callable, Optional

from .ipc import CTL_PAUSED, SimStatus

__all__ = ["Pause", "fence", "drain"]

log = logging.getLogger("pushpush.sim")


def drain(fd: int) -> None:
    """Empty pipe ``fd`` (the kick pipe: its bytes only say "look")."""
    try:
        os.read(fd, 4096)
    except BlockingIOError:
        pass


_BARRIER = threading.Lock()


def fence() -> None:
    """A full memory barrier (a locked instruction): a store into the control page before it
    is visible to the other process before a load after it (the Dekker-style hand-off of
    CTL_IDLE/CTL_PAUSED against CTL_CALLERS/CTL_HANDLING)."""
    _BARRIER.acquire()
    _BARRIER.release()


class Pause:
    """The hand-off between a reply and the next request, on the simulator's side.

    A PL write into PS memory that software is likely waiting for (one that comes while a
    GP0 request is served, the first after a reply went out, or one while a thread of the
    PYNQ process is blocked in ``wait_pl_write``) is most often what it waited for: a call's
    return, or a call into Python. The software's next step is then a request (the next
    call, the return of the call into Python). Instead of running more cycles meanwhile (a
    batch of them, during which the request waits), the simulator ends the running batch,
    and at the next falling edge pauses, blocked on its socket and the kick pipe, until

    * a request comes (the next call, the answer of a call of the PL), or
    * the kick pipe: the PYNQ side writes it when simulated time must pass and nobody will
      send a request for it: a caller starts waiting for the PL while no call of the PL is
      being answered (``CTL_CALLERS`` > 0, ``CTL_HANDLING`` = 0), or the last answer went
      out while callers wait.

    It does not pause at all when that holds already (a caller waits for the end of a DMA
    transfer: its bursts are not paused for). ``limit`` (``handoff_us``) is a safety net,
    counted in the control page (``pause_limits``): in a working hand-off no pause ends there.

    Simulated time stands still while paused: the PS's software takes no cycles between a
    reply and its next request, nor while it answers a call of the PL (on the board it takes
    hundreds). No cycle count of the PL's own work, nor of a GP0 access or a PS memory access,
    changes.
    """

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.due = False
        self.serving = False
        self.armed = False
        self.pauses = 0
        self.hits = 0
        self.kicks = 0

    def wait(self, sock: Any, kick_fd: int, ctl: Any, status: Optional[SimStatus] = None,
             cycle: int = 0, needed: Callable[[], bool] = lambda: False,
             answering: Callable[[], bool] = lambda: False) -> list[Any]:
        """Pause (see the class): the sockets ready (``[sock]``: a request came) or [];
        ``status`` (the control page's account of the simulator) is told. A limit reached
        while ``answering()`` (software is answering a call of the PL: its answer, a request,
        will end the pause) does not end it (counted, ``pauses_held``): on a busy host a
        starved Python callback took over 50 ms, and the PL then ran on while it answered
        (the FIR cell's cycles grew with the load)."""
        self.due = False
        self.armed = False
        self.pauses += 1
        if status is not None:
            status.enter("paused", cycle, int(self.limit * 1e6))
            status.count("pauses")
        struct.pack_into("<Q", ctl, CTL_PAUSED, 1)
        try:
            fence()
            if needed():   # a caller started waiting before the mark: it may not kick
                ready: list[Any] = [kick_fd]
            else:
                while True:
                    ready, _, _ = select.select([sock, kick_fd], [], [], self.limit)
                    if ready or not answering():
                        break
                    if status is not None:
                        status.count("pauses_held")
        finally:
            struct.pack_into("<Q", ctl, CTL_PAUSED, 0)
        if status is not None and sock in ready:
            status.count("pause_requests")
        if kick_fd in ready:
            if status is not None and sock not in ready:
                status.count("pause_kicks")
            self.kicks += sock not in ready
            drain(kick_fd)
        if sock in ready:
            self.hits += 1
            return [sock]
        if not ready and status is not None:
            status.count("pause_limits")
            log.debug("a pause for a request ended at its limit (%g s): no request or kick came",
                      self.limit)
        return []
