"""The simulated board's pacing: when its simulator runs, and for whom (the PYNQ process's side).

The simulator (:mod:`pushpush.simboard.hdl`) runs the PL only while simulated time helps
someone: it pauses after a PL write into a software window until the next request, and blocks
when idle. What decides it is in the control page (:mod:`pushpush.simboard.ipc`), kept by this
process: the threads waiting for the PL (callers waiting for a reply; serve threads waiting for
the PL's calls, with the PL-write count up to which each has looked), the calls of the PL that
software is answering, the runtimes in wait mode ``interrupt``, the writes into PS memory. A
caller that needs simulated time while the simulator blocks resumes it through the kick pipe.
Everything of that, on this side, is here, in two parts:

* :class:`Pacer`: the bridge's accounting (:class:`~.bridge.SimBridge` is one): the counts in
  the control page, waiting for a PL write (:meth:`Pacer.wait_pl_write`, the notification
  pipe), callers that wait without blocking there (:meth:`Pacer.caller_waits`), serve
  threads, calls being answered, the kick.
* :class:`SimPacing`: a runtime backend's side (:class:`pushpush.pynq.board.PynqBackend` on
  the simulated board, which the simulated device gives it: :meth:`SimDevice.pacing
  <pushpush.pynq.simulated.device.SimDevice.pacing>`): per thread, whether it is a caller
  waiting for a reply or a serve thread (:func:`pushpush.runtime.backend.in_serve_thread`),
  what it has seen, and how each wait mode waits.

On a board none of this exists: the PL runs on its own, and the backend's
:class:`pushpush.pynq.board.Pacing` does nothing. Why here and not in :mod:`pushpush.simboard`:
this runs in the PYNQ process, beside the runtime's threads, and counts them; the simulator
process only reads the counts (its side of the decision is :mod:`pushpush.simboard.hdl`'s).
"""

from __future__ import annotations

import logging
import os
import select
import struct
import threading
import time
from typing import Any, Optional

from pushpush.pynq.board import Pacing
from pushpush.pynq.simulated.watch import StallClock
from pushpush.runtime.backend import in_serve_thread
from pushpush.simboard.ipc import (CTL_CALLER_SEEN, CTL_CALLERS, CTL_HANDLING, CTL_IDLE, CTL_IRQ_RUNTIMES,
                                   CTL_LOCAL_WRITES, CTL_LOOKED, CTL_PAUSED, CTL_PL_WRITES, CTL_STATE,
                                   CTL_WAIT_STAMP, CTL_WAITERS, CTL_WINDOWS, WINDOWS_MAX, SharedMemory,
                                   read_windows)

__all__ = ["Pacer", "SimPacing", "SIM_POLL_S"]

log = logging.getLogger("pushpush.pynq")

#: The simulated board's poll interval. A PL write into PS memory wakes a waiting runtime at
#: once; this bounds the wait for writes that do not come from the PL nor from this process
#: (a C component attached to the simulated board answering in the on-chip memory).
SIM_POLL_S = 5e-4


