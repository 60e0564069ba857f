"""Liveness of the simulated board (issue 28): every wait is ended by the event it waits for.

* While software answers a call of the PL (a Python callback), the PL waits for that answer:
  the simulator stands still (paused or blocked on its socket) instead of running cycles,
  whatever the callback's duration, and the answer (a request) resumes it. Before, a caller
  waiting for the outer call resumed it 0.3 ms into its wait (a timer) and the PL ran for as
  long as the callback took: thousands of cycles, a simulator spinning beside the software it
  waits for (on a busy host the two fought for the CPU: the FIR cell took 10x its time).
* A caller that starts waiting while nothing is being answered resumes a paused simulator at
  once (the kick pipe); the pause's limit is only a safety net, counted in the control page
  (``pause_limits``), never reached in working traffic: here the limit is 60 s.
* The counts the hand-off rests on (callers, calls being answered) return to zero.
* A DMA shell passes ``BUFFER_TIMEOUT`` to the top: the stuck engine gives up after about
  3,000 cycles, not 65,536 (the override was dropped: the "120 s timeout for a call the
  engine fails after 3,000 cycles" of issue 28 was no stall).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.protocol import CallError  # noqa: E402
from pushpush.simboard.ipc import CTL_CALLERS, CTL_HANDLING, read_status  # noqa: E402

from pynq_systems import HOF_YAML  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hof_bit(tmp_path_factory):
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hof_live"))
    bit = ol.bitfile_name
    ol.free()
    return bit


def _counts(bridge) -> dict[str, int]:
    return read_status(bridge.ctl.mem)["counts"]


def _word(bridge, offset: int) -> int:
    import struct
    return struct.unpack_from("<Q", bridge.ctl.mem, offset)[0]


def _in_frame(thread, function: str) -> bool:
    """Whether ``thread`` is inside a call of a function named ``function`` now."""
    import sys
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == function:
            return True
        frame = frame.f_back
    return False


def test_the_pl_stands_still_while_python_answers_it(hof_bit, monkeypatch):
    """mapper.apply calls the Python function twice; the caller waits meanwhile. The cycles
    of the whole call do not grow with the callback's duration (0 or 0.3 s a call)."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")   # a safety net never reached
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        ol.runtime().timeout = 120.0

        def cycles_of(delay: float) -> int:
            def f(x: int) -> int:
                time.sleep(delay)
                return 3 * x
            c0 = bridge.info()["cycle"]
            assert ol.mapper.apply(f, 5) == 46
            return bridge.info()["cycle"] - c0

        fast = [cycles_of(0.0) for _ in range(2)]
        slow = [cycles_of(0.3) for _ in range(2)]
        # before: the PL ran while each callback slept (0.6 s: thousands of Icarus cycles)
        assert max(slow) <= max(fast) + 40, (fast, slow)
        counts = _counts(bridge)
        assert counts["pause_limits"] == 0, counts
        assert _word(bridge, CTL_HANDLING) == 0 and _word(bridge, CTL_CALLERS) == 0
        assert bridge._handling == 0 and bridge._callers == 0
    finally:
        ol.free()


