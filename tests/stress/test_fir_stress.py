"""Stress: the Verilog FIR calling Python callbacks on the simulated board, under CPU load.

The pattern that once produced wrong output (issue 11): the FIR calls ``src``/``sink``/
``coeff`` in Python, each callback sleeps a random 0-4 ms, and a CPU hog competes for the
cores, so the simulator process and the runtime are descheduled at random points. Every run's
output must equal ``np.convolve`` exactly, and no component may have dropped a duplicate or a
stray (the simulated board stores each word once, so there are none to drop).

Short in the default run; ``pytest -m long tests/stress`` does ``PUSHPUSH_STRESS_RUNS``
(default 2000) runs and prints the count of wrong outputs.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pynq", reason="the simulated board runs under PYNQ (pip install 'pushpush-fpga[pynq]')")

from pushpush.resources import examples_dir  # noqa: E402

EXAMPLE = examples_dir() / "audio_fir"


def _app() -> Any:
    spec = importlib.util.spec_from_file_location("audio_fir_app_stress", EXAMPLE / "app.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def overlay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    import pushpush.pynq as ppq

    ol = ppq.load(str(EXAMPLE / "system.yaml"), outdir=str(tmp_path_factory.mktemp("fir")))
    try:
        yield ol
    finally:
        ol.free()


@pytest.fixture
def cpu_hog() -> Iterator[None]:
    """One busy process per core, for the length of the test."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def fir_runs(ol: Any, runs: int, seed: int) -> tuple[int, list[str]]:
    """``runs`` FIR calls with delayed callbacks; returns (wrong outputs, descriptions)."""
    app = _app()
    rng = random.Random(seed)
    rt = ol.runtime()
    wrong: list[str] = []
    for r in range(runs):
        taps = rng.randint(1, 8)
        n = rng.randint(1, 12)
        coeffs = np.array([rng.randint(-(1 << 15), (1 << 15) - 1) for _ in range(taps)], dtype=np.int64)
        x = np.array([rng.randint(-(1 << 15), (1 << 15) - 1) for _ in range(n)], dtype=np.int64)
        samples = iter(int(v) for v in x)
        out: list[int] = []

        def delay() -> None:
            time.sleep(rng.uniform(0, 0.004))

        def coeff(i: int) -> int:
            delay()
            return int(coeffs[i])

        def source() -> int:
            delay()
            for v in samples:
                return v
            raise app.EndOfStream()

        def sink(y: int) -> None:
            delay()
            out.append(y)

        ol.export("coeff", coeff)
        ol.export("source", source)
        ol.export("sink", sink)
        ol.fir.fir(coeff=rt.exports["coeff"], src=rt.exports["source"], sink=rt.exports["sink"],
                   taps=taps, timeout=120)
        want = app.fir_reference(coeffs, x)
        if list(out) != [int(v) for v in want]:
            wrong.append(f"run {r} (seed {seed}, taps {taps}, n {n}): got {out}, want {list(want)}")
    return len(wrong), wrong


def _check_counters(ol: Any) -> None:
    counters = ol.counters()
    dropped = {c: {k: v for k, v in cs.items() if v} for c, cs in counters.items()}
    assert not any(dropped.values()), f"faults were dropped: {dropped}"


def test_fir_callbacks_under_load(overlay: Any, cpu_hog: None) -> None:
    n_wrong, wrong = fir_runs(overlay, 12, seed=11)
    assert n_wrong == 0, "\n".join(wrong)
    _check_counters(overlay)


@pytest.mark.long
def test_fir_callbacks_under_load_long(overlay: Any, cpu_hog: None) -> None:
    runs = int(os.environ.get("PUSHPUSH_STRESS_RUNS", "2000"))
    t0 = time.monotonic()
    n_wrong, wrong = fir_runs(overlay, runs, seed=int(os.environ.get("PUSHPUSH_STRESS_SEED", "1")))
    print(f"\nFIR stress: {runs} runs under load, {n_wrong} wrong outputs, "
          f"{time.monotonic() - t0:.0f} s; counters {overlay.counters()}")
    assert n_wrong == 0, "\n".join(wrong[:20])
    _check_counters(overlay)
