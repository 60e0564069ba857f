"""Hand-offs between the PYNQ process and the simulator (issue 28: a busy host).

On a busy host every wake-up of a thread or of the simulator waits for a CPU (at load 25-30
on 2 cores about 10 ms), so a pause of the simulator that ends at its limit before software
has taken the PL's call lets the PL run on: the call's cycles grow with the load. A pause
holds while a waiting thread has not looked at the write yet.
"""

from __future__ import annotations

import os
import time

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402

from pynq_systems import HOF_YAML  # noqa: E402


@pytest.fixture(scope="module")
def hof_bit(tmp_path_factory):
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hof_handoff"))
    bit = ol.bitfile_name
    ol.free()
    return bit


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
        # the caller stays inside its wait meanwhile (counted in CTL_WAITERS): a pause holds
        # for a thread behind only while somebody waits (a serve thread's last look can be
        # stale once nobody does: test_wait_modes' interrupt-mode tests)
        backend.poll_s = 5.0
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