class Pacer:
    """The PYNQ process's accounting of who waits for the simulated PL (see the module
    docstring). Mixed into :class:`~.bridge.SimBridge`, which provides the control page
    (``ctl``), the notification and kick pipes (``_notify_r``, ``_notify_w``, ``_kick_w``),
    ``_stopped`` and the status sampling (``sample``) that waiting software triggers."""

    ctl: SharedMemory
    _stopped: bool
    _notify_r: int
    _notify_w: int
    _kick_w: int

    def sample(self) -> None:
        """Keep the simulator's status now (the bridge's; see its ``wait_report``)."""
        raise NotImplementedError

    def _init_pacing(self) -> None:
        #: PL writes into PS memory seen so far (the notification pipe), and its condition
        #: writes into PS memory made by software of this process (note_write)
        self._local_writes = 0
        #: threads in wait_pl_write, counted in the control page (a thread that starts
        #: waiting may resume a simulator paused for the next request: the kick pipe)
        self._waiters = 0
        #: callers among them (waiting for a reply), and calls of the PL that software has
        #: taken and not answered yet (handling): both in the control page, for the hand-off
        self._callers = 0
        self._handling = 0
        #: runtimes of this process in wait mode interrupt (CTL_IRQ_RUNTIMES, see irq_runtimes)
        self._irq_runtimes = 0
        #: serve threads (waiting for the PL's calls): thread and the PL-write count up to
        #: which they have looked for calls (the ``seen`` they wait with)
        self._servers: dict[int, tuple[threading.Thread, int]] = {}
        #: callers waiting now: the PL-write count each had seen when it started waiting
        self._caller_seen: dict[Any, int] = {}
        #: callers blocked on their interrupt (wait mode interrupt): the PL's writes into PS
        #: memory each had seen when it blocked; it has seen every write of this process's
        #: software too (see caller_waits)
        self._caller_pl_seen: dict[Any, int] = {}
        self._waiters_lock = threading.Lock()
        #: threads in wait_pl_write: one blocks on the notification pipe, the others on this
        #: condition (see _wait_notify)
        self._notify_cond = threading.Condition(threading.Lock())
        self._notify_leader = False
        #: note_waiting found the simulator blocked (paused or idle) while only simulated
        #: time helps and no kick was written since it blocked (a missed kick), and kicked it
        self.stamp_kicks = 0
        #: CLOCK_MONOTONIC ns of the last kick written, or found due under the waiters' lock
        self._kick_ns = 0

    @property
    def pl_writes(self) -> int:
        """Writes into PS memory so far: the PL's (counted by the simulator in the control
        page) and this process's software's (:meth:`note_write`)."""
        if self._stopped:
            return self._local_writes
        return (struct.unpack_from("<Q", self.ctl.mem, CTL_PL_WRITES)[0]
                + struct.unpack_from("<Q", self.ctl.mem, CTL_LOCAL_WRITES)[0])

    @property
    def pl_only_writes(self) -> int:
        """The PL's writes into PS memory so far (without this process's software's)."""
        if self._stopped:
            return 0
        return struct.unpack_from("<Q", self.ctl.mem, CTL_PL_WRITES)[0]

    def _accounting(self) -> str:
        """What decides whether the simulator runs for waiting software (the control page's
        counts, :meth:`_must_run`), in words: callers counted, serve threads behind the
        latest write into PS memory (each would take a call and answer it: the simulator
        waits for that answer), attached programs."""
        with self._waiters_lock:
            writes = self.pl_writes
            behind = [f"{thread.name} (looked after write {looked})"
                      for thread, looked in self._servers.values()
                      if thread.is_alive() and looked < writes]
            kinds: dict[str, int] = {}   # keyed ("runtime", thread), ("c-program", c), ("dma", ...)
            for k in (*self._caller_seen, *self._caller_pl_seen):
                kind = k[0] if isinstance(k, tuple) else "runtime"   # (a thread in wait_pl_write)
                kinds[kind] = kinds.get(kind, 0) + 1
            what = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none counted"
            return (f"; callers the simulator runs for: {self._callers} ({what}); writes into PS "
                    f"memory: {writes}; serve threads behind the latest: {', '.join(behind) or 'none'}")

    def watch(self, base: int, size: int) -> None:
        """Software windows live at ``base`` .. ``base + size`` in DDR (``software_windows:
        ddr``): the simulator pauses for a request after a PL write there, as after one
        into the ``ps`` region, and never for other DDR writes (DMA data, buffer results;
        :data:`~pushpush.simboard.ipc.CTL_WINDOWS`)."""
        with self._waiters_lock:
            if self._stopped:
                return
            ranges = read_windows(self.ctl.mem)
            if (base, size) in ranges:
                return
            if len(ranges) >= WINDOWS_MAX:
                raise RuntimeError(f"the simulated board watches at most {WINDOWS_MAX} software "
                                   "window areas in DDR; free an overlay's runtimes first")
            at = CTL_WINDOWS + 8 + 16 * len(ranges)
            struct.pack_into("<QQ", self.ctl.mem, at, base, size)
            struct.pack_into("<Q", self.ctl.mem, CTL_WINDOWS, len(ranges) + 1)   # then the count

    def note_waiting(self) -> None:
        """Software waits for a reply: keep the simulator at full speed (as wait_pl_write
        with ``waiting=True`` does). A safety net since callers are counted
        (:meth:`caller_waits`): if the simulator blocks (paused or idle) while only simulated
        time helps and no kick was written since it blocked, that kick was missed: it kicks
        and counts it (:attr:`stamp_kicks`; 0 in working traffic). A simulator blocked for
        a request (a caller behind, a call being answered) is left to that request or to
        the caller's next sweep: before, every stamp resumed it, and the PL ran on while the
        caller took its reply."""
        if self._stopped:
            return
        self.sample()
        struct.pack_into("<Q", self.ctl.mem, CTL_WAIT_STAMP, time.monotonic_ns())
        if not (self._paused() or self._idle()):
            return
        with self._waiters_lock:
            if not self._must_run():
                return
            kicked = self._kick_ns
        try:
            entered = struct.unpack_from("<Q", self.ctl.mem, CTL_STATE + 16)[0]
        except (ValueError, TypeError):   # stopped meanwhile
            return
        if kicked < entered:
            self.stamp_kicks += 1
            log.debug("the simulator blocked while a caller needed simulated time and no kick "
                      "came: the 50 ms stamp resumed it")
        self._kick()

    def _kick(self) -> None:
        """Resume the simulator if it paused waiting for the next request (it pauses after
        a PL write into PS memory that a request or a waiting thread was waiting for) or
        blocks on its socket because it was idle."""
        try:
            if self._paused() or self._idle():
                os.write(self._kick_w, b"\1")
                self._kick_ns = time.monotonic_ns()
        except (OSError, ValueError):  # full (it will wake), or stopped meanwhile
            pass

    def caller_waits(self, key: Any, seen: int, *, pl_only: bool = False) -> None:
        """A caller that waits for the PL without blocking in :meth:`wait_pl_write` (a
        runtime in wait mode poll, yield or interrupt; an attached C program, ``key`` its
        connection) waits now, having looked at PS memory after ``seen`` writes (2**64-1:
        it looks all the time). It is counted in the control page (CTL_CALLERS,
        CTL_CALLER_SEEN) until :meth:`caller_done`, so the simulator runs for it and a
        blocked simulator is resumed at once (the kick pipe) when only simulated time
        helps, as for a caller in :meth:`wait_pl_write`. Before, such callers were seen only
        through a stamp they renewed every 50 ms: a paused simulator waited for it.

        ``pl_only``: ``seen`` counts only the PL's writes (CTL_PL_WRITES); the caller has
        seen every write of this process's software as well (a runtime blocked on its
        interrupt: a write for it is the PL's, and sets its pending bit; software's own
        writes, e.g. a serve thread taking a call of the PL, are never for it)."""
        with self._waiters_lock:
            if self._stopped:
                return
            if key not in self._caller_seen and key not in self._caller_pl_seen:
                self._callers += 1
                try:
                    struct.pack_into("<Q", self.ctl.mem, CTL_CALLERS, self._callers)
                except (ValueError, TypeError):   # stopped meanwhile
                    return
            if pl_only:
                self._caller_seen.pop(key, None)
                self._caller_pl_seen[key] = max(0, seen)
            else:
                self._caller_pl_seen.pop(key, None)
                self._caller_seen[key] = max(0, seen)
            kick = self._must_run()
        if kick:
            self._kick()

    def caller_done(self, key: Any) -> None:
        """The caller of :meth:`caller_waits` ``key`` waits no more."""
        with self._waiters_lock:
            if (self._caller_seen.pop(key, None) is None
                    and self._caller_pl_seen.pop(key, None) is None):
                return
            self._callers -= 1
            try:
                struct.pack_into("<Q", self.ctl.mem, CTL_CALLERS, self._callers)
            except (ValueError, TypeError):   # stopped meanwhile
                return
            kick = self._must_run()   # publishes CTL_CALLER_SEEN without it
        if kick:   # other callers wait, and only simulated time helps them
            self._kick()

    def server_leaves(self) -> None:
        """The calling serve thread no longer waits in :meth:`wait_pl_write` (its runtime
        left wait mode ``sleep``: it sweeps all the time, or sleeps on its interrupt, which
        a call for it sets): its last look no longer holds CTL_LOOKED back. Before, the
        entry stayed, and a runtime switched to ``interrupt`` kept the simulator counting a
        serve thread as behind, so it blocked as idle while a call needed simulated time
        (issue 28: test_interrupt_mode_with_ddr_windows timed out beside busy loops)."""
        if threading.get_ident() not in self._servers:   # (not a counted serve thread)
            return
        with self._waiters_lock:
            if self._servers.pop(threading.get_ident(), None) is None:
                return
            kick = self._must_run()
        if kick:
            self._kick()

    def _count_waiter(self, delta: int, caller: bool, seen: int = 0) -> None:
        """A thread starts (``delta`` 1) or ends (-1) a wait for the PL (a serve thread
        having looked for calls up to PL write ``seen``). When it starts one, callers wait,
        no call of the PL is being answered and every serve thread has looked at every PL
        write (none will take a call and answer it), it resumes a blocked simulator: no
        request will come, and simulated time must pass."""
        with self._waiters_lock:
            self._waiters += delta
            if caller:
                self._callers += delta
                if delta > 0:
                    self._caller_seen[threading.get_ident()] = max(0, seen)
                else:
                    self._caller_seen.pop(threading.get_ident(), None)
            elif delta > 0:
                self._servers[threading.get_ident()] = (threading.current_thread(), seen)
            try:
                struct.pack_into("<Q", self.ctl.mem, CTL_WAITERS, self._waiters)
                struct.pack_into("<Q", self.ctl.mem, CTL_CALLERS, self._callers)
            except (ValueError, TypeError):   # stopped meanwhile (the control page is closed)
                return
            run = self._must_run()   # (also publishes CTL_LOOKED and CTL_CALLER_SEEN)
            kick = run   # (also when one leaves: the others' kick is due, see note_waiting)
        if kick:   # after the count (the lock is a barrier): see the simulator's fence (simboard.handoff)
            self._kick()

    def _must_run(self) -> bool:
        """(Under the waiters' lock.) Callers wait, no call of the PL is being answered, and
        every serve thread has looked at the latest PL write: only simulated time helps."""
        least = (1 << 64) - 1
        for ident, (thread, looked) in list(self._servers.items()):
            if not thread.is_alive():
                del self._servers[ident]
            else:
                least = min(least, max(0, looked))
        try:   # the simulator decides with the same numbers (hdl.serve_hdl's needed())
            struct.pack_into("<Q", self.ctl.mem, CTL_LOOKED, least)
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return False
        newest = max(self._caller_seen.values(), default=0)
        if self._caller_pl_seen:
            local = struct.unpack_from("<Q", self.ctl.mem, CTL_LOCAL_WRITES)[0]
            newest = max(newest, local + max(self._caller_pl_seen.values()))
        newest = min((1 << 64) - 1, newest)
        try:
            struct.pack_into("<Q", self.ctl.mem, CTL_CALLER_SEEN, newest)
        except ValueError:
            return False
        if self._callers <= 0 or self._handling > 0:
            return False
        now = self.pl_writes   # a caller or serve thread behind it will wake and decide
        if least >= now and newest >= now:
            self._kick_ns = time.monotonic_ns()   # its caller kicks next (see note_waiting)
            return True
        return False

    def handling(self, delta: int) -> None:
        """Software took (``delta`` > 0) or answered (< 0) calls of the PL: while any is being
        answered, the simulator need not run (the PL waits for the answer, a request that
        wakes it). When the last is answered while callers wait, resume the simulator."""
        with self._waiters_lock:
            self._handling = max(0, self._handling + delta)
            try:
                struct.pack_into("<Q", self.ctl.mem, CTL_HANDLING, self._handling)
            except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
                return
            kick = self._must_run()
        if kick:
            self._kick()

    def irq_runtimes(self, delta: int) -> None:
        """A runtime of this process enters (``delta`` 1, before it enables its pending bit)
        or leaves (-1, after it disabled it) wait mode ``interrupt``: counted in the control
        page (CTL_IRQ_RUNTIMES), so the simulator, before it pauses after a PL write into a
        software window, lets that write be answered: the interrupt block raises ``irq`` at
        its B response, two cycles after the data is stored. Paused at the store, the PL
        stood still with ``irq`` low, and a runtime blocked on its interrupt woke only at its
        fallback sweep (:data:`pushpush.pynq.board.IRQ_WAIT_S`)."""
        with self._waiters_lock:
            self._irq_runtimes = max(0, self._irq_runtimes + delta)
            try:
                struct.pack_into("<Q", self.ctl.mem, CTL_IRQ_RUNTIMES, self._irq_runtimes)
            except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
                pass

    def _idle(self) -> bool:
        try:
            return bool(struct.unpack_from("<Q", self.ctl.mem, CTL_IDLE)[0])
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return False

    def _paused(self) -> bool:
        try:
            return bool(struct.unpack_from("<Q", self.ctl.mem, CTL_PAUSED)[0])
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return False

    def note_write(self) -> None:
        """Count a write into PS memory made in this process and wake the waiters."""
        with self._waiters_lock:   # counted where the simulator reads it (its needed())
            self._local_writes += 1
            try:
                struct.pack_into("<Q", self.ctl.mem, CTL_LOCAL_WRITES, self._local_writes)
            except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
                pass
            # a caller blocked on its interrupt has seen this write too: its count moves on
            kick = bool(self._caller_pl_seen) and self._must_run()
        self._poke()
        if kick:
            self._kick()

    def _poke(self) -> None:
        try:
            os.write(self._notify_w, b"\1")
        except OSError:  # full (waiters will see the count) or closed (stopped)
            pass

    def wait_pl_write(self, seen: int, timeout: float, *, waiting: bool = True) -> int:
        """Wait until there were more than ``seen`` writes into PS memory (:attr:`pl_writes`),
        at most ``timeout`` seconds; returns the count (pass it back as ``seen`` next time).
        ``waiting``: a runtime waits for a reply (keeps the simulator at full speed)."""
        if self._stopped:
            time.sleep(min(timeout, 0.05))
            return seen
        if waiting:
            struct.pack_into("<Q", self.ctl.mem, CTL_WAIT_STAMP, time.monotonic_ns())
            self.sample()
        now = self.pl_writes
        if now != seen:
            return now
        # this thread waits for the PL. The simulator may block (paused after the last reply,
        # expecting a request, or idle). A caller (waiting for a reply) needs simulated time
        # to pass: counted in the control page, it resumes the simulator (the kick pipe)
        # unless a call of the PL is being answered in this process (that answer, a
        # request, resumes it; the PL waits for it anyway). A serve thread waits for the
        # PL's calls: it is counted (the simulator pauses after a PL write while threads
        # wait) but resumes nothing
        self._count_waiter(1, waiting, seen)
        try:
            self._wait_notify(seen, timeout)
        finally:
            self._count_waiter(-1, waiting)
        return self.pl_writes

    def _wait_notify(self, seen: int, timeout: float) -> bool:
        """Wait until :attr:`pl_writes` differs from ``seen`` (True) or ``timeout`` s passed
        (False). One waiting thread at a time (the leader) blocks on the notification pipe
        and drains it; the others wait on a condition the leader notifies after each drain
        (and when it leaves, so that one of them leads on). Every thread checks the count
        under that condition's lock before it sleeps, so a write can never be drained by one
        thread between another's check and its sleep: each waiter is woken by the write it
        waits for, not by its timeout (before, several threads selecting on the one pipe
        lost such wakes and waited out their poll interval)."""
        deadline = time.monotonic() + timeout
        cond = self._notify_cond
        with cond:
            while True:
                if self._stopped or self.pl_writes != seen:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if self._notify_leader:
                    cond.wait(left)
                    continue
                self._notify_leader = True
                try:
                    cond.release()
                    try:   # a write after the check above left its byte in the pipe
                        ready, _, _ = select.select([self._notify_r], [], [], left)
                        if ready:
                            os.read(self._notify_r, 4096)
                    except (OSError, ValueError):  # empty, or closed by stop()
                        pass
                    finally:
                        cond.acquire()
                finally:
                    self._notify_leader = False
                    cond.notify_all()


