"""The simulated board's PS side in HDL: Python only when something happens.

The simulator runs ``pushpush_simboard`` (:mod:`pushpush.codegen.simboard`): the system top
with the PL clock and reset generated in HDL, the ARM's GP0 master (``pp_sim_gp0``) on its
``s_axi`` and the PS memory port (``pp_sim_mem``) on its ``m_axi``. This module is the
Python inside the simulator. It is woken only by

* a burst of the PL into PS memory (``pp_sim_mem`` flips ``wr_toggle``/``rd_toggle``): it
  stores the beats into the shared memory the PYNQ process polls (32-bit stores in address
  order, :func:`~pushpush.simboard.ipc.store_words`) or reads them from it, answers, and
  tells the PYNQ process (a byte on the notification pipe, which wakes a waiting runtime at
  once instead of at its next poll);
* a request of the PYNQ process on the GP0 socket (a write, the words of a call, a read):
  it loads ``pp_sim_gp0``'s buffers and flips ``cmd_toggle``; the HDL runs the AXI
  transaction and flips ``done_toggle``;
* a timer, to look at the socket: every ``batch`` cycles while the board is busy (the batch
  grows so that it takes about ``poll_us`` of wall clock), and while it is idle (no request,
  no PL access to PS memory and no software waiting for a reply for ``idle_s``) it
  blocks on the socket for 40 times as long as its last turn took, so an idle board uses at most
  about 3% of a core (:data:`IDLE_FACTOR`) while the PL keeps running (slower) in between.

After a PL write into PS memory that software likely waits for (a call's return), it does
not run more batches: it pauses at the next falling edge for the next request, or until a
caller needs simulated time to pass (:class:`~.handoff.Pause`), so a Python -> Verilog call
costs only its own cycles. While a runtime waits in mode ``interrupt`` (CTL_IRQ_RUNTIMES) it pauses only
once the write is answered (its B response raises ``irq``; see
:meth:`SimLoop.settle_b_responses`). While software answers a call of the PL (the control
page's CTL_HANDLING) it does not run at full speed: the PL waits for that answer, a request.
Replies to requests go out at the end of their clock edge, after any PL write stored in it.

Between wake-ups the simulator free-runs; no Python code runs per clock edge. Cycle counts
do not depend on the host: the HDL answers in fixed cycles and Python answers within the
clock edge it is woken at.

:func:`serve_hdl` is the entry (:mod:`.cocotb_main` awaits it); :class:`SimLoop` is the loop,
one method per decision; the pause itself is :class:`~.handoff.Pause`. All of it reads the
control page (:mod:`.ipc`) that the PYNQ process's side of the pacing keeps
(:mod:`pushpush.pynq.simulated.pacing`).
"""

from __future__ import annotations

import faulthandler
import json
import logging
import os
import select
import signal
import socket
import struct
import time
from typing import Any, Optional

# cocotb (the ``sim`` extra): this module runs only inside the simulator, where
# :mod:`.cocotb_main` imports it
import cocotb
from cocotb.triggers import Event, FallingEdge, First, Timer, ValueChange
from cocotb.utils import get_sim_time

from .handoff import Pause, drain, fence
from .ipc import (OP_HELLO, OP_READ, OP_WRITE, OP_WRITE_WORDS, REP, REQ, RESET_CYCLES, CTL_CALLERS, CTL_HANDLING, CTL_IDLE,
                  CTL_LOCAL_WRITES, CTL_IRQ_RUNTIMES, CTL_LOOKED, CTL_CALLER_SEEN, CTL_PL_WRITES,
                  CTL_WAIT_STAMP, CTL_WAITERS, SimConfig, SimStatus, SimulatedPSMemory, in_windows,
                  read_windows, serve_requests)
from .ps_model import Handles, HdlPS, uint
from .tracehook import SimTraceHook, rundir_of_config

__all__ = ["serve_hdl", "SimLoop", "IDLE_FACTOR"]

log = logging.getLogger("pushpush.sim")

