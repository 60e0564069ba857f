"""Watching the simulated board while software waits on it: what a call timeout reports, and
a watchdog that dumps both processes when a wait is slow.

* :class:`Samples`: the simulator's status (:func:`pushpush.simboard.ipc.read_status`: its
  state, clock cycle, time spent per state, pause and idle counters) sampled every
  :data:`SAMPLE_S` while software waits (``SimBridge.check`` and ``wait_pl_write`` call
  ``SimBridge.sample``), so :meth:`Samples.report` can say what happened during the last
  ``waited`` seconds: the cycles that passed and where the simulator's time went. A
  :class:`~pushpush.protocol.CallTimeout` on the simulated board ends with it
  (``PynqBackend.wait_report``), so a slow host (cycles passed, the hardware was slow) and a
  stall (the simulator stood still while software waited) can be told apart.
* :class:`StallClock`: the clock of a call bounded in cycles (a channel's; ``rt.cycles``,
  ``f.with_cycles``): the seconds in which the simulator's cycle count stood still although
  it had a CPU (time it waited for one, a busy host's doing, is not counted), endless once
  the call's cycles passed. Its timeout means a stalled simulator, never a slow host.
* :class:`Watchdog` (``PUSHPUSH_SIM_WATCHDOG=<folder>``, threshold
  ``PUSHPUSH_SIM_WATCHDOG_S``, default 2 s): when software has waited for the PL that long
  with no PL write into PS memory, it writes into the folder every thread's stack of the
  PYNQ process, the control page decoded, and asks the simulator (SIGUSR1) to add its own
  threads' stacks (``faulthandler``, registered by :mod:`pushpush.simboard.hdl` when the
  variable is set). For diagnosis: it changes nothing the board does.

Example::

    PUSHPUSH_SIM_WATCHDOG=/tmp/wd PUSHPUSH_SIM_WATCHDOG_S=1 pytest tests/pynq/test_dma_buffers.py
"""

from __future__ import annotations

import os
import signal
import struct
import sys
import threading
import time
import traceback
from collections import deque
from pathlib import Path
from typing import Any, Optional

from pushpush.simboard.ipc import (CTL_PAUSED, CTL_IDLE, CTL_PL_WRITES, CTL_WAIT_STAMP,
                                    CTL_WAITERS, describe_status, read_status)

__all__ = ["Samples", "StallClock", "Watchdog", "SAMPLE_S", "STALL_LOOK_S", "cpu_times"]

#: Seconds between two kept samples of the simulator's status.
SAMPLE_S = 0.05
#: Samples kept (SAMPLE_S apart: the last 10 minutes at least).
KEEP = 12000