class _Seen(threading.local):
    """Per thread: the writes into PS memory it has seen (``n``: its last wait_pl_write's
    count; ``looked``: its last sweep's), and whether it is counted as a caller (``polling``,
    with the count it was ``told`` with)."""

    n = -1
    looked = 0
    polling = False
    told = 0


class SimPacing(Pacing):
    """A runtime backend's waits on the simulated board (see the module docstring): what
    :class:`pushpush.pynq.board.PynqBackend` asks of its :class:`~pushpush.pynq.board.Pacing`,
    done for the simulator ``device`` runs now (its ``bridge``: the waits, counts and kicks
    of a runtime never reach the simulator of a later download; a runtime of a replaced
    overlay waits on its stopped bridge, which returns at once, until its next check raises
    ``OverlayReplaced``)."""

    guard_writes = True
    poll_s = SIM_POLL_S

    def __init__(self, device: Any) -> None:
        self.device = device
        self.bridge: Optional[Any] = device.bridge
        # a PL write into PS memory wakes a waiting runtime (wait_pl_write): the poll
        # interval is only a fallback
        self._wait_pl = self.bridge.wait_pl_write if self.bridge is not None else device.wait_pl_write
        self._seen = _Seen()
        #: Waits of a caller on its interrupt that ended at IRQ_WAIT_S, not by the interrupt:
        #: with IRQ_WAIT_S above the longest stretch without a PL write for the caller (e.g.
        #: a callback it waits through), each is a lost wake-up
        self.irq_fallbacks = 0

    @property
    def memory_file(self) -> Optional[str]:
        """The simulated board's PS memory (shared memory): the file claims are keyed by."""
        return str(self.device.ps_mem.path)

    def check(self) -> None:
        self.device.check()

    def check_interrupts(self, component: str) -> None:
        irq = self.device.interrupts
        if irq is None or not irq.watching:
            self.device.check()   # no overlay loaded (freed or replaced): say that
            raise ValueError(
                f"component '{component}' cannot wait for interrupts: the "
                "loaded overlay has no interrupt path on the simulated board (its top has no "
                "irq output); use wait 'sleep', 'poll' or 'yield'")

    def watch(self, base: int, size: int) -> None:
        if self.bridge is not None:
            # windows in DDR: the simulator pauses after PL writes there, not after DMA data
            self.bridge.watch(base, size)

    def ps_written(self) -> None:
        self.device.note_ps_write()   # wakes a runtime of this process waiting on it

    def handling(self, delta: int) -> None:
        """(:meth:`Pacer.handling`.)"""
        if self.bridge is not None:
            self.bridge.handling(delta)

    def wait_report(self, waited: float) -> Optional[str]:
        """(:meth:`~.bridge.SimBridge.wait_report`: cycles, the simulator's state.)"""
        return self.bridge.wait_report(waited) if self.bridge is not None else None

    def progress_clock(self, cycles: float) -> Optional[StallClock]:
        """(:class:`StallClock`: seconds without progress of this simulator.)"""
        return StallClock(self.bridge, cycles) if self.bridge is not None else None

    def irq_runtimes(self, delta: int) -> None:
        """(:meth:`Pacer.irq_runtimes`.)"""
        if self.bridge is not None:
            self.bridge.irq_runtimes(delta)

    def spinning(self) -> None:
        if self.bridge is not None and not in_serve_thread():
            self.bridge.note_waiting()   # a caller spins here: the simulator must run

    def between_sweeps(self) -> None:
        if self.bridge is not None:
            self._caller_waits()
            self.bridge.server_leaves()   # a serve thread that waited in mode sleep

    def sleep(self, poll_s: float) -> bool:
        # a PL write into PS memory ends the wait at once
        serving = in_serve_thread()
        n = self._seen.n
        if not serving and self.bridge is not None:
            # counted as a caller from its first wait to the end of the call, with the
            # writes it looked after (n), not only while inside wait_pl_write: between
            # two of its 0.5 ms waits it was not counted, and the simulator could go
            # idle there (issue 28)
            self._caller_tell(max(0, n))
        self._seen.n = self._wait_pl(n, poll_s, waiting=not serving)
        return True

    def _caller_key(self) -> tuple[str, int]:
        """This thread's key in the bridge's callers (not its bare ident: a caller in wait
        mode sleep is also counted by ``wait_pl_write`` under that)."""
        return ("runtime", threading.get_ident())

    def _caller_tell(self, seen_writes: int) -> None:
        """Count this thread in the bridge as a caller that looked at PS memory after
        ``seen_writes`` writes (told again only when that changes), until :meth:`wait_over`."""
        seen = self._seen
        if not seen.polling or seen.told != seen_writes:
            seen.polling = True
            seen.told = seen_writes
            assert self.bridge is not None
            self.bridge.caller_waits(self._caller_key(), seen_writes)

    def _caller_waits(self) -> None:
        """(Wait modes poll, yield, interrupt.) A caller waits between its sweeps: counted
        as one in the bridge until :meth:`wait_over` (the runtime calls it when the call's
        wait ends), with the writes it had seen before its last sweep, so the simulator runs
        for it and is resumed as for a caller in ``wait_pl_write``."""
        seen = self._seen
        if in_serve_thread():
            return
        assert self.bridge is not None
        now = self.bridge.pl_writes
        if not seen.polling:
            self._caller_tell(0)   # swept nothing yet
        else:   # its last sweep looked after seen.looked writes
            self._caller_tell(seen.looked)
        seen.looked = now

    def serve_paused(self) -> None:
        """The serve thread stops sweeping for a while (a waiting caller serves instead):
        the simulated board no longer counts it as a thread that must look at every write
        into PS memory before simulated time may pass."""
        if self.bridge is not None:
            self.bridge.server_leaves()

    def wait_over(self) -> None:
        """The runtime's wait for a reply ended (returned, failed or timed out): a polling
        caller (:meth:`_caller_waits`) is no longer counted."""
        seen = self._seen
        if seen.polling:
            seen.polling = False
            if self.bridge is not None:
                self.bridge.caller_done(self._caller_key())

    def irq_wait(self, hub: Any, generation: int, wait_s: float) -> bool:
        if self.bridge is None or in_serve_thread():
            return False
        bridge = self.bridge
        bridge.note_waiting()   # a reply is awaited: the simulator runs at full speed
        # blocked until its interrupt fires, it has seen every write there is now, and
        # every later write of this process's software: a PL write for it (a reply, a call
        # into this component) sets its pending bit after the clear above and wakes it.
        # Counted with the writes of its last sweep, it was behind as soon as a serve
        # thread took a call of the PL (taking it writes PS memory), and did not wake for
        # that: the simulator, counting it as behind, blocked as idle while the call needed
        # simulated time (issue 28: mapper.apply timed out beside busy loops, the
        # simulator ran 0.1 s of 20 s). The PL's later writes still count against it: the
        # simulator pauses after a reply as before, once the reply's write is answered (its
        # B response raises irq: SimBridge.irq_runtimes; paused at the store, it stood still
        # with irq low and this wait ended only at IRQ_WAIT_S)
        seen = self._seen
        told = seen.told
        seen.told = -1
        bridge.caller_waits(self._caller_key(), bridge.pl_only_writes, pl_only=True)
        try:
            if hub.wait_beyond(generation, wait_s) == generation and hub.alive:
                self.irq_fallbacks += 1   # not woken by the interrupt
        finally:
            self._caller_tell(told)   # awake: behind again until its next sweep
        return True