#: While idle, the simulator blocks on its socket for this many times as long as its last
#: turn (a batch and the loop's Python) took: at most 1/41 of the busy CPU. 24 measured
#: 5.3 % of a core on Verilator (`pushpush bench simboard`), over issue 15's 5 %.
IDLE_FACTOR = 40


async def serve_hdl(dut: Any) -> None:
    """The cocotb side of the simulated board with the HDL PS (see the module docstring):
    the configuration from ``PUSHPUSH_SIM_CONFIG``, then :meth:`SimLoop.run` until the PYNQ
    process stops or goes away."""
    with open(os.environ["PUSHPUSH_SIM_CONFIG"]) as f:
        cfg = SimConfig.from_json(f.read())
    if os.environ.get("PUSHPUSH_SIM_WATCHDOG"):   # pushpush.pynq.simulated.watch asks with SIGUSR1
        folder = os.environ["PUSHPUSH_SIM_WATCHDOG"]
        os.makedirs(folder, exist_ok=True)
        dump = open(os.path.join(folder, f"simulator-{os.getpid()}.txt"), "a")
        faulthandler.register(signal.SIGUSR1, file=dump, all_threads=True)
    await SimLoop(dut, cfg).run()


def _open_pipe(variable: str, flags: int) -> int:
    """The pipe named by environment ``variable`` (made by the PYNQ side), opened
    non-blocking with ``flags``; -1 when there is none."""
    path = os.environ.get(variable, "")
    return os.open(path, flags | os.O_NONBLOCK) if path else -1


def _poke(fd: int) -> None:
    """A byte on pipe ``fd`` (a full pipe wakes its reader anyway; a closed one has none)."""
    try:
        os.write(fd, b"\1")
    except (BlockingIOError, BrokenPipeError):
        pass


