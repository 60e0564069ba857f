"""A higher-order call that times out while it still waits in the callee's slot (issue 28,
the soak's lost ``fir``): its lent functions must outlive the timeout.

An RTL callee serves one call at a time; on a busy host a call to ``fir.fir`` can wait in
its slot behind another caller's long call until the caller's timeout. The caller cannot
take the call back, so ``fir`` takes it later and calls back the functions it was lent.
Before, the caller freed their words at the timeout; words reused by later calls (reps, new
lent slots) swallowed ``fir``'s callback, nobody answered it, and ``fir`` (an RTL caller:
no reply timeout) waited for ever: every later ``fir.fir`` failed. Now the lent slots of a
timed-out call stay reserved and answer ``BAD_FUNCTION`` until the call's late reply lands
(docs/architecture.md §2.2): ``fir`` ends the stale call and serves on.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.protocol import CallError, CallTimeout  # noqa: E402

YAML = Path(__file__).resolve().parent / "systems" / "fir_two_callers.yaml"


def fir_model(coeffs: list[int], xs: list[int]) -> list[int]:
    out = []
    for n in range(len(xs)):
        acc = sum(coeffs[k] * xs[n - k] for k in range(len(coeffs)) if n - k >= 0)
        out.append((acc + 2**31) % 2**32 - 2**31)
    return out


def run_fir(rt, coeffs, xs, timeout, gate=None, entered=None):
    src, ys = iter(xs), []

    def coeff(i: int) -> int:
        if entered is not None:
            entered.set()
        if gate is not None:
            assert gate.wait(120)
        return coeffs[i]

    def source() -> int:
        return next(src)

    def sink(y: int) -> None:
        ys.append(y)
    rt.fir.fir(coeff, source, sink, len(coeffs), timeout=timeout)
    return ys


def test_a_call_timed_out_in_the_slot_does_not_lose_fir(tmp_path):
    ol = ppq.load(YAML, outdir=tmp_path)
    try:
        ra, rb = ol.runtime("a"), ol.runtime("b")
        ra.start()
        rb.start()
        gate, entered, out = threading.Event(), threading.Event(), {}

        def first() -> None:   # a's call holds fir: its coeff waits for the gate
            out["a"] = run_fir(ra, [2, 3], [1, 2, 3], 120.0, gate, entered)
        t = threading.Thread(target=first, daemon=True)
        t.start()
        assert entered.wait(120), "fir never called a's coeff"
        # b's call waits in b's slot behind a's, until b's timeout
        with pytest.raises(CallTimeout):
            run_fir(rb, [5], [7], 2.0)
        # b goes on calling: each attempt is refused (b's slot still holds the stale call)
        # and lends (then frees) three slots and a rep, so the run-time area is used over and
        # over: the stale call's lent words must not be among them
        words = rb.component.runtime_words
        for _ in range(words // 4 + 2):
            with pytest.raises(CallError):
                run_fir(rb, [5], [7], 0.05)
        gate.set()
        t.join(120)
        assert out.get("a") == fir_model([2, 3], [1, 2, 3])
        # fir took b's stale call meanwhile and called its (dead) coeff: answered
        # BAD_FUNCTION, so fir ended that call and serves again
        assert run_fir(rb, [4, -1], [10, 20, 30], 30.0) == fir_model([4, -1], [10, 20, 30])
        assert run_fir(ra, [1, 1, 1], [1, 2, 3, 4], 30.0) == fir_model([1, 1, 1], [1, 2, 3, 4])
        # the stale call's reply landed before fir took b's new call; b's next call sweeps
        # it (one stray: nobody waited for it) and frees the held slots with its rep
        assert run_fir(rb, [3], [1, 1], 30.0) == [3, 3]
        assert rb.counters.strays == 1
        assert rb._held_lent == {}
        assert ol.counters()["fir"]["strays"] == 0
    finally:
        ol.free()