def cpu_times(pid: int) -> Optional[tuple[float, float]]:
    """(seconds process ``pid``'s main thread ran on a CPU, seconds it waited for one while
    runnable), from ``/proc/<pid>/schedstat``; None where there is none (not Linux, gone)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            run, wait = f.read().split()[:2]
        return int(run) / 1e9, int(wait) / 1e9
    except (OSError, ValueError):
        return None


#: A stand-still of the cycle count shorter than this is counted whole (the time the
#: simulator waited for a CPU is read only for longer ones: no /proc read per poll)
STALL_LOOK_S = 0.05


class StallClock:
    """The clock of one call the hardware answers within ``cycles`` clock cycles while the PL
    runs (:meth:`pushpush.runtime.functions.RemoteFunction.with_cycles`, ``rt.cycles``; a
    channel's calls: infinite, its adapter ends a transfer after CHNL_TIMEOUT cycles without
    progress; made by the simulated board's ``progress_clock``). It reads the seconds for
    which the simulator's cycle count has stood still, less the time the simulator waited
    for a CPU meanwhile (``/proc/<pid>/schedstat``), and infinity once ``cycles`` cycles
    passed since the call began. So a timeout on it means "the simulator made no progress
    for that long although it could run" (stopped, hung, blocked for a request that never
    came) or "the hardware took more cycles than it may", never "the host ran it slowly": a
    loaded host stretches a transfer's wall time, not its cycles (at load 9-12 the
    200,000-word channel test took 150-366 s of wall time, past the 120 s its calls had;
    with a stand-still counted in wall time, a 256-cycle batch that waited 1.9 s for a CPU
    ended it). :meth:`report` says what it measured, for the timeout's message."""

    def __init__(self, bridge: Any, cycles: float = float("inf")) -> None:
        self.bridge = bridge
        self.cycles = cycles
        self.start = time.monotonic()
        self.first: Optional[int] = bridge.cycle()
        #: the cycle count last seen, when it last moved (or the wait began), the simulator's
        #: wait for a CPU so far when this stand-still was first looked at, and since then
        self.seen = self.first
        self.moved = self.start
        self._base: Optional[float] = None
        self.starved = 0.0

    def _cpu_wait(self) -> float:
        times = cpu_times(self.bridge.sim_pid or 0)
        return times[1] if times is not None else 0.0

    def __call__(self) -> float:
        now = time.monotonic()
        cycle = self.bridge.cycle()
        if cycle is not None and cycle != self.seen:
            self.seen, self.moved, self._base, self.starved = cycle, now, None, 0.0
        if self._passed() > self.cycles:
            return float("inf")
        stood = now - self.moved
        if stood < STALL_LOOK_S:
            return stood
        waited = self._cpu_wait()
        if self._base is None:
            self._base = waited
        self.starved = min(stood, max(0.0, waited - self._base))
        return stood - self.starved

    def _passed(self) -> int:
        return (self.seen - self.first) if self.seen is not None and self.first is not None else 0

    def report(self) -> str:
        """What the clock saw: how long the cycle count stood still (and the simulator
        waited for a CPU meanwhile), the wall time and cycles of the whole wait."""
        now = time.monotonic()
        passed = self._passed()
        where = "the simulated board is stopped" if self.bridge.cycle() is None else f"at cycle {self.seen}"
        head = (f"the hardware took more than the {self.cycles:.0f} clock cycles it may"
                if passed > self.cycles else
                f"the simulated board made no progress for {now - self.moved:.3g} s, of which the "
                f"simulator waited {self.starved:.3g} s for a CPU (not counted)")
        bound = "" if self.cycles == float("inf") else f" of the {self.cycles:.0f} it may take"
        return (f"{head} ({where}); the call waited {now - self.start:.3g} s of wall time, in which "
                f"{passed} clock cycles passed{bound} (its timeout counts only time without "
                "progress: the hardware answers within its cycles while the PL runs)")


class Samples:
    """The simulator's status at moments software waited (see the module docstring)."""

    def __init__(self) -> None:
        self._next = 0.0
        self._kept: deque[tuple[float, dict[str, Any]]] = deque(maxlen=KEEP)

    def due(self) -> bool:
        return time.monotonic() >= self._next

    def add(self, status: dict[str, Any]) -> None:
        now = time.monotonic()
        self._next = now + SAMPLE_S
        self._kept.append((now, status))

    def at(self, when: float) -> Optional[tuple[float, dict[str, Any]]]:
        """The last sample taken at or before ``when`` (monotonic s), else the oldest."""
        best = None
        for t, st in reversed(self._kept):   # newest first: a wait is recent
            best = (t, st)
            if t <= when:
                break
        return best

    def report(self, now_status: dict[str, Any], waited: float, waiters: int = 0,
               handling: int = 0) -> str:
        """The words a timeout adds: cycles and time per state over the last ``waited`` s."""
        now = time.monotonic()
        then = self.at(now - waited)
        head = f"the simulator is {describe_status(now_status)}"
        if then is None:
            return head
        t0, st0 = then
        span = now - t0
        cycles = now_status["cycle"] - st0["cycle"]
        cpu = ""
        if now_status.get("cpu") and st0.get("cpu"):
            ran = now_status["cpu"][0] - st0["cpu"][0]
            queued = now_status["cpu"][1] - st0["cpu"][1]
            cpu = (f"; the simulator process ran {ran:.3g} s on a CPU and waited {queued:.3g} s "
                   "for one (the host's load)")
        spent = {k: now_status["spent"][k] - st0["spent"].get(k, 0.0) for k in now_status["spent"]}
        counts = {k: now_status["counts"][k] - st0["counts"].get(k, 0) for k in now_status["counts"]}
        where = ", ".join(f"{k} {v:.3g} s" for k, v in spent.items() if v >= 0.0005) or "nothing"
        verdict = ("the simulated PL did not advance while software waited: a stall, not a "
                   "slow host" if cycles <= 0 else
                   "the simulated PL advanced; if the hardware answers within that many "
                   "cycles, the host was too slow for the timeout")
        return (f"{head}; in the last {span:.3g} s of the wait {cycles} clock cycles passed "
                f"({verdict}); its time went to: {where}; pauses for a request {counts['pauses']} "
                f"(ended by a request {counts['pause_requests']}, by a kick "
                f"{counts['pause_kicks']}), idle blocks {counts['idle_blocks']} (ended by a "
                f"request {counts['idle_requests']}, by a kick {counts['idle_kicks']}){cpu}; "
                f"threads waiting for the PL now: {waiters}, calls of the PL being answered by "
                f"software now: {handling}")


