"""Hand-offs between the PYNQ process and the simulator (issue 28: a busy host).

Every wake-up of a thread or of the simulator waits for a CPU on a busy host (EEVDF: behind
the busy loops, up to a slice), so a callback that costs many hand-offs costs many such waits.
These tests hold the hand-offs of a call to what its events need:

* a runtime waiting on the simulated board (wait mode ``sleep``) waits for its event, not a
  0.5 ms timer: before, the caller and the serve thread each woke every 0.5 ms while a Python
  callback ran (15 of the 37 blocks per callback of the FIR cell, scripts/handoff_bench.py);
  only while another process is attached (a C program, whose writes into PS memory are not
  notified) does it poll.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.pynq.board import SIM_EVENT_WAIT_S, SIM_POLL_S  # noqa: E402

from pynq_systems import HOF_YAML  # noqa: E402


@pytest.fixture(scope="module")
def hof_bit(tmp_path_factory):
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hof_handoff"))
    bit = ol.bitfile_name
    ol.free()
    return bit


def _spy_waits(bridge, monkeypatch) -> list[tuple[str, float, bool, float]]:
    """Record every wait for a PL write: (thread, timeout given, ended by the event, seconds)."""
    waits: list[tuple[str, float, bool, float]] = []
    inner = bridge._wait_notify

    def spy(seen: int, timeout: float) -> bool:
        t0 = time.monotonic()
        ended = inner(seen, timeout)
        waits.append((threading.current_thread().name, timeout, ended, time.monotonic() - t0))
        return ended

    monkeypatch.setattr(bridge, "_wait_notify", spy)
    return waits


def test_a_callback_is_waited_for_by_its_event_not_a_timer(hof_bit, monkeypatch):
    """mapper.apply calls a Python function twice, 20 ms each: the caller (main thread) and
    the serve thread wait for the PL's writes with the long fallback (50 ms), so the waits
    of the whole call are a handful, each ended by a write, instead of one every 0.5 ms per
    thread (about 80 before)."""
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        assert rt.wait == "sleep"

        def f(x: int) -> int:
            time.sleep(0.02)
            return 3 * x

        assert ol.mapper.apply(f, 5) == 46   # warm: the serve thread and pool are up
        waits = _spy_waits(bridge, monkeypatch)
        t0 = time.monotonic()
        assert ol.mapper.apply(f, 5) == 46
        wall = time.monotonic() - t0
        during = list(waits)
        assert during, "nobody waited for the PL"
        assert all(timeout >= SIM_EVENT_WAIT_S for _, timeout, _, _ in during), during
        # every wait ended by a write, or lasted its whole (long) timeout
        timed_out = [w for w in during if not w[2]]
        assert all(w[3] >= 0.9 * SIM_EVENT_WAIT_S for w in timed_out), timed_out
        threads = {w[0] for w in during}
        assert len(timed_out) <= len(threads) * (1 + wall / SIM_EVENT_WAIT_S), (wall, timed_out)
    finally:
        ol.free()


def test_an_attached_program_keeps_the_poll(hof_bit, monkeypatch):
    """While a hub for other processes is open (CAttach: a C program's writes into PS memory
    wake nobody), a waiting runtime polls every SIM_POLL_S; after close it waits for events."""
    from pushpush.pynq.simulated.c_programs import CAttach
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        waits = _spy_waits(bridge, monkeypatch)
        with CAttach(ol.device):
            assert ol.device.attached == 1
            assert ol.mapper.apply(lambda x: 3 * x, 5) == 46
            polled = [w for w in waits if w[0] == threading.current_thread().name]
            assert polled and all(w[1] == SIM_POLL_S for w in polled), polled
        assert ol.device.attached == 0
        waits.clear()
        assert ol.mapper.apply(lambda x: 3 * x, 5) == 46
        mine = [w for w in waits if w[0] == threading.current_thread().name]
        assert mine and all(w[1] >= SIM_EVENT_WAIT_S for w in mine), mine
    finally:
        ol.free()


def test_a_pause_holds_while_the_serve_thread_has_not_looked_yet(hof_bit, monkeypatch):
    """The serve thread is woken by the PL's call but gets a CPU only 0.2 s later (played
    here by a sleep after its wait), longer than the pause's limit (20 ms here): the pause
    holds until it has looked and taken the call (counted, ``pauses_held``), so the call's
    cycles do not grow. Before, the pause ended at its limit before anybody had taken the
    call and the PL ran on (the FIR cell's cycles grew with load: 1,743 and up to 3,058
    against 1,677 at load 20-30)."""
    from pushpush.simboard.ipc import read_status
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "20000")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 120.0
        backend = rt.backend
        inner = backend._wait_pl
        starve = {"s": 0.0}

        def starved(seen: int, timeout: float, *, waiting: bool = True) -> int:
            n = inner(seen, timeout, waiting=waiting)
            if not waiting and n != seen and starve["s"]:   # the serve thread, woken
                time.sleep(starve["s"])
            return n

        monkeypatch.setattr(backend, "_wait_pl", starved)

        def cycles() -> int:
            c0 = bridge.info()["cycle"]
            assert ol.mapper.apply(lambda x: 3 * x, 5) == 46
            return bridge.info()["cycle"] - c0

        fast = [cycles() for _ in range(2)]
        before = read_status(bridge.ctl.mem)["counts"]
        starve["s"] = 0.2
        slow = [cycles() for _ in range(2)]
        after = read_status(bridge.ctl.mem)["counts"]
        assert max(slow) <= max(fast) + 40, (fast, slow, after)
        assert after["pauses_held"] > before["pauses_held"], after
    finally:
        ol.free()
