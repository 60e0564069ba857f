"""The bridge between a PYNQ process and the simulator running the system top.

The simulated board runs in a separate process (the HDL simulator with cocotb inside), so
the PYNQ process never blocks on simulation and a crashing simulator cannot take Python
down with it. The two sides share:

* **memory**: the ARM's on-chip memory (the ``ps`` region holding the software windows)
  and a DDR area (``pynq.allocate`` buffers) are anonymous shared-memory files
  (``memfd_create``, or a ``/dev/shm`` file unlinked at once) that both processes map. The
  PL writes them through a cocotbext-axi slave on the top's ``m_axi``; Python reads and
  writes them directly, so polling a window costs no socket traffic (as the ARM polls its
  OCM without bus traffic).
* **a socket** (AF_UNIX): the ARM's GP0 accesses into the PL. A write request becomes one
  AXI burst on ``s_axi`` (WRITE) or one single-beat 32-bit write per word, in order, as the
  ARM's stores (WRITE_WORDS: a whole call, arguments and trigger, in one request); the reply
  carries the AXI response (OKAY/SLVERR/DECERR) and, for WRITE_WORDS, how many words were
  written before an error.
* **a notification pipe**: one byte each time the PL wrote into PS memory, so a runtime
  waiting for a reply wakes at once (:meth:`SimBridge.wait_pl_write`) instead of at its next
  poll; and a **control page** where a runtime waiting for a reply stamps the time, which
  keeps the simulator at full speed (see :mod:`pushpush.simboard.hdl`).

The PS side in the simulator is HDL (:mod:`pushpush.simboard.hdl`: the GP0 master and the
memory port are Verilog, Python runs only when something happens).
The simulation build is cached by content (:mod:`pushpush.build.cache`), so a second load
of an unchanged system starts without compiling.

Lifetime: :class:`SimBridge` (the PYNQ side) listens, starts ``python -m
pushpush.simboard.child <config>`` in its own session, and waits for the simulator to connect.
:meth:`SimBridge.stop` (called on ``Overlay.free()``, on the next download, at exit) asks
the simulation to finish, then kills the session's process group if it does not. If the
PYNQ process dies without stopping it, the simulator sees the socket close and finishes,
and the child's watchdog kills its process group when its parent is gone: no orphans.
Simulator failures (build errors, ``$finish``, a crash, a Python exception in the cocotb
side) surface as :class:`SimulatorError` with the end of the simulator's log.

Wire format (little-endian): request ``<BIQI`` (op, tag, address, length) + payload;
reply ``<BIBI`` (op, tag, status, length) + payload. Ops: WRITE (payload = bytes; status =
AXI BRESP), WRITE_WORDS (payload = 32-bit words; status = the first error response or OKAY,
reply payload ``<I`` = words written before it), READ (length bytes back; status = worst
RRESP), STOP, INFO (JSON: simulator pid, cycle count, PS model), RUN (advance ``length``
clock cycles, then reply).

Besides the socket: the notification pipe (a byte per PL write into PS memory), the kick pipe
(a byte resumes a simulator paused for the next request after a reply, written when a caller
starts waiting for the PL while the control page says it is paused), the control
page (shared memory: the count of those writes, the last one's cycle and host time, a
runtime's "waiting for a reply" stamp, the threads blocked in :meth:`SimBridge.wait_pl_write`,
the simulator's "paused for a request" flag, and the interrupt lines (the top's ``irq``, a DMA
shell's DMA interrupts): levels, changes, cycle and host time of the last change), and,
when there are interrupt lines, the interrupt pipe (a byte per change; its read end is
:attr:`SimBridge.irq_r`, read by :mod:`pushpush.pynq.simulated.interrupt`).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Optional

__all__ = [
    "SimulatorError",
    "SimConfig",
    "SharedMemory",
    "SimBridge",
    "OP_WRITE",
    "OP_READ",
    "OP_STOP",
    "OP_INFO",
    "OP_RUN",
    "OP_WRITE_WORDS",
]

from pushpush.simboard.ipc import (CTL_CALLER_SEEN, CTL_CALLERS, CTL_HANDLING, CTL_IDLE, CTL_IRQ_RUNTIMES, CTL_LOCAL_WRITES, CTL_LOOKED, CTL_IRQ_LEVEL, CTL_IRQ_RISES, CTL_PAUSED, CTL_PL_WRITES, CTL_PLW_CYCLE,
                                   CTL_SIZE, CTL_WAIT_STAMP, CTL_WAITERS, OP_INFO, OP_READ, OP_RUN, OP_STOP, OP_WRITE,
                                   OP_WRITE_WORDS, REP, REQ, SharedMemory, SimConfig,
                                   read_status, CTL_STATE, CTL_WINDOWS, WINDOWS_MAX, read_windows)
from .watch import Samples, Watchdog, cpu_times

log = logging.getLogger("pushpush.pynq")


class SimulatorError(RuntimeError):
    """The simulated board failed: it did not build or start, it stopped, or it crashed.

    ``log_tail`` holds the last lines of the simulator's output (also in the message)."""

    def __init__(self, message: str, log_tail: str = "") -> None:
        super().__init__(message + (f"\n--- simulator log (last lines) ---\n{log_tail}"
                                    if log_tail else ""))
        self.log_tail = log_tail


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