def test_a_caller_resumes_the_pl_at_once_and_no_pause_needs_its_limit(hof_bit, monkeypatch):
    """Calls, calls into Python and a caller that waits with nothing being answered, with a
    60 s pause limit: every pause ends by a request or a kick (none at the limit), every call
    is right well within its timeout."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        ol.runtime().timeout = 30.0        # a missed wake-up would wait for the 60 s limit
        for i in range(5):
            assert ol.mixer.mix(i, 2, 3, True) == i + 3
            assert ol.mapper.apply(lambda x: 3 * x, 5) == 46
        seen = bridge.pl_writes
        bridge.wait_pl_write(seen, 0.01)   # a caller with nothing answered: resumes it
        assert ol.mixer.mix(5, 6, 7, True) == 12
        counts = _counts(bridge)
        assert counts["pauses"] > 0 and counts["pause_limits"] == 0, counts
        assert bridge.status()["state"] in ("paused", "idle", "running", "serving")
    finally:
        ol.free()


def test_a_dma_shell_passes_buffer_timeout_to_the_engines(tmp_path):
    """dma_stream (a DMA shell around the top) with BUFFER_TIMEOUT 3000: ``stuck`` (its module
    never reads the stream) fails after about 3,000 cycles, as asked; before, the shell had no
    such parameter, the override was dropped and the engine waited 65,536 cycles."""
    from pushpush.link import load
    ol = ppq.load(str(ppq.write_sim_overlay(load(REPO / "examples" / "dma_stream" / "system.yaml"),
                                            tmp_path, parameters={"BUFFER_TIMEOUT": 3000})))
    try:
        ol.runtime().timeout = 120.0
        bridge = ol.device.bridge
        src = pynq.allocate((64,), np.int32)
        src[:] = np.arange(64)
        c0 = bridge.info()["cycle"]
        with pytest.raises(CallError, match="timed out"):
            ol.scaler.stuck(src)
        spent = bridge.info()["cycle"] - c0
        assert 3000 <= spent < 4000, spent
    finally:
        ol.free()


@pytest.mark.parametrize("windows", ["ocm", "ddr"])
def test_dma_data_is_not_paused_for_while_a_caller_waits(tmp_path, monkeypatch, windows):
    """scaler.scale(src, out) streams 1,000 words through the PL while its caller waits: the
    PL's writes of ``out`` into DDR are data, not a call's return, so the simulator does not
    pause at them (before, it paused at every burst until the caller had woken, looked and
    waited again: beside busy loops a DMA transfer crawled, issue 28). Only writes into the
    software windows are paused for (the ps region, or the DDR buffer holding them), and
    with a 60 s limit no pause needs it."""
    from pushpush.link import link
    from pushpush.spec import load_system
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    text = (REPO / "examples" / "dma_stream" / "system.yaml").read_text()
    if windows == "ddr":
        text = text.replace("system: dma_stream", "system: dma_live_ddr\nsoftware_windows: ddr")
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "stream_scale.v").write_text(
        (REPO / "examples" / "dma_stream" / "rtl" / "stream_scale.v").read_text())
    (tmp_path / "system.yaml").write_text(text)
    linked = link(load_system(tmp_path / "system.yaml"))
    assert linked.software_windows == windows
    ol = ppq.load(str(ppq.write_sim_overlay(linked, tmp_path / "overlay")))
    try:
        ol.runtime().timeout = 120.0
        bridge = ol.device.bridge
        ol.scaler.set_gain(2, 1)
        n = 1000
        src = pynq.allocate((n,), np.int32)
        out = pynq.allocate((n,), np.int32)
        src[:] = np.arange(n)
        before = _counts(bridge)
        assert ol.scaler.scale(src, out) == n
        after = _counts(bridge)
        assert (out == 2 * np.arange(n) + 1).all()
        data = after["data_writes"] - before["data_writes"]
        pauses = after["pauses"] - before["pauses"]
        assert data >= 4, after          # 4,000 bytes of results: bursts into DDR
        assert pauses <= 2, (pauses, data, after)   # the return (and the call's own write)
        assert after["pause_limits"] == 0, after
        # while the caller waited with nothing to answer, the simulator ran batches of at
        # least 256 cycles for it, each run to its end but the one the return cut short
        # (before, the bursts' Python, counted as the cycles' cost, shrank them to 16, and
        # each burst made the caller "not have seen" a write). How many such turns there
        # were depends on the host (the caller's sweeps between its waits are not waits)
        batches = after["needed_batches"] - before["needed_batches"]
        ran = after["needed_cycles"] - before["needed_cycles"]
        assert ran >= 256 * (batches - 1), (batches, ran, after)
    finally:
        ol.free()


def test_a_write_drained_by_another_waiter_still_wakes_each_waiter(hof_bit):
    """Two threads wait for the PL on one bridge. A write lands, and the other thread wakes
    and drains the notification pipe, in the gap between one thread's look at the count and
    its sleep (forced here: the gap is where the waiter is counted). That thread is still
    woken by the write, at once: before, it slept on the drained pipe until its timeout (the
    runtime's poll interval: a wait that ended only on a timer)."""
    import threading
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        seen = bridge.pl_writes
        first_done = threading.Event()
        count_waiter = bridge._count_waiter
        result: dict[str, float] = {}

        def first() -> None:
            bridge.wait_pl_write(seen, 30.0, waiting=False)
            first_done.set()

        def late_count(delta: int, caller: bool, s: int = 0) -> None:
            count_waiter(delta, caller, s)
            if delta > 0 and threading.current_thread().name == "late":
                bridge.note_write()              # the write, after this thread's look ...
                assert first_done.wait(10.0)     # ... drained by the other waiter

        t1 = threading.Thread(target=first, name="first")
        t1.start()
        time.sleep(0.2)                          # the first waiter sleeps on the pipe
        bridge._count_waiter = late_count

        def late() -> None:
            t0 = time.monotonic()
            result["count"] = bridge.wait_pl_write(seen, 20.0, waiting=False)
            result["took"] = time.monotonic() - t0

        t2 = threading.Thread(target=late, name="late")
        t2.start()
        t2.join(30.0)
        t1.join(30.0)
        bridge._count_waiter = count_waiter
        assert result["count"] > seen
        assert result["took"] < 10.0, result     # woken by the write, not the 20 s timeout
    finally:
        ol.free()


@pytest.mark.parametrize("mode", ["poll", "yield"])
def test_a_polling_caller_is_counted_and_the_pl_runs_for_it(tmp_path, monkeypatch, mode):
    """A caller in wait mode poll or yield never blocks in ``wait_pl_write``: it is counted as
    a caller while it waits (and not after), so the simulator runs for it. Here the call
    (``stuck``: the engine gives up after 20,000 cycles without a PS memory access) needs only
    simulated time, and the 50 ms "still waiting" stamp such callers renewed before is
    switched off: the simulator never goes idle meanwhile (before, it did after 0.2 s and
    then ran the PL at a fortieth of its speed, kicked only by that stamp)."""
    from pushpush.link import load
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.load(str(ppq.write_sim_overlay(load(REPO / "examples" / "dma_stream" / "system.yaml"),
                                            tmp_path, parameters={"BUFFER_TIMEOUT": 20000})))
    try:
        rt = ol.runtime()
        rt.timeout = 300.0
        bridge = ol.device.bridge
        monkeypatch.setattr(bridge, "note_waiting", lambda: None)   # the 50 ms stamp: off
        rt.wait = mode
        src = pynq.allocate((64,), np.int32)
        src[:] = np.arange(64)
        ol.scaler.set_gain(1, 0)
        assert bridge._callers == 0
        before = _counts(bridge)
        c0 = bridge.info()["cycle"]
        with pytest.raises(CallError, match="timed out"):
            ol.scaler.stuck(src)
        spent = bridge.info()["cycle"] - c0
        after = _counts(bridge)
        assert spent >= 20000, spent
        assert after["idle_blocks"] == before["idle_blocks"], (before, after)
        assert after["pause_limits"] == 0, after
        assert bridge._callers == 0 and _word(bridge, CTL_CALLERS) == 0   # counted no more
    finally:
        ol.free()


def test_an_attached_program_is_counted_as_a_caller_while_attached(hof_bit, monkeypatch):
    """A C program (or an attached Python program) waits by polling the shared memory, which
    the simulator cannot see: while its connection is open it counts as a caller that has
    seen every write (CTL_CALLERS, CTL_CALLER_SEEN), so the simulator runs for it and a
    blocked one is resumed at once; before, only a stamp renewed every 50 ms said so. The
    count goes back when it detaches."""
    import socket
    from pushpush.pynq.simulated.c_programs import CAttach
    from pushpush.simboard.ipc import CTL_CALLER_SEEN
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        assert ol.mixer.mix(1, 2, 3, True) == 4
        with CAttach(ol.device) as att:
            monkeypatch.setattr(bridge, "note_waiting", lambda: None)   # the 50 ms stamp: off
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.connect(att.env()["PUSHPUSH_SIMBOARD_SOCK"])

            def until(what) -> bool:
                deadline = time.monotonic() + 30.0
                while not what() and time.monotonic() < deadline:
                    time.sleep(0.01)
                return what()

            assert until(lambda: bridge._callers == 1)
            assert _word(bridge, CTL_CALLERS) == 1
            assert _word(bridge, CTL_CALLER_SEEN) >= bridge.pl_writes
            assert ol.mixer.mix(2, 2, 3, True) == 5      # calls of this process go on
            conn.close()
            assert until(lambda: bridge._callers == 0)
            assert _word(bridge, CTL_CALLERS) == 0
    finally:
        ol.free()


def test_a_pause_outlasts_its_limit_while_python_answers_the_pl(hof_bit, monkeypatch):
    """The pause's limit (20 ms here) is shorter than the callback (0.2 s, as a Python thread
    starved of CPU on a busy host takes): the pause holds while the call of the PL is being
    answered (counted, ``pauses_held``), so the PL still stands still and the call's cycles
    do not grow. Before, the pause ended at its limit and the PL ran on while Python
    answered (the FIR cell's cycles grew with the host's load)."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "20000")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        ol.runtime().timeout = 120.0

        def cycles_of(delay: float) -> int:
            def f(x: int) -> int:
                time.sleep(delay)
                return 3 * x
            c0 = bridge.info()["cycle"]
            assert ol.mapper.apply(f, 5) == 46
            return bridge.info()["cycle"] - c0

        fast = [cycles_of(0.0) for _ in range(2)]
        before = _counts(bridge)
        slow = [cycles_of(0.2) for _ in range(3)]
        after = _counts(bridge)
        assert max(slow) <= max(fast) + 40, (fast, slow, after)
        assert after["pauses_held"] > before["pauses_held"], after
    finally:
        ol.free()


def test_no_wait_relies_on_the_stamp(hof_bit, monkeypatch):
    """Calls in every wait mode (a call, a call that makes the PL call Python twice, one
    callback slower than the 50 ms stamp, a call whose callee calls Python): the simulator
    is resumed by requests and kicks only; the stamp a waiting caller renews every 50 ms
    (``SimBridge.note_waiting``) never finds it blocked while only simulated time helps
    with no kick sent (``stamp_kicks`` stays 0), and no pause reaches its 60 s limit.
    Before, every stamp that found the simulator blocked resumed it and was counted (11 in
    poll and interrupt mode for these calls)."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        logs: list[int] = []
        ol.export("log", logs.append)

        def slow(x: int) -> int:
            time.sleep(0.08)
            return 3 * x

        for mode in ("sleep", "poll", "yield", "interrupt"):
            rt.wait = mode
            for i in range(3):
                assert ol.mixer.mix(i, 2, 3, True) == i + 3
                assert ol.mapper.apply(slow if i == 1 else (lambda x: 3 * x), i) == 9 * i + 1
                ol.mixer.store(i)
                assert logs[-1] == i
            assert bridge.stamp_kicks == 0, (mode, bridge.stamp_kicks)
        rt.wait = "sleep"
        assert _counts(bridge)["pause_limits"] == 0
        assert bridge._callers == 0 and _word(bridge, CTL_CALLERS) == 0
    finally:
        ol.free()


def test_a_caller_blocked_on_its_interrupt_has_seen_its_process_writes(hof_bit, monkeypatch):
    """While an interrupt-mode caller sleeps on its interrupt, software of its process
    writes PS memory (a serve thread taking a call of the PL does): the caller has seen that
    write (it is never its reply), so the simulator still counts it as waiting with every
    write seen (CTL_CALLER_SEEN). Before, it stayed counted with the writes of its last
    sweep, woke for none of these, and a simulator that had to run for it blocked as idle
    (issue 28: mapper.apply timed out beside busy loops). The fallback sweep is off
    (IRQ_WAIT_S 30 s) and no wait of the caller ends there (``irq_fallbacks``): each ends by
    its interrupt. Before, the simulator paused at the store of the PL's write, two cycles
    before the interrupt block raised ``irq`` for it, and stood still: the caller (and the
    serve thread, for the second call into f) slept until the 30 s fallback, and the call
    took 36-60 s; the simulator now lets the write be answered first while a runtime waits
    in mode interrupt (``settle_limits``: none held back)."""
    import struct
    import threading
    from pushpush.pynq import board
    from pushpush.simboard.ipc import (CTL_CALLER_SEEN, CTL_IRQ_RUNTIMES, CTL_LOCAL_WRITES,
                                       CTL_PL_WRITES)
    monkeypatch.setattr(board, "IRQ_WAIT_S", 30.0)
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        rt.wait = "interrupt"
        rt.serve_while_waiting = False   # f on a pool thread while the caller sleeps
        looked: list[tuple[int, int]] = []

        def f(x: int) -> int:   # runs while the caller sleeps on its interrupt
            time.sleep(0.3)
            bridge.note_write()   # a write into PS memory by this process's software
            time.sleep(0.05)
            writes = (struct.unpack_from("<Q", bridge.ctl.mem, CTL_PL_WRITES)[0]
                      + struct.unpack_from("<Q", bridge.ctl.mem, CTL_LOCAL_WRITES)[0])
            looked.append((_word(bridge, CTL_CALLER_SEEN), writes))
            return 3 * x

        assert threading.current_thread().name == "MainThread"
        assert ol.mapper.apply(f, 5) == 46
        assert rt.backend.irq_fallbacks == 0   # woken by its interrupt, not by the fallback
        serve = rt._thread
        assert serve is not None
        deadline = time.monotonic() + 30
        while not _in_frame(serve, "wait_beyond"):   # asleep on the interrupt (30 s)
            assert time.monotonic() < deadline, "the serve thread never slept on its interrupt"
            time.sleep(0.01)
        rt.stop()   # wakes it: before, the stop's 5 s join timed out (ol.free() took 5 s)
        assert not serve.is_alive()
        rt.wait = "sleep"
        counts = _counts(bridge)
        assert counts["settle_limits"] == 0 and counts["pause_limits"] == 0, counts
        assert _word(bridge, CTL_IRQ_RUNTIMES) == 0   # left mode interrupt: counted no more
        assert len(looked) == 2
        for seen, writes in looked:
            assert seen >= writes, looked
        assert bridge._callers == 0 and _word(bridge, CTL_CALLERS) == 0
    finally:
        ol.free()


def test_a_sleep_mode_caller_is_counted_between_its_waits(hof_bit, monkeypatch):
    """A caller in wait mode ``sleep`` waits in ``wait_pl_write`` 0.5 ms at a time and sweeps
    between: it is counted as a caller for its whole call, not only inside each wait (here a
    thread starved between two waits is played by a 20 ms gap after each). Before, the
    count dropped to 0 in every gap, and a simulator deciding there saw nobody waiting."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        rt.wait = "sleep"
        rt.serve_while_waiting = False   # f on a pool thread while the caller waits
        backend = rt.backend
        wait_pl = backend.pacing._wait_pl

        def starved(seen: int, timeout: float, *, waiting: bool = True) -> int:
            n = wait_pl(seen, timeout, waiting=waiting)
            if waiting:
                time.sleep(0.02)   # between two waits
            return n

        monkeypatch.setattr(backend.pacing, "_wait_pl", starved)
        counts: list[int] = []

        def f(x: int) -> int:   # runs while the caller waits for mapper.apply
            time.sleep(0.1)
            for _ in range(100):
                counts.append(_word(bridge, CTL_CALLERS))
                time.sleep(0.002)
            return 3 * x

        assert ol.mapper.apply(f, 5) == 46
        assert min(counts) >= 1, counts
        assert bridge._callers == 0 and _word(bridge, CTL_CALLERS) == 0   # counted no more
    finally:
        ol.free()


def test_a_serve_thread_leaving_mode_sleep_holds_no_look_back(hof_bit):
    """A serve thread that waited in ``wait_pl_write`` (mode sleep) and then sleeps on its
    interrupt (or polls) no longer holds CTL_LOOKED at its last look in mode sleep: the
    simulator, counting it as behind, blocked as idle while an interrupt-mode call needed
    simulated time (issue 28, test_interrupt_mode_with_ddr_windows beside busy loops)."""
    from pushpush.simboard.ipc import CTL_LOOKED
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        rt = ol.runtime()
        rt.timeout = 60.0
        logs: list[int] = []
        ol.export("log", logs.append)
        ol.mixer.store(1)
        deadline = time.monotonic() + 30   # the serve thread (standing down while the caller
        while not bridge._servers:          # served) waits in mode sleep again
            assert time.monotonic() < deadline, "the serve thread never waited in mode sleep"
            time.sleep(0.01)
        rt.wait = "interrupt"
        for i in range(3):
            ol.mixer.store(i)
            assert ol.mapper.apply(lambda x: 3 * x, i) == 9 * i + 1
        time.sleep(0.3)                             # the serve thread sleeps again
        assert not bridge._servers
        assert _word(bridge, CTL_LOOKED) >= bridge.pl_writes
        rt.wait = "sleep"
    finally:
        ol.free()
