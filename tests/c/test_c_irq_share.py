"""A C program's interrupt input stays enabled while PYNQ runs beside it (docs/c.md,
"Several waiters on one axi_intc_0"; pushpush.pynq.intcshare).

tests/c/data/cboard.yaml on the simulated board: the C program tests/c/src/cwait_callee.c is
the component ``callee`` in wait mode ``interrupt``, built with a 30 s fallback sweep
(``PP_IRQ_WAIT_US``), so a call it is not woken for takes 30 s and times out here. Beside it,
in the overlay's process, PYNQ's own ``_InterruptController`` drives the same ``axi_intc_0``:

- PYNQ makes the controller while the C program sleeps with input 0 enabled (PYNQ's
  constructor writes ``IER = 0``): input 0 is enabled right after, and the C program's
  calls still wake it;
- a PYNQ waiter on input 0 (``pynq.Interrupt("system_top_0/irq")``) that waits once and
  then no more: PYNQ handles the C program's interrupt, disables input 0 (``CIE``) and has
  no waiter left to enable it again. Its handling is made slow (as on a busy host), so its
  ``CIE`` lands after the C program, woken by the same interrupt, has served, enabled input
  0 and gone back to sleep. Round after round, input 0 is enabled after PYNQ's handling
  and the C program's next calls are served in bounded time (each ``caller.run`` within
  10 s, against the 30 s of a lost wake-up), every result right. (Without
  pushpush.pynq.intcshare the check of input 0 fails, in the constructor's case at once,
  in the handling's case in the second round; the test harness's SIGUSR1s, which wake the
  C program for its commands, let it enable the input again now and then.)
"""

from __future__ import annotations

import asyncio
import subprocess
import threading
import time

import pytest

pytest.importorskip("pynq.pl_server")
pytest.importorskip("psutil")

import os  # noqa: E402

os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.pynq import intcshare  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402
from test_c_wait import MASK, RUNTIME, Program, model  # noqa: E402

#: axi_intc_0 of cboard.yaml (tests/c/test_c_wait.py checks the header says so)
INTC_BASE = 0x4180_0000
IER = 0x08
#: how late PYNQ's handling of an interrupt runs (a busy host's scheduling delay)
SLOW_S = 0.3


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    out = tmp_path_factory.mktemp("cirqshare")
    ol = ppq.load(DATA / "cboard.yaml", outdir=out)
    cdir = out / "c"
    exe = compile_c(cdir, [SRC / "cwait_callee.c", "callee_pp.c", *RUNTIME], out / "cwait_callee",
                    flags=[*SANITIZE, "-DPP_IRQ_WAIT_US=30000000u"])
    att = CAttach(ol.device)
    prog = Program(att.popen([str(exe), "interrupt"], stdin=subprocess.PIPE))
    assert prog.expect("READY", 300) == "interrupt"
    yield ol, prog
    try:
        if prog.proc.poll() is None:
            prog.quit()
    finally:
        if prog.proc.poll() is None:
            prog.proc.kill()
        att.close()
        ol.free()


class Chain:
    """caller.run(n) calls callee.f n times, the first with x = n, each later x the
    previous result; f's state runs on across the runs of one C process."""

    def __init__(self) -> None:
        self.state = 0

    def check(self, served: list[tuple[int, int]], n: int) -> None:
        assert len(served) == n, served
        x = n
        for sx, sr in served:
            assert sx & MASK == x & MASK
            self.state = model(self.state, sx)
            assert sr & MASK == self.state
            x = sr


def run_served(ol, prog: Program, chain: Chain, n: int) -> float:
    t0 = time.monotonic()
    ol.caller.run(n, timeout=10)          # a lost wake-up: the C program sweeps after 30 s
    took = time.monotonic() - t0
    chain.check(prog.served(), n)
    return took


class OnceWaiter:
    """A PYNQ user in the overlay's process: its own thread and event loop, one
    ``pynq.Interrupt(pin).wait()`` per :meth:`arm`, and no waiter between."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.irq = self.call(self._make)

    def call(self, coro_fn):
        return asyncio.run_coroutine_threadsafe(coro_fn(), self.loop).result(30)

    @staticmethod
    async def _make():
        from pynq import Interrupt

        return Interrupt(intcshare.IRQ_PIN)

    def arm(self) -> threading.Event:
        """One wait, registered with PYNQ before this returns; the event is set when it
        ends."""
        done = threading.Event()

        async def register():
            task = asyncio.ensure_future(self.irq.wait())
            task.add_done_callback(lambda _t: done.set())
            while not self.irq.waiting and not task.done():
                await asyncio.sleep(0)

        self.call(register)
        return done

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def _mmio_ier() -> int:
    from pynq import MMIO

    return MMIO(INTC_BASE, 0x20).read(IER)


class SlowCie:
    """PYNQ's MMIO of the controller, whose writes to CIE land ``SLOW_S`` late."""

    CIE = 0x14

    def __init__(self, mmio, log: list[int]) -> None:
        self.mmio, self.log = mmio, log

    def read(self, offset, *a, **k):
        return self.mmio.read(offset, *a, **k)

    def write(self, offset, data, *a, **k):
        if offset == self.CIE:
            time.sleep(SLOW_S)
            self.log.append(int(data))
        return self.mmio.write(offset, data, *a, **k)


def test_pynq_beside_a_c_program_leaves_its_input_enabled(board):
    ol, prog = board
    chain = Chain()
    assert intcshare.installed()
    assert run_served(ol, prog, chain, 3) < 10   # the C program sleeps on input 0

    # PYNQ's controller made now (IER = 0 in its constructor) while the C program sleeps
    # (PYNQ made one when the overlay's drivers were bound: dropped, as PYNQ drops them for
    # a new bitstream, so the next pynq.Interrupt makes it again)
    from pynq.interrupt import _InterruptController

    _InterruptController._controllers.clear()
    waiter = OnceWaiter()
    try:
        assert _mmio_ier() & 1, "input 0 left disabled after PYNQ made its controller"
        assert run_served(ol, prog, chain, 4) < 10

        # PYNQ's handling of an interrupt made late, as on a busy host: its thread is
        # preempted between reading the pending inputs and disabling them (CIE)
        ctl = waiter.irq.parent()
        handled: list[int] = []
        ctl.mmio = SlowCie(ctl.mmio, handled)
        for rnd in range(6):
            fut = waiter.arm()                   # one Python waiter on input 0, then none
            n = 2 + rnd % 3
            # the C program's calls raise the interrupt; PYNQ handles it (late) when it sees
            # input 0 pending (C may have acknowledged it first: then at a later run)
            for _ in range(20):
                assert run_served(ol, prog, chain, n) < 10
                if fut.wait(1):
                    break
            assert fut.is_set(), "PYNQ's waiter was never woken"
            assert handled and handled[-1] & 1, "PYNQ did not disable input 0"
            assert _mmio_ier() & 1, f"round {rnd}: input 0 left disabled by PYNQ's handling"
            assert run_served(ol, prog, chain, n) < 10   # the C program is woken for these
        st = prog.stats()
        # (its "timeouts" count the harness's SIGUSR1s too, which end a poll with EINTR)
        assert st["mode"] == "interrupt" and st["errors"] == 0 and st["wakes"] > 0, st
        assert (st["c"], st["d"], st["s"], st["w"]) == (0, 0, 0, 0)
    finally:
        waiter.close()