_live: "weakref.WeakSet[SimBridge]" = weakref.WeakSet()


def _stop_all() -> None:
    for b in list(_live):
        try:
            b.stop()
        except Exception:  # pragma: no cover - best effort at exit
            pass


atexit.register(_stop_all)


SESSION_ENV = "PUSHPUSH_SIM_SESSION"


def _group_args() -> dict[str, Any]:
    """How the simulator process is started: in a process group of its own (killed as one,
    Ctrl-C in the user's terminal does not reach it), and in the user's session
    (``shared``, the default) or a session of its own (``own``, ``$PUSHPUSH_SIM_SESSION``).
    On Linux with autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``) a
    session is a scheduling group: in a session of its own the simulator got as much CPU
    as the user's whole session, so on a busy host it ran on while the software it waited
    for (in the user's session, beside the busy processes) waited for a CPU."""
    how = os.environ.get(SESSION_ENV, "shared")
    if how == "own":
        return {"start_new_session": True}
    if how != "shared":
        raise ValueError(f"{SESSION_ENV}={how!r}: use shared (the simulator in the user's session, "
                         "the default) or own (a session of its own)")
    if sys.version_info >= (3, 11):
        return {"process_group": 0}
    return {"preexec_fn": os.setpgrp}   # (Python 3.10: no process_group yet)