def _stacks(title: str) -> str:
    frames = sys._current_frames()
    out = [title]
    for th in threading.enumerate():
        frame = frames.get(th.ident or -1)
        out.append(f"--- thread {th.name} (ident {th.ident}, daemon {th.daemon})")
        if frame is not None:
            out.extend(line.rstrip("\n") for line in traceback.format_stack(frame))
    return "\n".join(out)


class Watchdog:
    """Dumps both processes of a simulated board when software has waited for the PL for
    ``threshold`` s with no PL write (see the module docstring). One thread, woken every
    :data:`SAMPLE_S` and at :meth:`stop`."""

    @classmethod
    def from_env(cls, bridge: Any) -> Optional["Watchdog"]:
        folder = os.environ.get("PUSHPUSH_SIM_WATCHDOG")
        if not folder:
            return None
        return cls(bridge, Path(folder), float(os.environ.get("PUSHPUSH_SIM_WATCHDOG_S", "2")))

    def __init__(self, bridge: Any, folder: Path, threshold: float) -> None:
        self.bridge = bridge
        self.folder = folder
        self.threshold = threshold
        folder.mkdir(parents=True, exist_ok=True)
        self._stop = threading.Event()
        self.dumps = 0
        self._thread = threading.Thread(target=self._run, name="pushpush-sim-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(5.0)

    def _run(self) -> None:
        ctl = self.bridge.ctl.mem
        last_writes, since, dumped = -1, time.monotonic(), False
        while not self._stop.wait(SAMPLE_S):
            try:
                writes = struct.unpack_from("<Q", ctl, CTL_PL_WRITES)[0]
                stamp = struct.unpack_from("<Q", ctl, CTL_WAIT_STAMP)[0]
            except ValueError:   # the control page closed
                return
            now = time.monotonic()
            waiting = time.monotonic_ns() - stamp < 0.2e9
            if writes != last_writes or not waiting:
                last_writes, since, dumped = writes, now, False
                continue
            if now - since >= self.threshold and not dumped:
                dumped = True
                self.dump(f"software has waited {now - since:.3g} s with no PL write "
                          f"(PL writes so far: {writes})")

    def dump(self, why: str) -> Path:
        """Write the dump now (also usable by hand); returns its file."""
        self.dumps += 1
        b = self.bridge
        path = self.folder / f"watchdog-{os.getpid()}-{self.dumps}.txt"
        lines = [f"pushpush simulated board watchdog, {time.strftime('%H:%M:%S')}"
                 f" (monotonic {time.monotonic():.3f}): {why}",
                 f"system {b.config.top} on {b.config.simulator}, simulator pid {b.sim_pid}"]
        try:
            ctl = b.ctl.mem
            st = read_status(ctl)
            lines.append(f"simulator: {describe_status(st)}")
            lines.append(f"status: {st}")
            words = {n: struct.unpack_from('<Q', ctl, o)[0] for n, o in
                     (("wait_stamp_age_s", CTL_WAIT_STAMP), ("pl_writes", CTL_PL_WRITES),
                      ("waiters", CTL_WAITERS), ("paused", CTL_PAUSED), ("idle", CTL_IDLE))}
            words["wait_stamp_age_s"] = (time.monotonic_ns() - words["wait_stamp_age_s"]) / 1e9
            lines.append(f"control page: {words}")
            lines.append(f"CPU (run s, waited for a CPU s): simulator {cpu_times(b.sim_pid or 0)}, "
                         f"this process {cpu_times(os.getpid())}")
        except ValueError:
            lines.append("control page closed")
        lines.append(_stacks(f"--- PYNQ process {os.getpid()}: every thread's stack"))
        path.write_text("\n".join(lines) + "\n")
        if b.sim_pid:
            try:   # the simulator appends its own stacks (faulthandler) to its file
                os.kill(b.sim_pid, signal.SIGUSR1)
            except ProcessLookupError:
                pass
        return path