class SimLoop:
    """The simulator's loop for one harness ``dut`` and configuration ``cfg``: runs the PL
    in batches of cycles, pauses after a write that software waited for (:class:`~.handoff.Pause`),
    blocks while idle, and serves the PYNQ process's requests (see the module docstring).

    It reads the control page (``ctl``, None without one) for who waits, and writes
    ``status`` (what it is doing, :class:`~.ipc.SimStatus`) there."""

    def __init__(self, dut: Any, cfg: SimConfig) -> None:
        self.dut = dut
        self.cfg = cfg
        self.period_ps = int(round(1e6 / cfg.clock_mhz))
        self.notify_fd = _open_pipe("PUSHPUSH_SIM_NOTIFY", os.O_WRONLY)
        self.kick_fd = _open_pipe("PUSHPUSH_SIM_KICK", os.O_RDONLY)
        #: host time of the last activity (a request, a PL access to PS memory, an
        #: interrupt line's change), and the thread CPU time the running turn started at
        self.last_activity = time.monotonic()
        self.turn_cpu = time.thread_time()
        self.memory = SimulatedPSMemory(cfg)
        self.ctl = self.memory.control
        #: what it is doing, in the control page (a call timeout says it)
        self.status = SimStatus(self.ctl)
        #: the hand-off (see handoff.Pause): a PL write into PS memory that was waited for
        self.pause = Pause(cfg.handoff_us / 1e6
                            if self.ctl is not None and self.kick_fd >= 0 else 0.0)
        #: set by such a write: ends the running batch of cycles
        self.answered = Event()
        #: a GP0 access was served this turn (cfg.mmio_gap_us: see mmio_gap), and its
        #: cfg.mmio_cycles already ran (on the way back to a falling edge)
        self.mmio_served = False
        self.mmio_ran = False
        #: the ps region; DDR windows: CTL_WINDOWS
        self.ps_windows = [(cfg.ps_base, cfg.ps_size)]
        extra = tuple((str(p["name"]), int(p["data_width"])) for p in cfg.mem_ports)
        self.ps = HdlPS(Handles.harness(dut, extra), self.memory, data_width=cfg.data_width,
                        on_access=self.mark_activity, notify=self.on_pl_write,
                        timeout_cycles=cfg.gp0_timeout_cycles,
                        before_write=self.stamp_before_store)
        self.irq_fd = _open_pipe("PUSHPUSH_SIM_IRQ", os.O_WRONLY) if cfg.irq else -1
        #: simulated time (ps) of cycle 0: a falling edge out of reset (set by run)
        self.t_zero = 0
        self.sock: Optional[socket.socket] = None
        #: replies waiting for the end of the clock edge (flush_replies), requests read
        self.out: list[bytes] = []
        self.buf = bytearray()
        #: the batch of cycles while busy (adapted to poll_us), and the least batch while a
        #: caller needs simulated time to pass (see run_batch)
        self.batch = max(1, cfg.busy_batch)
        self.floor = max(self.batch, min(cfg.idle_batch, cfg.max_batch))
        self.target = cfg.poll_us / 1e6

    # ------------------------------------------------------------------ time

    def cycle(self) -> int:
        """The cycle count since cycle 0 (:attr:`t_zero`)."""
        return int((get_sim_time(unit="ps") - self.t_zero) // self.period_ps)

    def off_edge(self) -> bool:
        """Simulated time is not on a falling edge (a command ran part of a period)."""
        return (get_sim_time(unit="ps") - self.t_zero) % self.period_ps != 0

    async def run_cycles(self, cycles: int) -> None:
        """A RUN request: let ``cycles`` cycles pass (at least one)."""
        await Timer(max(1, cycles) * self.period_ps, unit="ps")

    # ------------------------------------------------------------------ PL writes into PS memory

    def mark_activity(self) -> None:
        """Something happened (a request, a PL access to PS memory): not idle."""
        self.last_activity = time.monotonic()

    def stamp_before_store(self, address: int, length: int) -> None:
        """Before a PL write's words are stored: its cycle and host time, if it goes into a
        software window."""
        # the host time of a write into a software window is taken before its words are
        # stored (and the stores are in order): software that sees the words reads this
        # stamp or a later one, never the previous write's (pushpush bench wait; stamped
        # after the store, a waiter on another core often saw the words first)
        ctl = self.ctl
        if ctl is not None and in_windows(self.ps_windows + read_windows(ctl), address, length):
            self.memory.stamp_write(self.cycle())

    def on_pl_write(self) -> None:
        """A PL write into PS memory was stored (``ps.written``): count it, wake the PYNQ
        process (the notification pipe) and, when software likely waited for it, end the
        running batch to pause for the next request."""
        # only a write into a software window (a call's return, a call into software) is
        # what software waits for: it is counted, notified (and stamped, before its store:
        # stamp_before_store), and may be paused for. DMA data and buffer results in DDR are
        # not: they are counted apart (data_writes). Before (issue 28) each such burst woke
        # the waiting caller, which then no longer had "seen the latest write", so the
        # simulator paused until the caller had woken, looked and waited again: a DMA
        # transfer stopped at every burst
        ctl, pause = self.ctl, self.pause
        address, length = self.ps.written
        if ctl is not None and not in_windows(self.ps_windows + read_windows(ctl), address, length):
            self.status.count("data_writes")
            return
        self.memory.count_write()
        if self.notify_fd >= 0:
            _poke(self.notify_fd)
        if not pause.limit:
            return
        if (pause.serving or pause.armed
                or struct.unpack_from("<Q", ctl, CTL_WAITERS)[0]):
            if self.time_needed():
                self.status.count("pauses_not_needed")
            else:
                pause.due = True
                self.answered.set()

    # ------------------------------------------------------------------ who waits (the control page)

    def software_waiting(self) -> bool:
        """Software stamped that it waits for a reply less than ``idle_s`` ago
        (CTL_WAIT_STAMP)."""
        if self.ctl is None:
            return False
        stamp = struct.unpack_from("<Q", self.ctl, CTL_WAIT_STAMP)[0]
        return time.monotonic_ns() - stamp < self.cfg.idle_s * 1e9

    def software_answering(self) -> bool:
        """Software is answering a call of the PL (the PL waits for that answer: a request
        will come): the simulation need not run meanwhile (CTL_HANDLING)."""
        return self.ctl is not None and struct.unpack_from("<Q", self.ctl, CTL_HANDLING)[0] > 0

    def time_needed(self) -> bool:
        """A caller waits for the PL, no call of the PL is being answered and every serve
        thread has looked at every write into PS memory (none will take a call and answer
        it): simulated time must pass (CTL_CALLERS, CTL_HANDLING, CTL_LOOKED against
        CTL_PL_WRITES + CTL_LOCAL_WRITES). The PYNQ side evaluates the same and writes the
        kick pipe when it becomes true while the simulator blocks (paused or idle), so a
        block ends by that event, not by its timer."""
        ctl = self.ctl
        if ctl is None:
            return False
        if (struct.unpack_from("<Q", ctl, CTL_CALLERS)[0] == 0
                or struct.unpack_from("<Q", ctl, CTL_HANDLING)[0] > 0):
            return False
        writes = (struct.unpack_from("<Q", ctl, CTL_PL_WRITES)[0]
                  + struct.unpack_from("<Q", ctl, CTL_LOCAL_WRITES)[0])
        return (struct.unpack_from("<Q", ctl, CTL_LOOKED)[0] >= writes
                and struct.unpack_from("<Q", ctl, CTL_CALLER_SEEN)[0] >= writes)

    def irq_runtimes_waiting(self) -> bool:
        """A runtime of the PYNQ process waits in mode interrupt (CTL_IRQ_RUNTIMES): it wakes
        by ``irq``, which the interrupt block raises at a write's B response."""
        return (self.ctl is not None and self.irq_fd >= 0 and self.ps.port is not None
                and struct.unpack_from("<Q", self.ctl, CTL_IRQ_RUNTIMES)[0] > 0)

    # ------------------------------------------------------------------ the interrupt lines

    async def watch_interrupt_lines(self) -> None:
        """The interrupt lines (the harness's ``pp_intr``, bit i = the interrupt
        controller's input i: the top's ``irq``, a DMA shell's DMA interrupts): every change
        goes into the control page (levels, count, cycle, host time) and a byte on the
        interrupt pipe wakes the PYNQ process's interrupt controller model
        (pushpush.pynq.simulated.interrupt)."""
        lines = self.dut.pp_intr
        level = -1
        while True:
            v = lines.value
            if v.is_resolvable:
                now = int(v)
            else:   # X/Z (before the first reset edge): low
                now = int("".join("1" if c == "1" else "0" for c in str(v)) or "0", 2)
            if now != level:
                level = now
                self.mark_activity()
                self.memory.set_irq(level, self.cycle())
                _poke(self.irq_fd)
            await ValueChange(lines)

    async def settle_b_responses(self, limit: int) -> bool:
        """Before a pause while :meth:`irq_runtimes_waiting`: run until every burst stored
        through the memory port has had its B response (pp_sim_mem's ``wb_p`` against the
        bursts Python answered), then to the next falling edge. The interrupt block sets a
        window's pending bit and ``irq`` in the cycle of that B, two cycles after the store,
        and watch_interrupt_lines passes the change on: a runtime asleep on its interrupt is
        woken before the PL stands still. Paused at the store instead, the PL stood still
        with ``irq`` low, no request came (the runtime waited for its interrupt) and no kick
        (it had not seen the write): it slept until its fallback sweep. False when the PL
        held a B back for ``limit`` cycles (the pause is then not taken: the PL runs on)."""
        port = self.ps.port
        assert port is not None
        answers = port.mem.wb_p
        mod = 1 << len(answers)
        end = self.cycle() + limit
        while (port.acked - uint(answers)) % mod:
            left = end - self.cycle()
            if left <= 0:
                return False
            await First(ValueChange(answers), Timer(left * self.period_ps, unit="ps"))
        if self.off_edge():
            await FallingEdge(self.dut.clk)
        return True

    # ------------------------------------------------------------------ the socket

    def info(self) -> bytes:
        """The payload of HELLO, INFO and RUN replies."""
        return json.dumps({"pid": os.getpid(), "cycle": self.cycle(), "ps": "hdl",
                           "time_ns": get_sim_time(unit="ns")}).encode()

    def reply(self, op: int, tag: int, status: int, payload: bytes = b"") -> None:
        """Queue a reply; :meth:`flush_replies` sends it."""
        # replies go out together at the end of the clock edge (flush): a PL write into PS
        # memory in the same edge as a request's last response (a call's return, with the
        # B of its trigger word) is then stored and notified before the reply wakes the
        # PYNQ process, which finds both at once
        self.out.append(REP.pack(op, tag, status, len(payload)) + payload)

    def flush_replies(self) -> None:
        """Send the queued replies."""
        if self.out:
            data = b"".join(self.out)
            self.out.clear()
            assert self.sock is not None
            self.sock.sendall(data)

    def block_idle(self, wait: float) -> list[Any]:
        """Idle: block on the socket for ``wait`` s, marked in the control page (CTL_IDLE) so
        that software that starts waiting for the PL meanwhile (an
        interrupt-mode runtime sends no request while it waits) resumes the simulator
        through the kick pipe at once, instead of after ``wait``, which is IDLE_FACTOR times
        the last turn and grows to seconds on a loaded host. Returns ``[sock]`` when a
        request came."""
        sock, ctl, kick_fd, status = self.sock, self.ctl, self.kick_fd, self.status
        if ctl is None or kick_fd < 0:
            return select.select([sock], [], [], wait)[0]
        status.enter("idle", self.cycle(), int(wait * 1e6))
        struct.pack_into("<Q", ctl, CTL_IDLE, 1)
        try:
            fence()   # the mark is seen by the PYNQ side before the counts are read here
            if self.time_needed() or (self.software_waiting()
                                      and not self.software_answering()):   # run on
                return []
            ready = select.select([sock, kick_fd], [], [], wait)[0]
        finally:
            struct.pack_into("<Q", ctl, CTL_IDLE, 0)
        status.count("idle_blocks")
        if kick_fd in ready:
            status.count("idle_kicks")
            drain(kick_fd)
        if sock in ready:
            status.count("idle_requests")
        return [sock] if sock in ready else []

    async def serve_socket(self) -> bool:
        """A request came: read and serve the complete ones. False when the loop ends (STOP,
        or the PYNQ process went away)."""
        assert self.sock is not None
        chunk = self.sock.recv(1 << 20)
        if not chunk:  # the PYNQ process went away
            return False
        buf, pause = self.buf, self.pause
        buf += chunk
        if len(buf) >= REQ.size:
            op, _, address, _ = REQ.unpack_from(buf)
            self.status.enter("serving", self.cycle(), op, address)
            self.mmio_served = op in (OP_WRITE, OP_WRITE_WORDS, OP_READ)
        pause.serving = True
        pause.armed = False
        try:
            going = await serve_requests(buf, self.ps, self.reply, self.info, self.run_cycles,
                                         self.mark_activity)
        finally:
            if self.out and (not self.off_edge() or (self.mmio_served and self.cfg.mmio_gap_us > 0)):
                # a reply to a request that took no clock edge (INFO), or an error; with the
                # MMIO hand-off, register accesses' replies at once (a Vivado overlay's PL
                # writes into PS memory are DMA data, answered before the DMA says done)
                self.flush_replies()
        if not going:
            self.status.enter("stopped", self.cycle())
            log.info("simulated board: %d pauses for a request after a reply: %d ended by one, "
                     "%d by a kick, %d at the limit", pause.pauses, pause.hits, pause.kicks,
                     pause.pauses - pause.hits - pause.kicks)
        return going

    # ------------------------------------------------------------------ the loop

    async def run(self) -> None:
        """Out of reset, connect to the PYNQ process, say HELLO, then turn: pause or run a
        batch, and serve the requests that came, until it stops or goes away."""
        # out of reset, on a falling edge: every timer below is a whole number of periods, so
        # Python's writes land between two rising edges
        for _ in range(RESET_CYCLES + 2):
            await FallingEdge(self.dut.clk)
        self.t_zero = get_sim_time(unit="ps")
        self.ps.start()   # after reset: its toggles are defined now
        tracer = SimTraceHook(self.dut, self.ctl, rundir_of_config(),
                              lambda: get_sim_time(unit="ps") - self.t_zero, self.period_ps,
                              self.cfg.mem_ports)
        if self.irq_fd >= 0:
            cocotb.start_soon(self.watch_interrupt_lines())
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.cfg.socket_path)
        self.reply(OP_HELLO, 0, 0, self.info())
        self.flush_replies()
        while True:
            if self.off_edge():
                if self.mmio_served and self.cfg.mmio_gap_us > 0 and self.cfg.mmio_cycles > 0:
                    # the MMIO hand-off's cycles and the way back between two edges, in one wait
                    phase = (get_sim_time(unit="ps") - self.t_zero) % self.period_ps
                    await Timer(self.period_ps - phase + self.cfg.mmio_cycles * self.period_ps,
                                unit="ps")
                    self.mmio_ran = True
                else:
                    await FallingEdge(self.dut.clk)   # back between two rising edges (after a command)
            self.status.look(self.cycle())
            tracer.look()
            self.start_turn()
            ready = await self.pause_if_due()
            if not ready:
                ready = await self.mmio_gap()
            if not ready:
                ready = await self.run_batch()
                if not ready:
                    continue
            if not await self.serve_socket():
                return

    def start_turn(self) -> None:
        """Send the replies of the last turn; after serving requests, arm the hand-off."""
        pause = self.pause
        if pause.serving:
            # the requests' software waited until their replies went out; it acts next
            self.flush_replies()
            pause.serving = False
            pause.armed = True
        self.flush_replies()

    async def pause_if_due(self) -> list[Any]:
        """Take the pause a waited-for write made due (:meth:`on_pl_write`), unless a caller
        needs simulated time now or the PL holds that write's B back: ``[sock]`` when a
        request ended it, else []."""
        pause, status = self.pause, self.status
        if pause.due and self.time_needed():   # a caller started waiting meanwhile: no pause
            pause.due = False
            self.answered.clear()   # (set with due: it would end every batch at once)
            status.count("pauses_not_needed")
        if (pause.due and self.irq_runtimes_waiting()
                and not await self.settle_b_responses(self.floor)):
            pause.due = False   # the PL holds the write's B back: it runs on (the safety net)
            self.answered.clear()
            status.count("settle_limits")
        if not pause.due:
            return []
        self.answered.clear()
        ready = pause.wait(self.sock, self.kick_fd, self.ctl, status, self.cycle(),
                           self.time_needed, self.software_answering)
        self.turn_cpu = time.thread_time()   # the next turn's work starts here, not before
        return ready

    async def mmio_gap(self) -> list[Any]:
        """After a GP0 access (with ``cfg.mmio_gap_us``): run ``cfg.mmio_cycles`` cycles while
        the reply travels and the software makes its next access, then block (as in a pause:
        a kick ends it) until that request comes, or for at most ``mmio_gap_us``, after which
        the PL runs on in batches. A tight loop of register accesses then costs its accesses'
        own cycles plus ``mmio_cycles`` each, and no batch is in the way of the next one.
        ``[sock]`` when a request came."""
        cfg = self.cfg
        if not (self.mmio_served and cfg.mmio_gap_us > 0 and self.kick_fd >= 0):
            return []
        self.mmio_served = False
        if self.time_needed() or self.pause.due:
            return []
        if cfg.mmio_cycles > 0 and not self.mmio_ran:
            await Timer(cfg.mmio_cycles * self.period_ps, unit="ps")
        self.mmio_ran = False
        if select.select([self.sock], [], [], 0)[0]:
            return [self.sock]
        pause = self.pause
        saved = pause.limit
        pause.limit = cfg.mmio_gap_us / 1e6
        try:
            ready = pause.wait(self.sock, self.kick_fd, self.ctl, self.status, self.cycle(),
                               self.time_needed, self.software_answering)
        finally:
            pause.limit = saved
        self.turn_cpu = time.thread_time()
        return ready

    def busy(self, must: bool) -> bool:
        """Run at full speed (no idle block after the batch)?"""
        # full speed while software waits on the PL or used it lately, unless software is
        # answering a call of the PL: the PL waits for that answer (a request, which ends
        # the block at once), so the simulator blocks instead of spinning for it
        cfg = self.cfg
        return (cfg.idle_ms <= 0 or must or (not self.software_answering() and (
            time.monotonic() - self.last_activity < cfg.idle_s or self.software_waiting())))

    async def run_batch(self) -> list[Any]:
        """Run a batch of cycles (cut short by a write that was waited for), then look at
        the socket, blocking there while idle: ``[sock]`` when a request came."""
        cfg, pause, status = self.cfg, self.pause, self.status
        must = self.time_needed()
        busy = self.busy(must)
        # a caller waits and only simulated time helps (no request will come): big
        # batches. The busy floor (16 cycles) made a CPU-starved simulator spend most of
        # what it got on this loop (issue 28: 16-cycle batches for seconds). For this
        # turn only: kept in `batch`, it ran 256 cycles a turn on while Python answered
        # the PL's calls afterwards (the FIR cell's cycles doubled)
        cycles = max(self.batch, self.floor) if must else self.batch
        # the batch adapts to the CPU time it takes, not the wall time: on a busy host the
        # wall time of a batch is mostly waiting for a CPU, and a batch shrunk to 16
        # cycles for that spent most of the CPU it got on this loop's Python (issue 28:
        # Verilator at 11 us a cycle instead of ~1)
        t0 = time.thread_time()
        ev0 = self.ps.event_cpu
        c0 = self.cycle()
        status.enter("running", c0, cycles)
        if pause.limit:
            await First(Timer(cycles * self.period_ps, unit="ps"), self.answered.wait())
        else:
            await Timer(cycles * self.period_ps, unit="ps")
        now = time.thread_time()
        # the cycles' own cost: the Python serving the PL's bursts meanwhile (a DMA
        # transfer's beats) is paid per burst, not per cycle, and shrank the batch to its
        # floor while a DMA ran (issue 28)
        took = max(0.0, now - t0 - (self.ps.event_cpu - ev0))
        if must:
            status.count("needed_batches")
            status.count("needed_cycles", self.cycle() - c0)
        work = now - self.turn_cpu   # the whole turn's CPU: the batch and this loop's Python
        if busy:
            if not pause.due:   # (cut short by a write that was waited for: says nothing of speed)
                self.adapt_batch(took, cycles)
            wait = 0.0
        else:
            wait = max(cfg.idle_ms / 1000, IDLE_FACTOR * work)
        if pause.due:
            return []   # to the next falling edge, then pause for the request
        if wait > 0:
            ready = self.block_idle(wait)
        else:
            ready = select.select([self.sock], [], [], 0)[0]
        self.turn_cpu = time.thread_time()
        return ready

    def adapt_batch(self, took: float, cycles: int) -> None:
        """``cycles`` cycles took ``took`` s of CPU: size the busy batch so that it takes
        about ``poll_us`` of wall clock (the socket is looked at that often)."""
        cfg = self.cfg
        if took * self.batch / cycles < self.target / 2 and self.batch < cfg.max_batch:
            self.batch = min(cfg.max_batch, self.batch * 2)
        elif took * self.batch / cycles > self.target * 2 and self.batch > cfg.busy_batch:
            self.batch = max(cfg.busy_batch, self.batch // 2)