class SimBridge:
    """The PYNQ-process side: starts the simulator, sends GP0 accesses, stops it.

    ``ps_mem``/``ddr_mem`` are the :class:`SharedMemory` objects the simulator's ``m_axi``
    slave maps (owned by the caller, e.g. the simulated device, so their contents outlive
    one simulator run as memory outlives a bitstream on the board)."""

    def __init__(self, config: SimConfig, ps_mem: SharedMemory, ddr_mem: Optional[SharedMemory] = None,
                 *, python: Optional[str] = None, start_timeout: float = 600.0) -> None:
        self.config = config
        self.ps_mem = ps_mem
        self.ddr_mem = ddr_mem
        self.python = python or os.environ.get("PUSHPUSH_SIM_PYTHON") or sys.executable
        self.start_timeout = start_timeout
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.sock: Optional[socket.socket] = None
        self.sim_pid: Optional[int] = None
        self.rundir: Optional[Path] = None
        self.error: Optional[SimulatorError] = None
        self._lock = threading.Lock()
        self._tag = 0
        self._stopped = False
        #: PL writes into PS memory seen so far (the notification pipe), and its condition
        #: writes into PS memory made by software of this process (note_write)
        self._local_writes = 0
        self._notify_r = self._notify_w = -1
        #: The kick pipe: a byte resumes a simulator paused for the next request (see
        #: wait_pl_write); threads in wait_pl_write, counted in the control page
        self._kick_r = self._kick_w = -1
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
        #: The interrupt pipe (the simulator writes a byte when an interrupt line changes;
        #: the lines' state is in the control page): its read end, or -1
        self.irq_r = self._irq_w = -1
        self.ctl = SharedMemory(CTL_SIZE, "pushpush-ctl")
        struct.pack_into("<Q", self.ctl.mem, CTL_LOOKED, (1 << 64) - 1)   # no serve thread yet
        #: The simulator's status sampled while software waits (see wait_report)
        self.samples = Samples()
        self._watchdog: Optional[Watchdog] = None

    # ------------------------------------------------------------------ lifetime

    @property
    def log_path(self) -> Path:
        assert self.rundir is not None
        return self.rundir / "sim.log"

    def start(self) -> "SimBridge":
        self.rundir = Path(tempfile.mkdtemp(prefix="pushpush-sim-"))
        cfg = self.config
        cfg.socket_path = str(self.rundir / "gp0.sock")
        cfg.ps_mem_path = self.ps_mem.path
        cfg.ddr_mem_path = self.ddr_mem.path if self.ddr_mem is not None else ""
        cfg.ddr_size = self.ddr_mem.size if self.ddr_mem is not None else 0
        cfg.build_dir = cfg.build_dir or str(self.rundir / "build")
        cfg.parent_pid = os.getpid()
        cfg.ctl_mem_path = self.ctl.path
        notify_r, notify_w = os.pipe()
        os.set_blocking(notify_r, False)
        os.set_blocking(notify_w, False)
        self._notify_r, self._notify_w = notify_r, notify_w
        cfg.notify_fd = notify_w
        self._kick_r, self._kick_w = os.pipe()
        os.set_blocking(self._kick_r, False)
        os.set_blocking(self._kick_w, False)
        cfg.kick_fd = self._kick_r
        fds: tuple[int, ...] = (notify_w, self._kick_r)
        if cfg.irq:
            self.irq_r, self._irq_w = os.pipe()
            os.set_blocking(self.irq_r, False)
            os.set_blocking(self._irq_w, False)
            cfg.irq_fd = self._irq_w
            fds += (self._irq_w,)
        (self.rundir / "config.json").write_text(cfg.to_json())
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(cfg.socket_path)
        listener.listen(1)
        env = dict(os.environ)
        pkg_root = str(Path(__file__).resolve().parents[3])
        env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        logf = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(
                [self.python, "-m", "pushpush.simboard.child", str(self.rundir / "config.json")],
                stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT, env=env,
                cwd=str(self.rundir), pass_fds=fds, **_group_args())
        finally:
            logf.close()
        _live.add(self)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                r, _, _ = select.select([listener], [], [], 0.1)
                if r:
                    self.sock, _ = listener.accept()
                    break
                if self.proc.poll() is not None:
                    raise SimulatorError(
                        f"the simulator ({cfg.simulator}, top {cfg.top}) exited with code "
                        f"{self.proc.returncode} before it started", _tail(self.log_path))
                if time.monotonic() > deadline:
                    raise SimulatorError(f"the simulator did not start within {self.start_timeout:g} s",
                                         _tail(self.log_path))
            op, _, _, payload = self._recv()
            hello = json.loads(payload)
            self.sim_pid = int(hello["pid"])
        except BaseException:
            listener.close()
            self.stop()
            raise
        listener.close()
        log.info("simulated board started: %s on %s (pid %s), run folder %s", cfg.top,
                 cfg.simulator, self.sim_pid, self.rundir)
        self._watchdog = Watchdog.from_env(self)
        return self

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

    def irq_state(self) -> tuple[int, int, int, int]:
        """The interrupt lines as the simulator last wrote them: (levels, bit i = the
        interrupt controller's input i, bit 0 the top's ``irq`` when it has one; changes so
        far, clock cycle of the last change, CLOCK_MONOTONIC ns when the simulator saw it)."""
        if self._stopped:
            return 0, 0, 0, 0
        return struct.unpack_from("<QQQQ", self.ctl.mem, CTL_IRQ_LEVEL)

    def irq_rises(self, inputs: int) -> tuple[int, ...]:
        """The rising edges of interrupt inputs 0 .. ``inputs``-1 so far (u32 counts that
        wrap), as the simulator counted them: a line that rose and fell between two looks
        at :meth:`irq_state` shows here."""
        if self._stopped:
            return (0,) * inputs
        return struct.unpack_from(f"<{inputs}I", self.ctl.mem, CTL_IRQ_RISES)

    def last_pl_write(self) -> tuple[int, int]:
        """(clock cycle, CLOCK_MONOTONIC ns) at which the simulator stored the PL's last
        write into PS memory (the HDL PS model; (0, 0) before the first)."""
        if self._stopped:
            return 0, 0
        return struct.unpack_from("<QQ", self.ctl.mem, CTL_PLW_CYCLE)

    def status(self) -> Optional[dict[str, Any]]:
        """What the simulator is doing now (:func:`pushpush.simboard.ipc.read_status`:
        state, cycle, time per state, pause and idle counters), or None when stopped."""
        if self._stopped:
            return None
        try:
            return read_status(self.ctl.mem)
        except (ValueError, TypeError):   # stopped meanwhile (a closed mmap raises either)
            return None

    def sample(self) -> None:
        """Keep the simulator's status now (at most every :data:`watch.SAMPLE_S`) for
        :meth:`wait_report`; waiting software calls it (``check``, ``wait_pl_write``)."""
        if self.samples.due():
            st = self.status()
            if st is not None:
                st["cpu"] = cpu_times(self.sim_pid or 0)
                self.samples.add(st)

    def wait_report(self, waited: float) -> str:
        """What the simulated board did while software waited the last ``waited`` seconds:
        the clock cycles that passed, the time the simulator spent running, idle, paused and
        serving requests, and what it is doing now; a call's timeout message ends with it,
        so a slow host (cycles passed) and a stall (none did) can be told apart."""
        st = self.status()
        if st is None:
            return "the simulated board is stopped"
        st["cpu"] = cpu_times(self.sim_pid or 0)
        return self.samples.report(st, waited, self._waiters, self._handling) + self._accounting()

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
            attached = sum(1 for k in self._caller_seen if isinstance(k, tuple))
            return (f"; callers the simulator runs for: {self._callers} ({attached} attached "
                    f"program(s)); writes into PS memory: {writes}; serve threads behind the "
                    f"latest: {', '.join(behind) or 'none'}")

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
        if kick:   # after the count (the lock is a barrier): see the simulator's _fence
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
        fallback sweep (``board.IRQ_WAIT_S``)."""
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

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the simulator (idempotent): STOP, wait, then kill its process group."""
        if self._stopped:
            return
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            watchdog.stop()
        self._stopped = True
        _live.discard(self)
        if self.sock is not None:
            try:
                with self._lock:
                    self.sock.settimeout(2.0)
                    self.sock.sendall(REQ.pack(OP_STOP, 0, 0, 0))
            except OSError:
                pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
            self._kill_group()
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.rundir is not None and not os.environ.get("PUSHPUSH_SIM_KEEP"):
            shutil.rmtree(self.rundir, ignore_errors=True)
        self._poke()   # wake the waiters; they see the board stopped
        if self._irq_w >= 0:
            try:
                os.write(self._irq_w, b"\0")   # wakes the interrupt model's thread: it ends
            except OSError:
                pass
        for fd in (self._notify_r, self._notify_w, self._kick_r, self._kick_w, self._irq_w):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._notify_r = self._notify_w = -1
        self._kick_r = self._kick_w = -1
        self._irq_w = -1   # the read end belongs to the interrupt model (it closes it)
        self.ctl.close()

    def _kill_group(self) -> None:
        assert self.proc is not None
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)   # the child leads its own process group
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                continue
            # the leader is gone; make sure no member of its group is left
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.wait(5.0)

    @property
    def alive(self) -> bool:
        return (not self._stopped and self.error is None and self.proc is not None
                and self.proc.poll() is None)

    def check(self) -> None:
        """Raise :class:`SimulatorError` if the simulator failed or exited."""
        self.sample()
        if self.error is not None:
            raise self.error
        if self._stopped:
            raise SimulatorError("the simulated board is stopped (the overlay was freed or "
                                 "another one was downloaded)")
        if self.proc is not None and self.proc.poll() is not None:
            self._fail(f"the simulator exited (code {self.proc.returncode})")

    def _fail(self, what: str) -> None:
        if self.error is None:
            if self.proc is not None:
                try:
                    self.proc.wait(1.0)
                except subprocess.TimeoutExpired:
                    pass
            self.error = SimulatorError(f"simulated board ({self.config.top} on "
                                        f"{self.config.simulator}): {what}", _tail(self.log_path))
        raise self.error

    # ------------------------------------------------------------------ requests

    def _recv_exact(self, n: int) -> bytes:
        assert self.sock is not None
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return bytes(buf)

    def _recv(self) -> tuple[int, int, int, bytes]:
        op, tag, status, length = REP.unpack(self._recv_exact(REP.size))
        return op, tag, status, self._recv_exact(length) if length else b""

    def request(self, op: int, address: int = 0, length: int = 0, payload: bytes = b"") -> tuple[int, bytes]:
        """Send one request and wait for its reply: (status, payload)."""
        self.check()
        assert self.sock is not None
        with self._lock:
            self._tag = (self._tag + 1) & 0xFFFFFFFF
            tag = self._tag
            try:
                self.sock.sendall(REQ.pack(op, tag, address, length) + payload)
                rop, rtag, status, data = self._recv()
            except (OSError, EOFError) as e:
                self._fail(f"the connection to the simulator broke ({type(e).__name__}: {e}); "
                           "it crashed or stopped")
                raise  # unreachable
            if rop != op or rtag != tag:
                self._fail(f"protocol error: reply {rop}/{rtag} to request {op}/{tag}")
            if status == 0xFF:
                self._fail(f"the simulator failed to serve a request: {data.decode(errors='replace')}")
            return status, data

    def write(self, address: int, data: bytes) -> int:
        """One burst write on GP0; returns the AXI response (0 OKAY, 2 SLVERR, 3 DECERR)."""
        return self.request(OP_WRITE, address, len(data), bytes(data))[0]

    def write_words(self, address: int, data: bytes) -> tuple[int, int]:
        """32-bit stores on GP0, one single-beat write each, in order (the ARM's way); stops
        at the first error. Returns (AXI response, words written before it)."""
        status, payload = self.request(OP_WRITE_WORDS, address, len(data), bytes(data))
        return status, struct.unpack("<I", payload)[0]

    def read(self, address: int, length: int) -> tuple[int, bytes]:
        return self.request(OP_READ, address, length)

    def info(self) -> dict[str, Any]:
        return json.loads(self.request(OP_INFO)[1])

    def run(self, cycles: int) -> dict[str, Any]:
        """Advance the simulation by ``cycles`` clock cycles (returns :meth:`info`)."""
        return json.loads(self.request(OP_RUN, 0, cycles)[1])
