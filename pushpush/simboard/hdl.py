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
caller needs simulated time to pass (:class:`_Pause`), so a Python -> Verilog call costs only
its own cycles. While a runtime waits in mode ``interrupt`` (CTL_IRQ_RUNTIMES) it pauses only
once the write is answered (its B response raises ``irq``; see ``settle`` in serve_hdl). While software answers a call of the PL (the control page's CTL_HANDLING)
it does not run at full speed: the PL waits for that answer, a request.
Replies to requests go out at the end of their clock edge, after any PL write stored in it.

Between wake-ups the simulator free-runs; no Python code runs per clock edge. Cycle counts
do not depend on the host: the HDL answers in fixed cycles and Python answers within the
clock edge it is woken at.
"""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import struct
import time
from typing import Any, Callable, Optional

from .ipc import (OP_HELLO, REP, REQ, CTL_CALLERS, CTL_HANDLING, CTL_IDLE, CTL_LOCAL_WRITES,
                   CTL_IRQ_RUNTIMES, CTL_LOOKED, CTL_CALLER_SEEN, CTL_PAUSED, CTL_PL_WRITES,
                   CTL_WAIT_STAMP, CTL_WAITERS, SimConfig, SimStatus, SimulatedPSMemory,
                   in_windows, read_windows, serve_requests)

from .ps_model import Handles, HdlPS, uint

__all__ = ["serve_hdl", "IDLE_FACTOR"]

log = logging.getLogger("pushpush.sim")

#: While idle, the simulator blocks on its socket for this many times as long as its last
#: turn (a batch and the loop's Python) took: at most 1/41 of the busy CPU. 24 measured
#: 5.3 % of a core on Verilator (`pushpush bench simboard`), over issue 15's 5 %.
IDLE_FACTOR = 40



async def serve_hdl(dut: Any) -> None:
    """The cocotb side of the simulated board with the HDL PS (see the module docstring)."""
    from cocotb.triggers import Event, FallingEdge, First, Timer, ValueChange
    from cocotb.utils import get_sim_time

    from .ipc import RESET_CYCLES

    with open(os.environ["PUSHPUSH_SIM_CONFIG"]) as f:
        cfg = SimConfig.from_json(f.read())
    if os.environ.get("PUSHPUSH_SIM_WATCHDOG"):   # pushpush.pynq.simulated.watch asks with SIGUSR1
        import faulthandler
        import signal
        folder = os.environ["PUSHPUSH_SIM_WATCHDOG"]
        os.makedirs(folder, exist_ok=True)
        dump = open(os.path.join(folder, f"simulator-{os.getpid()}.txt"), "a")
        faulthandler.register(signal.SIGUSR1, file=dump, all_threads=True)
    period_ps = int(round(1e6 / cfg.clock_mhz))
    notify_path = os.environ.get("PUSHPUSH_SIM_NOTIFY", "")
    notify_fd = os.open(notify_path, os.O_WRONLY | os.O_NONBLOCK) if notify_path else -1
    kick_path = os.environ.get("PUSHPUSH_SIM_KICK", "")
    kick_fd = os.open(kick_path, os.O_RDONLY | os.O_NONBLOCK) if kick_path else -1
    state = {"wall": time.monotonic(), "loop": time.thread_time()}
    memory = SimulatedPSMemory(cfg)
    ctl = memory.control
    status = SimStatus(ctl)   # what it is doing, in the control page (a call timeout says it)
    # the hand-off (see _Pause): a PL write into PS memory that was waited for
    pause = _Pause(cfg.handoff_us / 1e6 if ctl is not None and kick_fd >= 0 else 0.0)
    answered = Event()   # set by such a write: ends the running batch of cycles
    ps_windows = [(cfg.ps_base, cfg.ps_size)]   # the ps region; DDR windows: CTL_WINDOWS

    def touch() -> None:
        state["wall"] = time.monotonic()

    def stamp(address: int, length: int) -> None:
        # the host time of a write into a software window is taken before its words are
        # stored (and the stores are in order): software that sees the words reads this
        # stamp or a later one, never the previous write's (pushpush bench wait; stamped
        # after the store, a waiter on another core often saw the words first)
        if ctl is not None and in_windows(ps_windows + read_windows(ctl), address, length):
            memory.stamp_write(cycle())

    def notify() -> None:
        # only a write into a software window (a call's return, a call into software) is
        # what software waits for: it is counted, notified (and stamped, before its store:
        # stamp()), and may be paused for. DMA data and buffer results in DDR are not: they are counted apart
        # (data_writes). Before (issue 28) each such burst woke the waiting caller, which
        # then no longer had "seen the latest write", so the simulator paused until the
        # caller had woken, looked and waited again: a DMA transfer stopped at every burst
        address, length = ps.written
        if ctl is not None and not in_windows(ps_windows + read_windows(ctl), address, length):
            status.count("data_writes")
            return
        memory.count_write()
        if notify_fd >= 0:
            try:
                os.write(notify_fd, b"\1")
            except (BlockingIOError, BrokenPipeError):
                pass
        if not pause.limit:
            return
        if (pause.serving or pause.armed
                or struct.unpack_from("<Q", ctl, CTL_WAITERS)[0]):
            if needed():
                status.count("pauses_not_needed")
            else:
                pause.due = True
                answered.set()

    extra = tuple((str(p["name"]), int(p["data_width"])) for p in cfg.mem_ports)
    ps = HdlPS(Handles.harness(dut, extra), memory, data_width=cfg.data_width, on_access=touch,
               notify=notify, timeout_cycles=cfg.gp0_timeout_cycles, before_write=stamp)
    irq_path = os.environ.get("PUSHPUSH_SIM_IRQ", "")
    irq_fd = os.open(irq_path, os.O_WRONLY | os.O_NONBLOCK) if irq_path and cfg.irq else -1

    def software_waiting() -> bool:
        if ctl is None:
            return False
        stamp = struct.unpack_from("<Q", ctl, CTL_WAIT_STAMP)[0]
        return time.monotonic_ns() - stamp < cfg.idle_s * 1e9

    def handling() -> bool:
        """Software is answering a call of the PL (the PL waits for that answer: a request
        will come): the simulation need not run meanwhile (CTL_HANDLING)."""
        return ctl is not None and struct.unpack_from("<Q", ctl, CTL_HANDLING)[0] > 0

    def needed() -> bool:
        """A caller waits for the PL, no call of the PL is being answered and every serve
        thread has looked at every write into PS memory (none will take a call and answer
        it): simulated time must pass (CTL_CALLERS, CTL_HANDLING, CTL_LOOKED against
        CTL_PL_WRITES + CTL_LOCAL_WRITES). The PYNQ side evaluates the same and writes the
        kick pipe when it becomes true while the simulator blocks (paused or idle), so a
        block ends by that event, not by its timer."""
        if ctl is None:
            return False
        if (struct.unpack_from("<Q", ctl, CTL_CALLERS)[0] == 0
                or struct.unpack_from("<Q", ctl, CTL_HANDLING)[0] > 0):
            return False
        writes = (struct.unpack_from("<Q", ctl, CTL_PL_WRITES)[0]
                  + struct.unpack_from("<Q", ctl, CTL_LOCAL_WRITES)[0])
        return (struct.unpack_from("<Q", ctl, CTL_LOOKED)[0] >= writes
                and struct.unpack_from("<Q", ctl, CTL_CALLER_SEEN)[0] >= writes)

    def irq_runtimes() -> bool:
        """A runtime of the PYNQ process waits in mode interrupt (CTL_IRQ_RUNTIMES): it wakes
        by ``irq``, which the interrupt block raises at a write's B response."""
        return (ctl is not None and irq_fd >= 0 and ps.port is not None
                and struct.unpack_from("<Q", ctl, CTL_IRQ_RUNTIMES)[0] > 0)

    async def settle(limit: int) -> bool:
        """Before a pause while :func:`irq_runtimes`: run until every burst stored through
        the memory port has had its B response (pp_sim_mem's ``wb_p`` against the bursts
        Python answered), then to the next falling edge. The interrupt block sets a window's
        pending bit and ``irq`` in the cycle of that B, two cycles after the store, and
        watch_irq passes the change on: a runtime asleep on its interrupt is woken before the
        PL stands still. Paused at the store instead, the PL stood still with ``irq`` low,
        no request came (the runtime waited for its interrupt) and no kick (it had not seen
        the write): it slept until its fallback sweep. False when the PL held a B back for
        ``limit`` cycles (the pause is then not taken: the PL runs on)."""
        port = ps.port
        assert port is not None
        answers = port.mem.wb_p
        mod = 1 << len(answers)
        end = cycle() + limit
        while (port.acked - uint(answers)) % mod:
            left = end - cycle()
            if left <= 0:
                return False
            await First(ValueChange(answers), Timer(left * period_ps, unit="ps"))
        if (get_sim_time(unit="ps") - t_zero) % period_ps:
            await FallingEdge(dut.clk)
        return True

    # out of reset, on a falling edge: every timer below is a whole number of periods, so
    # Python's writes land between two rising edges
    for _ in range(RESET_CYCLES + 2):
        await FallingEdge(dut.clk)
    t_zero = get_sim_time(unit="ps")
    ps.start()   # after reset: its toggles are defined now
    from .tracehook import SimTraceHook, rundir_of_config   # issue 31: off unless asked
    tracer = SimTraceHook(dut, ctl, rundir_of_config(), lambda: get_sim_time(unit="ps") - t_zero,
                          period_ps, cfg.mem_ports)

    def cycle() -> int:
        return int((get_sim_time(unit="ps") - t_zero) // period_ps)

    async def watch_irq() -> None:
        """The interrupt lines (the harness's ``pp_intr``, bit i = the interrupt
        controller's input i: the top's ``irq``, a DMA shell's DMA interrupts): every change
        goes into the control page (levels, count, cycle, host time) and a byte on the
        interrupt pipe wakes the PYNQ process's interrupt controller model
        (pushpush.pynq.simulated.interrupt)."""
        from cocotb.triggers import ValueChange
        lines = dut.pp_intr
        level = -1
        while True:
            v = lines.value
            if v.is_resolvable:
                now = int(v)
            else:   # X/Z (before the first reset edge): low
                now = int("".join("1" if c == "1" else "0" for c in str(v)) or "0", 2)
            if now != level:
                level = now
                touch()
                memory.set_irq(level, cycle())
                try:
                    os.write(irq_fd, b"\1")
                except (BlockingIOError, BrokenPipeError):
                    pass
            await ValueChange(lines)

    if irq_fd >= 0:
        import cocotb
        cocotb.start_soon(watch_irq())

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(cfg.socket_path)

    def info() -> bytes:
        return json.dumps({"pid": os.getpid(), "cycle": cycle(), "ps": "hdl",
                           "time_ns": get_sim_time(unit="ns")}).encode()

    out: list[bytes] = []

    def idle_block(wait: float) -> list[Any]:
        """Idle: block on the socket for ``wait`` s, marked in the control page (CTL_IDLE) so
        that software that starts waiting for the PL meanwhile (an
        interrupt-mode runtime sends no request while it waits) resumes the simulator
        through the kick pipe at once, instead of after ``wait``, which is IDLE_FACTOR times
        the last turn and grows to seconds on a loaded host. Returns ``[sock]`` when a
        request came."""
        if ctl is None or kick_fd < 0:
            return select.select([sock], [], [], wait)[0]
        status.enter("idle", cycle(), int(wait * 1e6))
        struct.pack_into("<Q", ctl, CTL_IDLE, 1)
        try:
            _fence()   # the mark is seen by the PYNQ side before the counts are read here
            if needed() or (software_waiting() and not handling()):   # run on
                return []
            ready = select.select([sock, kick_fd], [], [], wait)[0]
        finally:
            struct.pack_into("<Q", ctl, CTL_IDLE, 0)
        status.count("idle_blocks")
        if kick_fd in ready:
            status.count("idle_kicks")
            try:
                os.read(kick_fd, 4096)
            except BlockingIOError:
                pass
        if sock in ready:
            status.count("idle_requests")
        return [sock] if sock in ready else []

    def send(op: int, tag: int, status: int, payload: bytes = b"") -> None:
        # replies go out together at the end of the clock edge (flush): a PL write into PS
        # memory in the same edge as a request's last response (a call's return, with the
        # B of its trigger word) is then stored and notified before the reply wakes the
        # PYNQ process, which finds both at once
        out.append(REP.pack(op, tag, status, len(payload)) + payload)

    def flush() -> None:
        if out:
            data = b"".join(out)
            out.clear()
            sock.sendall(data)

    send(OP_HELLO, 0, 0, info())
    flush()
    buf = bytearray()
    batch = max(1, cfg.busy_batch)
    #: the least batch while a caller needs simulated time to pass (see the loop)
    floor = max(batch, min(cfg.idle_batch, cfg.max_batch))
    target = cfg.poll_us / 1e6

    async def run(cycles: int) -> None:
        await Timer(max(1, cycles) * period_ps, unit="ps")

    while True:
        if (get_sim_time(unit="ps") - t_zero) % period_ps:
            await FallingEdge(dut.clk)   # back between two rising edges (after a command)
        status.look(cycle())
        tracer.look()
        if pause.serving:
            # the requests' software waited until their replies went out; it acts next
            flush()
            pause.serving = False
            pause.armed = True
        flush()
        ready: list[Any] = []
        if pause.due and needed():   # a caller started waiting meanwhile: no pause
            pause.due = False
            answered.clear()   # (set with due: it would end every batch at once)
            status.count("pauses_not_needed")
        if pause.due and irq_runtimes() and not await settle(floor):
            pause.due = False   # the PL holds the write's B back: it runs on (the safety net)
            answered.clear()
            status.count("settle_limits")
        if pause.due:
            answered.clear()
            ready = pause.wait(sock, kick_fd, ctl, status, cycle(), needed, handling)
            state["loop"] = time.thread_time()   # the next turn's work starts here, not before
        if not ready:
            # full speed while software waits on the PL or used it lately, unless software is
            # answering a call of the PL: the PL waits for that answer (a request, which ends
            # the block at once), so the simulator blocks instead of spinning for it
            must = needed()
            busy = (cfg.idle_ms <= 0 or must or (not handling() and (
                time.monotonic() - state["wall"] < cfg.idle_s or software_waiting())))
            # a caller waits and only simulated time helps (no request will come): big
            # batches. The busy floor (16 cycles) made a CPU-starved simulator spend most of
            # what it got on this loop (issue 28: 16-cycle batches for seconds). For this
            # turn only: kept in `batch`, it ran 256 cycles a turn on while Python answered
            # the PL's calls afterwards (the FIR cell's cycles doubled)
            cycles = max(batch, floor) if must else batch
            # the batch adapts to the CPU time it takes, not the wall time: on a busy host the
            # wall time of a batch is mostly waiting for a CPU, and a batch shrunk to 16
            # cycles for that spent most of the CPU it got on this loop's Python (issue 28:
            # Verilator at 11 us a cycle instead of ~1)
            t0 = time.thread_time()
            ev0 = ps.event_cpu
            c0 = cycle()
            status.enter("running", c0, cycles)
            if pause.limit:
                await First(Timer(cycles * period_ps, unit="ps"), answered.wait())
            else:
                await Timer(cycles * period_ps, unit="ps")
            now = time.thread_time()
            # the cycles' own cost: the Python serving the PL's bursts meanwhile (a DMA
            # transfer's beats) is paid per burst, not per cycle, and shrank the batch to its
            # floor while a DMA ran (issue 28)
            took = max(0.0, now - t0 - (ps.event_cpu - ev0))
            if must:
                status.count("needed_batches")
                status.count("needed_cycles", cycle() - c0)
            work = now - state["loop"]   # the whole turn's CPU: the batch and this loop's Python
            if busy:
                # about poll_us of wall clock per batch: the socket is looked at that often
                if pause.due:
                    pass   # cut short by a write that was waited for: says nothing of speed
                elif took * batch / cycles < target / 2 and batch < cfg.max_batch:
                    batch = min(cfg.max_batch, batch * 2)
                elif took * batch / cycles > target * 2 and batch > cfg.busy_batch:
                    batch = max(cfg.busy_batch, batch // 2)
                wait = 0.0
            else:
                wait = max(cfg.idle_ms / 1000, IDLE_FACTOR * work)
            if pause.due:
                continue   # to the next falling edge, then pause for the request
            ready = idle_block(wait) if wait > 0 else select.select([sock], [], [], 0)[0]
            state["loop"] = time.thread_time()
            if not ready:
                continue
        chunk = sock.recv(1 << 20)
        if not chunk:  # the PYNQ process went away
            return
        buf += chunk
        if len(buf) >= REQ.size:
            op, _, address, _ = REQ.unpack_from(buf)
            status.enter("serving", cycle(), op, address)
        pause.serving = True
        pause.armed = False
        try:
            going = await serve_requests(buf, ps, send, info, run, touch)
        finally:
            if out and (get_sim_time(unit="ps") - t_zero) % period_ps == 0:
                flush()   # a reply to a request that took no clock edge (INFO), or an error
        if not going:
            status.enter("stopped", cycle())
            log.info("simulated board: %d pauses for a request after a reply: %d ended by one, "
                     "%d by a kick, %d at the limit", pause.pauses, pause.hits, pause.kicks,
                     pause.pauses - pause.hits - pause.kicks)
            return


_FENCE = __import__("threading").Lock()


def _fence() -> None:
    """A full memory barrier (a locked instruction): a store into the control page before it
    is visible to the other process before a load after it (the Dekker-style hand-off of
    CTL_IDLE/CTL_PAUSED against CTL_CALLERS/CTL_HANDLING)."""
    _FENCE.acquire()
    _FENCE.release()


class _Pause:
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
            _fence()
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
            try:
                os.read(kick_fd, 4096)
            except BlockingIOError:
                pass
        if sock in ready:
            self.hits += 1
            return [sock]
        if not ready and status is not None:
            status.count("pause_limits")
            log.debug("a pause for a request ended at its limit (%g s): no request or kick came",
                      self.limit)
        return []
