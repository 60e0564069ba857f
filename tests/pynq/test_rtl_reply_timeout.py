"""An RTL caller whose software callee dies mid-call (issue 28): the call ends with an error
in bounded time (the call site's REPLY_TIMEOUT, ``reply_timeout:``), and the RTL component
serves the next caller, and a new runtime of the dead one, without a reload.

``fir`` (examples/audio_fir) calls back three functions lent by its caller. The caller here is
a Python program in its own process (tests/pynq/src/fir_prog.py) that dies inside its first
``coeff()`` callback, killed (``kill -9``) or by exiting. Before the call site had a reply
timeout, ``fir`` waited for that callback's reply for ever, and every later ``fir.fir`` of any
caller timed out (the soak's lost ``fir``, docs/pynq.md). Now the callback ends with an error
after ``reply_timeout`` (20,000) cycles, which ends the dead caller's call (fir_core: a
``coeff()`` error ends the stream), and ``fir`` takes the next call waiting in its slots.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

HERE = Path(__file__).resolve().parent
YAML = HERE / "systems" / "fir_reply_timeout.yaml"
PROG = [sys.executable, str(HERE / "src" / "fir_prog.py")]
REPLY_TIMEOUT = 20_000
#: The calls' wall-clock timeout: only a stall reaches it. What is bounded is simulated time
#: (the host's call behind the dead one: < 4 * REPLY_TIMEOUT cycles); on a busy host the
#: simulated board runs a few hundred to a few thousand cycles a second (200,000 cycles took
#: 57-59 s at load ~20, and over 60 s at load ~30: a wall-clock bound would be luck).
WALL_S = 600.0


def fir_model(coeffs: list[int], xs: list[int]) -> list[int]:
    return [sum(coeffs[k] * xs[n - k] for k in range(len(coeffs)) if n - k >= 0)
            for n in range(len(xs))]


def run_fir(rt, coeffs: list[int], xs: list[int], timeout: float) -> list[int]:
    src, ys = iter(xs), []
    rt.fir.fir(lambda i: coeffs[i], lambda: next(src), ys.append, len(coeffs), timeout=timeout)
    return ys


@pytest.mark.parametrize("how", ["kill", "exit"])
def test_an_rtl_caller_whose_callee_died_gets_an_error_and_serves_on(tmp_path, how):
    ol = ppq.load(YAML, outdir=tmp_path)
    try:
        assert ol.linked.component("fir").reply_timeout == REPLY_TIMEOUT
        host = ol.runtime("host")
        host.start()
        bridge = ol.device.bridge
        with CAttach(ol.device) as att:
            p = att.popen(PROG + ["die", "exit" if how == "exit" else "hang"])
            try:
                line = p.stdout.readline()
                assert line.strip() == "IN COEFF", line + p.stderr.read()
                if how == "kill":
                    p.kill()
                assert p.wait(WALL_S) == (-9 if how == "kill" else 3)
            finally:
                if p.poll() is None:
                    p.kill()
                    p.wait(60)
                p.stdout.close()
                p.stderr.close()
            # fir waits for the dead program's coeff(0); the host's call waits in its slot
            # until the callback's reply timeout ends the dead call, then runs
            c0, t0 = bridge.info()["cycle"], time.monotonic()
            assert run_fir(host, [4, -1], [10, 20, 30], WALL_S) == fir_model([4, -1], [10, 20, 30])
            cycles, took = bridge.info()["cycle"] - c0, time.monotonic() - t0
            print(f"{how}: the host's fir.fir behind the dead call: {cycles} cycles, {took:.2f} s")
            assert cycles < 4 * REPLY_TIMEOUT, cycles
            counters = ol.counters()["fir"]
            # the callback that timed out was never answered: no stray yet
            assert counters == {"collisions": 0, "duplicates": 0, "strays": 0, "write_errors": 0}, counters
            # a new runtime of the dead program: it serves again (the dead call's slots are
            # its predecessor's; it may answer the stale callback: a late reply, one stray)
            r = att.run(PROG + ["calls"], timeout=2 * WALL_S)
            assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
            assert f"YS {' '.join(map(str, fir_model([3, -1], [1, 2, 3, 4])))}" in r.stdout
            assert run_fir(host, [1, 1, 1], [1, 2, 3, 4], WALL_S) == fir_model([1, 1, 1], [1, 2, 3, 4])
            counters = ol.counters()["fir"]
            assert counters["strays"] <= 1 and counters["duplicates"] == 0, counters
            assert counters["write_errors"] == 0 and counters["collisions"] == 0, counters
    finally:
        ol.free()
